"""The table as a service with no web server (`TableService`, issue 24): the commands
a front end sends, their checks written once, and what follows every change -- the
voice, the night, the save, the pushes -- on a real asyncio loop, with the session's
silent voice. The web server (test_api.py) and the app's table host (test_host.py,
tests/tui/test_table_mode.py) are HTTP and threads over this one.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from narrator.table import Options, Table, TableError, load_saved
from narrator.table.service import TableService
from narrator.table.voice import silent_voice
from tests.support.clock import RunningClock
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Dee"]


async def until(done: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "never came"
        await asyncio.sleep(0.02)


def a_service(game: str = "onuw", save_path: Path | None = None) -> TableService:
    table = Table(ruleset(game), "en", rng=random.Random(0), options=Options(vote_seconds=300))
    table.pace = 0.1
    return TableService(table, silent_voice(clock=RunningClock(60)), save_path=save_path)


def served(service: TableService, body: Callable[[TableService], Any]) -> None:
    """Run `body` on a real event loop the service is attached to, then close it."""

    async def main() -> None:
        service.attach(asyncio.get_running_loop())
        try:
            result = body(service)
            if asyncio.iscoroutine(result):
                await result
        finally:
            service.detach()

    try:
        asyncio.run(main())
    finally:
        service.voice.close()


def test_a_one_night_game_through_the_service_alone(tmp_path: Path) -> None:
    """Join, deal, the night played by the voice and the day when it has been heard,
    the vote by display numbers, the end: saved after every change, every listener
    told."""
    path = tmp_path / "game.json"
    service = a_service(save_path=path)
    pushed: list[dict[str, Any]] = []
    service.listeners.append(lambda: pushed.append(service.public()))

    async def play(service: TableService) -> None:
        table = service.table
        joined = [service.join(name, table.room) for name in NAMES]
        assert [p.seat for p, _ in joined] == [0, 1, 2, 3]
        players = [service.player(token) for _, token in joined]
        host = table.seats.new_host_token()
        service.host(host)  # the host's token is the host's
        service.start({}, True)
        assert json.loads(path.read_text("utf-8"))["phase"] == "cards"  # saved at once
        service.press("next", "cards")
        assert table.phase == "night" and table.desk is not None  # the voice plays it
        await until(lambda: table.phase == "day")  # heard to the end: the day, by itself
        service.press("next", "day")
        for voter, target in zip(players, [2, 1, 2, 2], strict=True):
            service.vote(voter, target)  # the wire's display numbers: seat 2 is Bo
        assert table.phase == "end" and table.seats[1].alive is False
        await until(lambda: bool(pushed) and pushed[-1]["phase"] == "end")

    served(service, play)
    said = service.voice.said
    assert said[0].startswith("The cards are dealt") and "Bo" in " ".join(said)
    assert json.loads(path.read_text("utf-8"))["reveal"]["judged"] is True
    assert service.public()["result"]["dead"] == [2]  # as the pages read it


def test_who_is_asking_is_one_line_of_a_kind_a_front_end_answers() -> None:
    service = a_service()

    def check(service: TableService) -> None:
        _, token = service.join("Ann", service.table.room)
        host = service.table.seats.new_host_token()
        with pytest.raises(TableError, match="unknown token") as unknown:
            service.player("made-up")
        with pytest.raises(TableError, match="unknown token") as unknown_host:
            service.host("made-up")
        with pytest.raises(TableError, match="only the host") as forbidden:
            service.host(token)
        assert (unknown.value.kind, unknown_host.value.kind) == ("unknown", "unknown")
        assert forbidden.value.kind == "forbidden"
        assert service.is_host(host) and not service.is_host(token)

    served(service, check)


def test_each_input_is_checked_once_and_a_stale_press_changes_nothing() -> None:
    service = a_service()

    def check(service: TableService) -> None:
        table = service.table
        for name in NAMES[:3]:
            service.join(name, table.room)
        for call in (lambda: service.start("seer", True), lambda: service.deck(["seer"])):
            with pytest.raises(TableError, match='"roles" must be an object'):
                call()
        with pytest.raises(TableError, match='"deal" is true'):
            service.start({}, "false")
        with pytest.raises(TableError, match="no seat 'x'"):
            service.remove("x", "Ann")
        with pytest.raises(TableError, match="say which phase"):
            service.press("deal", None)
        service.press("deal", "lobby")
        version = table.version
        with pytest.raises(
            TableError, match="already moved on from “Waiting for players”"
        ) as stale:
            service.press("deal", "lobby")  # the second press of a double press
        assert stale.value.kind == "refused" and table.version == version
        # told in the host's language, the phases as the host page names them
        assert stale.value.say("it").startswith(
            "il tavolo è già andato oltre «In attesa dei giocatori» (ora: «Ognuno guarda la sua carta»)"
        ), stale.value.say("it")
        assert "lobby" not in stale.value.say("it")
        with pytest.raises(TableError, match="no words in 'xx'"):
            service.words("xx", None)
        assert service.words("it", "host")["next"] == "Prosegui"

    served(service, check)


def test_a_burst_of_changes_is_one_push_carrying_the_last_state() -> None:
    service = a_service()
    seen: list[int] = []
    service.listeners.append(lambda: seen.append(service.public()["version"]))

    async def burst(service: TableService) -> None:
        await until(lambda: bool(seen))  # attaching pushed the state once
        seen.clear()
        for name in NAMES:  # one burst, between two turns of the loop
            service.join(name, service.table.room)
        for _ in range(6):
            service.lock(not service.table.seats.locked)
        await until(lambda: bool(seen))
        assert seen == [service.table.version]  # one push, with every change in it

    served(service, burst)


def test_a_sealed_game_opens_by_a_command_and_the_service_goes_on(tmp_path: Path) -> None:
    """Looking a token up opens nothing; the service's `player` sends the command
    (`sealed.open_with`) for a phone that shows its token, and the second share
    opens the game: the phones are told at once."""
    path = tmp_path / "game.json"
    first = a_service(save_path=path)
    tokens: list[str] = []

    def to_the_vote(service: TableService) -> None:
        table = service.table
        tokens.extend(service.join(name, table.room)[1] for name in NAMES)
        service.start({}, True)
        table.advance(), table.advance(), table.advance()  # night, day, the vote
        service.vote(service.player(tokens[0]), 3)
        assert table.phase == "vote"

    served(first, to_the_vote)
    table = load_saved(path, ruleset("onuw"))
    service = TableService(table, silent_voice(clock=RunningClock(60)), save_path=path)
    pushed: list[int] = []
    service.listeners.append(lambda: pushed.append(service.public()["sealed"]))

    async def reopen(service: TableService) -> None:
        await until(lambda: pushed == [2])
        assert table.seats.holding(tokens[1]) is not None and table.vault.waiting == 2
        service.player(tokens[1])
        assert table.vault.waiting == 1 and table.seats[1].card is None
        with pytest.raises(TableError, match="opens when 1 more player"):
            service.press("next", "vote")
        service.player(tokens[2])  # the second phone back: the game opens
        assert table.vault.waiting == 0 and table.ballot == {0: 2}
        await until(lambda: pushed[-1] == 0)  # every phone told, without asking
        service.press("next", "vote")
        assert table.phase == "end"

    served(service, reopen)


def test_the_service_plays_a_game_without_a_web_framework_loaded() -> None:
    """Run in a fresh interpreter: this process has aiohttp loaded by other tests."""
    probe = (
        "import asyncio, random, sys\n"
        "from narrator.rules import get_ruleset\n"
        "from narrator.table import Table\n"
        "from narrator.table.service import TableService\n"
        "from narrator.table.voice import silent_voice\n"
        "async def main(s):\n"
        "    s.attach(asyncio.get_running_loop())\n"
        "    players = [s.join(n, s.table.room)[0] for n in 'ABC']\n"
        "    s.start({}, True)\n"
        "    s.press('next', 'cards')\n"
        "    s.press('next', 'night')  # the host ends the night early\n"
        "    s.press('next', 'day')\n"
        "    for p in players: s.vote(p, 1 if p.seat else 2)\n"
        "    assert s.table.phase == 'end', s.table.phase\n"
        "    s.detach()\n"
        "s = TableService(Table(get_ruleset('onuw'), 'en', rng=random.Random(0)), silent_voice())\n"
        "asyncio.run(main(s))\n"
        "s.voice.close()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(out.replace("'", '"')))
    assert "narrator" in loaded and not loaded & {"aiohttp", "textual", "sounddevice", "numpy"}


def test_a_deck_the_table_cannot_deal_is_told_in_the_table_s_language() -> None:
    """The host's running count and the deal's refusal say what is wrong with the deck
    in the table's language, the role names the ruleset's for it (they said it in
    English); the command line and the logs keep the English (`str`)."""
    table = Table(ruleset("onuw"), "it", rng=random.Random(0), options=Options())
    service = TableService(table, silent_voice(clock=RunningClock(60)))

    def check(service: TableService) -> None:
        service.join(NAMES[0], table.room)
        # too few yet for the recommended deck: said for the host, not the command line's
        # "choose --players"
        assert service.deck({}, True)["errors"] == [
            "questo gioco è per 3-10 giocatori; finora ne è entrato 1"
        ]
        for name in NAMES[1:3]:
            service.join(name, table.room)
        count = service.deck({"seer": 1, "robber": 1}, True)
        assert count["errors"] == ["3 giocatori vogliono 6 carte (giocatori + 3); ne hai scelte 2"]
        with pytest.raises(TableError) as refused:
            service.start({"seer": 1, "robber": 1}, True)
        assert refused.value.say("it") == count["errors"][0]
        assert str(refused.value) == "3 players need 6 cards (players + 3); 2 chosen"
        assert table.phase == "lobby"

    served(service, check)
