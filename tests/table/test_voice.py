"""The table's voice: the same contract for the silent voice and the engine's; the
real speech engine naming players (any script) into a real sound server; a night
that ends by itself when its script has been heard."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from narrator.table.lines import join_names, line
from narrator.table.voice import EngineVoice, SilentVoice, Voice
from tests.table.live import live_table


class FakePlaying:
    def __init__(self, seconds: float, error: str | None = None) -> None:
        self.done = threading.Event()
        self.error = error
        self.stopped = False
        threading.Timer(seconds, self.done.set).start()

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)

    def stop(self) -> None:
        self.stopped = True
        self.done.set()


class FakeEngine:
    """Records what it was asked to say; every line takes 20 ms."""

    def __init__(self, night_error: str | None = None) -> None:
        self.spoken: list[tuple[str, str]] = []
        self.nights = 0
        self.closed = False
        self.night_error = night_error

    def speak(self, text: str, lang: str) -> FakePlaying:
        self.spoken.append((text, lang))
        return FakePlaying(0.02)

    def play(self, script: Any) -> FakePlaying:
        self.nights += 1
        return FakePlaying(0.05, self.night_error)

    def close(self) -> None:
        self.closed = True


@pytest.fixture(params=["silent", "engine"])
def voice(request: pytest.FixtureRequest) -> Any:
    made: Voice = SilentVoice() if request.param == "silent" else EngineVoice(FakeEngine())
    yield made
    made.close()


def test_say_never_blocks_and_keeps_the_order(voice: Voice) -> None:
    t0 = time.perf_counter()
    for i in range(20):
        voice.say(f"line {i}", "en")
    assert time.perf_counter() - t0 < 0.2  # 20 lines of 20 ms each were queued, not waited
    assert voice.said == [f"line {i}" for i in range(20)] and voice.errors == []


def test_the_engine_voice_speaks_one_line_after_the_other() -> None:
    engine = FakeEngine()
    voice = EngineVoice(engine)
    for i in range(5):
        voice.say(f"line {i}", "it")
    deadline = time.monotonic() + 5
    while len(engine.spoken) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    voice.close()
    assert engine.spoken == [(f"line {i}", "it") for i in range(5)] and engine.closed


def test_a_night_ends_by_itself_when_its_script_is_heard() -> None:
    engine = FakeEngine()
    with live_table("onuw", voice=EngineVoice(engine)) as live:
        for name in ("Ann", "Bo", "Cy"):
            live.join(name)
        live.host("start")
        live.host("next")
        deadline = time.monotonic() + 5
        while live.table.phase == "night" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert live.table.phase == "day" and engine.nights == 1


def test_a_night_that_fails_is_not_passed_as_heard() -> None:
    engine = FakeEngine(night_error="PortAudio: device lost")
    with live_table("onuw", voice=EngineVoice(engine)) as live:
        for name in ("Ann", "Bo", "Cy"):
            live.join(name)
        live.host("start")
        live.host("next")
        time.sleep(0.5)
        assert live.table.phase == "night"  # the host sees the error and decides
        assert live.voice.errors == ["PortAudio: device lost"]
        setup = live.call("GET", "/api/host/setup", token=live.host_token)[1]
        assert setup["min_players"] == 3


@pytest.mark.audio
@pytest.mark.parametrize(
    ("lang", "names"),
    [("en", ["Ann", "Bo"]), ("it", ["Giulia", "Marco"]), ("fa", ["سارا", "Ann"])],
)
def test_the_real_voice_says_the_players_names(
    sound_server: Any, tmp_path: Path, lang: str, names: list[str]
) -> None:
    from narrator.audio import AudioEngine, AudioSettings

    voice = EngineVoice(AudioEngine(AudioSettings(), cache_dir=tmp_path / "cache"))
    recorder = sound_server.record(tmp_path / "rec.raw")
    text = line("dead_many", lang, names=join_names(names, lang))
    voice.say(text, lang)
    voice.close()  # waits for the line to be heard
    heard = recorder.stop()
    assert voice.errors == []
    loud = np.abs(heard) > 0.01
    assert loud.sum() / 22050 > 0.4, f"{lang}: {loud.sum() / 22050:.2f} s of speech heard"
