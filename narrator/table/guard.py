"""The door of the table's server: it serves the honest phones first.

A phone on the table's Wi-Fi can open connections and never finish a request (a
"slowloris"): without a read timeout every file descriptor ends up held, and the
table stops answering everyone. The rate limiter cannot help -- it runs once a
request has arrived. So, at the level of the connection, before aiohttp sees it:

- at most `per_address` connections at once from one address (the rest are closed
  as they are accepted);
- a request's headers must arrive within `timeout` seconds of its first byte (or of
  the connection, for a silent one); its body is read within `timeout` by the
  server's middleware (`body_deadline`);
- once a WebSocket is upgraded, its own heartbeat watches it instead.

It wraps aiohttp's protocol factory (`web.Server`): each connection's protocol is
the aiohttp `RequestHandler`, to which every call is passed on unchanged, with a
transport that tells the guard when the server writes.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

PER_ADDRESS = 32  # a phone needs a few; a household behind one address, a few dozen
TIMEOUT = 10.0  # seconds for a request's headers (and, in the middleware, its body)


class Door:
    """Counts the open connections per address; makes the guarded protocols."""

    def __init__(
        self,
        factory: Callable[[], asyncio.Protocol],
        *,
        per_address: int = PER_ADDRESS,
        timeout: float = TIMEOUT,
    ) -> None:
        self.factory = factory
        self.per_address = per_address
        self.timeout = timeout
        self.open: Counter[str] = Counter()
        self.refused = 0
        self.expired = 0

    def __call__(self) -> asyncio.Protocol:
        return _Guarded(self, self.factory())


class _Watched:
    """The transport as the request handler sees it: writes tell the guard."""

    def __init__(self, transport: asyncio.Transport, guard: _Guarded) -> None:
        self._transport = transport
        self.watcher = guard

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.watcher.wrote(bytes(data[:12]))
        self._transport.write(data)

    def writelines(self, lines: Any) -> None:
        lines = list(lines)
        if lines:
            self.watcher.wrote(bytes(lines[0][:12]))
        self._transport.writelines(lines)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _Guarded(asyncio.Protocol):
    def __init__(self, door: Door, inner: asyncio.Protocol) -> None:
        self.door = door
        self.inner = inner
        self.address: str | None = None
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.upgraded = False

    # -- asyncio's calls, passed on ----------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if self.door.open[address] >= self.door.per_address:
            self.door.refused += 1
            if self.door.refused in (1, 100, 10_000):  # logged, never flooded
                log.warning("too many connections from %s: closing new ones", address)
            transport.abort()
            return
        self.door.open[address] += 1
        self.address = address
        self.transport = transport
        self._arm()
        self.inner.connection_made(_Watched(transport, self))  # type: ignore[arg-type]

    def data_received(self, data: bytes) -> None:
        if self.address is None:
            return
        if self.timer is None and not self.upgraded:
            self._arm()  # a new request begins: its headers have `timeout` seconds
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.address is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.address is None:
            return
        self._disarm()
        self.door.open[self.address] -= 1
        if self.door.open[self.address] <= 0:
            del self.door.open[self.address]
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    # -- the clock ---------------------------------------------------------------------------

    def request_arrived(self) -> None:
        """The middleware has the request's headers: the header clock stops."""
        self._disarm()

    def wrote(self, head: bytes) -> None:
        self._disarm()
        if head.startswith(b"HTTP/1.1 101"):
            self.upgraded = True

    def _arm(self) -> None:
        self._disarm()
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(self.door.timeout, self._expire)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _expire(self) -> None:
        self.timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.door.expired += 1
            if self.door.expired in (1, 100, 10_000):
                log.warning("closed a connection from %s: no request in time", self.address)
            self.transport.abort()


def request_arrived(transport: Any) -> None:
    """Called by the server's middleware for every request it is handed."""
    guard = getattr(transport, "watcher", None)
    if isinstance(guard, _Guarded):
        guard.request_arrived()


async def open_door(
    app: web.Application, host: str, port: int
) -> tuple[web.AppRunner, asyncio.AbstractServer, int]:
    """Serve `app` on host:port behind a `Door`; the runner, the server and the port
    bound (for port 0). An OSError (a port in use) leaves nothing open."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    door = Door(runner.server)  # type: ignore[arg-type]
    try:
        server = await asyncio.get_running_loop().create_server(
            door, host, port, reuse_address=True
        )
    except OSError:
        await runner.cleanup()
        raise
    return runner, server, int(server.sockets[0].getsockname()[1])


async def close_door(runner: web.AppRunner, server: asyncio.AbstractServer) -> None:
    server.close()
    await runner.cleanup()  # closes the open connections and the WebSockets
    await server.wait_closed()


def raise_open_files_limit() -> tuple[int, int]:
    """Raise this process's open-files limit to its hard limit (a desktop's soft 1024,
    macOS's 256, run out long before the machine does); returns (before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft, soft
        return soft, target
    return soft, soft
