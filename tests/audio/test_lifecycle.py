"""Every playback has one owner and one end: connections, fds and threads stay flat.

Real engine, real PulseAudio server: nights run by the session's PhaseRunner to
their end, stopped half way, skipped through, day warnings spoken, a Secret Moon
style run of short turns -- and after the first, the sound server's clients, this
process's open files and its threads come back to the same numbers every time.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from narrator.audio import AudioEngine, AudioSettings
from narrator.script import Pause, Say, Script, Step, Timer, TimerWarning
from narrator.session import PhaseRunner, SystemClock
from tests.support.fake_synth import FakeSynth
from tests.support.soundserver import SoundServer

pytestmark = pytest.mark.audio


def counts(server: SoundServer, like: tuple[int, int, int] | None = None) -> tuple[int, int, int]:
    """The numbers once PortAudio's threads and the server's bookkeeping have settled
    (a moment after a playback's close; longer on a busy machine): unchanged for half
    a second, or equal to `like`. Up to 15 s: what is still open then is left open."""
    deadline = time.monotonic() + 15
    seen: list[tuple[int, int, int]] = []
    while True:
        time.sleep(0.1)
        seen.append((server.clients(), len(os.listdir("/proc/self/fd")), threading.active_count()))
        steady = len(seen) >= 6 and len(set(seen[-6:])) == 1
        if seen[-1] == like or (like is None and steady) or time.monotonic() > deadline:
            return seen[-1]


def _script(*steps: Step, phase: str = "night") -> Script:
    return Script("test", phase, 1, "en", 5, (), tuple(steps))  # type: ignore[arg-type]


def _run(runner: PhaseRunner, action: str) -> None:
    runner.start()
    deadline = time.monotonic() + 20
    while not runner.state().done:
        assert time.monotonic() < deadline, runner.state()
        state = runner.state()
        if action == "stop" and state.sounding and (state.step or 0) >= 1:
            runner.stop()
        elif action == "skip" and state.sounding:
            runner.skip()
        time.sleep(0.02)
    assert runner.state().error is None
    runner.close()


def test_nights_days_and_turns_leave_nothing_open(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    engine = AudioEngine(AudioSettings(), tmp_path, synthesizer=FakeSynth())
    clock = SystemClock()
    night = _script(Say("Close your eyes."), Pause(0.3), Say("Wolves."), Pause(5), Say("Wake."))
    day = _script(
        Say("Good morning."),
        Timer(1.2, "Talk", warnings=(TimerWarning(1.0, "One second."),), end="Time."),
        phase="day",
    )
    turns = _script(*(Say(f"Turn {i}.") for i in range(4)), phase="day")
    seen: list[tuple[int, int, int]] = []
    try:
        for round_ in range(6):
            _run(PhaseRunner(night, engine, clock), ["end", "stop", "skip"][round_ % 3])
            _run(PhaseRunner(day, engine, clock), "end")
            _run(PhaseRunner(turns, engine, clock), "skip")
            line = engine.speak("Test sound.", "en")
            assert line.wait(10)
            line.close()
            seen.append(counts(sound_server, seen[0] if seen else None))
    finally:
        engine.close()
    first = seen[0]
    assert all(s == first for s in seen[1:]), seen  # flat after the first round
    assert not [t for t in threading.enumerate() if t.name == "narrator-phase"]


class _SlowSynth(FakeSynth):
    """A voice that takes its time over each line, and tells when it is speaking."""

    def __init__(self) -> None:
        super().__init__()
        self.speaking = threading.Event()

    def synthesize(self, line: object) -> object:  # type: ignore[override]
        self.speaking.set()
        time.sleep(0.3)
        return super().synthesize(line)  # type: ignore[arg-type]


def test_closing_mid_night_waits_for_the_line_being_synthesised(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    """The app ended by a signal mid-night closes its engine and exits: a line still
    being synthesised on the render-ahead thread must be finished first, or a neural
    voice is mid-inference at exit (onnxruntime aborted the app: status 134)."""
    synth = _SlowSynth()
    engine = AudioEngine(AudioSettings(bed=False), tmp_path, synthesizer=synth)
    lines = [Say(f"Line number {i}, said slowly.") for i in range(8)]
    playback = engine.play(_script(*lines))
    synth.speaking.clear()
    assert synth.speaking.wait(10), "the night was not rendered ahead"
    engine.close()
    ahead = [t for t in threading.enumerate() if t.name == "narrator-render-ahead"]
    assert ahead == [], "a render-ahead thread outlived the engine"
    assert playback.finished


STUCK_WORKER = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
print('{"ready": true, "sample_rate": 24000}', flush=True)
for request in sys.stdin:  # every line asked for, never answered
    time.sleep(3600)
"""


def test_closing_mid_night_abandons_a_line_a_worker_is_making(
    sound_server: SoundServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A voice in a worker process (hibari's here) is not in the app: a line it is
    making when the app quits is abandoned, the worker ended at once -- never waited
    for (a quit waited for a cold voice's whole line, up to AHEAD_JOIN). The worker
    here takes every request and never answers."""
    pytest.importorskip("hibari")
    from narrator.audio import engine as engine_module
    from narrator.audio import hibari_voice

    pid_file = tmp_path / "worker.pid"
    stuck = tmp_path / "stuck.py"
    stuck.write_text(STUCK_WORKER.replace("sys.argv[1]", repr(str(pid_file))), encoding="utf-8")
    monkeypatch.setattr(hibari_voice, "WORKER", stuck)
    engine = AudioEngine(AudioSettings(voice="heart", bed=True), tmp_path)
    playback = engine.play(_script(Say("Everyone, close your eyes, for a line never made.")))
    deadline = time.monotonic() + 20
    while not pid_file.exists():  # the render-ahead thread has asked the worker
        assert time.monotonic() < deadline, "the worker was never started"
        time.sleep(0.02)
    closing = threading.Thread(target=engine.close)
    closing.start()
    closing.join(engine_module.AHEAD_JOIN / 2)
    assert not closing.is_alive(), "close() waited for a line the worker never makes"
    assert playback.finished
    assert not Path(f"/proc/{pid_file.read_text()}").exists(), "the worker outlived close()"
    ahead = [t for t in threading.enumerate() if t.name == "narrator-render-ahead"]
    assert ahead == []
