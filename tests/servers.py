"""Run an ASGI app under uvicorn on a free loopback port in a background thread (real HTTP for tests)."""

from __future__ import annotations

import socket
import threading

import uvicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Server(uvicorn.Server):
    """uvicorn's server, announcing through `ready` that its lifespan ran and its socket is listening."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            self.ready.set()


class ThreadedServer:
    def __init__(self, app, *, port: int | None = None) -> None:
        self.app = app
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on",
                                access_log=False)
        self.server = _Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> ThreadedServer:
        self.thread.start()
        # up to 90 s: an app that owns its resources warms its embedding model first, which on two cores at a load
        # of 8 or more (README, the test command) took over 20 s; a server that failed to start ends its thread
        for _ in range(900):
            if self.server.ready.wait(0.1):
                return self
            if not self.thread.is_alive():
                break
        raise RuntimeError("test server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
