"""The booth's contract, one suite for the real one (PortAudio's default input: the test
sound server's sink monitor, fed with prepared speech) and the simulated one the app
uses with NARRATOR_AUDIO=fake: record until told, report the level, give a take the
recording code keeps (or refuses as silent), play a take back and stop when told."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from narrator.audio.booth import Booth, DeviceBooth, SimulatedBooth
from narrator.audio.recording import TakeRefused, make_take
from narrator.audio.settings import AudioUnavailable
from narrator.audio.synth import Clip
from tests.audio.microphone import listen_to_the_sink, prepared_speech, say_into_the_sink
from tests.support.soundserver import SoundServer

TEXT = "Seer, wake up."
HANG = 30.0  # seconds: a guard against a booth that never returns, not a stopwatch


@dataclass
class Rig:
    """A booth, and how a test makes it hear a line (or nothing)."""

    booth: Booth
    speak: Callable[[], None]  # while recording: the line is said into the microphone
    quiet: Booth  # the same booth in a silent room
    after: int = 8  # blocks (of 50 ms) recorded after `speak` returns


@pytest.fixture(params=[pytest.param("device", marks=pytest.mark.realtime), "simulated"])
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rig]:
    if request.param == "simulated":
        # the simulated voice speaks from 0.3 s to 1.3 s of its own accord
        yield Rig(SimulatedBooth(speech=1.0), lambda: None, SimulatedBooth(speech=0.0), after=32)
        return
    server: SoundServer = request.getfixturevalue("sound_server")
    listen_to_the_sink(server)
    speech = prepared_speech([TEXT], "en", tmp_path)[TEXT]
    yield Rig(DeviceBooth(), lambda: say_into_the_sink(server, speech), DeviceBooth())


def record(booth: Booth, during: Callable[[], None], after: int) -> tuple[Clip, list[float]]:
    """Record while `during()` runs (once the microphone is live), then `after` blocks."""
    stop, levels, live = threading.Event(), [], threading.Event()

    def heard(level: float) -> None:
        levels.append(level)
        live.set()

    def speaker() -> None:
        live.wait(HANG)
        during()
        done = len(levels)
        while len(levels) < done + after and not stop.is_set():
            live.clear()
            live.wait(1.0)
        stop.set()

    thread = threading.Thread(target=speaker)
    thread.start()
    try:
        take = booth.record(stop, heard)
    finally:
        stop.set()
        thread.join(HANG)
    return take, levels


def test_a_spoken_line_is_a_take_the_pack_keeps(rig: Rig) -> None:
    take, levels = record(rig.booth, rig.speak, rig.after)
    assert take.samples.dtype == np.float32 and take.samples.ndim == 1
    assert take.sample_rate >= 8000 and take.seconds > 0.5
    assert len(levels) >= 5 and max(levels) > -30
    clip = make_take(take.samples, take.sample_rate, TEXT)
    assert 0.3 < clip.seconds < take.seconds


def test_a_silent_room_is_refused(rig: Rig) -> None:
    take, levels = record(rig.quiet, lambda: None, rig.after)
    assert levels
    with pytest.raises(TakeRefused) as refused:
        make_take(take.samples, take.sample_rate, TEXT)
    assert refused.value.reason == "silent"


def test_a_take_is_played_back_and_a_stop_ends_it(rig: Rig) -> None:
    take, _ = record(rig.booth, rig.speak, rig.after)
    clip = make_take(take.samples, take.sample_rate, TEXT)
    stop = threading.Event()
    done = threading.Event()

    def play() -> None:
        rig.booth.play(clip, stop)
        done.set()

    whole = threading.Thread(target=play)
    whole.start()
    whole.join(HANG)
    assert done.is_set()  # heard to the end
    done.clear()
    times = int(np.ceil((HANG + 10) / clip.seconds))
    long = Clip(np.tile(clip.samples, times), clip.sample_rate)  # longer than the guard
    stopped = threading.Thread(target=lambda: (rig.booth.play(long, stop), done.set()))
    stopped.start()
    stop.set()
    stopped.join(HANG)
    assert done.is_set()


def test_no_microphone_is_one_line(sound_server: SoundServer) -> None:
    with pytest.raises(AudioUnavailable, match="no microphone"):
        DeviceBooth(microphone="no such microphone").record(threading.Event(), lambda _: None)
