"""The table's local web server: the pages, a small JSON API and one WebSocket.

HTTP only: aiohttp on one event loop, behind its door (`guard.py`). Each route reads
the token and the body, hands them to the `TableService` (service.py: the commands,
their checks, and what follows every change -- the voice, the night, the save, the
push), and answers; at every push the service tells the server, which sends each
socket its view. The phones' own parts are padded here. The API (docs/TABLE.md):

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
import errno
import ipaddress
import json
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from narrator.i18n.phrase import Phrase
from narrator.table.errors import TableError
from narrator.table.guard import TIMEOUT, open_door, request_arrived
from narrator.table.seats import Player, number, token_hash
from narrator.table.service import TableService, TableVoice

STATUS = {
    "invalid": 400,
    "refused": 409,
    "not_found": 404,
    "unknown": 401,
    "forbidden": 403,
    "unsaved": 503,
}
# Each file served, from the files in static/ it is made of: the two pages' scripts
# share common.js, served in front of each page's own (one request per page, as
# before it was shared: phones behind one address share the door's connections).
STATIC = {
    "phone.html": ("phone.html",),
    "host.html": ("host.html",),
    "table.js": ("common.js", "table.js"),
    "host.js": ("common.js", "host.js"),
    "table.css": ("table.css",),
}
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

SOCKETS_PER_TOKEN = 4

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Command = Callable[[Player, dict[str, Any]], dict[str, Any]]  # a phone's act, turn or vote


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


STEP = 4096  # bytes: what a phone receives is padded to a multiple of this
# The reason phrase of every answer to a phone's act, turn or vote, whatever its
# status: "200 OK" and "409 Conflict" are status lines of different lengths.
ANSWERED = "Answered"


def _length(value: dict[str, Any]) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def _step(size: int) -> int:
    return -(-size // STEP) * STEP


def padded(own: dict[str, Any], size: int = 0) -> str:
    """`own` as JSON with a `pad` of spaces making it `size` bytes long (or, when it
    does not fit, the next multiple of STEP): every phone's part, whatever its card."""
    text = json.dumps({**own, "pad": ""}, ensure_ascii=False)
    used = len(text.encode("utf-8"))
    return text[:-2] + " " * (max(size, _step(used)) - used) + '"}'


def own_parts(owns: dict[int, dict[str, Any]], night_room: int) -> dict[int, str]:
    """Every phone's own part, each padded to one size: the table's largest, with
    tonight's prompt and picks counted at the most they can take (`night_room`), up
    to the next multiple of STEP. So at any moment every phone's part is as long as
    every other's, and the size moves only when the whole table's does (a deal, a
    dawn, a vote counted), never when one card acts (review 2, L1)."""
    need = 0
    for own in owns.values():
        bare = {**own, "prompt": None, "picks": {}, "pad": ""}
        need = max(need, _length({**own, "pad": ""}), _length(bare) + night_room)
    size = _step(need)
    return {seat: padded(own, size) for seat, own in owns.items()}


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


async def bind(
    app: web.Application,
    host: str,
    port: int,
    *,
    other_port: str = "choose another port",
    other_host: str = "check the address",
) -> tuple[web.AppRunner, asyncio.AbstractServer, int]:
    """Serve `app` on host:port behind the door; the port bound. A port in use, or an
    address this machine cannot serve on, is one line saying how to go on (the
    command line names its options; the app its own way)."""
    try:
        return await open_door(app, host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise TableError(f"port {port} is in use on {host}; {other_port}") from None
        raise TableError(f"cannot serve on {host}:{port} ({exc.strerror}); {other_host}") from None


class TableServer:
    """One table's service, served over HTTP. `app` is the aiohttp application (tests
    run it on loopback)."""

    def __init__(self, service: TableService, limit: RateLimit | None = None) -> None:
        self.service = service
        self.limit = limit or RateLimit()
        # each socket's token (its SHA-256), None = the host: a seat that moves to a new
        # phone or is removed closes the old phone's sockets at the next push
        self.sockets: dict[web.WebSocketResponse, str | None] = {}
        self._sending: set[asyncio.Future[None]] = set()
        service.listeners.append(self._push)
        self.app = web.Application(client_max_size=16 * 1024, middlewares=[self._guard])
        r = self.app.router
        r.add_get("/", self._page("phone.html"))
        r.add_get("/host", self._page("host.html"))
        for name in list(STATIC)[2:]:
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

    @property
    def voice(self) -> TableVoice:
        """The service's voice (the app checks it is its own session's)."""
        return self.service.voice

    # -- plumbing ---------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        request_arrived(request.transport)  # the headers are in: the door's clock stops
        if not self.limit.allow(request.remote or "?", time.monotonic()):
            busy = Phrase("too many requests; wait a moment")
            return _error(429, busy.say(self.service.table.lang))
        try:
            _same_table(request)
            response = await handler(request)
        except TableError as exc:
            response = _error(STATUS[exc.kind], exc.say(self.service.table.lang))
        except web.HTTPException as exc:
            if exc.status >= 400:
                response = _error(exc.status, exc.reason)
            else:
                raise
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    def _page(self, name: str) -> Handler:
        folder = resources.files("narrator.table") / "static"
        body = b"\n".join((folder / part).read_bytes() for part in STATIC[name])
        kind = TYPES[Path(name).suffix]

        async def page(request: web.Request) -> web.StreamResponse:
            return web.Response(body=body, content_type=kind, charset="utf-8")

        return page

    async def _on_startup(self, app: web.Application) -> None:
        self.service.attach(asyncio.get_running_loop())

    async def _on_shutdown(self, app: web.Application) -> None:
        self.service.detach()
        for ws in list(self.sockets):
            await ws.close()

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

    def _player(self, request: web.Request) -> Player:
        return self.service.player(self._token(request))

    def _host(self, request: web.Request) -> None:
        self.service.host(self._token(request))

    def _ok(self) -> web.Response:
        return web.json_response({"ok": True, "phase": self.service.table.phase})

    # -- every push: each socket its view -------------------------------------------------

    def _push(self) -> None:
        shared = self._shared()
        owns: dict[int, str] | None = None  # built once per push, for every phone alike
        for ws, owner in list(self.sockets.items()):
            if ws.closed:
                continue
            seat = None if owner is None else self.service.holder(owner)
            if owner is not None and seat is None:  # removed, or moved to a new phone
                self.sockets.pop(ws, None)
                self._start(self._close(ws))
                continue
            if seat is not None and owns is None:
                owns = self._owns()
            self._start(self._send(ws, self._view_text(shared, seat, owns)))

    def _owns(self) -> dict[int, str]:
        """Every phone's own part now, padded alike (`own_parts`)."""
        service = self.service
        owns: dict[int, dict[str, Any]] = {p.seat: service.private(p) for p in service.table.seats}
        return own_parts(owns, service.night_room())

    def _start(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    @staticmethod
    async def _close(ws: web.WebSocketResponse) -> None:
        await ws.close(code=4001, message=b"this seat is no longer this phone's")

    def _shared(self) -> str:
        """The part of every view that is the same for all: built once per push."""
        state = json.dumps(self.service.public(), ensure_ascii=False)
        said = json.dumps(self.service.said(), ensure_ascii=False)
        return f'{{"type": "state", "state": {state}, "said": {said}'

    def _view_text(self, shared: str, seat: int | None, owns: dict[int, str] | None) -> str:
        """One WebSocket's message: the shared part, then the phone's own (or the host's)."""
        if seat is None:
            own = self.service.host_view()
            return f'{shared}, "host": {json.dumps(own, ensure_ascii=False)}}}'
        return f'{shared}, "me": {(owns or self._owns())[seat]}}}'

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            self.sockets.pop(ws, None)

    # -- the API ------------------------------------------------------------------------

    async def join(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        player, token = self.service.join(body.get("name"), body.get("room"))
        return web.json_response({"player": number(player.seat), "token": token})

    async def me(self, request: web.Request) -> web.Response:
        """A phone's own view, padded to the size every phone's has now."""
        seat = self._player(request).seat
        return web.json_response(text=self._owns()[seat])

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(self.service.public())

    async def words(self, request: web.Request) -> web.Response:
        """The phone page's words in a language (the table's by default), from the
        app's catalogues; `page=host`: the host page's."""
        lang = request.query.get("lang", self.service.table.lang)
        return web.json_response(self.service.words(lang, request.query.get("page")))

    async def _answer(self, request: web.Request, command: Command) -> web.Response:
        """A phone's act, turn or vote, answered in one size and one status line's
        length whether taken or refused (review 2, L2): a refusal only some cards get
        (a move the rules refuse that card) is as long as an acceptance. (What follows
        is the service's: a turn or a vote is one push to every phone, either way.)"""
        try:
            player = self._player(request)
            answer, status = command(player, await self._body(request)), 200
        except TableError as exc:
            answer, status = {"error": exc.say(self.service.table.lang)}, STATUS[exc.kind]
        return web.json_response(text=padded(answer, STEP), status=status, reason=ANSWERED)

    async def vote(self, request: web.Request) -> web.Response:
        def vote(player: Player, body: dict[str, Any]) -> dict[str, Any]:
            return {"ok": True, "phase": self.service.vote(player, body.get("target"))}

        return await self._answer(request, vote)

    async def act(self, request: web.Request) -> web.Response:
        """A night's answer: the same shape for a real prompt and a decoy, padded, and
        no push."""
        return await self._answer(
            request, lambda p, body: self.service.act(p, body.get("prompt"), body.get("choose"))
        )

    async def turn(self, request: web.Request) -> web.Response:
        """Secret Moon: the player whose turn card was called takes an action; the table
        hears it (the push), the actor alone gets what they learned."""
        return await self._answer(
            request, lambda p, body: self.service.turn(p, body.get("action"), body.get("choose"))
        )

    async def host_start(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        self.service.start(body.get("roles"), body.get("deal", True))
        return self._ok()

    async def host_next(self, request: web.Request) -> web.Response:
        self._host(request)
        self.service.press("next", (await self._body(request)).get("from"))
        return self._ok()

    async def host_end(self, request: web.Request) -> web.Response:
        self._host(request)
        self.service.press("end", (await self._body(request)).get("from"))
        return self._ok()

    async def host_eliminate(self, request: web.Request) -> web.Response:
        self._host(request)
        self.service.eliminate((await self._body(request)).get("seat"))
        return self._ok()

    async def host_setup(self, request: web.Request) -> web.Response:
        self._host(request)
        return web.json_response(self.service.host_view())

    # -- the host's seats (issue 16): none of these shows a card -------------------------

    async def host_remove(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        self.service.remove(body.get("seat"), body.get("name"))
        return self._ok()

    async def host_lock(self, request: web.Request) -> web.Response:
        self._host(request)
        self.service.lock((await self._body(request)).get("locked"))
        return self._ok()

    async def host_order(self, request: web.Request) -> web.Response:
        self._host(request)
        self.service.reorder((await self._body(request)).get("order"))
        return self._ok()

    async def host_claim(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        self.service.settle_claim(body.get("code"), body.get("confirm"))
        return self._ok()

    async def host_again(self, request: web.Request) -> web.Response:
        self._host(request)
        await self._body(request)
        self.service.again()
        return self._ok()

    async def host_deck(self, request: web.Request) -> web.Response:
        self._host(request)
        body = await self._body(request)
        return web.json_response(self.service.deck(body.get("roles"), body.get("deal", True)))

    async def claim(self, request: web.Request) -> web.Response:
        """A phone without its token asks to take a seat over; the host confirms."""
        body = await self._body(request)
        code, token = self.service.claim(body.get("room"), body.get("seat"), request.remote or "?")
        return web.json_response({"code": code, "token": token})

    async def claim_status(self, request: web.Request) -> web.Response:
        status = self.service.claim_status(self._token(request))
        answer: dict[str, Any] = {"waiting": status.waiting}
        if status.waiting:
            answer["code"] = status.code
        answer["seat"] = number(status.seat)
        return web.json_response(answer)

    @staticmethod
    async def _no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def qr(self, request: web.Request) -> web.Response:
        """The join URL, as the host's browser reached this table, as a QR code (SVG,
        drawn here: the page fetches nothing from outside the table)."""
        import io

        import segno  # only when the host page asks for it

        url = f"http://{request.host}/?room={self.service.table.room}"
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
        if token and self.service.is_host(token):
            seat = None
        else:  # an unknown token: 401; a sealed game that cannot open: the guard's 409
            seat, owner = self.service.player(token).seat, token_hash(token)
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
            await self._send(ws, self._view_text(self._shared(), seat, None))
            async for msg in ws:  # the phones only listen; anything they send is ignored
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.sockets.pop(ws, None)
        return ws
