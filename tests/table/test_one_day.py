"""One day, one session: the phones' day and the app's day come from one script.

The table's day timers are read from the session's `Game.script("day")` -- the
script the app's `PhaseRunner` plays -- so a change to a ruleset's day timer (or its
first day's length) reaches both, and no length is written twice.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from narrator.rules import load_ruleset
from narrator.script import Timer
from narrator.session import Session, Settings, SilentEngine, SystemClock
from narrator.table import Options, Table
from narrator.table.announce import announce
from narrator.table.lines import line
from tests.support.clock import ManualClock
from tests.table.live import live_table
from tests.table.test_api import ws_views
from tests.unit.helpers import RULESETS

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def edited(tmp_path: Path, seconds: int, first_day: int) -> Path:
    """Wherewolf with its assembly's length (and the first day's) changed."""
    text = (RULESETS / "wherewolf.yaml").read_text(encoding="utf-8")
    old = "    seconds: 300\n    first_day_seconds: 120\n"
    assert text.count(old) == 1  # the test edits the real ruleset's day, nothing else
    text = text.replace(old, f"    seconds: {seconds}\n    first_day_seconds: {first_day}\n")
    path = tmp_path / "wherewolf.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def app_day_timers(path: Path, night: int) -> list[float]:
    """The app's day: the session's game, the runner's timer segments."""
    clock = SystemClock()
    session = Session(SilentEngine(clock=clock), clock, Settings())
    game = session.new_game(load_ruleset(path))
    game.players = len(NAMES)
    game.recommend()
    while game.night < night:
        game.next_night()
    runner = session.open_phase("day", start=False)
    try:
        return [
            seg.steps[0].seconds
            for seg in runner.segments
            if seg.kind == "timer" and isinstance(seg.steps[0], Timer)
        ]
    finally:
        session.close()


def phones_day(path: Path, nights: int) -> list[float]:
    """The phones' day: the deadline the table gives its day, night after night."""
    clock = ManualClock()
    t = Table(load_ruleset(path), "en", rng=random.Random(1), clock=clock)
    for name in NAMES:
        t.join(name, t.room)
    t.start({})
    lengths = []
    t.advance()  # cards -> night 1
    for night in range(1, nights + 1):
        assert t.night == night
        t.advance()  # night -> day
        assert t.phase == "day" and t.deadline is not None
        lengths.append(t.deadline - clock.now())
        assert t.referee is not None
        t.referee.phase = "verdict"  # straight to the next night (votes are tested elsewhere)
        if night < nights:
            t.advance()
    return lengths


def test_a_day_timer_changed_in_the_ruleset_reaches_the_app_and_the_phones(
    tmp_path: Path,
) -> None:
    for seconds, first_day in [(300, 120), (47, 13)]:
        path = edited(tmp_path, seconds, first_day)
        app = [app_day_timers(path, 1)[0], app_day_timers(path, 2)[0]]
        phones = phones_day(path, 2)
        assert app == [first_day, seconds]
        assert phones == app  # the shorter first day holds on the phones too


def test_the_table_plays_the_session_game_at_the_users_pace() -> None:
    t = Table(load_ruleset(RULESETS / "wherewolf.yaml"), "en", rng=random.Random(1))
    for name in NAMES:
        t.join(name, t.room)
    t.start({})
    t.pace, t.wake_gap = 0.5, 2.0
    game = t.game(1)
    assert (game.pace, game.wake_gap, game.counts) == (0.5, 2.0, t.roles)
    slow = t.game(1)
    slow.pace = 2.0
    assert game.script("night").steps != slow.script("night").steps  # pace shapes the night


def _onuw_day(clock: ManualClock) -> Table:
    t = Table(load_ruleset(RULESETS / "onuw.yaml"), "en", rng=random.Random(1), clock=clock)
    for name in NAMES[:5]:
        t.join(name, t.room)
    t.start({})
    t.advance()  # cards -> night 1
    t.advance()  # night -> day
    t.events.clear()
    assert t.phase == "day" and t.deadline is not None
    return t


def _said(t: Table) -> list[str]:
    out = [text for e in t.events for text in announce(t, e)]
    t.events.clear()
    return out


def test_the_phones_day_says_the_app_s_warnings_when_the_app_would_and_its_end() -> None:
    """The discussion on the phones is the app's day timer, spoken too: each warning
    at its moment before the end ("One minute left."), then the end line as the
    timer runs out, then the vote opens."""
    clock = ManualClock()
    t = _onuw_day(clock)
    (timer, *_) = [s for s in t.game().script("day").steps if isinstance(s, Timer)]
    assert timer.warnings and timer.end  # the ruleset's day speaks: this test means it
    deadline = t.deadline
    assert deadline is not None and deadline - clock.now() == timer.seconds
    heard: list[tuple[float, str]] = []
    while t.phase == "day":
        clock.advance(0.2)  # the server's tick
        t.tick()
        heard += [(clock.now(), text) for text in _said(t)]
    warnings = [(round(deadline - w.at, 1), w.text) for w in timer.warnings]
    assert [(round(at, 1), text) for at, text in heard[: len(warnings)]] == warnings
    assert heard[len(warnings)] == (pytest.approx(deadline, abs=0.2), timer.end)
    assert t.phase == "vote" and [x for _, x in heard[len(warnings) + 1 :]] == [
        line("vote_open", "en")
    ]


def test_a_day_the_host_ends_early_says_no_end_and_a_resumed_one_nothing_late() -> None:
    clock = ManualClock()
    t = _onuw_day(clock)
    (timer, *_) = [s for s in t.game().script("day").steps if isinstance(s, Timer)]
    assert [w.at for w in timer.warnings] == [60, 10] and t.deadline is not None
    clock.advance_to(t.deadline - 30)  # past "One minute left.", before "Ten seconds."
    t._warned = (None, None)  # as a game opened again from its saved file
    t.tick()
    assert _said(t) == []  # what passed while the game was closed is not said late
    clock.advance_to(t.deadline - 9.9)
    t.tick()
    assert _said(t) == [timer.warnings[1].text]
    t.advance()  # the host goes on: the table is done talking, no "Time is up."
    assert timer.end not in _said(t)


def test_the_table_s_voice_and_every_phone_give_the_warning() -> None:
    """Over the network: the server's tick says the warning through the table's
    voice, and the phones' next push shows it as the last thing said."""
    clock = ManualClock()
    t = Table(load_ruleset(RULESETS / "onuw.yaml"), "en", rng=random.Random(1), clock=clock)
    with live_table(table=t) as live:
        tokens = [live.join(name)[1] for name in NAMES[:5]]
        assert live.host("start", {"roles": {}})[0] == 200
        assert live.host("next")[0] == 200  # the night
        assert live.host("next")[0] == 200  # the host ends it: the day
        assert t.phase == "day" and t.deadline is not None
        clock.advance_to(t.deadline - 59.9)
        views = asyncio.run(
            ws_views(live, tokens[2], until=lambda v: v.get("said") == "One minute left.")
        )
        assert views[-1]["state"]["phase"] == "day"
        assert live.voice.said[-1] == "One minute left."


def test_the_phones_vote_windows_are_the_ruleset_s(tmp_path: Path) -> None:
    """How long a vote stays open on the phones comes from `outcome.vote`: changed
    in the ruleset file, changed at the table; a table's own Options still win."""
    text = (RULESETS / "lupus.yaml").read_text(encoding="utf-8")
    old = "    accusation_seconds: 60\n    ballot_seconds: 30\n"
    assert text.count(old) == 1
    path = tmp_path / "lupus.yaml"
    path.write_text(text.replace(old, "    accusation_seconds: 47\n    ballot_seconds: 13\n"))
    for options, windows in ((Options(), (47, 13)), (Options(accusation_seconds=99), (99, 13))):
        clock = ManualClock()
        t = Table(load_ruleset(path), "en", rng=random.Random(1), clock=clock, options=options)
        for name in [*NAMES, "Gus", "Hal"]:
            t.join(name, t.room)
        t.start({})
        t.advance()  # cards -> night 1
        t.advance()  # night -> day
        while t.phase != "accusation":
            t.advance()
        assert t.deadline is not None and t.deadline - clock.now() == windows[0]
        a, b = t.alive()[:2]
        for voter in t.voters():  # everyone on one player, and that one on another
            t.vote(t.seat(voter), a if voter != a else b)
        while t.phase != "ballot":
            t.advance()
        assert t.deadline is not None and t.deadline - clock.now() == windows[1]

    onuw = _onuw_day(ManualClock())
    onuw.advance()
    assert onuw.phase == "vote" and onuw.deadline is not None
    assert onuw.deadline - onuw.clock.now() == onuw.ruleset.outcome.vote.seconds == 30  # type: ignore[union-attr]
