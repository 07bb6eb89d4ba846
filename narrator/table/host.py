"""A table served from a background thread: for a front end that has its own loop.

The terminal app (its Table mode) and the tests run the web server beside them:
`TableHost` starts it on a thread with its own asyncio loop, and every command or
look at the table is run on that loop, so the table is only ever touched by one
thread. `narrator table` itself runs the server on its main thread (run.py).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from narrator.table.errors import TableError
from narrator.table.run import urls
from narrator.table.server import RateLimit, TableServer
from narrator.table.state import Table
from narrator.table.voice import Voice

T = TypeVar("T")


class TableHost:
    def __init__(
        self,
        table: Table,
        voice: Voice,
        *,
        save_path: Path | None = None,
        limit: RateLimit | None = None,
    ) -> None:
        self.server = TableServer(table, voice, save_path, limit)
        self.table = table
        self.urls: dict[str, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    @property
    def serving(self) -> bool:
        return self._loop is not None

    def start(self, host: str, port: int) -> dict[str, str]:
        """Bind and serve; the join/host URLs. A port in use is a `TableError`."""
        host_token = self.table.new_host_token()
        ready: Future[int] = Future()

        async def main() -> None:
            runner = web.AppRunner(self.server.app, access_log=None, handle_signals=False)
            await runner.setup()
            try:
                await web.TCPSite(runner, host, port, reuse_address=True).start()
            except OSError as exc:
                await runner.cleanup()
                ready.set_exception(
                    TableError(f"cannot serve on {host}:{port} ({exc.strerror}); try another port")
                )
                return
            self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
            ready.set_result(runner.addresses[0][1])
            await self._stop.wait()
            await runner.cleanup()

        self._thread = threading.Thread(target=asyncio.run, args=(main(),), name="table-server")
        self._thread.daemon = True
        self._thread.start()
        bound = ready.result(timeout=15)
        self.urls = urls(host, bound, self.table, host_token)
        return self.urls

    def run(self, command: Callable[[Table], T]) -> T:
        """Run `command(table)` on the server's loop, then save and tell the phones."""

        async def call() -> T:
            result = command(self.table)
            self.server._after()
            return result

        assert self._loop is not None, "the table is not served"
        return asyncio.run_coroutine_threadsafe(call(), self._loop).result(10)

    def look(self) -> dict[str, Any]:
        """The public state and the host's view, read on the server's loop."""

        async def read() -> dict[str, Any]:
            return {"state": self.table.public(), "host": self.table.host(),
                    "said": self.server.announced[-1] if self.server.announced else None,
                    "voice_errors": list(self.server.voice.errors[-3:])}  # fmt: skip

        assert self._loop is not None, "the table is not served"
        return asyncio.run_coroutine_threadsafe(read(), self._loop).result(10)

    def stop(self) -> None:
        """Stop serving and silence the voice; safe to call twice."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(10)
        self._loop = self._thread = None
        self.server.voice.close()
