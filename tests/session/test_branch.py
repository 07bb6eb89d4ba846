"""Wherewolf's way round the ballot, headless: every vote on one player, burned at once."""

from __future__ import annotations

from narrator.audio.settings import AudioSettings
from narrator.script import Say, Timer, Wait
from narrator.session import PhaseRunner, SilentEngine
from tests.session.test_phase import Watch, until
from tests.support.clock import ManualClock
from tests.unit.helpers import script

ROLES = "seer,pack_leader,werewolf,healer,villager:6"


def test_branch_skips_defence_and_ballot_straight_to_nightfall() -> None:
    clock = ManualClock()
    engine = SilentEngine(AudioSettings(), clock, sounds=set())
    day = script("wherewolf", 10, ROLES, phase="day", night=2)
    watch = Watch()
    runner = PhaseRunner(day, engine, clock, listener=watch)
    runner.start()
    branch = next(i for i, s in enumerate(day.steps) if isinstance(s, Wait) and s.branch)
    # Before the branching wait, `branch` does nothing.
    until(lambda: runner.state().waiting, clock, 0.5)  # the dead are named
    runner.branch()
    assert runner.state().waiting
    runner.go_on()
    until(lambda: runner.state().kind == "timer", clock, 0.5)
    runner.branch()
    assert runner.state().kind == "timer"
    runner.skip()  # the assembly ends early
    until(lambda: runner.state().waiting, clock, 0.5)
    runner.go_on()  # the names have been called
    until(lambda: runner.state().step == branch, clock, 0.5)
    runner.branch()
    until(lambda: runner.state().done, clock, 0.5)
    heard = [p.script.steps[0] for p in engine.playbacks]
    said = [s.text for s in heard if isinstance(s, Say)]
    # Nightfall was heard; neither the defence nor the ballot was.
    assert said[-1] == "No more talking. Night falls at once."
    assert "Vote!" not in said and not any("defend yourselves" in t for t in said)
    timers = [s for s in day.steps[branch:] if isinstance(s, Timer)]
    assert timers and timers[0].label == "Defence pleas"
    assert "finished" in watch.kinds()
