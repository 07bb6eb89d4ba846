"""A whole Lupus in Tabula round into the second night, and Secret Moon's turns."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Digits

from narrator.script import Say
from narrator.tui.screens.day import DayScreen
from narrator.tui.screens.night import NightScreen
from narrator.tui.screens.setup import SetupScreen
from tests.tui.conftest import run_until, settle, shows, sync
from tests.tui.fakes import make_app, screen_text


@sync
async def test_lupus_round_into_the_second_night(tmp_path: Path) -> None:
    app, engine, clock = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("enter")  # Lupus in Tabula is first in the list
        assert isinstance(app.screen, SetupScreen)
        game = app.game
        assert game is not None and game.ruleset.id == "lupus"
        await pilot.press("right_square_bracket")  # 8 players: the recommended deck follows
        text = screen_text(app)
        assert "8 players (7–24)" in text
        assert "These are the possible roles" in text
        assert game.roles == (("werewolf", 2), ("seer", 1), ("villager", 5))

        await pilot.press("space")
        night = app.screen
        assert isinstance(night, NightScreen)
        text = screen_text(app)
        assert "Night 1 · Lupus in Tabula · 8 players" in text
        assert "Possible roles (each is called, dealt or not)" in text
        first_night = night.script
        await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
        assert engine.played("night") == list(first_night.steps)

        day = app.screen
        assert isinstance(day, DayScreen)
        # The Master names the victim: the day waits for a key.
        await run_until(pilot, clock, lambda: day.state().waiting)
        # the Master names them (finding 15): on the screen once it has drawn
        await shows(pilot, "eliminated tonight")
        await pilot.press("enter")
        # Discussion: three minutes; the table is done early and skips the rest.
        await run_until(pilot, clock, lambda: day.state().countdown is not None, step=0.5)
        await settle(pilot, lambda: day.query_one(Digits).value == "3:00")
        await pilot.press("s")
        # Accusation: wait while the table counts; the tie rule is on screen.
        await run_until(pilot, clock, lambda: day.state().waiting)
        await shows(pilot, "Accusation", "Tie: ", "Tombstone")
        await pilot.press("enter")
        # Defence timer, then the ballot countdown.
        await run_until(pilot, clock, lambda: day.state().countdown is not None, step=0.5)
        await shows(pilot, "Defence")
        await run_until(pilot, clock, lambda: day.state().waiting)
        said = engine.said("day")
        go = said.index("Go!")
        assert said[go - 3 : go + 1] == ["One.", "Two.", "Three.", "Go!"]
        await shows(pilot, "Ballot")
        await pilot.press("enter")
        await run_until(pilot, clock, lambda: day.state().done, step=0.5)
        await shows(pilot, "The day is over. Press n for night 2.")
        assert engine.said("day")[-1] == "The day is over, and night falls."

        # The next night, with its number.
        await pilot.press("n")
        night2 = app.screen
        assert isinstance(night2, NightScreen)
        assert game.night == 2
        assert "Night 2 · Lupus in Tabula" in screen_text(app)
        await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
        heard = engine.said("night")
        second = [s.text for s in night2.script.steps if isinstance(s, Say)]
        assert heard[-len(second) :] == second
        await shows(pilot, "Day 2 · Lupus in Tabula")


@sync
async def test_secret_moon_rounds_and_numbered_turns(tmp_path: Path) -> None:
    app, engine, clock = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("down", "down", "down", "enter")  # Secret Moon
        assert app.game is not None and app.game.ruleset.id == "secret_moon"
        await pilot.press("p", "t", "t")  # turn time: none -> 30 s
        assert app.game.turn_seconds == 30.0
        await pilot.press("space")
        await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
        day = app.screen
        assert isinstance(day, DayScreen)
        await run_until(pilot, clock, lambda: day.state().countdown is not None, step=0.5)
        await shows(pilot, "Round 1 · Turn 1")
        await settle(pilot, lambda: day.query_one(Digits).value == "0:30")
        await pilot.press("s")  # the turn is over early
        await run_until(pilot, clock, lambda: day.state().countdown is not None, step=0.5)
        await shows(pilot, "Round 1 · Turn 2")
        await settle(pilot, lambda: "Card 2, your turn." in engine.said("day"))
