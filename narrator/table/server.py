"""The table's local web server: the phone page, a small JSON API and one WebSocket.

aiohttp on one event loop; every command goes through the pure `Table`, then the
server saves the game, hands the new announcements to the voice and pushes the
new views to every open WebSocket. The API (documented in docs/TABLE.md):

  POST /api/join {"name", "room"}     -> {"player": seat, "token"}
  GET  /api/me            (Bearer)    -> the phone's own view, its card included
  GET  /api/state                     -> the public state (never a card or a live vote)
  POST /api/vote {"target": seat}   (Bearer)
  POST /api/host/start {"roles": {id: count}, "deal": true}   (host token)
  POST /api/host/next | /api/host/end | /api/host/eliminate {"seat"}  (host token)
  GET  /api/host/setup                (host token): roles and the recommended deck
  GET  /ws?token=...                  live views, pushed on every change

Security: tokens compared in constant time; a missing or made-up token is 401, a
player's token on a host endpoint 403; bodies over 16 KiB refused; requests
rate-limited per address (429); pages served with a strict Content-Security-Policy
and names only ever set as text.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from narrator.session import Game
from narrator.table.announce import announce
from narrator.table.errors import TableError
from narrator.table.saved import save
from narrator.table.state import Seat, Table
from narrator.table.voice import Voice

STATUS = {"invalid": 400, "refused": 409, "not_found": 404}
STATIC = ("phone.html", "host.html", "table.js", "host.js", "table.css")
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

PUSH_GAP = 0.05  # seconds between two pushes of the views to every phone
SOCKETS_PER_TOKEN = 4

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class RateLimit:
    """A token bucket per client address: `burst` requests at once, `rate` a second."""

    rate: float = 20.0
    burst: float = 60.0
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def allow(self, who: str, now: float) -> bool:
        tokens, last = self.buckets.get(who, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[who] = (tokens, now)
            return False
        self.buckets[who] = (tokens - 1, now)
        if len(self.buckets) > 4096:  # a flood of addresses: forget the idle ones
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 60}
        return True


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


class TableServer:
    """One table, served. `app` is the aiohttp application (tests run it on loopback)."""

    def __init__(
        self,
        table: Table,
        voice: Voice,
        save_path: Path | None = None,
        limit: RateLimit | None = None,
    ) -> None:
        self.table = table
        self.voice = voice
        self.save_path = save_path
        self.limit = limit or RateLimit()
        self.sockets: dict[web.WebSocketResponse, int | None] = {}  # seat, None = host
        self.announced: list[str] = []
        self._night_for = 0
        self._sending: set[asyncio.Future[None]] = set()
        self._push_pending = False
        self._pushed = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ticker: asyncio.Task[None] | None = None
        self.app = web.Application(client_max_size=16 * 1024, middlewares=[self._guard])
        r = self.app.router
        r.add_get("/", self._page("phone.html"))
        r.add_get("/host", self._page("host.html"))
        for name in STATIC[2:]:
            r.add_get(f"/{name}", self._page(name))
        r.add_post("/api/join", self.join)
        r.add_get("/api/me", self.me)
        r.add_get("/api/state", self.state)
        r.add_post("/api/vote", self.vote)
        r.add_post("/api/host/start", self.host_start)
        r.add_post("/api/host/next", self.host_next)
        r.add_post("/api/host/end", self.host_end)
        r.add_post("/api/host/eliminate", self.host_eliminate)
        r.add_get("/api/host/setup", self.host_setup)
        r.add_get("/ws", self.websocket)
        self.app.on_startup.append(self._on_startup)
        self.app.on_shutdown.append(self._on_shutdown)

    # -- plumbing ---------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.limit.allow(request.remote or "?", time.monotonic()):
            return _error(429, "too many requests; wait a moment")
        try:
            response = await handler(request)
        except TableError as exc:
            response = _error(STATUS[exc.kind], str(exc))
        except web.HTTPException as exc:
            if exc.status >= 400:
                response = _error(exc.status, exc.reason)
            else:
                raise
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    def _page(self, name: str) -> Handler:
        body = (resources.files("narrator.table") / "static" / name).read_bytes()
        kind = TYPES[Path(name).suffix]

        async def page(request: web.Request) -> web.StreamResponse:
            return web.Response(body=body, content_type=kind, charset="utf-8")

        return page

    async def _on_startup(self, app: web.Application) -> None:
        self._loop = asyncio.get_running_loop()
        self._ticker = asyncio.create_task(self._tick())
        self._after()  # a resumed night goes on; a resumed vote keeps its deadline

    async def _on_shutdown(self, app: web.Application) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        for ws in list(self.sockets):
            await ws.close()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            if self.table.tick():
                self._after()

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise TableError("the request body must be JSON") from None
        if not isinstance(body, dict):
            raise TableError("the request body must be a JSON object")
        return body

    @staticmethod
    def _token(request: web.Request) -> str:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer ") or not header[7:].strip():
            raise web.HTTPUnauthorized(reason="a token is needed: Authorization: Bearer TOKEN")
        return header[7:].strip()

    def _player(self, request: web.Request) -> Seat:
        token = self._token(request)
        try:
            return self.table.seat_of(token)
        except TableError:
            raise web.HTTPUnauthorized(reason="unknown token; join the table again") from None

    def _host(self, request: web.Request) -> None:
        token = self._token(request)
        if self.table.is_host(token):
            return
        try:
            self.table.seat_of(token)
        except TableError:
            raise web.HTTPUnauthorized(reason="unknown token") from None
        raise web.HTTPForbidden(reason="only the host can do this")

    # -- after every change -------------------------------------------------------------

    def _after(self) -> None:
        table = self.table
        events, table.events = table.events, []
        for event in events:
            for text in announce(table, event):
                self.announced.append(text)
                self.voice.say(text, table.lang)
        if table.phase != "night":
            if self._night_for:
                self.voice.stop_night()
            self._night_for = 0
        elif self._night_for != table.night:
            self._night_for = table.night
            self._play_night(table.night)
        del self.announced[:-20]
        if self.save_path is not None:  # before the answer: an acknowledged vote is saved
            save(table, self.save_path)
        # Thirty votes in a burst make a few pushes, not thirty: at most one push every
        # PUSH_GAP seconds, the first at once; each carries the latest state.
        if not self._push_pending:
            self._push_pending = True
            loop = asyncio.get_running_loop()
            loop.call_later(max(0.0, self._pushed + PUSH_GAP - loop.time()), self._push)

    def _push(self) -> None:
        self._push_pending = False
        self._pushed = asyncio.get_running_loop().time()
        shared = self._shared()
        for ws, seat in list(self.sockets.items()):
            if not ws.closed:
                task = asyncio.ensure_future(self._send(ws, self._view_text(shared, seat)))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)

    def _play_night(self, night: int) -> None:
        table = self.table
        game = Game(table.ruleset, len(table.seats), dict(table.roles), table.lang, night)
        loop = self._loop

        def done(error: str | None) -> None:
            if loop is not None and error is None:
                loop.call_soon_threadsafe(self._night_done, night)

        self.voice.night(game, done)

    def _night_done(self, night: int) -> None:
        if self.table.phase == "night" and self.table.night == night:
            self.table.advance()
            self._after()

    def _shared(self) -> str:
        """The part of every view that is the same for all: built once per push."""
        said = self.announced[-1] if self.announced else None
        state = json.dumps(self.table.public(), ensure_ascii=False)
        return (
            f'{{"type": "state", "state": {state}, "said": {json.dumps(said, ensure_ascii=False)}'
        )

    def _view_text(self, shared: str, seat: int | None) -> str:
        """One WebSocket's message: the shared part, then the phone's own (or the host's)."""
        table = self.table
        if seat is None:
            own = {**table.host(), "voice_errors": self.voice.errors[-3:]}
            return f'{shared}, "host": {json.dumps(own, ensure_ascii=False)}}}'
        own = table.private(table.seat(seat))
        return f'{shared}, "me": {json.dumps(own, ensure_ascii=False)}}}'

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            self.sockets.pop(ws, None)

    def _changed(self) -> web.Response:
        self._after()
        return web.json_response({"ok": True, "phase": self.table.phase})

    # -- the API ------------------------------------------------------------------------

    async def join(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        seat, token = self.table.join(body.get("name"), body.get("room"))
        self._after()
        return web.json_response({"player": seat, "token": token})

    async def me(self, request: web.Request) -> web.Response:
        return web.json_response(self.table.private(self._player(request)))

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(self.table.public())

    async def vote(self, request: web.Request) -> web.Response:
        seat = self._player(request)
        body = await self._body(request)
        self.table.vote(seat, body.get("target"))
        return self._changed()

    async def host_start(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        roles = body.get("roles") or {}
        if not isinstance(roles, dict):
            raise TableError('"roles" must be an object: {"werewolf": 2, "seer": 1}')
        self.table.start(roles, deal=body.get("deal", True) is not False)
        return self._changed()

    async def host_next(self, request: web.Request) -> web.Response:
        self._host(request)
        self.table.advance()
        return self._changed()

    async def host_end(self, request: web.Request) -> web.Response:
        self._host(request)
        self.table.end()
        return self._changed()

    async def host_eliminate(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        self.table.eliminate(body.get("seat"))
        return self._changed()

    async def host_setup(self, request: web.Request) -> web.Response:
        self._host(request)
        return web.json_response(self.table.host())

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        token = request.query.get("token", "")
        seat: int | None
        if token and self.table.is_host(token):
            seat = None
        else:
            try:
                seat = self.table.seat_of(token).seat
            except TableError:
                return _error(401, "unknown token; join the table again")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
        await ws.prepare(request)
        # A phone that reconnects leaves its old socket behind until it times out; a
        # token never holds more than a few, so no client can pile them up.
        mine = [other for other, owner in self.sockets.items() if owner == seat]
        for old in mine[: max(0, len(mine) - SOCKETS_PER_TOKEN + 1)]:
            self.sockets.pop(old, None)
            await old.close()
        self.sockets[ws] = seat
        try:
            await self._send(ws, self._view_text(self._shared(), seat))
            async for msg in ws:  # the phones only listen; anything they send is ignored
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.sockets.pop(ws, None)
        return ws
