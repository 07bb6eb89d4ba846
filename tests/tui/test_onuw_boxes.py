"""One Night's role picker by box, the boxes owned and the options, as a user sets them."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Switch

from narrator.tui.screens.game_options import GameOptionsScreen
from narrator.tui.screens.setup import SetupScreen
from tests.tui.conftest import settle, sync
from tests.tui.fakes import make_app, screen_text


@sync
async def test_picker_groups_by_box_and_the_boxes_owned_are_a_setting(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("down", "down", "enter")  # One Night
        assert isinstance(app.screen, SetupScreen)
        game = app.game
        assert game is not None and game.ruleset.id == "onuw"
        # A first game owns the base box only: no expansion role is offered.
        assert [name for name, _ in game.groups()] == ["One Night Ultimate Werewolf"]
        assert "Sentinel" not in screen_text(app)

        # Options: own Daybreak and Vampire too, turn the lone wolf off.
        await pilot.press("o")
        assert isinstance(app.screen, GameOptionsScreen)
        app.screen.query_one("#box-daybreak", Switch).value = True
        app.screen.query_one("#box-vampire", Switch).value = True
        app.screen.query_one("#opt-lone_wolf", Switch).value = False
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert game.boxes == ("base", "daybreak", "vampire")
        assert game.options["lone_wolf"] == 0.0
        assert [name for name, _ in game.groups()] == [
            "One Night Ultimate Werewolf",
            "Daybreak",
            "Vampire",
        ]
        text = screen_text(app)
        assert "Daybreak (0)" in text and "Sentinel" in text

        # A random deck comes only from the boxes owned; the night honours the options.
        for _ in range(5):
            await pilot.press("x")
            assert {game.ruleset.role(r).box for r, _ in game.roles} <= set(game.boxes)
        await pilot.press("r")
        night = game.script("night")
        assert night.seed == game.seed
        assert not any("only werewolf" in getattr(s, "text", "") for s in night.steps)

        # Saved: the next game of One Night starts with the same boxes and options.
        saved = json.loads(app.store.path.read_text("utf-8"))
        assert saved["boxes"] == {"onuw": ["base", "daybreak", "vampire"]}
        assert saved["game_options"]["onuw"]["lone_wolf"] == 0.0


@sync
async def test_owning_no_box_is_refused_in_place(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("down", "down", "enter", "o")
        assert isinstance(app.screen, GameOptionsScreen)
        app.screen.query_one("#box-base", Switch).value = False
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, GameOptionsScreen)
        assert "choose at least one box" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, SetupScreen))


def test_saved_boxes_and_options_are_checked_when_read() -> None:
    import pytest

    from narrator.session.config import SettingsError, settings_from_dict

    good = settings_from_dict({"boxes": {"onuw": ["base"]}, "game_options": {"onuw": {"terse": 1}}})
    assert good.boxes == {"onuw": ["base"]} and good.game_options == {"onuw": {"terse": 1.0}}
    for bad in ({"boxes": {"onuw": "base"}}, {"game_options": {"onuw": {"terse": True}}}):
        with pytest.raises(SettingsError):
            settings_from_dict(bad)
