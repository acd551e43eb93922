"""A loopback TCP proxy the tests can cut: every open connection is broken at once, as a
network fault would, while the proxy keeps accepting new ones (so the client reconnects)."""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType


class CuttableProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        self.cuts = 0
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):  # a cut ends the copying
            while data := src.recv(65536):
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):  # the other pump may have shut it already
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Break every connection open now: the TCP stream ends with no WebSocket close frame.

        shutdown (not only close) so that the pump threads blocked in recv wake up and
        the peers see the end at once.
        """
        with self.lock:
            conns, self.open = self.open, []
            self.cuts += 1
        for s in conns:
            with contextlib.suppress(OSError):  # its pump may have shut it already
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def close(self) -> None:
        self.server.close()
        self.cut()

    def __enter__(self) -> CuttableProxy:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
