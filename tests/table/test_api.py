"""The table's API over real HTTP and WebSocket on loopback: every security rule."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from narrator.table import Options, Table, load_saved
from narrator.table.seats import number
from narrator.table.server import RateLimit
from tests.support.clock import ManualClock
from tests.table.live import Live, live_table
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def seated(live: Live, n: int = 5) -> list[str]:
    return live.seated(NAMES[:n])


def to_vote(live: Live) -> None:
    for _ in range(3):  # cards -> night -> day -> vote
        assert live.host("next")[0] == 200
    assert live.table.phase == "vote"


async def ws_views(
    live: Live, token: str, count: int = 1, until: Any = None, then: Any = None
) -> list[dict[str, Any]]:
    """The first `count` views pushed, or all of them until one passes `until`;
    `then()` runs once the first view is in."""
    url = live.base.replace("http", "ws") + "/ws?token=" + token
    views: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        while len(views) < count or (until is not None and not until(views[-1])):
            views.append(json.loads((await ws.receive(timeout=5)).data))
            if then is not None and len(views) == 1:
                then()
    return views


def test_join_me_and_state() -> None:
    with live_table() as live:
        status, body = live.call("POST", "/api/join", {"name": "  Ann ", "room": live.table.room})
        assert status == 200 and body["player"] == 1 and len(body["token"]) >= 43
        status, me = live.call("GET", "/api/me", token=body["token"])
        assert status == 200
        assert {k: me[k] for k in ("name", "seat", "role", "alive", "phase")} == {
            "name": "Ann", "seat": 1, "role": None, "alive": True, "phase": "lobby",
        }  # fmt: skip
        status, state = live.call("GET", "/api/state")
        assert status == 200 and state["players"] == [{"name": "Ann", "seat": 1, "alive": True}]


def test_a_token_reads_only_its_own_card_and_no_public_view_holds_one() -> None:
    with live_table() as live:
        tokens = seated(live)
        assert live.host("start", {"roles": {}})[0] == 200
        cards = {number(s.seat): s.card for s in live.table.seats}  # as the wire numbers them
        for seat, token in enumerate(tokens, start=1):
            me = live.call("GET", "/api/me", token=token)[1]
            assert me["seat"] == seat and me["role"] == cards[seat]
        state = live.call("GET", "/api/state")[1]
        # the deck is public (the roles in the game and how many, audit 3, finding 2),
        # never who holds which: nothing else in the public view names a card
        assert state["deck"] == dict(live.table.roles)
        assert sum(state["deck"].values()) == len(cards) + len(live.table.unseen)
        public = ("role_names", "team_names", "deck")
        text = json.dumps({k: v for k, v in state.items() if k not in public})
        assert all(f'"{card}"' not in text for card in set(cards.values()) | set(live.table.unseen))
        assert all(set(p) == {"name", "seat", "alive"} for p in state["players"])
        # the WebSocket of seat 2 carries seat 2's card and nobody else's
        view = asyncio.run(ws_views(live, tokens[1], 1))[0]
        assert view["me"]["seat"] == 2 and view["me"]["role"] == cards[2]
        assert "host" not in view
        # the host sees the players, never a card
        host_view = asyncio.run(ws_views(live, live.host_token, 1))[0]
        assert "me" not in host_view and host_view["state"]["reveal"] is None
        host_text = json.dumps(
            {k: v for k, v in host_view["state"].items() if k not in ("role_names", "deck")}
        )
        assert all(f'"{card}"' not in host_text for card in set(cards.values()))


def test_made_up_or_missing_tokens_get_401() -> None:
    with live_table() as live:
        seated(live, 3)
        fake = secrets.token_urlsafe(32)
        for method, path in [("GET", "/api/me"), ("POST", "/api/vote"), ("POST", "/api/host/start"),
                             ("POST", "/api/host/next"), ("GET", "/api/host/setup")]:  # fmt: skip
            body = {} if method == "POST" else None
            assert live.call(method, path, body, token=fake)[0] == 401, path
            assert live.call(method, path, body)[0] == 401, path

        async def ws_status(token: str) -> int:
            async with aiohttp.ClientSession() as session:
                try:
                    await session.ws_connect(live.base + "/ws?token=" + token)
                except aiohttp.WSServerHandshakeError as err:
                    return err.status
            return 101

        assert asyncio.run(ws_status(fake)) == 401
        assert asyncio.run(ws_status("")) == 401


def test_a_player_token_cannot_use_host_endpoints() -> None:
    with live_table() as live:
        tokens = seated(live)
        for action in ("start", "next", "end", "eliminate"):
            status, body = live.call("POST", f"/api/host/{action}", {}, token=tokens[0])
            assert status == 403 and "host" in body["error"]
        assert live.call("GET", "/api/host/setup", token=tokens[0])[0] == 403
        assert live.table.phase == "lobby"
        assert live.call("GET", "/api/host/setup", token=live.host_token)[0] == 200


def test_votes_outside_their_phase_for_absent_seats_or_oneself_are_refused() -> None:
    with live_table() as live:
        tokens = seated(live)
        assert live.call("POST", "/api/vote", {"target": 2}, token=tokens[0])[0] == 409
        live.host("start")
        assert live.call("POST", "/api/vote", {"target": 2}, token=tokens[0])[0] == 409
        to_vote(live)
        for target in (9, 0, -1, "2", None, True, 2.5):
            status, body = live.call("POST", "/api/vote", {"target": target}, token=tokens[0])
            assert status == 400 and "no seat" in body["error"], target
        assert live.call("POST", "/api/vote", {"target": 1}, token=tokens[0])[0] == 409
        assert live.call("POST", "/api/vote", {"target": 2}, token=tokens[0])[0] == 200


def test_no_vote_is_shown_before_the_reveal() -> None:
    with live_table() as live:
        tokens = seated(live)
        live.host("start")
        to_vote(live)
        for voter in range(4):
            live.call("POST", "/api/vote", {"target": 5 if voter != 4 else 1}, token=tokens[voter])
        state = live.call("GET", "/api/state")[1]
        assert state["result"] is None and state["voted"] == 4 and state["voters"] == 5
        other = live.call("GET", "/api/me", token=tokens[4])[1]
        assert other["my_vote"] is None  # seat 5 sees its own vote only
        live.call("POST", "/api/vote", {"target": 1}, token=tokens[4])
        state = live.call("GET", "/api/state")[1]
        assert state["phase"] == "end" and state["result"]["dead"] == [5]
        assert state["reveal"] is not None


def test_bad_bodies_get_one_clear_line() -> None:
    with live_table() as live:
        assert live.call("POST", "/api/join", raw=b"{nope")[1] == {
            "error": "the request body must be JSON"
        }
        assert live.call("POST", "/api/join", raw=b"[1]")[0] == 400
        status, body = live.call("POST", "/api/join", {"name": "x" * 5000, "room": live.table.room})
        assert status == 400 and "at most 24" in body["error"]
        assert live.call("POST", "/api/join", raw=b'{"name": "' + b"x" * 20000 + b'"}')[0] == 413
        status, body = live.call(
            "POST", "/api/join", {"name": "Ann\u202e", "room": live.table.room}
        )
        assert status == 400 and "invisible character" in body["error"]
        assert live.call("GET", "/nothing")[0] == 404


def test_names_with_markup_are_kept_as_text() -> None:
    with live_table() as live:
        live.join("<b onclick=x>Bo</b>")
        state = live.call("GET", "/api/state")[1]
        assert state["players"][0]["name"] == "<b onclick=x>Bo</b>"


def test_pages_forbid_outside_scripts_and_framing() -> None:
    with live_table() as live:
        for path in ("/", "/host", "/table.js"):
            request_headers = _headers(live, path)
            csp = request_headers["Content-Security-Policy"]
            assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
            assert request_headers["X-Content-Type-Options"] == "nosniff"


def _headers(live: Live, path: str) -> dict[str, str]:
    import urllib.request

    with urllib.request.urlopen(live.base + path, timeout=5) as response:
        return dict(response.headers)


def test_requests_are_rate_limited_per_address() -> None:
    with live_table(limit=RateLimit(rate=1, burst=5)) as live:
        statuses = [live.call("GET", "/api/state")[0] for _ in range(8)]
        assert statuses[:5] == [200] * 5 and statuses[-1] == 429


def test_the_rate_limit_refills() -> None:
    limit = RateLimit(rate=2, burst=2)
    assert limit.allow("a", 0.0) and limit.allow("a", 0.0) and not limit.allow("a", 0.0)
    assert limit.allow("b", 0.0)  # another address has its own bucket
    assert limit.allow("a", 0.5) and not limit.allow("a", 0.5)


def test_a_missing_vote_abstains_at_the_deadline() -> None:
    # The table's clock is the test's: the deadline passes once the phone has seen the
    # vote open (a half-second vote had closed before it connected, on a busy machine).
    clock = ManualClock()
    options = Options(vote_seconds=30)
    table = Table(ruleset("onuw"), "en", options=options, clock=clock, rng=random.Random(0))
    with live_table(table=table) as live:
        tokens = seated(live, 4)
        live.host("start")
        to_vote(live)
        live.call("POST", "/api/vote", {"target": 2}, token=tokens[0])
        live.call("POST", "/api/vote", {"target": 2}, token=tokens[2])

        def deadline_passes() -> None:
            clock.advance(30)

        def ended(view: dict[str, Any]) -> bool:
            return bool(view["state"]["phase"] == "end")

        # the state now, then (at the deadline) the reveal, pushed without asking
        views = asyncio.run(ws_views(live, tokens[3], until=ended, then=deadline_passes))
        assert views[0]["state"]["phase"] == "vote"
        assert views[-1]["state"]["phase"] == "end"
        assert views[-1]["state"]["result"]["votes"] == {"1": 2, "3": 2}
        assert views[-1]["state"]["result"]["dead"] == [2]


def test_the_voice_names_the_dead(tmp_path: Path) -> None:
    with live_table(lang="it") as live:
        tokens = seated(live, 4)
        live.host("start")
        to_vote(live)
        for voter, target in [(0, 3), (1, 3), (2, 1), (3, 1)]:
            live.call("POST", "/api/vote", {"target": target}, token=tokens[voter])
        said = live.voice.said
        assert said[0].startswith("Carte distribuite")
        # the result by name, with no count after the phones' vote has closed (audit 3,
        # finding 13)
        assert "I voti sono arrivati. Muoiono Ann e Cy." in said
        assert not any("Tre. Due." in x for x in said)
        assert any(line.startswith("Vincono") or "non vince nessuno" in line for line in said)
        assert sum("aveva la carta" in line for line in said) == 4


def test_a_restarted_server_resumes_the_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    with live_table(save_path=path) as live:
        tokens = seated(live)
        live.host("start")
        to_vote(live)
        live.call("POST", "/api/vote", {"target": 3}, token=tokens[0])
        card = live.call("GET", "/api/me", token=tokens[1])[1]["role"]
    table = load_saved(path, ruleset("onuw"))
    with live_table(table=table) as live:
        # the cards and the live vote were sealed: one phone back does not open them
        me = live.call("GET", "/api/me", token=tokens[1])[1]
        assert me["role"] is None and me["my_vote"] is None and me["phase"] == "vote"
        status, body = live.call("POST", "/api/vote", {"target": 1}, token=tokens[1])
        assert status == 409 and "opens when 1 more player" in str(body)
        assert live.host("next")[0] == 409
        assert live.call("GET", "/api/state")[1]["sealed"] == 1
        live.call("GET", "/api/me", token=tokens[2])  # the second phone back: it opens
        me = live.call("GET", "/api/me", token=tokens[1])[1]
        assert me["role"] == card and me["phase"] == "vote"
        assert live.call("GET", "/api/me", token=tokens[0])[1]["my_vote"] == 3
        assert live.call("POST", "/api/vote", {"target": 1}, token=tokens[1])[0] == 200
        # the old host token is gone: a resumed game prints a new one
        assert live.host("next")[0] == 200


@pytest.mark.parametrize("game", ["lupus", "mafia_infiltrators", "wherewolf"])
def test_the_host_marks_who_left_in_the_night(game: str) -> None:
    """With physical cards (the phones only vote) the host tells the table who left in
    the night; with the cards on the phones the engine does (test_host_safety.py)."""
    with live_table(game) as live:
        for name in ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]:
            live.join(name)
        live.host("start", {"deal": False})
        assert live.host("eliminate", {"seat": 3})[0] == 409  # not while looking at cards
        live.host("next")
        assert live.host("eliminate", {"seat": 3})[0] == 200
        assert live.host("eliminate", {"seat": 3})[0] == 409
        live.host("next")
        assert live.voice.said[-1] in ("Last night Cy left the game.",)


def test_one_token_cannot_pile_up_websockets() -> None:
    with live_table() as live:
        token = seated(live, 3)[0]

        async def open_many() -> list[bool]:
            url = live.base.replace("http", "ws") + "/ws?token=" + token
            async with aiohttp.ClientSession() as session:
                sockets = [await session.ws_connect(url) for _ in range(10)]
                for ws in sockets:
                    await ws.receive(timeout=5)

                async def is_closed(ws: aiohttp.ClientWebSocketResponse, wait: float) -> bool:
                    # a closed one gets the close frame (perhaps after a push already
                    # on its way); an open one gets pushes or nothing, and waits it out
                    loop = asyncio.get_running_loop()
                    deadline = loop.time() + wait
                    while (left := deadline - loop.time()) > 0:
                        try:
                            msg = await ws.receive(timeout=left)
                        except TimeoutError:
                            return False
                        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                            return True
                    return False

                # the oldest six: up to 10 s each for a busy machine's close frames; then
                # the newest four, which must stay open, are watched for a second more
                old, new = sockets[:6], sockets[6:]
                closed = list(await asyncio.gather(*(is_closed(ws, 10) for ws in old)))
                closed += await asyncio.gather(*(is_closed(ws, 1) for ws in new))
                for ws in sockets:
                    await ws.close()
                return closed

        closed = asyncio.run(open_many())
        assert closed.count(False) == 4 and closed[-4:] == [False] * 4  # the newest stay


def test_the_phone_page_s_words_come_from_the_app_s_catalogues() -> None:
    """One set of words (issue 15): the page's words and the voice's sentences are
    the app's gettext catalogues, en/it/fa; an unknown language is one line, 400."""
    from narrator.i18n import gettext
    from narrator.table.lines import PAGE, line

    with live_table(lang="it") as live:
        status, words = live.call("GET", "/api/words")
        assert status == 200 and set(words) == set(PAGE)
        assert words["night"] == gettext("it", PAGE["night"]) == "Notte"
        status, persian = live.call("GET", "/api/words?lang=fa")
        assert status == 200 and persian["join"] == "ورود"
        status, body = live.call("GET", "/api/words?lang=xx")
        assert status == 400 and "no words in 'xx'" in body["error"]
    assert line("no_victims", "it") == "Questa notte nessuno ha lasciato la partita."
