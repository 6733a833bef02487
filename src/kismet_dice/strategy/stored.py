"""Arrays kept on disk beside each other (the strategy table, the distribution of perfect play,
the charts' reference games), in one checked format.

A file is one JSON header line (its format and version, the rule set's fingerprint, what else
the kind of file needs, and a SHA-256 of the data) followed by the values as little-endian
float64. It is written to a temporary file and renamed into place, so a reader never sees half a
file; a file that is damaged, truncated or made for other rules reads as missing, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from kismet_dice.strategy.dice_space import FloatArray


def write(path: Path, header: Mapping[str, object], values: FloatArray) -> None:
    """Store ``values`` under ``header`` (the digest is added here), atomically."""
    data = np.ascontiguousarray(values, dtype="<f8").tobytes()
    line = json.dumps({**header, "sha256": hashlib.sha256(data).hexdigest()}).encode() + b"\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(line)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read(path: Path, expected: Mapping[str, object]) -> tuple[dict[str, Any], FloatArray] | None:
    """The header and values stored at ``path``, if every ``expected`` header field matches and
    the data is whole; ``None`` if the file is missing, damaged or another's.

    >>> import tempfile
    >>> place = Path(tempfile.mkdtemp()) / "x.values"
    >>> write(place, {"format": "f", "n": 2}, np.array([0.5, 1.5]))
    >>> read(place, {"format": "f"})[1].tolist(), read(place, {"format": "g"})
    ([0.5, 1.5], None)
    """
    try:
        content = path.read_bytes()
    except OSError:
        return None
    line_end = content.find(b"\n")
    if line_end < 0:
        return None
    try:
        header = json.loads(content[:line_end])
    except ValueError:
        return None
    data = content[line_end + 1 :]
    if (
        not isinstance(header, dict)
        or any(header.get(key) != value for key, value in expected.items())
        or len(data) % 8
        or header.get("sha256") != hashlib.sha256(data).hexdigest()
    ):
        return None
    values: FloatArray = np.frombuffer(data, dtype="<f8").astype(np.float64)
    return header, values
