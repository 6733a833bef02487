"""A TCP relay in front of a server, which can drop the connections it carries as a statement goes by.

A connection the server ends (a restart, a terminated backend) tells its client so before the
client's next statement: the store finds that and uses a new one. What it cannot find beforehand
is a connection lost while a statement is on its way: this relay drops every connection it
carries at the next bytes their clients send, without passing them on, so the server never sees
that statement. Connections made after that are carried on as usual.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading


class Relay:
    def __init__(self, port: int) -> None:
        self._target = port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._made = 0  # connections carried so far, numbered in turn
        self._cut_below = 0  # those numbered below this are dropped at their client's next bytes
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        """``url`` of a database at 127.0.0.1 on the relayed port, through the relay."""
        relayed = url.replace(f"@127.0.0.1:{self._target}/", f"@127.0.0.1:{self.port}/")
        if relayed == url:
            raise ValueError("not a URL of the relayed server")
        return relayed

    def drop_at_next_statement(self) -> None:
        """Every connection carried now is dropped when its client next sends anything."""
        with self._lock:
            self._cut_below = self._made

    def close(self) -> None:
        # Shut down first: closing alone does not wake the thread blocked in accept(), which would
        # then wait on a descriptor number the process may give to another socket.
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()

    def __enter__(self) -> Relay:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # closed
                return
            with self._lock:
                number = self._made
                self._made += 1
            server = socket.create_connection(("127.0.0.1", self._target))
            threading.Thread(target=self._carry, args=(number, client, server), daemon=True).start()

    def _carry(self, number: int, client: socket.socket, server: socket.socket) -> None:
        with client, server, selectors.DefaultSelector() as selector:
            selector.register(client, selectors.EVENT_READ, server)
            selector.register(server, selectors.EVENT_READ, client)
            while True:
                for key, _ in selector.select():
                    source: socket.socket = key.fileobj  # type: ignore[assignment]
                    try:
                        data = source.recv(65536)
                    except OSError:
                        return
                    if not data:
                        return
                    if source is client:
                        with self._lock:
                            if number < self._cut_below:
                                return  # both ends closed; the bytes never reach the server
                    try:
                        key.data.sendall(data)
                    except OSError:
                        return
