"""Snapshots of every screen at 100x32, on the silent engine and a manual clock.

Regenerate after a deliberate change with `pytest tests/tui --snapshot-update`, then
look at the SVGs in `__snapshots__/` before committing them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from narrator.audio.booth import SimulatedBooth
from narrator.tui.app import NarratorApp
from narrator.tui.screens.day import DayScreen
from narrator.tui.screens.night import NightScreen
from tests.support.clock import ManualClock
from tests.tui.conftest import run_until, settle
from tests.tui.fakes import make_app, screen_text

SIZE = (100, 32)
ONUW = ("down", "down", "enter")

Before = Callable[[Pilot[Any], ManualClock], Awaitable[None]]


def _snap(snap_compare: Any, tmp_path: Path, before: Before, problem: str | None = None) -> bool:
    app, _, clock = make_app(tmp_path, problem=problem)

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await before(pilot, clock)
        for field in app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause(0.15)

    result: bool = snap_compare(app, terminal_size=SIZE, run_before=run_before)
    return result


async def _games(pilot: Pilot[Any], clock: ManualClock) -> None:
    pass


async def _setup_onuw(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press(*ONUW)


async def _setup_onuw_invalid(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press(*ONUW, "x", "right_square_bracket")  # 6 players, 8 cards: not enough


async def _setup_lupus(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press("enter", "right_square_bracket", "r")


async def _preview(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press(*ONUW, "p")


async def _night(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press(*ONUW, "space")
    app = pilot.app
    night = app.screen
    assert isinstance(night, NightScreen)
    await settle(pilot, lambda: night.state().sounding)
    clock.advance(31)  # one exact jump: the times on screen do not depend on the machine
    await settle(pilot, lambda: "You may look at another" in screen_text(app))


async def _stop_night(pilot: Pilot[Any], clock: ManualClock) -> None:
    await _night(pilot, clock)
    await pilot.press("escape")


async def _day(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press(*ONUW, "space")
    app = pilot.app
    await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
    day = app.screen
    assert isinstance(day, DayScreen)
    await run_until(pilot, clock, lambda: day.state().countdown is not None, step=0.5)
    clock.advance(75)


async def _lupus_accusation(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press("enter", "right_square_bracket", "r", "space")
    app = pilot.app
    await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
    day = app.screen
    assert isinstance(day, DayScreen)
    for _ in range(2):  # the victim, then the discussion (skipped)
        await run_until(pilot, clock, lambda: day.state().kind in ("timer", "wait"))
        await pilot.press("enter" if day.state().waiting else "s")
        await pilot.pause(0.05)
    await run_until(pilot, clock, lambda: day.state().waiting)
    await settle(pilot, lambda: "Accusation" in screen_text(app))


async def _settings(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press("f2")


async def _help(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press("f1")


async def _export(pilot: Pilot[Any], clock: ManualClock) -> None:
    app = pilot.app
    assert isinstance(app, NarratorApp)
    # the sound check runs in a worker: its "No sound" toast is in the picture
    await settle(pilot, lambda: app.audio_problem is not None)
    await pilot.press(*ONUW, "p")
    await pilot.pause(0.1)
    field = pilot.app.screen
    await pilot.press("e")
    del field
    pilot.app.screen.query_one(Input).value = "/tmp/narrator-onuw-night1.wav"


async def _export_wrong_name(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press(*ONUW, "p", "e")
    pilot.app.screen.query_one(Input).value = "/tmp/narrator-onuw-night1.txt"
    await pilot.press("enter")  # refused: the dialog stays, with its one line


async def _pack_import_wrong_name(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press("v", "i")  # the voice packs, then Import
    pilot.app.screen.query_one(Input).value = "/tmp/voice.txt"
    await pilot.press("enter")


async def _new_pack_without_a_name(pilot: Pilot[Any], clock: ManualClock) -> None:
    from narrator.tui.screens.record import Studio

    app = pilot.app
    assert isinstance(app, NarratorApp)
    app.studio = Studio(booth=lambda device, microphone: SimulatedBooth())  # recording is available
    await pilot.press(*ONUW, "v")  # record a voice for One Night
    await pilot.press("enter")  # no name yet: refused, the name's field focused


async def _light(pilot: Pilot[Any], clock: ManualClock) -> None:
    await pilot.press("ctrl+t", *ONUW)


CASES: dict[str, tuple[Before, str | None]] = {
    "games": (_games, None),
    "setup_onuw": (_setup_onuw, None),
    "setup_onuw_invalid": (_setup_onuw_invalid, None),
    "setup_lupus": (_setup_lupus, None),
    "preview": (_preview, None),
    "night": (_night, None),
    "day_discussion": (_day, None),
    "night_stop_question": (_stop_night, None),
    "day_lupus_accusation": (_lupus_accusation, None),
    "settings": (_settings, None),
    "help": (_help, None),
    "export_without_sound": (_export, "no audio output device"),
    "export_wrong_name": (_export_wrong_name, None),
    "pack_import_wrong_name": (_pack_import_wrong_name, None),
    "new_pack_without_a_name": (_new_pack_without_a_name, None),
    "setup_light_theme": (_light, None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_screen(name: str, snap_compare: Any, tmp_path: Path) -> None:
    before, problem = CASES[name]
    assert _snap(snap_compare, tmp_path, before, problem)
