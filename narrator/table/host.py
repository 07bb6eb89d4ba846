"""A table served from a background thread: for a front end that has its own loop.

The terminal app (its Table mode) and the tests run the web server beside them:
`TableHost` starts it on a thread with its own asyncio loop, and every command or
look at the table is run on that loop, so the table is only ever touched by one
thread. It drives the same `TableService` as `narrator table` (run.py): a front end
is told of every change (`watch`) and sends the host's commands (`command`, checked
by the service as the host page's are) as futures: it never waits on the server's
thread. A game that cannot be saved stops the server by itself (`serving` is then
False); the last view the front end was told carries why (`unsaved`).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from narrator.table.guard import close_door
from narrator.table.run import urls
from narrator.table.saved import GameLock
from narrator.table.server import RateLimit, TableServer, bind
from narrator.table.service import TableService, TableVoice
from narrator.table.state import Table

T = TypeVar("T")


class TableHost:
    def __init__(
        self,
        table: Table,
        voice: TableVoice,
        *,
        save_path: Path | None = None,
        limit: RateLimit | None = None,
    ) -> None:
        self.service = TableService(table, voice, save_path=save_path)
        self.server = TableServer(self.service, limit)
        self.table = table
        self._lock = GameLock(save_path) if save_path is not None else None
        self.urls: dict[str, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    @property
    def serving(self) -> bool:
        return self._loop is not None

    def start(self, host: str, port: int) -> dict[str, str]:
        """Bind and serve; the join/host URLs. A port in use is a `TableError`."""
        if self._lock is not None:
            self._lock.__enter__()  # one server per saved game: a TableError if taken
        host_token = self.table.seats.new_host_token()
        ready: Future[int] = Future()

        async def main() -> None:
            try:
                runner, listening, bound = await bind(self.server.app, host, port)
            except Exception as exc:  # the one line, to the thread that asked
                ready.set_exception(exc)
                return
            stop = asyncio.Event()
            self._loop, self._stop = asyncio.get_running_loop(), stop
            self.service.on_unsaved = lambda why: stop.set()  # told by the view's `unsaved`
            ready.set_result(bound)
            await stop.wait()
            self._loop = None  # no command reaches a table that stops
            await close_door(runner, listening)

        self._thread = threading.Thread(target=asyncio.run, args=(main(),), name="table-server")
        self._thread.daemon = True
        self._thread.start()
        try:
            bound = ready.result(timeout=15)
        except BaseException:
            if self._lock is not None:
                self._lock.__exit__()
            raise
        self.urls = urls(host, bound, self.table, host_token)
        return self.urls

    def submit(self, command: Callable[[Table], T]) -> Future[T]:
        """Run `command(table)` on the server's loop, then announce, save and tell the
        phones; the caller gets a future (a front end awaits it, never blocks on it)."""

        async def call() -> T:
            result = command(self.table)
            self.service.changed()
            return result

        assert self._loop is not None, "the table is not served"
        return asyncio.run_coroutine_threadsafe(call(), self._loop)

    def command(self, name: str, pressed_in: str | None = None) -> Future[None]:
        """A host command by name ("deal", "next", "end") with the phase its key was
        pressed in (a second press that reaches a table already moved on changes
        nothing, as the host page's); a refusal is the future's `TableError`."""

        async def call() -> None:
            self.service.press(name, pressed_in)

        assert self._loop is not None, "the table is not served"
        return asyncio.run_coroutine_threadsafe(call(), self._loop)

    def watch(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call `callback(view)` -- on the server's thread -- now and after every change:
        the public state, the host's view, the last line said and the voice's errors."""

        def tell() -> None:
            callback(self.service.app_view())

        assert self._loop is not None, "the table is not served"
        self.service.listeners.append(tell)
        self._loop.call_soon_threadsafe(tell)

    def stop(self) -> None:
        """Stop serving and silence the voice; safe to call twice."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # it stopped itself meanwhile
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(10)
        self._loop = self._thread = None
        self.service.voice.close()
        if self._lock is not None:
            self._lock.__exit__()
