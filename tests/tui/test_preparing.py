"""The app prepares the chosen night's calls (and its day's) while the table sets up:
the set-up and preview screens say how far it is, Play stays possible meanwhile, a
change of the roles prepares again (the older preparation ended), and an engine that
cannot prepare shows nothing. The engine here is the silent one with `prepare`
recorded; the real one's preparation is tested in tests/audio/test_kokoro.py."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from narrator.script import Say, Script
from narrator.tui.screens.night import NightScreen
from narrator.tui.screens.preview import PreviewScreen
from narrator.tui.screens.setup import SetupScreen
from tests.support.clock import ManualClock
from tests.tui.conftest import settle, shows, sync
from tests.tui.fakes import RecordingEngine, make_app, screen_text

ONUW = ("down", "down", "enter")


class Steps:
    """A preparation the test moves on by hand."""

    def __init__(self, total: int, progress: Callable[[int, int], None] | None) -> None:
        self.total = total
        self.done = 0
        self.progress = progress
        self.cancelled = False
        self.error: str | None = None
        if progress is not None:
            progress(0, total)

    @property
    def finished(self) -> bool:
        return self.cancelled or self.done == self.total

    def cancel(self) -> None:
        self.cancelled = True

    def step(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        if self.progress is not None:
            self.progress(self.done, self.total)


class PreparingEngine(RecordingEngine):
    def __init__(self, clock: ManualClock) -> None:
        super().__init__(clock, None)
        self.preparations: list[tuple[list[Script], Steps]] = []
        self._lock = threading.Lock()

    def prepare(
        self, scripts: Sequence[Script], on_progress: Callable[[int, int], None] | None = None
    ) -> Steps:
        lines = {s.text for script in scripts for s in script.steps if isinstance(s, Say)}
        steps = Steps(len(lines), on_progress)
        with self._lock:
            self.preparations.append((list(scripts), steps))
        return steps


@sync
async def test_the_setup_and_preview_say_how_far_the_calls_are_prepared(tmp_path: Path) -> None:
    app, _, clock = make_app(tmp_path)
    engine = PreparingEngine(clock)
    app.engine = app.preparer.engine = engine
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW)
        assert isinstance(app.screen, SetupScreen)
        await settle(pilot, lambda: len(engine.preparations) >= 1)
        scripts, steps = engine.preparations[-1]
        assert {s.phase for s in scripts} == {"night", "day"}
        await shows(pilot, "Voice: preparing the calls, 0 of")
        await asyncio.to_thread(steps.step, 3)  # as the real one: from its own thread
        await shows(pilot, f"3 of {steps.total} ready (Play")
        await pilot.press("right_square_bracket")  # one more player: another night
        await settle(pilot, lambda: engine.preparations[-1][1] is not steps)
        assert steps.cancelled  # the older preparation ended
        _, steps = engine.preparations[-1]
        await pilot.press("p")  # the preview says it too
        assert isinstance(app.screen, PreviewScreen)
        await asyncio.to_thread(steps.step, steps.total)
        await shows(pilot, "Voice: every call is ready.")
        await pilot.press("space")  # and Play was possible all along
        assert isinstance(app.screen, NightScreen)


@sync
async def test_play_works_before_anything_is_prepared(tmp_path: Path) -> None:
    app, _, clock = make_app(tmp_path)
    engine = PreparingEngine(clock)
    app.engine = app.preparer.engine = engine
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW)
        await settle(pilot, lambda: len(engine.preparations) >= 1)
        await shows(pilot, "Voice: preparing the calls, 0 of")
        await pilot.press("space")
        assert isinstance(app.screen, NightScreen)


@sync
async def test_an_engine_that_cannot_prepare_shows_nothing(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW)
        assert isinstance(app.screen, SetupScreen)
        await pilot.pause(0.1)
        assert "Voice:" not in screen_text(app)
