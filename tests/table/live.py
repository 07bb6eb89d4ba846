"""A real table server on loopback, in a thread of its own, and a small HTTP client.

The tests talk to it over real sockets, as phones do (HTTP and WebSocket), never by
calling the handlers: what is tested is what a phone on the network gets.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aiohttp import web

from narrator.table import Options, Table
from narrator.table.server import RateLimit, TableServer
from narrator.table.voice import Voice, silent_voice
from tests.unit.helpers import ruleset


class Live:
    def __init__(self, server: TableServer, base: str, host_token: str) -> None:
        self.server = server
        self.table = server.table
        self.base = base
        self.host_token = host_token
        self.loop: asyncio.AbstractEventLoop | None = None

    @property
    def voice(self) -> Any:
        return self.server.voice

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            text = err.read()
            return err.code, json.loads(text) if text.startswith(b"{") else text.decode()

    def join(self, name: str) -> tuple[int, str]:
        status, body = self.call("POST", "/api/join", {"name": name, "room": self.table.room})
        assert status == 200, body
        return body["player"], body["token"]

    def host(self, action: str, body: Any = None) -> tuple[int, Any]:
        return self.call("POST", f"/api/host/{action}", body or {}, token=self.host_token)

    def run(self, coro: Any) -> Any:
        """Run a coroutine on the server's loop (to read its state safely)."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)


@contextmanager
def live_table(
    game: str = "onuw",
    lang: str = "en",
    *,
    voice: Voice | None = None,
    save_path: Path | None = None,
    limit: RateLimit | None = None,
    options: Options | None = None,
    table: Table | None = None,
) -> Iterator[Live]:
    table = table or Table(ruleset(game), lang, options=options or Options())
    host_token = table.new_host_token()
    server = TableServer(table, voice or silent_voice(), save_path, limit or RateLimit(1000, 1000))
    ready = threading.Event()
    stop: list[asyncio.Event] = []
    holder: dict[str, Any] = {}

    async def main() -> None:
        runner = web.AppRunner(server.app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        holder["port"] = runner.addresses[0][1]
        holder["loop"] = asyncio.get_running_loop()
        stop.append(asyncio.Event())
        ready.set()
        await stop[0].wait()
        await runner.cleanup()

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(10), "the table server did not start"
    live = Live(server, f"http://127.0.0.1:{holder['port']}", host_token)
    live.loop = holder["loop"]
    try:
        yield live
    finally:
        holder["loop"].call_soon_threadsafe(stop[0].set)
        thread.join(10)
        server.voice.close()
        assert not thread.is_alive(), "the table server did not stop"
