"""The host's seats over real HTTP (issue 16): remove, lock, the sitting order, a seat
moved to a new phone when the host confirms, play again, the deck's running count,
and the review's remaining findings on the server (Origin and Host, NaN, a string
"deal", the deadline across a restart).
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp

from narrator.table import Options, Table, load_saved, save
from tests.support.clock import ManualClock
from tests.table.live import Live, live_table
from tests.unit.helpers import ruleset


def names(live: Live) -> list[str]:
    return [p["name"] for p in live.call("GET", "/api/state")[1]["players"]]


def test_the_host_removes_a_player_before_the_deal_and_the_seats_renumber() -> None:
    with live_table() as live:
        tokens = live.seated(["Ann", "Bo", "Cy", "Dee"])
        assert live.host("remove", {"seat": 2, "name": "Bo"}) == (
            200,
            {"ok": True, "phase": "lobby"},
        )
        state = live.call("GET", "/api/state")[1]
        assert [(p["seat"], p["name"]) for p in state["players"]] == [
            (1, "Ann"),
            (2, "Cy"),
            (3, "Dee"),
        ]
        assert live.call("GET", "/api/me", token=tokens[1])[0] == 401  # Bo's phone: gone
        assert live.call("GET", "/api/me", token=tokens[2])[1]["seat"] == 2  # Cy moved up
        # the second tap of a double tap names Bo again: seat 2 is Cy now, nothing changes
        status, body = live.host("remove", {"seat": 2, "name": "Bo"})
        assert status == 409 and body["error"] == "seat 2 is now Cy; nothing was changed"
        assert live.host("remove", {"seat": 9, "name": "X"})[0] == 400
        # after the deal a player cannot be removed: one line saying what to do
        assert live.host("start")[0] == 200
        status, body = live.host("remove", {"seat": 1, "name": "Ann"})
        assert status == 409 and "Play again" in body["error"] and "\n" not in body["error"]
        assert names(live) == ["Ann", "Cy", "Dee"]


def test_a_locked_table_takes_no_more_joins() -> None:
    with live_table() as live:
        live.seated(["Ann", "Bo"])
        assert live.host("lock", {"locked": True})[0] == 200
        status, body = live.call("POST", "/api/join", {"name": "Zed", "room": live.table.room})
        assert status == 409 and body == {
            "error": "the host has locked the table; ask the host to unlock it"
        }
        assert live.host("lock", {"locked": "yes"})[0] == 400
        assert live.host("lock", {"locked": False})[0] == 200
        live.join("Zed")
        assert names(live) == ["Ann", "Bo", "Zed"]


def test_the_seats_go_in_sitting_order_by_name_before_the_deal() -> None:
    with live_table("lupus") as live:
        tokens = live.seated(["Ann", "Bo", "Cy", "Dee", "Eli", "Flo", "Gus"])
        order = ["Cy", "Ann", "Gus", "Bo", "Dee", "Eli", "Flo"]
        assert live.host("order", {"order": order})[0] == 200
        assert live.host("order", {"order": order})[0] == 200  # sent twice: the same order
        assert names(live) == order
        assert live.call("GET", "/api/me", token=tokens[2])[1]["seat"] == 1  # Cy sits first
        for bad in (order[:-1], [*order[:-1], "Ann"], "Cy,Ann", [*order[:-1], 7]):
            status, body = live.host("order", {"order": bad})
            assert status == 400 and "every player's name once" in body["error"]
        assert live.host("start")[0] == 200
        assert live.host("order", {"order": order})[0] == 409


async def _socket_closes(live: Live, token: str, then: object) -> int | None:
    """Open a phone's socket, run `then` (a blocking call) beside it, and return the
    close code the phone gets."""
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(live.base + "/ws?token=" + token)
        await ws.receive_json()
        await asyncio.get_running_loop().run_in_executor(None, then)
        while True:
            msg = await asyncio.wait_for(ws.receive(), 5)
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                return ws.close_code


def test_a_seat_moves_to_a_new_phone_mid_game_when_the_host_confirms() -> None:
    with live_table("onuw", options=Options(vote_seconds=300)) as live:
        tokens = live.seated(["Ann", "Bo", "Cy", "Dee"])
        assert live.host("start")[0] == 200
        live.host("next")  # the night
        card = live.table.seats[1].card  # seat 2's
        # a new phone (Bo's private tab was closed) asks for seat 2
        status, asked = live.call("POST", "/api/claim", {"room": live.table.room, "seat": 2})
        assert status == 200 and len(asked["code"]) == 4
        new = asked["token"]
        assert live.call("GET", "/api/me", token=new)[0] == 401  # not before the host says so
        assert live.call("GET", "/api/claim", token=new)[1] == {
            "waiting": True,
            "code": asked["code"],
            "seat": 2,
        }
        # the host sees the request by name and code; nothing in it is a card
        view = live.call("GET", "/api/host/setup", token=live.host_token)[1]
        assert view["claims"] == [{"code": asked["code"], "seat": 2, "name": "Bo"}]
        assert card not in json.dumps(view["claims"])
        assert live.call("POST", "/api/claim", {"room": "ZZZZ", "seat": 2})[0] == 400
        assert live.call("POST", "/api/claim", {"room": live.table.room, "seat": 9})[0] == 400

        def confirm() -> None:
            assert live.host("claim", {"code": asked["code"], "confirm": True})[0] == 200

        # the old phone's socket is closed, its token no longer works
        assert asyncio.run(_socket_closes(live, tokens[1], confirm)) == 4001
        assert live.call("GET", "/api/me", token=tokens[1])[0] == 401
        me = live.call("GET", "/api/me", token=new)[1]
        assert me["seat"] == 2 and me["name"] == "Bo" and live.table.seats[1].card == card
        assert me["role"] is None  # One Night: once the night has begun, nobody's card
        assert live.call("GET", "/api/claim", token=new)[1] == {"waiting": False, "seat": 2}
        assert live.call("GET", "/api/host/setup", token=live.host_token)[1]["claims"] == []
        # a second confirm (a double tap) changes nothing
        assert live.host("claim", {"code": asked["code"], "confirm": True})[0] == 409


def test_a_refused_request_gets_no_seat() -> None:
    with live_table() as live:
        tokens = live.seated(["Ann", "Bo", "Cy"])
        asked = live.call("POST", "/api/claim", {"room": live.table.room, "seat": 1})[1]
        assert live.host("claim", {"code": asked["code"], "confirm": "yes"})[0] == 400
        assert live.host("claim", {"code": asked["code"], "confirm": False})[0] == 200
        status, body = live.call("GET", "/api/claim", token=asked["token"])
        assert status == 401 and "did not confirm" in body["error"]
        assert live.call("GET", "/api/me", token=tokens[0])[1]["seat"] == 1  # Ann keeps it
        # one waiting request per phone: asking again replaces its own
        first = live.call("POST", "/api/claim", {"room": live.table.room, "seat": 1})[1]
        second = live.call("POST", "/api/claim", {"room": live.table.room, "seat": 3})[1]
        claims = live.call("GET", "/api/host/setup", token=live.host_token)[1]["claims"]
        assert [c["code"] for c in claims] == [second["code"]] != [first["code"]]
        # a player's token is not the host's
        assert (
            live.call("POST", "/api/host/claim", {"code": "1", "confirm": True}, token=tokens[0])[0]
            == 403
        )


def test_play_again_keeps_the_room_the_phones_and_the_seats() -> None:
    with live_table("onuw", options=Options(vote_seconds=300)) as live:
        tokens = live.seated(["Ann", "Bo", "Cy", "Dee"])
        room = live.table.room
        assert live.host("again")[0] == 409  # not before the end
        assert live.host("start")[0] == 200
        assert live.host("end")[0] == 200
        assert live.host("again", {}) == (200, {"ok": True, "phase": "lobby"})
        state = live.call("GET", "/api/state")[1]
        assert state["room"] == room and state["phase"] == "lobby"
        assert state["reveal"] is None and state["result"] is None and state["deck"] == {}
        assert [p["name"] for p in state["players"]] == ["Ann", "Bo", "Cy", "Dee"]
        assert all(p["alive"] for p in state["players"])
        for seat, token in enumerate(tokens, start=1):
            me = live.call("GET", "/api/me", token=token)[1]
            assert me["seat"] == seat and me["role"] is None and me["journal"] == []
        # the seats may be reordered, and the game dealt again
        assert live.host("order", {"order": ["Dee", "Cy", "Bo", "Ann"]})[0] == 200
        assert live.host("start")[0] == 200
        assert live.call("GET", "/api/me", token=tokens[3])[1]["seat"] == 1
        assert all(s.card for s in live.table.seats)


def test_the_running_count_comes_from_the_rulesets_setup() -> None:
    with live_table("onuw") as live:

        def deck(roles: object) -> tuple[int, Any]:
            return live.call("POST", "/api/host/deck", {"roles": roles}, token=live.host_token)

        status, count = deck({})
        assert status == 200 and count["cards"] == 0
        assert count["errors"] == ["this game is for 3 to 10 players; 0 have joined"]
        live.seated(["Ann", "Bo", "Cy", "Dee", "Eli", "Flo"])
        assert deck({})[1] == {"cards": 9, "dealt": 6, "aside": 3, "removed": 0, "errors": []}
        count = deck({"werewolf": 2, "villager": 2})[1]
        assert count["cards"] == 4 and count["errors"]
        assert deck({"dragon": 1})[0] == 400
    with live_table("lupus") as live:
        live.seated(["Ann", "Bo", "Cy", "Dee", "Eli", "Flo", "Gus"])
        count = live.call("POST", "/api/host/deck", {"roles": {}}, token=live.host_token)[1]
        assert (count["cards"], count["dealt"], count["removed"]) == (8, 7, 1)


def test_the_host_view_has_each_roles_side_and_box_and_no_card() -> None:
    with live_table("onuw") as live:
        live.seated(["Ann", "Bo", "Cy"])
        live.host("start")
        view = live.call("GET", "/api/host/setup", token=live.host_token)[1]
        assert set(view["teams"]) == set(live.table.ruleset.role_ids)
        assert {b for b in view["boxes"].values()} >= {"base", "daybreak"}
        assert "card" not in json.dumps(view) and 'role":' not in json.dumps(view)


def test_the_qr_code_is_the_join_url_drawn_here() -> None:
    with live_table() as live:
        with urllib.request.urlopen(live.base + "/qr.svg", timeout=5) as response:
            svg = response.read().decode()
            assert response.headers["Content-Type"].startswith("image/svg+xml")
        assert svg.startswith("<svg") and "<script" not in svg


def test_pages_from_elsewhere_and_names_a_site_controls_are_refused() -> None:
    """Review H21: a cross-site form post carries the other site's Origin; DNS
    rebinding reaches the table under a name, not its address."""
    with live_table() as live:
        body = json.dumps({"name": "Eve", "room": live.table.room}).encode()
        request = urllib.request.Request(live.base + "/api/join", data=body, method="POST")
        request.add_header("Content-Type", "text/plain")
        request.add_header("Origin", "http://attacker.example")
        try:
            urllib.request.urlopen(request, timeout=5)
            raise AssertionError("a foreign Origin joined")
        except urllib.error.HTTPError as err:
            assert err.code == 403 and b"elsewhere" in err.read()
        request = urllib.request.Request(live.base + "/api/state")
        request.add_header("Host", "attacker.example")
        try:
            urllib.request.urlopen(request, timeout=5)
            raise AssertionError("a foreign Host was served")
        except urllib.error.HTTPError as err:
            assert err.code == 421
        request = urllib.request.Request(live.base + "/api/state")
        request.add_header("Origin", live.base)  # the table's own page
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200
        assert names(live) == []


def test_nan_and_a_string_deal_are_refused() -> None:
    """Review H22."""
    with live_table() as live:
        status, body = live.call("POST", "/api/join", raw=b'{"name": NaN, "room": "X"}')
        assert status == 400 and body["error"] == "the request body must be JSON"
        live.seated(["Ann", "Bo", "Cy"])
        status, body = live.host("start", {"deal": "false"})
        assert status == 400 and '"deal"' in body["error"]
        assert live.table.phase == "lobby"


def test_a_timer_resumes_with_the_seconds_it_had_left(tmp_path: Path) -> None:
    """Review H19: the deadline does not run on while the server is down."""
    clock = ManualClock()
    table = Table(ruleset("onuw"), "en", clock=clock, options=Options(vote_seconds=30))
    for name in ("Ann", "Bo", "Cy"):
        table.join(name, table.room)
    table.lock(True)
    table.start({})
    table.advance()  # night
    table.advance()  # day
    table.advance()  # the vote: 30 s
    clock.advance(10)
    save(table, tmp_path / "g.json")
    clock.advance(600)  # ten minutes down
    back = load_saved(tmp_path / "g.json", table.ruleset, clock=clock)
    assert back.deadline == clock.now() + 20 and back.seats.locked


def test_the_host_token_travels_in_a_header_not_in_the_url() -> None:
    """Review H6: the host page's socket sends its token as a subprotocol."""

    async def connect(token: str) -> tuple[int, str | None]:
        async with aiohttp.ClientSession() as session:
            try:
                ws = await session.ws_connect(live.base + "/ws", protocols=("narrator", token))
            except aiohttp.WSServerHandshakeError as err:
                return err.status, None
            view = await ws.receive_json()
            await ws.close()
            return 101, ws.protocol if "host" in view else None

    with live_table() as live:
        assert asyncio.run(connect(live.host_token)) == (101, "narrator")
        assert asyncio.run(connect("made-up"))[0] == 401


def test_an_announcement_is_shown_in_the_phase_it_was_made_in() -> None:
    """Review P7: "the cards are dealt" is not shown all through the day."""
    with live_table() as live:
        live.seated(["Ann", "Bo", "Cy"])
        live.host("start")
        said = live.service.announced[-1]
        assert live.service.said() == said and live.server._shared().endswith(json.dumps(said))
        live.host("next")
        live.host("next")
        assert live.table.phase == "day" and live.service.said() is None
        assert live.server._shared().endswith('"said": null')


def test_the_host_pages_words_come_from_the_catalogues() -> None:
    """One set of words (issue 15): the host page's, like the phone page's."""
    with live_table("onuw", "fa") as live:
        status, words = live.call("GET", "/api/words?page=host")
        assert status == 200 and words["start"] == "پخش کارت‌ها و شروع"
        assert words["claim"].count("{code}") == 1
        english = live.call("GET", "/api/words?page=host&lang=en")[1]
        assert english["phase_lobby"] == "Waiting for players" and set(english) == set(words)
        assert live.call("GET", "/api/words?page=host&lang=xx")[0] == 400
