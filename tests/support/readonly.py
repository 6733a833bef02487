"""Running a child process that sees a directory read-only.

A read-only bind mount of the directory in a mount namespace of its own (``unshare -m``): root,
which runs the tests here, writes through chmod, but not through a read-only mount. Where that
cannot be done and the tests do not run as root, chmod serves; otherwise the test is skipped,
saying why.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest


def can_mount_read_only() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return probe.returncode == 0


def read_only_run(
    home: Path, argv: Sequence[str], environment: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``home`` (the directory and what is in it) read-only for it."""
    env = {**os.environ, **(environment or {})}
    by_chmod = False
    if can_mount_read_only():
        place = shlex.quote(str(home))
        script = (
            f"mount --bind {place} {place} && mount -o remount,bind,ro {place} && exec {shlex.join(argv)}"
        )
        command = ["unshare", "-m", "sh", "-c", script]
    elif os.geteuid() != 0:
        for item in home.iterdir():
            item.chmod(0o444)
        home.chmod(0o555)
        command = list(argv)
        by_chmod = True
    else:
        pytest.skip(
            "neither a private read-only mount (unshare -m) nor chmod (root) can make a read-only store"
        )
    try:
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    finally:
        if by_chmod:
            home.chmod(0o755)
            for item in home.iterdir():
                item.chmod(0o644)
