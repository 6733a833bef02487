"""The web app served by uvicorn on a free port of 127.0.0.1 in a background thread."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI


@contextmanager
def serving(app: FastAPI, **config: Any) -> Iterator[str]:
    """``app`` on a free port of 127.0.0.1, started (its lifespan run) until the ``with`` ends;
    yields its address. ``config``: uvicorn's options besides those set here."""
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, **{"log_level": "warning", "lifespan": "on", **config}))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    ready = threading.Event()
    while not server.started and thread.is_alive():
        ready.wait(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join()
        listening.close()
