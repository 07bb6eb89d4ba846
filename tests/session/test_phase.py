"""The phase runner, headless: commands in, events and state out, on a manual clock.

The engine is the silent one (it passes the real playback's contract, see
test_playing_contract.py); nothing here imports Textual.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from narrator.audio.settings import AudioSettings
from narrator.script import Cue, Pause, Say, Script, Step, Timer, TimerWarning, Wait
from narrator.session import PhaseEvent, PhaseRunner, SilentEngine
from tests.support.clock import ManualClock
from tests.support.wait import wait_until


def _script(*steps: Step, phase: str = "day") -> Script:
    return Script("test", phase, 1, "en", 5, (), tuple(steps))  # type: ignore[arg-type]


class Watch:
    """Collects the runner's events (they come from its own thread)."""

    def __init__(self) -> None:
        self.events: list[PhaseEvent] = []
        self.threads: set[str] = set()
        self.lock = threading.Lock()

    def __call__(self, event: PhaseEvent) -> None:
        with self.lock:
            self.events.append(event)
            self.threads.add(threading.current_thread().name)

    def kinds(self) -> list[str]:
        with self.lock:
            return [e.kind for e in self.events]


def until(done: Callable[[], bool], clock: ManualClock | None = None, step: float = 0.0) -> None:
    """`done()`, the manual clock moved on by `step` between looks (a busy machine's
    driver thread may be slow to look: 20 s)."""
    each = (lambda: clock.advance(step)) if clock is not None else None
    wait_until(done, 20, "the runner's state", each=each)


def settled(runner: PhaseRunner) -> None:
    """Wait until the driver has looked twice more: the first pass may have begun
    before the change, the second saw it (a sleep would pass unseen on a busy machine)."""
    seen = runner.looks
    until(lambda: runner.looks >= seen + 2)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def engine(clock: ManualClock) -> SilentEngine:
    return SilentEngine(AudioSettings(), clock, sounds={"chime", "bell"})


def test_a_day_runs_speech_timer_wait_then_finishes(
    clock: ManualClock, engine: SilentEngine
) -> None:
    day = _script(
        Say("Wake up."),
        Timer(60, "Discussion", warnings=(TimerWarning(30, "Half a minute."),), end="Time."),
        Wait("Vote now."),
        Say("Done."),
    )
    watch = Watch()
    runner = PhaseRunner(day, engine, clock, listener=watch)
    assert runner.state().status == "ready" and watch.kinds() == ["opened"]
    runner.start()
    # The call heard to its end, then the timer from its start, with no clock steps
    # ahead of the driver: a busy one could first look past the warning's window
    # (0 < left <= 30) and rightly say nothing.
    until(lambda: bool(engine.playbacks))
    call = engine.playbacks[0].duration
    assert call is not None
    clock.advance(call + 0.1)  # just past its end (sums of floats fall a hair short)
    until(lambda: runner.state().kind == "timer")
    state = runner.state()
    assert state.step == 1 and state.countdown is not None
    clock.advance(state.countdown - 29.5)  # just inside the warning's window
    until(lambda: len(engine.playbacks) >= 2)  # the warning is said
    until(lambda: runner.state().kind == "wait", clock, 1.0)
    assert [p.script.steps[0].text for p in engine.playbacks[1:3]] == ["Half a minute.", "Time."]  # type: ignore[union-attr]
    clock.advance(600)  # a wait lasts until the table goes on
    settled(runner)
    assert runner.state().waiting
    runner.go_on()
    until(lambda: runner.state().status == "finished", clock, 1.0)
    runner.close()
    state = runner.state()
    assert state.done and state.elapsed == state.total
    kinds = watch.kinds()
    assert kinds[:3] == ["opened", "started", "segment"] and kinds[-1] == "finished"
    assert "warning" in kinds
    assert watch.threads - {threading.current_thread().name} <= {"narrator-phase"}
    assert all(p.closed for p in engine.playbacks)  # every playback closed by the runner


def test_commands_change_the_state_at_once(clock: ManualClock, engine: SilentEngine) -> None:
    runner = PhaseRunner(_script(Timer(120, "Discussion"), Say("x")), engine, clock)
    runner.toggle()
    assert runner.state().status == "running"
    runner.toggle()
    assert runner.state().paused
    clock.advance(100)
    assert runner.state().countdown == 120
    runner.adjust(30)
    assert runner.state().countdown == 150 and runner.state().countdown_length == 150
    runner.toggle()
    clock.advance(50)
    assert runner.state().countdown == 100
    runner.adjust(-30)
    assert runner.state().countdown == 70
    runner.skip()  # past the timer: no end call, on to the speech
    assert runner.state().kind == "speech"
    runner.stop()
    runner.stop()  # twice is fine
    assert runner.state().status == "stopped"
    runner.close()


def test_pause_holds_the_night_and_skip_jumps_to_the_next_call(
    clock: ManualClock, engine: SilentEngine
) -> None:
    night = _script(
        Say("Close your eyes."),
        Say("Wolves, wake up.", role="wolf"),
        Pause(30, role="wolf"),
        Say("Wolves, sleep.", role="wolf"),
        phase="night",
    )
    runner = PhaseRunner(night, engine, clock)
    runner.start()
    until(lambda: (runner.state().step or 0) >= 1, clock, 0.1)
    runner.pause()
    before = runner.state().step
    clock.advance(300)
    settled(runner)
    assert runner.state().step == before and runner.state().paused
    runner.resume()
    until(lambda: (runner.state().step or 0) >= 2, clock, 0.1)
    runner.skip()  # the wolves' silence is skipped
    until(lambda: runner.state().status == "finished", clock, 0.5)
    heard = engine.playbacks[0].heard
    assert 3 in heard and runner.state().step == 3
    runner.close()


def test_a_night_that_cannot_play_fails_and_waits_then_retry_plays_it(
    clock: ManualClock,
) -> None:
    class Broken(SilentEngine):
        def __init__(self) -> None:
            super().__init__(AudioSettings(), clock)
            self.fail = True

        def play(self, script: Script):  # type: ignore[no-untyped-def]
            if self.fail:
                raise RuntimeError("no audio output device\n(ALSA)")
            return super().play(script)

    engine = Broken()
    watch = Watch()
    runner = PhaseRunner(_script(Say("a"), Say("b"), phase="night"), engine, clock, listener=watch)
    runner.start()
    until(lambda: runner.state().status == "failed")
    clock.advance(600)
    settled(runner)
    state = runner.state()
    assert state.status == "failed" and state.error == "no audio output device (ALSA)"
    assert state.segment == 0  # it never moves on by itself
    engine.fail = False
    runner.retry()
    until(lambda: runner.state().status == "finished", clock, 0.5)
    runner.close()
    assert "failed" in watch.kinds() and "retried" in watch.kinds()


def test_an_error_mid_night_is_a_failure_and_retry_resumes_at_that_step(
    clock: ManualClock, engine: SilentEngine
) -> None:
    night = _script(Say("a"), Pause(5), Cue("no-such-sound"), Say("b"), phase="night")
    runner = PhaseRunner(night, engine, clock)
    runner.start()
    until(lambda: runner.state().status == "failed", clock, 0.5)
    assert runner.state().error == "unknown sound 'no-such-sound'"
    assert engine.playbacks[0].closed
    engine.sounds = None  # the sound is back
    runner.retry()
    until(lambda: runner.state().status == "finished", clock, 0.5)
    assert engine.playbacks[1].script.steps[0] == Pause(5)  # from the step that failed
    runner.close()


def test_stop_from_two_threads_and_close_free_everything(
    clock: ManualClock, engine: SilentEngine
) -> None:
    runner = PhaseRunner(_script(Say("a"), Pause(60), Say("b"), phase="night"), engine, clock)
    runner.start()
    until(lambda: engine.playbacks != [])
    threads = [threading.Thread(target=runner.stop) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    runner.close()
    assert runner.state().status == "stopped"
    assert all(p.finished and p.closed for p in engine.playbacks)
    assert not any(t.name == "narrator-phase" for t in threading.enumerate())


def test_a_listener_that_raises_never_stops_the_phase(
    clock: ManualClock, engine: SilentEngine
) -> None:
    runner = PhaseRunner(_script(Say("a"), Say("b")), engine, clock)
    runner.subscribe(lambda event: 1 / 0)  # type: ignore[func-returns-value]
    runner.start()
    until(lambda: runner.state().status == "finished", clock, 0.5)
    runner.close()


def test_state_is_plain_data(clock: ManualClock, engine: SilentEngine) -> None:
    import json

    runner = PhaseRunner(_script(Timer(10, "t")), engine, clock)
    runner.start()
    data = json.loads(json.dumps(runner.state().to_dict()))
    assert data["status"] == "running" and data["kind"] == "timer" and data["countdown"] == 10
    runner.close()
