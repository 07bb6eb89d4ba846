"""A whole phone table played headless: every command through `TableService`, as the
web server sends them, with no web server and no voice playing.

`play_to_the_end(ruleset, ...)` seats the players, deals (by the phones, or with
physical cards), and plays: each night's calls walked step by step (every phone
answers its prompt), the days' votes (every voter votes, or some do not and the
window closes on its deadline), the rounds' turns, the host going on, until the end
-- or, after some nights, the host ends it. What a front end would be refused is a
`TableError` (the server's 4xx); anything else escaping a command, a view, the
voice's words or the saved game is what the server would answer with a 500, and the
caller sees it raised.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from narrator.rules.model import Ruleset
from narrator.session.game import GameSetup
from narrator.table import Table, TableError
from narrator.table.service import Done, OnStep, TableService
from tests.support.clock import ManualClock

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


class QuietVoice:
    """A voice for a table played with no loop (the night is walked by hand, so it is
    never asked to play one): it keeps what it is told to say, in order."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.errors: list[str] = []

    def say(self, text: str, lang: str) -> None:
        assert isinstance(text, str) and text, "an empty line said"
        self.said.append(text)

    def night(
        self, game: GameSetup, done: Done, on_step: OnStep | None = None, first: int = 0
    ) -> None:
        raise AssertionError("no night is played by the voice here")

    def prepare(self, games: Sequence[GameSetup], lines: Sequence[str]) -> None:
        return None  # nothing is spoken here: nothing to make ahead

    def stop_night(self) -> None:
        return None

    def close(self) -> None:
        return None


def play_to_the_end(
    ruleset: Ruleset, path: Path, *, deal: bool, seed: int = 0, nights: int = 4
) -> Table:
    """One game of `ruleset` on the phones, to its end (see the module). Returns the
    table at the end."""
    rng = random.Random(seed)
    clock = ManualClock()
    table = Table(ruleset, ruleset.languages[0], rng=random.Random(seed), clock=clock)
    table.pace = 0.1
    service = TableService(table, QuietVoice(), save_path=path)
    players = max(ruleset.setup.min_players, min(6, ruleset.setup.max_players))
    tokens = [service.join(name, table.room)[1] for name in NAMES[:players]]
    phones = [service.player(token) for token in tokens]
    looked(service, phones)
    try:
        service.start({}, deal)
    except TableError:
        if not deal:
            raise
        service.start({}, False)  # a deck the engine cannot run: physical cards
    looked(service, phones)
    for _ in range(60 * nights):
        phase = table.phase
        if phase == "end" or table.night > nights:
            break
        if phase == "night":
            walk_the_night(service, phones)
        elif phase in ("vote", "accusation", "ballot"):
            for phone in phones:
                me = service.private(phone)
                if me["can_vote"] and me["targets"] and rng.random() < 0.85:
                    service.vote(phone, rng.choice(me["targets"]))
                    if table.phase != phase:
                        break
            if table.phase == phase:  # the rest abstain: the window closes
                clock.advance_to((table.deadline or clock.now()) + 1)
                tick(service)
            looked(service, phones)
            continue
        elif phase == "day" and table.round:
            for phone in phones:
                turns = service.private(phone)["turns"]
                if turns:
                    pick = rng.choice(turns)
                    choose = ["seat:1"] if pick["players"] else []
                    if pick["centre"] and not choose:
                        choose = ["centre:1"]
                    if pick["role"]:
                        choose.append(f"role:{next(iter(pick['roles']))}")
                    service.turn(phone, pick["id"], choose)
                    if table.phase != "day":
                        break
        if table.phase == phase and phase in ("day", "defence") and rng.random() < 0.5:
            clock.advance_to((table.deadline or clock.now()) + 1)  # a timer runs out
            if table.deadline is not None:
                tick(service)
                looked(service, phones)
                continue
        if table.phase == phase and phase != "end":
            service.press("next", phase)
        looked(service, phones)
    if table.phase != "end":
        service.press("end", table.phase)  # the host calls it a night
    looked(service, phones)
    return table


def walk_the_night(service: TableService, phones: list[Any]) -> None:
    """The voice's steps one by one; at each, every phone answers its prompt (the
    first way it offers); then the night is heard to the end."""
    table = service.table
    steps = len(table.night_script().steps)
    for index in range(steps):
        table.night_at(index)
        for phone in phones:
            prompt = service.private(phone)["prompt"]
            if prompt is not None and prompt["max"]:
                way, ids = prompt["ways"][0], [o["id"] for o in prompt["options"]]
                choose = (
                    [way["named"][0]]
                    if way["named"]
                    else (
                        [i for i in ids if i.startswith("seat:")][: way["seat"]]
                        + [i for i in ids if i.startswith("centre:")][: way["centre"]]
                    )
                )
                try:
                    service.act(phone, prompt["id"], choose)
                except TableError as exc:
                    assert exc.kind in ("refused", "invalid"), exc
        looked(service, phones)
    service.press("next", "night")


def looked(service: TableService, phones: list[Any]) -> None:
    """Every page's look: the public state, each phone's own, the host's."""
    service.public()
    service.host_view()
    service.said()
    for phone in phones:
        service.private(phone)


def tick(service: TableService) -> None:
    """The service's clock, once: a deadline passed moves the table on."""
    if service.table.tick():
        service.changed()
