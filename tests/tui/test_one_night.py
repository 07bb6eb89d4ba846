"""A whole One Night game, driven as a user would, on a silent recording engine."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import DataTable

from narrator.script import Pause, Say
from narrator.session.config import SettingsStore
from narrator.tui.screens.day import DayScreen
from narrator.tui.screens.games import GamesScreen
from narrator.tui.screens.night import NightScreen
from narrator.tui.screens.preview import STEP, PreviewScreen
from narrator.tui.screens.setup import SetupScreen
from tests.tui.conftest import run_until, settle, shows, sync
from tests.tui.fakes import make_app, screen_text
from tests.unit.test_action_time_turns import ROLES as FOLLOW_UPS  # Doppelganger wakes 3 times

TIMES = {"doppelganger": 12 - 5.0, "doppelganger:-7b": 5 + 5.0, "doppelganger:9.1": 5 + 10.0}


@sync
async def test_a_whole_one_night_game(tmp_path: Path) -> None:
    app, engine, clock = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        assert isinstance(app.screen, GamesScreen)
        assert "One Night Ultimate Werewolf" in screen_text(app)
        await pilot.press("down", "down", "enter")  # Lupus, Mafia, One Night
        assert isinstance(app.screen, SetupScreen)
        game = app.game
        assert game is not None and game.ruleset.id == "onuw"
        text = screen_text(app)
        assert "5 players (3–10)" in text
        assert "8 cards · 8 needed: 5 dealt + 3 in the centre" in text
        assert "Ready to play" in text

        # A random deck, then back to the recommended one with one key.
        await pilot.press("x")
        assert game.valid
        await pilot.press("r")
        assert game.roles == (
            ("werewolf", 2),
            ("seer", 1),
            ("robber", 1),
            ("troublemaker", 1),
            ("villager", 3),
        )

        # One Villager fewer: the check says why, and Play is unavailable.
        villager = app.screen.query_one("#roles").get_option_index("villager")  # type: ignore[attr-defined]
        app.screen.query_one("#roles").highlighted = villager  # type: ignore[attr-defined]
        await pilot.press("minus")
        assert "5 players need 8 cards (players + 3); 7 chosen" in screen_text(app)
        assert not app.screen.check_action("play", ())
        await pilot.press("space")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("plus")
        assert game.valid

        # The preview: the calls, their times, the total.
        await pilot.press("p")
        assert isinstance(app.screen, PreviewScreen)
        text = screen_text(app)
        assert "Werewolves, wake up and look for each other." in text
        assert "Total ≈ 1:47" in text  # four wake calls, each with its 1 s gap

        # One key starts the night; it runs to the end on its own, into the day.
        await pilot.press("space")
        assert isinstance(app.screen, NightScreen)
        night = app.screen.script
        await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
        assert engine.said("night") == [s.text for s in night.steps if isinstance(s, Say)]
        assert engine.played("night") == list(night.steps)

        # The day: wake-up, then the five-minute discussion, one more minute asked for.
        day = app.screen
        assert isinstance(day, DayScreen)
        await run_until(pilot, clock, lambda: day.state().countdown is not None, step=0.5)
        await shows(pilot, "Discussion")
        await pilot.press("plus", "plus")
        assert day.state().countdown is not None
        assert round(day.state().countdown or 0) == 360
        await run_until(pilot, clock, lambda: "One minute left." in engine.spoken, step=5)
        await run_until(pilot, clock, lambda: "Ten seconds." in engine.spoken, step=1)
        assert engine.spoken == ["One minute left.", "Ten seconds."]

        # The vote countdown: announce, three, two, "one, point"; then the tie rule waits.
        await run_until(pilot, clock, lambda: day.state().waiting)
        said = engine.said("day")
        assert said[said.index("Time is up.") + 1 :] == [
            'Get ready to vote. I count down from three; the moment you hear "one", each of '
            "you points at another player.",
            "Three.",
            "Two.",
            "One, point!",
        ]
        await shows(
            pilot, "Count the votes", "Tie: A tie for the most votes kills every tied player"
        )
        await pilot.press("enter")
        await settle(pilot, lambda: day.state().done)
        await shows(pilot, "The game is over. Press g for a new game.")
        assert app.screen.check_action("next_night", ()) is False
        await pilot.press("g")
        assert isinstance(app.screen, GamesScreen)


@sync
async def test_plus_and_minus_in_the_preview_change_the_doppelganger_s_follow_up_turns(
    tmp_path: Path,
) -> None:
    app, _, _ = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("down", "down", "enter")  # One Night
        game = app.game
        assert game is not None and game.ruleset.id == "onuw"
        game.set_players(6)
        game.counts.clear()
        for role, count in FOLLOW_UPS:
            game.set_count(role, count)
        await pilot.press("p")
        preview = app.screen
        assert isinstance(preview, PreviewScreen)
        table = preview.query_one(DataTable)
        steps = preview.script.steps
        timed = [i for i, s in enumerate(steps) if isinstance(s, Pause) and s.role]
        own, with_minion, after_insomniac = timed[0], timed[1], timed[-1]
        assert {steps[i].role for i in (own, with_minion, after_insomniac)} == {"doppelganger"}

        def act(row: int) -> str:
            return str(table.get_row_at(row)[2])

        assert (act(own), act(with_minion)) == (
            "12 s to act  (+/- to change)",
            "5 s to act  (+/- to change)",
        )
        table.move_cursor(row=with_minion)  # 1b: she wakes again with the Minion
        await pilot.press("plus")
        assert act(with_minion) == f"{5 + STEP:g} s to act  (+/- to change)"
        assert act(own) == "12 s to act  (+/- to change)"  # her own turn unchanged
        table.move_cursor(row=after_insomniac)  # 9b: again after the Insomniac
        await pilot.press("plus", "plus")
        assert act(after_insomniac) == f"{5 + 2 * STEP:g} s to act  (+/- to change)"
        table.move_cursor(row=own)  # her own turn: keyed by the role, as always
        await pilot.press("minus")
        assert act(own) == f"{12 - STEP:g} s to act  (+/- to change)"
        assert act(with_minion) == f"{5 + STEP:g} s to act  (+/- to change)"
        saved = json.loads((tmp_path / "settings.json").read_text())
        assert saved["action_times"] == {"onuw": TIMES}
    # The next game of One Night starts with them, from the saved settings.
    settings, problem = SettingsStore(tmp_path / "settings.json").load()
    assert problem is None
    again, _, _ = make_app(tmp_path, settings=settings)
    async with again.run_test(size=(100, 32)) as pilot:
        await pilot.press("down", "down", "enter")
        assert again.game is not None
        assert again.game.action_times == TIMES
