"""Test doubles for the app: an engine that records what it played.

`RecordingEngine` is the app's `SilentEngine` on a `ManualClock`
(tests/support/clock.py): nothing moves until a test advances the clock, so a
five-minute discussion passes in one call, and every step the playback went through
is remembered (a skipped step is not).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from narrator.audio.settings import AudioSettings
from narrator.compose import tables
from narrator.rules import load_catalog
from narrator.rules.catalog import Catalog
from narrator.rules.index import GamesIndex
from narrator.script import Say, Script, Step
from narrator.session.config import Settings, SettingsStore
from narrator.session.engine import AudioChoices, NoChoices, SilentEngine, SilentPlayback
from narrator.tui.app import NarratorApp
from tests.support.clock import ManualClock


class RecordingEngine(SilentEngine):
    """Plays silently on a manual clock and records every heard step."""

    def __init__(self, clock: ManualClock, problem: str | None = None) -> None:
        super().__init__(AudioSettings(), clock)
        self.problem = problem
        self.spoken: list[str] = []  # speak(): timer warnings
        self.previews: list[tuple[str, AudioSettings]] = []  # preview(): (lang, settings then)
        self.closed = False
        self.broken: str | None = None  # play() raises this, as a missing device does

    def play(self, script: Script) -> SilentPlayback:
        if self.broken:
            raise RuntimeError(self.broken)
        return super().play(script)

    def check_output(self) -> str | None:
        return self.problem

    def speak(self, text: str, lang: str) -> SilentPlayback:
        self.spoken.append(text)
        return super().speak(text, lang)

    def preview(self, lang: str) -> SilentPlayback:
        self.previews.append((lang, self.settings))
        return super().preview(lang)

    def played(self, phase: str | None = None) -> list[Step]:
        """Every step heard, in order, over all playbacks of `phase` (night/day)."""
        out: list[Step] = []
        for playback in self.playbacks:
            if playback.script.ruleset and (phase is None or playback.script.phase == phase):
                out += [playback.script.steps[i] for i in playback.heard]
        return out

    def said(self, phase: str | None = None) -> list[str]:
        return [s.text for s in self.played(phase) if isinstance(s, Say)]

    def close(self) -> None:
        self.closed = True
        super().close()


def make_app(
    tmp_path: Path,
    settings: Settings | None = None,
    problem: str | None = None,
    catalog: Catalog | Callable[[], Catalog] | None = None,
    choices: AudioChoices | None = None,
    games: GamesIndex | None = None,
) -> tuple[NarratorApp, RecordingEngine, ManualClock]:
    clock = ManualClock()
    engine = RecordingEngine(clock, problem)
    store = SettingsStore(tmp_path / "settings.json")
    app = NarratorApp(
        engine,
        store,
        settings or Settings(),
        catalog or load_catalog(tmp_path / "no-user-rulesets"),
        clock,
        choices or NoChoices(),
        rng=random.Random(7),
        tables=tables(),  # the real table factory: its server on loopback
        games=games,
    )
    return app, engine, clock


def screen_text(app: NarratorApp) -> str:
    """What the terminal shows, as plain text (the screenshot without colours)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


class FakeChoices:
    """Two voices per language and two devices, as the settings screen lists them."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def voices(self, lang: str) -> list[tuple[str, str]]:
        self.asked.append(lang)
        return [(f"{lang}-a", f"Voice A ({lang})"), (f"{lang}-b", f"Voice B ({lang})")]

    def devices(self) -> list[tuple[str, str]]:
        return [("0", "Built-in speakers (default)"), ("3", "USB speaker")]

    def microphones(self) -> list[tuple[str, str]]:
        return [("1", "Built-in microphone (default)"), ("4", "USB headset")]

    def beds(self) -> list[tuple[str, str]]:
        return [("rain", "rain"), ("fire", "fire"), ("crickets", "crickets")]
