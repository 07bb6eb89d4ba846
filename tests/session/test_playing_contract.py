"""One contract, two engines: the silent engine and the real playback agree.

Every app test above runs on `SilentEngine`; these tests decide what "finished",
"current step", "error", "stop" and "close" mean, and run the very same checks on
the real `AudioEngine` playing into the test PulseAudio server (the speech is a
tone from FakeSynth: what is under test is the playback, not the voice).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.audio.bed import assets_dir
from narrator.audio.settings import AudioSettings
from narrator.compose import AudioStart, LateEngine
from narrator.script import Cue, Pause, Say, Script, Step
from narrator.session import NightEngine, Playing, SilentEngine
from tests.support.clock import RunningClock
from tests.support.fake_synth import FakeSynth
from tests.support.wait import wait_until

SOUNDS = sorted(p.stem for p in assets_dir().glob("*.wav"))


def _night(*steps: Step) -> Script:
    return Script("test", "night", 1, "en", 5, (), tuple(steps))


REAL = [pytest.mark.audio, pytest.mark.realtime]
SPEED = 5  # the silent engine's clock against the wall's (`engine`)


@pytest.fixture(
    params=["silent", pytest.param("real", marks=REAL), pytest.param("late", marks=REAL)]
)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[NightEngine]:
    """The silent engine; the real one; the real one behind the app's `LateEngine`
    (built on a thread, asked for before it is ready: the test starts at once).

    The silent engine runs on a clock five times the wall's: what is under contract is
    what finished, the current step, an error, stop, pause and close mean, which no
    clock changes (its seconds are the words' and silences' own, tested at the rates a
    user may set in tests/table/test_voice.py). At the wall's pace its sample call alone
    kept a worker waiting 16 s a run."""
    made: NightEngine
    if request.param == "silent":
        made = SilentEngine(AudioSettings(bed=False), RunningClock(SPEED), sounds=SOUNDS)
    else:
        from narrator.audio import AudioEngine

        request.getfixturevalue("sound_server")

        def build() -> NightEngine:
            return AudioEngine(AudioSettings(bed=False), tmp_path, synthesizer=FakeSynth())

        if request.param == "real":
            made = build()
        else:
            made = LateEngine(AudioStart(build))
            made.settings = AudioSettings(bed=False)  # kept, then handed over
    yield made
    made.close()


def _until(playback: Playing, step: int, timeout: float = 10) -> None:
    wait_until(lambda: (playback.current_step or -1) >= step, timeout, f"step {step}")


def test_at_the_end_the_last_step_stays_current(engine: NightEngine) -> None:
    script = _night(Say("One."), Pause(0.3), Say("Two."))
    playback = engine.play(script)
    assert playback.wait(timeout=15)
    assert playback.finished and playback.error is None
    assert playback.current_step == 2
    assert playback.duration is not None and playback.duration > 0.3
    playback.close()
    playback.close()  # idempotent
    assert playback.finished and playback.current_step == 2 and playback.error is None


def test_stop_is_not_an_error_and_leaves_the_step_where_it_was(engine: NightEngine) -> None:
    playback = engine.play(_night(Say("One."), Pause(30), Say("Two.")))
    _until(playback, 1)
    stoppers = [threading.Thread(target=playback.stop) for _ in range(2)]
    for thread in stoppers:  # stop from two threads at once
        thread.start()
    for thread in stoppers:
        thread.join(timeout=5)
    assert playback.finished and playback.wait(0)
    assert playback.error is None
    assert playback.current_step == 1
    held = playback.position
    time.sleep(0.2)
    assert playback.position == held and playback.current_step == 1
    playback.resume()  # nothing comes back to life
    assert playback.finished
    playback.close()


def test_pause_holds_and_skip_goes_to_the_next_call(engine: NightEngine) -> None:
    playback = engine.play(_night(Say("One."), Pause(30), Say("Two."), Pause(0.2)))
    _until(playback, 1)
    playback.pause()
    held = playback.position
    time.sleep(0.3)
    assert playback.position == held and not playback.finished
    playback.resume()
    playback.skip()
    _until(playback, 2, timeout=5)
    assert playback.wait(timeout=10) and playback.error is None
    playback.close()


def test_a_first_step_that_cannot_be_made_fails_play(engine: NightEngine) -> None:
    with pytest.raises(ValueError, match="unknown sound 'no-such-sound'"):
        engine.play(_night(Cue("no-such-sound"), Say("One.")))


def test_a_later_step_that_cannot_be_made_is_an_error_that_ends_it(engine: NightEngine) -> None:
    playback = engine.play(_night(Say("One."), Pause(0.5), Cue("no-such-sound"), Say("Two.")))
    assert playback.wait(timeout=15)
    assert playback.finished
    assert playback.error is not None and "unknown sound 'no-such-sound'" in playback.error
    assert (playback.current_step or 0) < 2  # what could not be made was never heard
    playback.close()


def test_engine_close_ends_every_playback(engine: NightEngine) -> None:
    night = engine.play(_night(Say("One."), Pause(30)))
    line = engine.speak("Half a minute left.", "en")
    engine.close()
    assert night.finished and line.finished
    assert night.error is None and line.error is None


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_preview_plays_the_sample_call_to_its_end(engine: NightEngine, lang: str) -> None:
    from narrator.script.preview import preview_script

    script = preview_script(lang)
    assert next(s.after for s in script.steps if isinstance(s, Say)) > 0  # the wake-up gap
    playback = engine.preview(lang)
    try:
        assert playback.wait(timeout=30)
        assert playback.finished and playback.error is None
        assert playback.current_step == len(script.steps) - 1  # heard to the close
    finally:
        playback.close()
