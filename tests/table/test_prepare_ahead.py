"""The phones' table has its voice make ahead what it will say: the night's and day's
calls (and the next night's), and the announcements whose words are known -- the
fixed ones and each player's name in the one-name ones -- before they are needed, so
a slow neural voice is never late. The same request twice prepares once; an engine
that cannot prepare (the silent one) is left alone."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from narrator.script import Script
from narrator.session import Session, Settings, SilentEngine, SystemClock
from narrator.table.announce import foreseen
from narrator.table.lines import line
from narrator.table.state import Table
from narrator.table.voice import SessionVoice, silent_voice
from tests.table.live import live_table
from tests.unit.helpers import ruleset


def wait_for(test: Callable[[], bool], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not test() and time.monotonic() < deadline:
        time.sleep(0.02)
    return test()


class Prepared:
    def __init__(self) -> None:
        self.cancelled = False
        self.error = None
        self.finished = False

    def cancel(self) -> None:
        self.cancelled = True


class PreparingEngine(SilentEngine):
    """The silent engine, with the real engine's `prepare` recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[list[Script], list[tuple[str, str]]]] = []
        self.made: list[Prepared] = []
        self.event = threading.Event()

    def prepare(
        self,
        scripts: Sequence[Script],
        on_progress: Callable[[int, int], None] | None = None,
        *,
        lines: Sequence[tuple[str, str]] = (),
    ) -> Prepared:
        self.asked.append((list(scripts), list(lines)))
        self.made.append(Prepared())
        self.event.set()
        return self.made[-1]


def test_the_table_prepares_its_nights_days_and_foreseen_announcements() -> None:
    engine = PreparingEngine()
    voice = SessionVoice(Session(engine, SystemClock(), Settings()))
    table = Table(ruleset("lupus"), "it")
    with live_table(table=table, voice=voice) as live:
        for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"):
            live.join(name)
        assert engine.asked == []  # no deck yet: no night to prepare
        assert live.host("start")[0] == 200  # the recommended deck, dealt
        # every seat joined: the fixed lines and two of each name
        assert wait_for(lambda: any(len(lines) == 6 + 2 * 7 for _, lines in engine.asked))
    scripts, lines = engine.asked[-1]
    assert {s.phase for s in scripts} == {"night", "day"}
    assert {s.night for s in scripts} == {1, 2}  # this night and the next one
    assert all(s.lang == "it" for s in scripts) and all(lang == "it" for _, lang in lines)
    texts = [text for text, _ in lines]
    assert line("vote_open", "it") in texts and line("dealt", "it") in texts
    assert line("dead", "it", names="Gus") in texts  # one name, each player
    assert line("victims", "it", names="Ann") in texts
    assert all(p.cancelled for p in engine.made[:-1])  # each new request ends the older one


def test_the_same_request_prepares_once_and_the_silent_engine_is_left_alone() -> None:
    table = Table(ruleset("onuw"), "en")
    table.roles = {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 1}
    for name in ("Ann", "Bo", "Cy"):
        table.join(name, table.room)
    engine = PreparingEngine()
    voice = SessionVoice(Session(engine, SystemClock(), Settings()))
    try:
        games = [table.game()]
        voice.prepare(games, foreseen(table))
        assert engine.event.wait(10)
        voice.prepare(games, foreseen(table))
        voice.prepare([table.game()], foreseen(table))  # the same game, built again
    finally:
        voice.close()
    assert len(engine.asked) == 1
    silent = silent_voice()
    try:
        silent.prepare(games, ["Hello."])  # nothing to prepare with: nothing happens
    finally:
        silent.close()


def test_foreseen_lines_name_every_seat_and_depend_on_nothing_else() -> None:
    table = Table(ruleset("onuw"), "en")
    before: Any = foreseen(table)
    assert before == [line(k, "en") for k in ("dealt", "no_victims", "vote_open", "accuse",
                                               "nobody_dies", "spared")]  # fmt: skip
