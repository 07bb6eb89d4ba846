"""Snapshots of the night and the day in Persian, drawn right to left by narrator
(bidi "on": shaped letters in visual order, right-aligned), at 100x32.

Regenerate after a deliberate change with `pytest tests/tui --snapshot-update`,
then look at the SVGs in `__snapshots__/` before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from narrator.session.config import Settings
from narrator.tui.screens.day import DayScreen
from narrator.tui.screens.night import NightScreen
from tests.tui.conftest import run_until, settle
from tests.tui.fakes import make_app, screen_text

SIZE = (100, 32)
ONUW = ("down", "down", "enter")


def _snap(snap_compare: Any, tmp_path: Path, day: bool) -> bool:
    app, _, clock = make_app(tmp_path, settings=Settings(language="fa", bidi="on"))

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press(*ONUW, "space")
        night = app.screen
        assert isinstance(night, NightScreen)
        await settle(pilot, lambda: night.state().sounding)
        if not day:
            clock.advance(31)  # one exact jump: the times on screen do not depend on the machine
            await settle(pilot, lambda: "ﯽﻨﯿﺒﺑ" in screen_text(app))
            return
        await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
        screen = app.screen
        assert isinstance(screen, DayScreen)
        await run_until(pilot, clock, lambda: screen.state().countdown is not None, step=0.5)
        clock.advance(75)
        await pilot.pause(0.15)

    result: bool = snap_compare(app, terminal_size=SIZE, run_before=run_before)
    return result


def test_night_in_persian(snap_compare: Any, tmp_path: Path) -> None:
    assert _snap(snap_compare, tmp_path, day=False)


def test_day_in_persian(snap_compare: Any, tmp_path: Path) -> None:
    assert _snap(snap_compare, tmp_path, day=True)
