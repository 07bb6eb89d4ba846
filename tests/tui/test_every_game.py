"""Every shipped game plays through a night and a day, and broken rulesets show up."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from narrator.rules import load_catalog
from narrator.rules.catalog import Catalog
from narrator.rules.index import GamesIndex
from narrator.tui.screens.day import DayScreen
from narrator.tui.screens.games import GamesScreen
from tests.tui.conftest import run_until, settle, shows, sync
from tests.tui.fakes import make_app, screen_text

GAMES = sorted(load_catalog(Path("/nonexistent")).rulesets)


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_every_game_plays_a_night_and_a_day(ruleset_id: str, tmp_path: Path) -> None:
    @sync
    async def run() -> None:
        app, engine, clock = make_app(tmp_path)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press(*["down"] * GAMES.index(ruleset_id), "enter")
            assert app.game is not None and app.game.ruleset.id == ruleset_id
            night = app.game.script("night")
            await pilot.press("space")
            await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen), step=5)
            assert engine.played("night") == list(night.steps)
            day = app.screen
            assert isinstance(day, DayScreen)
            for _ in range(400):  # the table goes on at every wait and ends every timer
                if day.state().done:
                    break
                # (actions called directly: the keys are covered by the other tests)
                if day.state().waiting:
                    day.action_go_on()
                elif day.state().countdown is not None:
                    day.action_skip()
                else:
                    clock.advance(30)
                await pilot.pause(0.01)
            assert day.state().done
            await settle(
                pilot,
                lambda: "Press n for night 2" in screen_text(app) or "Press g" in screen_text(app),
            )
            assert ("Press n for night 2" in screen_text(app)) == (app.game.ruleset.nights != 1)

    run()


@sync
async def test_broken_and_own_rulesets_are_listed(tmp_path: Path) -> None:
    mine = tmp_path / "rulesets"
    mine.mkdir()
    (mine / "typo.yaml").write_text("id: typo\nnmae: {en: Typo}\n")
    shipped = Path(__file__).resolve().parents[2] / "rulesets" / "onuw.yaml"
    (mine / "onuw.yaml").write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    app, _, _ = make_app(tmp_path, catalog=load_catalog(mine))
    async with app.run_test(size=(100, 32)) as pilot:
        text = await shows(pilot, "One Night Ultimate Werewolf  (yours)", "typo.yaml (broken)")
        assert isinstance(app.screen, GamesScreen)
        # the file and line, and what is wrong, however the list wraps them: the
        # temporary folder's name is as long as the run makes it (under xdist, on a
        # machine past its thousandth run, the wrap fell between "typo.yaml" and ":1:")
        unwrapped = "".join(line.strip(" ▊▎") for line in text.splitlines())
        assert f"{mine / 'typo.yaml'}:1:" in unwrapped and "'languages' must be" in unwrapped


@sync
async def test_a_kept_list_is_drawn_first_and_the_catalogue_redraws_it(tmp_path: Path) -> None:
    """The first frame is the games list kept from the last run; the catalogue, read
    once just after it, redraws the list where it differs (here a game gone, another
    come), and a game that is gone cannot be chosen."""
    catalog = load_catalog(tmp_path / "no-user-rulesets")
    real = GamesIndex.of(catalog)
    gone = replace(real.games[0], id="gone", names={"en": "A Game Since Deleted"})
    stale = GamesIndex((gone, *real.games[1:]), ())
    seen_before_reading: list[str] = []

    def read() -> Catalog:
        seen_before_reading.append(screen_text(app))
        return catalog

    app, _, _ = make_app(tmp_path, catalog=read, games=stale)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert len(seen_before_reading) == 1  # read once, just after the first frame
        (first,) = seen_before_reading
        assert "A Game Since Deleted" in first and real.games[0].names["en"] not in first
        text = screen_text(app)
        assert "A Game Since Deleted" not in text
        assert all(game.names["en"] in text for game in real.games)
        app.on_games_screen_game_chosen(GamesScreen.GameChosen("gone"))  # chosen in time
        assert isinstance(app.screen, GamesScreen) and app.game is None
        await pilot.press("enter")
        assert app.game is not None and app.game.ruleset.id == real.games[0].id
        assert len(seen_before_reading) == 1
