"""The table's voice: one contract for the session's silent engine and the real one;
the real speech engine naming players (any script) into a real sound server; a
night that ends by itself once heard, and one that fails and is not passed as heard."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from narrator.audio.settings import DEFAULT_RATES
from narrator.rules import load_catalog
from narrator.script.render_text import total_seconds
from narrator.session import GameSetup, Session, Settings, SilentEngine, SystemClock
from narrator.table.lines import join_names, line
from narrator.table.voice import SessionVoice, silent_voice
from tests.support.clock import RunningClock
from tests.table.live import live_table


class BrokenEngine(SilentEngine):
    def play(self, script: Any) -> Any:
        raise RuntimeError("PortAudio: device lost")


def wait_for(test: Any, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not test() and time.monotonic() < deadline:
        time.sleep(0.02)
    return bool(test())


@pytest.fixture(
    params=["silent", pytest.param("real", marks=[pytest.mark.audio, pytest.mark.realtime])]
)
def voice(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionVoice]:
    if request.param == "silent":
        made = silent_voice()
    else:
        request.getfixturevalue("sound_server")
        from narrator.audio import AudioEngine, AudioSettings

        engine = AudioEngine(AudioSettings(), cache_dir=tmp_path / "cache")
        made = SessionVoice(Session(engine, SystemClock(), Settings()))
    yield made
    made.close()


def test_say_never_blocks_and_every_line_is_heard_in_order(voice: SessionVoice) -> None:
    lines = ["Ann dies.", "Bo dies.", "The village wins."]
    for text in lines:
        voice.say(text, "en")
    assert len(voice.heard) < 3  # queued, not waited for (a line is heard in real time)
    assert voice.said == lines
    assert wait_for(lambda: len(voice.heard) == 3, 30)
    assert voice.heard == lines and voice.errors == []


def test_a_night_ends_by_itself_once_heard() -> None:
    clock = RunningClock(100)  # a silent night in seconds
    with live_table("onuw", voice=silent_voice(clock)) as live:
        for name in ("Ann", "Bo", "Cy"):
            live.join(name)
        live.host("start")
        live.host("next")
        assert live.table.phase == "night"
        assert wait_for(lambda: live.table.phase == "day", 20)


def test_a_night_that_fails_is_not_passed_as_heard() -> None:
    voice = SessionVoice(Session(BrokenEngine(), SystemClock(), Settings()))
    with live_table("onuw", voice=voice) as live:
        for name in ("Ann", "Bo", "Cy"):
            live.join(name)
        live.host("start")
        live.host("next")
        assert wait_for(lambda: bool(voice.errors), 5)
        assert "device lost" in voice.errors[0]
        time.sleep(0.3)
        assert live.table.phase == "night"  # the host sees the error and decides
        assert live.host("next")[0] == 200 and live.table.phase == "day"


def test_a_night_resumed_is_played_from_its_call_and_told_in_the_scripts_steps() -> None:
    """A night resumed after a restart: the voice plays its script from step `first`
    (the call it was at), never from the start, and tells the table the script's
    own step numbers; heard to the end, it says so once."""
    game = GameSetup(load_catalog().get("lupus"), 7, {"werewolf": 2, "seer": 1, "villager": 4})
    steps = game.script("night").steps
    first = next(i for i, s in enumerate(steps) if getattr(s, "role", None) == "seer")
    voice = silent_voice(RunningClock(100))  # a silent night in seconds
    heard: list[int] = []
    ended: list[str | None] = []
    voice.night(game, ended.append, heard.append, first)
    try:
        assert wait_for(lambda: bool(ended), 20)
    finally:
        voice.close()
    assert ended == [None] and heard and heard[0] == first
    assert heard == sorted(heard) and heard[-1] == len(steps) - 1


def test_a_silent_night_keeps_the_time_the_voice_would_take_at_the_users_rate() -> None:
    """--no-audio is the same timing unheard: the night's words take what they would
    said at the settings' rate (its language's default when none is set), so a table
    that plays silent keeps the evening's pace the user chose."""
    game = GameSetup(load_catalog().get("lupus"), 7, {"werewolf": 2, "seer": 1, "villager": 4})
    script = game.script("night")

    def night_seconds(settings: Settings) -> float:
        voice = silent_voice(RunningClock(1000), settings)
        ended: list[str | None] = []
        voice.night(game, ended.append)
        try:
            assert wait_for(lambda: bool(ended), 20)
        finally:
            voice.close()
        engine = voice.session.engine
        assert isinstance(engine, SilentEngine)
        duration = engine.playbacks[-1].duration
        assert duration is not None
        return duration

    slow, fast = night_seconds(Settings(rate=100)), night_seconds(Settings(rate=400))
    assert slow == pytest.approx(total_seconds(script, 100))
    assert fast == pytest.approx(total_seconds(script, 400))
    assert slow > fast + 20  # this night says some 50 words: 32 s at 100 a minute, 8 at 400
    default = night_seconds(Settings())
    assert default == pytest.approx(total_seconds(script, DEFAULT_RATES["en"]))


@pytest.mark.audio
@pytest.mark.parametrize(
    ("lang", "names"),
    [("en", ["Ann", "Bo"]), ("it", ["Giulia", "Marco"]), ("fa", ["سارا", "Ann"])],
)
def test_the_real_voice_says_the_players_names(
    sound_server: Any, tmp_path: Path, lang: str, names: list[str]
) -> None:
    from narrator.audio import AudioEngine, AudioSettings

    engine = AudioEngine(AudioSettings(), cache_dir=tmp_path / "cache")
    voice = SessionVoice(Session(engine, SystemClock(), Settings(language=lang)))
    recorder = sound_server.record(tmp_path / "rec.raw")
    text = line("dead_many", lang, names=join_names(names, lang))
    voice.say(text, lang)
    assert wait_for(lambda: voice.heard == [text], 30), voice.errors
    voice.close()
    heard = recorder.stop()
    loud = np.abs(heard) > 0.01
    assert loud.sum() / 22050 > 0.4, f"{lang}: {loud.sum() / 22050:.2f} s of speech heard"
