"""The table's local web server: the phone page, a small JSON API and one WebSocket.

aiohttp on one event loop; every command goes through the pure `Table`, then the
server saves the game, hands the new announcements to the voice and pushes the
new views to every open WebSocket. The API (documented in docs/TABLE.md):

  POST /api/join {"name", "room"}     -> {"player": seat, "token"}
  GET  /api/me            (Bearer)    -> the phone's own view, its card included
  GET  /api/state                     -> the public state (never a card or a live vote)
  GET  /api/words?lang=xx[&page=host] -> the phone (or host) page's words (the catalogues)
  POST /api/vote {"target": seat}   (Bearer)
  POST /api/act {"prompt", "choose"} (Bearer): a night's answer, real or decoy
  POST /api/turn {"action", "choose"} (Bearer): Secret Moon's turn -> what was learned
  POST /api/host/start {"roles": {id: count}, "deal": true}   (host token)
  POST /api/host/next | /api/host/end {"from": phase}  (host token; a stale phase: 409)
  POST /api/host/eliminate {"seat"}  (host token)
  GET  /api/host/setup                (host token): roles and the recommended deck
  POST /api/host/remove {"seat", "name"} | /lock {"locked"} | /order {"order": [names]}
  POST /api/host/claim {"code", "confirm"} | /again {} | /deck {"roles"}   (host token)
  POST /api/claim {"room", "seat"} -> {"code", "token"}; GET /api/claim (Bearer): waiting?
  GET  /qr.svg                        the join URL as a QR code (the host page's)
  GET  /ws?token=...                  live views, pushed on every change

Security: tokens compared in constant time; a missing or made-up token is 401, a
player's token on a host endpoint 403; bodies over 16 KiB refused; requests
rate-limited per address (429); pages served with a strict Content-Security-Policy
and names only ever set as text.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from narrator.i18n import LANGUAGES
from narrator.table.announce import announce, foreseen
from narrator.table.errors import TableError
from narrator.table.guard import TIMEOUT, request_arrived
from narrator.table.lines import host_words, page_words
from narrator.table.saved import save
from narrator.table.state import Seat, Table, token_hash
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


PRIVATE_SIZE = 4096  # bytes a phone's own part is padded to (or a multiple of it)


def padded(own: dict[str, Any]) -> str:
    """`own` as JSON with a `pad` of spaces making it a multiple of PRIVATE_SIZE bytes
    long: every role's card and prompt come out the same size."""
    text = json.dumps({**own, "pad": ""}, ensure_ascii=False)
    size = len(text.encode("utf-8"))
    target = -(-size // PRIVATE_SIZE) * PRIVATE_SIZE
    return text[:-2] + " " * (target - size) + '"}'


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _same_table(request: web.Request) -> None:
    """Defence in depth (a web page elsewhere, DNS rebinding): the table is reached by
    its address, never a name a site controls, and a browser's `Origin`, when sent,
    is this table's own."""
    host = request.host.rsplit(":", 1)[0].strip("[]") if request.host else ""
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise web.HTTPMisdirectedRequest(
                reason="open the table by its address (the URL it printed)"
            ) from None
    origin = request.headers.get("Origin")
    if origin is not None and origin not in (f"http://{request.host}", f"https://{request.host}"):
        raise web.HTTPForbidden(reason="a page from elsewhere cannot use this table")


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
        # each socket's token (its SHA-256), None = the host: a seat that moves to a new
        # phone or is removed closes the old phone's sockets at the next push
        self.sockets: dict[web.WebSocketResponse, str | None] = {}
        self.announced: list[str] = []
        self._said_in: tuple[str, int] = ("", 0)  # the phase and night of the last one
        self._night_for = 0
        self._sending: set[asyncio.Future[None]] = set()
        self._push_pending = False
        self._pushed = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ticker: asyncio.Task[None] | None = None
        # called on this loop after every push (`TableHost.watch`)
        self.watchers: list[Callable[[], None]] = []
        self._errors_told = 0  # the voice's errors the last push carried
        self.app = web.Application(client_max_size=16 * 1024, middlewares=[self._guard])
        r = self.app.router
        r.add_get("/", self._page("phone.html"))
        r.add_get("/host", self._page("host.html"))
        for name in STATIC[2:]:
            r.add_get(f"/{name}", self._page(name))
        r.add_post("/api/join", self.join)
        r.add_get("/api/me", self.me)
        r.add_get("/api/state", self.state)
        r.add_get("/api/words", self.words)
        r.add_post("/api/vote", self.vote)
        r.add_post("/api/act", self.act)
        r.add_post("/api/turn", self.turn)
        r.add_post("/api/host/start", self.host_start)
        r.add_post("/api/host/next", self.host_next)
        r.add_post("/api/host/end", self.host_end)
        r.add_post("/api/host/eliminate", self.host_eliminate)
        r.add_get("/api/host/setup", self.host_setup)
        r.add_post("/api/host/remove", self.host_remove)
        r.add_post("/api/host/lock", self.host_lock)
        r.add_post("/api/host/order", self.host_order)
        r.add_post("/api/host/claim", self.host_claim)
        r.add_post("/api/host/again", self.host_again)
        r.add_post("/api/host/deck", self.host_deck)
        r.add_post("/api/claim", self.claim)
        r.add_get("/api/claim", self.claim_status)
        r.add_get("/qr.svg", self.qr)
        r.add_get("/favicon.ico", self._no_icon)  # browsers ask; a 404 is noise (review P6)
        r.add_get("/ws", self.websocket)
        self.app.on_startup.append(self._on_startup)
        self.app.on_shutdown.append(self._on_shutdown)

    # -- plumbing ---------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        request_arrived(request.transport)  # the headers are in: the door's clock stops
        if not self.limit.allow(request.remote or "?", time.monotonic()):
            return _error(429, "too many requests; wait a moment")
        try:
            _same_table(request)
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
        self.changed()  # a resumed night goes on; a resumed vote keeps its deadline

    async def _on_shutdown(self, app: web.Application) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        for ws in list(self.sockets):
            await ws.close()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            if self.table.tick():
                self.changed()
            elif len(self.voice.errors) != self._errors_told and not self._push_pending:
                self._push()  # the voice failed: the host is told at once

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        try:  # a body sent one byte a minute holds a connection: it has TIMEOUT seconds
            raw = await asyncio.wait_for(request.read(), TIMEOUT)
        except TimeoutError:
            raise web.HTTPRequestTimeout(reason="the request's body did not arrive") from None
        try:
            body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, UnicodeDecodeError, RecursionError):  # nested 10,000 deep too
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
        seat = self._seat_of(self._token(request))
        if seat is None:
            raise web.HTTPUnauthorized(reason="unknown token; join the table again")
        return seat

    def _seat_of(self, token: str) -> Seat | None:
        """A phone's seat, None for a token no seat holds. After a restart the token
        may be the second one back that opens the sealed game: then the game goes on
        (a night plays on, a vote keeps its deadline) and every phone is told. A
        sealed game that cannot be opened is the table's one-line refusal."""
        sealed = self.table.vault.waiting
        try:
            seat = self.table.seat_of(token)
        except TableError as exc:
            if exc.kind != "not_found":
                raise
            return None
        if sealed and not self.table.vault.waiting:
            self.changed()
        return seat

    def _host(self, request: web.Request) -> None:
        token = self._token(request)
        if self.table.is_host(token):
            return
        if self._seat_of(token) is None:
            raise web.HTTPUnauthorized(reason="unknown token")
        raise web.HTTPForbidden(reason="only the host can do this")

    # -- after every change -------------------------------------------------------------

    def changed(self) -> None:
        """After every change: announce it, play a night that begins, save, and push
        the new state to every phone, the host page and the watchers."""
        table = self.table
        events, table.events = table.events, []
        for event in events:
            for text in announce(table, event):
                self.announced.append(text)
                self.voice.say(text, table.lang)
                self._said_in = (table.phase, table.night)
        if table.phase != "night":
            if self._night_for:
                self.voice.stop_night()
            self._night_for = 0
        elif self._night_for != table.night and not table.vault.waiting:
            self._night_for = table.night
            self._play_night(table.night)
        del self.announced[:-20]
        self._prepare_ahead()
        if self.save_path is not None:  # before the answer: an acknowledged vote is saved
            save(table, self.save_path)
        # Thirty votes in a burst make a few pushes, not thirty: at most one push every
        # PUSH_GAP seconds, the first at once; each carries the latest state.
        if not self._push_pending:
            self._push_pending = True
            loop = asyncio.get_running_loop()
            loop.call_later(max(0.0, self._pushed + PUSH_GAP - loop.time()), self._push)

    def _prepare_ahead(self) -> None:
        """The voice makes ahead what it will say (audio/prepare.py): this night's and
        day's calls, the next night's, and the announcements one can foresee."""
        table = self.table
        games, night = [table.game()], max(table.night, 1)  # night 0: before the first
        if table.ruleset.nights is None or night < table.ruleset.nights:
            games.append(table.game(night + 1))
        self.voice.prepare(games, foreseen(table))

    def _push(self) -> None:
        self._push_pending = False
        self._pushed = asyncio.get_running_loop().time()
        self._errors_told = len(self.voice.errors)
        for watcher in list(self.watchers):  # the app's Table screen: told, never asked
            watcher()
        shared = self._shared()
        seats = {s.token_hash: s.seat for s in self.table.seats}
        for ws, owner in list(self.sockets.items()):
            if ws.closed:
                continue
            if owner is not None and owner not in seats:  # removed, or moved to a new phone
                self.sockets.pop(ws, None)
                self._start(self._close(ws))
            else:
                seat = None if owner is None else seats[owner]
                self._start(self._send(ws, self._view_text(shared, seat)))

    def _start(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    @staticmethod
    async def _close(ws: web.WebSocketResponse) -> None:
        await ws.close(code=4001, message=b"this seat is no longer this phone's")

    def _play_night(self, night: int) -> None:
        table = self.table
        game = table.game(night)
        table.begin_night(game.script("night"))  # the script the voice plays: its windows
        loop = self._loop

        def done(error: str | None) -> None:
            if loop is not None and error is None:
                loop.call_soon_threadsafe(self._night_done, night)

        def on_step(index: int) -> None:
            if loop is not None:
                loop.call_soon_threadsafe(self._night_step, night, index)

        self.voice.night(game, done, on_step)

    def _night_step(self, night: int, index: int) -> None:
        """The voice reached step `index`: a window opened or closed -- one push to
        every phone alike (the public state is unchanged; each own part is padded)."""
        table = self.table
        if table.phase == "night" and table.night == night and table.night_at(index):
            self._push()

    def _night_done(self, night: int) -> None:
        if self.table.phase == "night" and self.table.night == night:
            self.table.advance()
            self.changed()

    def _shared(self) -> str:
        """The part of every view that is the same for all: built once per push."""
        # the last announcement, while the table is still in the phase it was made in:
        # "the cards are dealt" is not the news of the day (review P7)
        fresh = bool(self.announced) and self._said_in == (self.table.phase, self.table.night)
        said = self.announced[-1] if fresh else None
        state = json.dumps(self.table.public(), ensure_ascii=False)
        return (
            f'{{"type": "state", "state": {state}, "said": {json.dumps(said, ensure_ascii=False)}'
        )

    def _host_view(self) -> dict[str, Any]:
        return {**self.table.host(), **self.table.seating(), "voice_errors": self.voice.errors[-3:]}

    def _view_text(self, shared: str, seat: int | None) -> str:
        """One WebSocket's message: the shared part, then the phone's own (or the host's)."""
        if seat is None:
            own = self._host_view()
            return f'{shared}, "host": {json.dumps(own, ensure_ascii=False)}}}'
        return f'{shared}, "me": {self._own(seat)}}}'

    def _own(self, seat: int) -> str:
        """One phone's own part (its card, what it may do), padded with spaces to a
        size every role shares: the length of a push or an answer tells nothing."""
        return padded(self.table.private(self.table.seat(seat)))

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            self.sockets.pop(ws, None)

    def _changed(self) -> web.Response:
        self.changed()
        return web.json_response({"ok": True, "phase": self.table.phase})

    # -- the API ------------------------------------------------------------------------

    async def join(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        seat, token = self.table.join(body.get("name"), body.get("room"))
        self.changed()
        return web.json_response({"player": seat, "token": token})

    async def me(self, request: web.Request) -> web.Response:
        return web.json_response(text=self._own(self._player(request).seat))

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(self.table.public())

    async def words(self, request: web.Request) -> web.Response:
        """The phone page's words in a language (the table's by default), from the
        app's catalogues."""
        lang = request.query.get("lang", self.table.lang)
        if lang not in LANGUAGES:
            raise TableError(f"no words in {lang!r}; try one of: {', '.join(LANGUAGES)}")
        return web.json_response(
            host_words(lang) if request.query.get("page") == "host" else page_words(lang)
        )

    async def vote(self, request: web.Request) -> web.Response:
        seat = self._player(request)
        body = await self._body(request)
        self.table.vote(seat, body.get("target"))
        return self._changed()

    async def act(self, request: web.Request) -> web.Response:
        """A night's answer: the same shape for a real prompt and a decoy, padded, and
        no push (nothing public changes; a group's picks reach its members' next look)."""
        seat = self._player(request)
        body = await self._body(request)
        answer = self.table.act(seat, body.get("prompt"), body.get("choose"))
        return web.json_response(text=padded(answer))

    async def turn(self, request: web.Request) -> web.Response:
        """Secret Moon: the player whose turn card was called takes an action; the table
        hears it (the push), the actor alone gets what they learned."""
        seat = self._player(request)
        body = await self._body(request)
        answer = self.table.turn(seat, body.get("action"), body.get("choose"))
        self.changed()
        return web.json_response(text=padded(answer))

    async def host_start(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        roles = body.get("roles") or {}
        if not isinstance(roles, dict):
            raise TableError('"roles" must be an object: {"werewolf": 2, "seer": 1}')
        deal = body.get("deal", True)
        if not isinstance(deal, bool):  # "false" as a string is not false
            raise TableError('"deal" is true (the phones get the cards) or false')
        self.table.start(roles, deal=deal)
        return self._changed()

    async def host_next(self, request: web.Request) -> web.Response:
        self._host(request)
        await self._pressed_in_this_phase(request)
        self.table.advance()
        return self._changed()

    async def host_end(self, request: web.Request) -> web.Response:
        self._host(request)
        await self._pressed_in_this_phase(request)
        self.table.end()
        return self._changed()

    async def _pressed_in_this_phase(self, request: web.Request) -> None:
        """A host command names the phase it was pressed in (`{"from": phase}`): a
        second tap that arrives after the first moved the table on is refused (409)
        and changes nothing, so a double tap on "Go on" never skips the night."""
        pressed = (await self._body(request)).get("from")
        if not isinstance(pressed, str):
            raise TableError('say which phase this was pressed in: {"from": "<phase>"}')
        if pressed != self.table.phase:
            raise TableError(
                f"the table has already moved on from {pressed} (now: {self.table.phase}); "
                "nothing was changed",
                "refused",
            )

    async def host_eliminate(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        self.table.eliminate(body.get("seat"))
        return self._changed()

    async def host_setup(self, request: web.Request) -> web.Response:
        self._host(request)
        return web.json_response(self._host_view())

    # -- the host's seats (issue 16): none of these shows a card -------------------------

    async def host_remove(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        self.table.remove(body.get("seat"), body.get("name"))
        return self._changed()

    async def host_lock(self, request: web.Request) -> web.Response:
        self._host(request)
        self.table.lock((await self._body(request)).get("locked"))
        return self._changed()

    async def host_order(self, request: web.Request) -> web.Response:
        self._host(request)
        self.table.reorder((await self._body(request)).get("order"))
        return self._changed()

    async def host_claim(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        self.table.settle_claim(body.get("code"), body.get("confirm"))
        return self._changed()

    async def host_again(self, request: web.Request) -> web.Response:
        self._host(request)
        await self._body(request)
        self.table.play_again()
        self.announced.clear()  # the last game's winners are not this game's news
        return self._changed()

    async def host_deck(self, request: web.Request) -> web.Response:
        self._host(request)
        return web.json_response(self.table.deck_count((await self._body(request)).get("roles")))

    async def claim(self, request: web.Request) -> web.Response:
        """A phone without its token asks to take a seat over; the host confirms."""
        body = await self._body(request)
        code, token = self.table.claim(body.get("room"), body.get("seat"), request.remote or "?")
        self.changed()
        return web.json_response({"code": code, "token": token})

    async def claim_status(self, request: web.Request) -> web.Response:
        token = self._token(request)
        try:
            return web.json_response(self.table.claim_status(token))
        except TableError:
            raise web.HTTPUnauthorized(
                reason="the host did not confirm this request; ask for your seat again"
            ) from None

    @staticmethod
    async def _no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def qr(self, request: web.Request) -> web.Response:
        """The join URL, as the host's browser reached this table, as a QR code (SVG,
        drawn here: the page fetches nothing from outside the table)."""
        import io

        import segno  # only when the host page asks for it

        url = f"http://{request.host}/?room={self.table.room}"
        out = io.BytesIO()
        segno.make(url, error="m").save(
            out, kind="svg", scale=8, dark="#000", light="#fff", xmldecl=False, svgclass=None
        )
        return web.Response(body=out.getvalue(), content_type="image/svg+xml")

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        # The host page sends its token as a WebSocket subprotocol ("narrator, TOKEN"),
        # a header: it stays out of the request line and the browser's console.
        offered = [p.strip() for p in request.headers.get("Sec-WebSocket-Protocol", "").split(",")]
        token = request.query.get("token", "") or (
            offered[1] if offered[:1] == ["narrator"] and len(offered) == 2 else ""
        )
        seat: int | None
        owner: str | None = None
        if token and self.table.is_host(token):
            seat = None
        else:
            held = self._seat_of(token)  # a sealed game that cannot open: the guard's 409
            if held is None:
                return _error(401, "unknown token; join the table again")
            seat, owner = held.seat, token_hash(token)
        # No compression: a compressed message's length would depend on what it says.
        ws = web.WebSocketResponse(
            heartbeat=20, max_msg_size=4096, compress=False, protocols=("narrator",)
        )
        await ws.prepare(request)
        # A phone that reconnects leaves its old socket behind until it times out; a
        # token never holds more than a few, so no client can pile them up.
        mine = [other for other, who in self.sockets.items() if who == owner]
        for old in mine[: max(0, len(mine) - SOCKETS_PER_TOKEN + 1)]:
            self.sockets.pop(old, None)
            await old.close()
        self.sockets[ws] = owner
        try:
            await self._send(ws, self._view_text(self._shared(), seat))
            async for msg in ws:  # the phones only listen; anything they send is ignored
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.sockets.pop(ws, None)
        return ws
