"""The app with the real audio layer, playing into a private PulseAudio server.

The other app tests use a silent recording engine on a virtual clock; this one
plays a short night for real -- speech synthesised by espeak-ng, the tapping bed,
PortAudio into a null sink -- records the sink's monitor, and checks that the night
was heard through to the day, every call in order.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from textual.widgets import Select

from narrator.audio import AudioEngine, AudioSettings
from narrator.rules import load_catalog
from narrator.script import Say, Script
from narrator.session.clock import SystemClock
from narrator.session.config import Settings, SettingsStore
from narrator.session.engine import NoChoices
from narrator.tui.app import NarratorApp
from narrator.tui.screens.day import DayScreen
from narrator.tui.screens.night import NightScreen
from narrator.tui.screens.setup import SetupScreen
from tests.support.soundserver import RATE, SoundServer
from tests.tui.conftest import settle, sync
from tests.tui.fakes import screen_text

# Measures time itself: one at a time under xdist (see tests/conftest.py).
pytestmark = [pytest.mark.audio, pytest.mark.xdist_group("timing")]
MINIMAL = Path(__file__).resolve().parents[1] / "unit" / "minimal.yaml"


class WatchedEngine(AudioEngine):
    """The real engine, noting each night it plays and which step is heard when."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.nights: list[tuple[Script, Any]] = []
        self.heard_with: list[AudioSettings] = []  # the settings of each play()

    def play(self, script: Script) -> Any:
        playback = super().play(script)
        self.nights.append((script, playback))
        self.heard_with.append(self.settings)
        return playback


def voice_loaded(engine: AudioEngine) -> AudioEngine:
    """The English voice loaded, as the app's engine has it by the time anybody plays
    (started with the app): its worker up, one word said -- rendered, never played.
    The calls stay unspoken: each is made while the night plays. (A voice loading
    from cold under the night's two-second lead-in is the bench's measure, and on a
    busy test machine it may outlast the lead-in: scripts/bench_first_word.)"""
    engine.render(Script("warm-up", "night", 1, "en", 0, (), (Say("Ready."),)))
    return engine


@sync
async def test_a_night_is_heard_through_to_the_day(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    shutil.copy(MINIMAL, rulesets / "tiny.yaml")  # two calls: a short night
    engine = voice_loaded(WatchedEngine(AudioSettings(), tmp_path / "cache"))
    clock = SystemClock()
    app = NarratorApp(
        engine,
        SettingsStore(tmp_path / "settings.json"),
        Settings(pace=0.3),
        load_catalog(rulesets),
        clock,
        NoChoices(),
    )
    recorder = sound_server.record(tmp_path / "monitor.raw")
    heard: list[int] = []
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, lambda: app.audio_problem is None and app.screen is not None)
            await pilot.press(*["down"] * 4, "enter")  # lupus, mafia, onuw, secret_moon, tiny
            assert isinstance(app.screen, SetupScreen)
            assert app.game is not None and app.game.ruleset.id == "tiny"
            await pilot.press("space")
            assert isinstance(app.screen, NightScreen)
            deadline = time.monotonic() + 60
            while not isinstance(app.screen, DayScreen):
                assert time.monotonic() < deadline, "the night never ended"
                if engine.nights:
                    step = engine.nights[-1][1].current_step
                    if step is not None and (not heard or heard[-1] != step):
                        heard.append(step)
                await pilot.pause(0.02)
            await settle(pilot, lambda: "Day 1" in screen_text(app))
    finally:
        samples = recorder.stop()
    script, playback = engine.nights[0]
    assert playback.finished and playback.error is None
    says = [i for i, s in enumerate(script.steps) if isinstance(s, Say)]
    assert [i for i in heard if i in says] == says  # every call, in order, none skipped
    # What the sink really played: as long as the rendered night, and never silent
    # for long in between (the tapping bed runs under the pauses).
    timeline = engine.render(script)
    loud = np.flatnonzero(np.abs(samples) > 10 ** (-50 / 20))
    assert loud.size, "nothing reached the sound server"
    span = (loud[-1] - loud[0]) / RATE
    assert abs(span - timeline.duration) < 0.5, (span, timeline.duration)
    gaps = np.diff(loud) / RATE
    assert gaps.max() < 0.5, f"a {gaps.max():.2f} s hole in the night"


@sync
async def test_the_settings_preview_plays_the_chosen_bed_and_closes(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    from narrator.tui.choices import RealChoices
    from narrator.tui.screens.settings import SettingsScreen

    engine = voice_loaded(WatchedEngine(AudioSettings(), tmp_path / "cache"))
    app = NarratorApp(
        engine,
        SettingsStore(tmp_path / "settings.json"),
        Settings(),
        load_catalog(tmp_path / "no-rulesets"),
        SystemClock(),
        RealChoices(),
    )
    recorder = sound_server.record(tmp_path / "monitor.raw")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, lambda: app.audio_problem is None and app.screen is not None)
            before = len(sound_server.sink_inputs())
            await pilot.press("f2")
            form = app.screen
            assert isinstance(form, SettingsScreen)
            beds = form.query_one("#ambience", Select)
            await settle(pilot, lambda: ("crickets", "crickets") in beds._options)
            # the microphones PortAudio finds on the test sound server (its monitors),
            # the default marked
            microphones = form.query_one("#microphone", Select)
            offered = [label for label, value in microphones._options if value != Select.NULL]
            assert offered and any(label.endswith(" (default)") for label in offered), offered
            beds.value = "crickets"
            await pilot.click("#test")
            await settle(pilot, lambda: engine.nights != [], limit=3000)
            script, playback = engine.nights[0]
            await settle(pilot, lambda: playback.finished, limit=6000)
            # the app closed the stream it opened: no sink input is left
            await settle(pilot, lambda: len(sound_server.sink_inputs()) == before, limit=1000)
            assert engine.settings.ambience == "rain"  # back to the saved settings
    finally:
        samples = recorder.stop()
    assert script.ruleset == "preview" and playback.error is None
    assert engine.heard_with[0].ambience == "crickets"
    engine.settings = engine.heard_with[0]
    timeline = engine.render(script)
    loud = np.flatnonzero(np.abs(samples) > 10 ** (-50 / 20))
    assert loud.size, "the preview never reached the sound server"
    span = (loud[-1] - loud[0]) / RATE  # wake call, its gap, instruction, bed, close
    assert abs(span - timeline.duration) < 0.5, (span, timeline.duration)
    engine.close()
