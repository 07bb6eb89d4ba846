"""Under output underruns, short calls are heard whole: measured from the sink's monitor.

A 5 ms output buffer starves the stream (hundreds of underruns a call on this
machine), and ALSA's recovery drops audio: "One minute left." (0.96 s) was heard
for a fraction of that. After a playback underruns, new streams get twice the
buffer (`OutputLatency`), so the calls after it are heard whole -- the recording
says so, not the player's counters.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from narrator.audio import AudioEngine, AudioSettings, player
from narrator.audio.commands import underrun_note
from narrator.script.model import Say, Script
from tests.support.soundserver import RATE, SoundServer

CALL = "One minute left."
FRAME = RATE // 100  # 10 ms


def frame_rms(x: np.ndarray) -> np.ndarray:
    n = len(x) // FRAME
    return np.sqrt((x[: n * FRAME].reshape(n, FRAME) ** 2).mean(axis=1))


def voiced_seconds(x: np.ndarray, level: float) -> float:
    """How long the call sounds: 10 ms frames louder than `level` RMS."""
    return float((frame_rms(x) > level).sum()) * FRAME / RATE


def calls_in(recording: np.ndarray, level: float) -> list[np.ndarray]:
    """The recording cut into sounds separated by more than 0.35 s of silence."""
    loud = np.flatnonzero(np.abs(recording) > level / 2)
    if len(loud) == 0:
        return []
    cuts = np.flatnonzero(np.diff(loud) > 0.35 * RATE)
    starts = [loud[0], *(loud[c + 1] for c in cuts)]
    ends = [*(loud[c] for c in cuts), loud[-1]]
    return [recording[a : b + 1] for a, b in zip(starts, ends, strict=True)]


@pytest.fixture
def starved_output() -> Iterator[None]:
    player.output_latency.reset(0.005)  # next streams: 5 ms of buffer
    yield
    player.output_latency.reset()


@pytest.mark.xdist_group("timing")  # measures time itself: see tests/conftest.py
@pytest.mark.usefixtures("starved_output")
def test_after_an_underrun_short_calls_are_heard_whole(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    engine = AudioEngine(AudioSettings(bed=False))
    try:
        line = Script("", "day", 0, "en", 0, (), (Say(CALL),))
        rendered = engine.render(line).samples
        level = 0.1 * float(frame_rms(rendered).max())  # -20 dB under the loudest 10 ms
        whole = voiced_seconds(rendered, level)
        span = len(calls_in(rendered, level)[0]) / RATE  # 0.96 s with espeak's en voice
        assert whole > 0.4
        recorder = sound_server.record(tmp_path / "monitor.raw")
        played = []
        for _ in range(6):
            playback = engine.speak(CALL, "en")
            assert playback.wait(20)
            played.append((playback.latency, playback.underruns, playback.error))
            playback.stop()
            time.sleep(0.6)  # silence between calls, to tell them apart
        recording = recorder.stop()
    finally:
        engine.close()
    latencies = [latency for latency, _, _ in played]
    underruns = [count for _, count, _ in played]
    assert all(error is None for _, _, error in played)
    if underruns[0] == 0:
        pytest.skip("a 5 ms buffer did not underrun here: nothing to measure")
    assert latencies[0] == 0.005
    assert latencies == sorted(latencies) and latencies[-1] > latencies[0]
    calls = calls_in(recording, level)
    heard = [voiced_seconds(call, level) for call in calls]
    assert len(heard) >= 3, heard
    # The last three, once the buffer has grown, are the whole call: as much voice as
    # the render (nothing cut, nothing repeated) over at least its span (a late
    # underrun under load may stretch it with a gap; it may not shorten it).
    for call, seconds in zip(calls[-3:], heard[-3:], strict=True):
        assert abs(seconds - whole) < 0.06, (heard, whole, played)
        assert len(call) / RATE > span - 0.05, (len(call) / RATE, span, played)
    assert sum(underruns[-3:]) < underruns[0], played


def test_underruns_are_reported_once_in_our_words() -> None:
    assert underrun_note(1) == (
        "narrator: the sound output ran dry once (the computer was too busy), so some "
        "of the night may not have been heard; close other programs before the next one"
    )
    assert "ran dry 12 times" in underrun_note(12)


def test_the_buffer_grows_to_a_bound_and_never_shrinks() -> None:
    latency = player.OutputLatency()
    assert latency.value == player.LATENCY
    latency.underran(0.005)
    assert latency.value == player.LATENCY  # never below the default
    for _ in range(10):
        latency.underran(latency.value)
    assert latency.value == player.MAX_LATENCY
