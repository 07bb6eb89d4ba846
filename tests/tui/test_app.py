"""The app's conventions: pause/skip/stop, quitting mid-night, no sound, settings,
help, theme, command palette."""

from __future__ import annotations

import json
from pathlib import Path

from textual.command import Command, CommandList, CommandPalette
from textual.widgets import Input, Select

from narrator.compose import make_app as make_real_app
from narrator.script import Pause, Say
from narrator.session.config import SettingsStore
from narrator.session.engine import SilentEngine
from narrator.tui.screens.confirm import ConfirmDialog
from narrator.tui.screens.export import ExportDialog
from narrator.tui.screens.games import GamesScreen
from narrator.tui.screens.help import HelpScreen
from narrator.tui.screens.night import NightScreen
from narrator.tui.screens.preview import PreviewScreen
from narrator.tui.screens.settings import SettingsScreen
from narrator.tui.screens.setup import SetupScreen
from tests.tui.conftest import run_until, settle, shows, sync
from tests.tui.fakes import FakeChoices, make_app, screen_text

ONUW = ("down", "down", "enter")


@sync
async def test_pause_skip_and_stop_the_night(tmp_path: Path) -> None:
    app, engine, clock = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "space")
        night = app.screen
        assert isinstance(night, NightScreen)
        await settle(pilot, lambda: night.state().sounding)
        clock.advance(5)  # into the werewolves' wake-up call
        await settle(pilot, lambda: "Werewolves, wake up" in screen_text(app))
        await pilot.press("space")  # pause
        assert night.state().paused
        before = night.state().step
        clock.advance(300)
        await pilot.pause(0.1)
        assert night.state().step == before and isinstance(app.screen, NightScreen)
        await shows(pilot, "paused")
        await pilot.press("space", "s")  # resume, then skip to the next call
        await settle(pilot, lambda: night.state().step is not None and night.state().step > before)
        await pilot.press("s")  # and past the werewolves' silence
        await settle(pilot, lambda: "Werewolves, close your eyes." in engine.said("night"))
        assert not [p for p in engine.played("night") if isinstance(p, Pause) and p.role]
        await pilot.press("escape")  # stop? the night goes on while it asks
        assert isinstance(app.screen, ConfirmDialog)
        assert not engine.playbacks[-1].finished
        await pilot.press("y")  # stop: back to the roles, silence at once
        assert isinstance(app.screen, SetupScreen)
        assert all(p.finished for p in engine.playbacks)


@sync
async def test_quitting_mid_night_stops_the_sound(tmp_path: Path) -> None:
    app, engine, clock = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "space")
        await run_until(pilot, clock, lambda: engine.playbacks != [], step=1)
        await pilot.press("q")
        await pilot.pause()
    assert engine.closed
    assert all(p.finished for p in engine.playbacks)
    assert app.return_code == 0


@sync
async def test_without_a_sound_device_play_is_off_and_export_offered(tmp_path: Path) -> None:
    app, engine, _ = make_app(tmp_path, problem="no audio output device")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "p")
        preview = app.screen
        assert isinstance(preview, PreviewScreen)
        await settle(pilot, lambda: preview.audio_problem is not None)
        await shows(pilot, "No sound: no audio output device. Press e to export instead.")
        assert not preview.check_action("play", ())
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        app.screen.query_one(Input).value = str(tmp_path / "night.flac")
        await pilot.press("enter")
        await settle(pilot, lambda: bool(engine.exported))
        script, path = engine.exported[0]
        assert path == tmp_path / "night.flac" and script.phase == "night"


@sync
async def test_action_time_edited_in_the_preview_is_saved(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "p")
        await pilot.press("down", "down", "down", "down")  # the werewolves' silence
        await pilot.press("plus")
        assert "15 s to act" in screen_text(app)
        saved = json.loads((tmp_path / "settings.json").read_text())
        assert saved["action_times"] == {"onuw": {"werewolf": 15.0}}


@sync
async def test_settings_are_checked_saved_and_applied(tmp_path: Path) -> None:
    app, engine, _ = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f2")
        form = app.screen
        assert isinstance(form, SettingsScreen)
        form.query_one("#pace", Input).value = "fast"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        assert "pace: a number, please" in screen_text(app)
        form.query_one("#pace", Input).value = "1.5"
        form.query_one("#bed_volume", Input).value = "0.2"
        await pilot.click("#test")
        await settle(pilot, lambda: engine.previews != [])
        assert engine.previews[0][1].bed_volume == 0.2
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, GamesScreen)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["pace"] == 1.5 and saved["bed_volume"] == 0.2
    assert engine.settings.bed_volume == 0.2


@sync
async def test_bed_wake_gap_and_preview_from_the_settings(tmp_path: Path) -> None:
    app, engine, clock = make_app(tmp_path, choices=FakeChoices())
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f2")
        form = app.screen
        assert isinstance(form, SettingsScreen)
        beds = form.query_one("#ambience", Select)
        await settle(pilot, lambda: len(beds._options) == 3)  # the audio layer's list
        beds.value = "fire"
        form.query_one("#wake_gap", Input).value = "11"
        await pilot.press("ctrl+s")
        assert "wake gap: from 0 to 10" in screen_text(app)
        form.query_one("#wake_gap", Input).value = "2.5"
        await pilot.click("#test")
        await settle(pilot, lambda: engine.previews != [])
        lang, heard_with = engine.previews[0]
        assert lang == "en" and heard_with.ambience == "fire"
        preview = engine.playbacks[-1]
        assert preview.script.ruleset == "preview"
        clock.advance(60)  # the sample call ends; the app closes what it opened
        await settle(pilot, lambda: preview.closed)
        assert engine.settings.ambience == "rain"  # the form is not saved yet
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, GamesScreen)
        assert engine.settings.ambience == "fire"  # the next night plays on it
        await pilot.press(*ONUW)
        assert app.session.game is not None
        night = app.session.game.script("night")
        assert app.session.game.plan("night").wake_gap == 2.5
        assert any(getattr(s, "after", 0) == 2.5 for s in night.steps)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["ambience"] == "fire" and saved["wake_gap"] == 2.5
    app2, engine2, _ = make_app(
        tmp_path, settings=SettingsStore(tmp_path / "settings.json").load()[0]
    )
    async with app2.run_test(size=(100, 40)) as pilot:
        assert engine2.settings.ambience == "fire"
        await pilot.press("f2")
        assert app2.screen.query_one("#ambience", Select).value == "fire"
        assert app2.screen.query_one("#wake_gap", Input).value == "2.5"


@sync
async def test_a_corrupt_settings_file_is_reported_on_start(tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / "config"
    (config / "narrator").mkdir(parents=True)
    (config / "narrator" / "settings.json").write_text("{oops")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    app = make_real_app({"NARRATOR_AUDIO": "fake"})
    assert isinstance(app.engine, SilentEngine)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("could not be read" in m and "kept as" in m for m in messages)
    assert list((config / "narrator").glob("settings.json.corrupt-*"))


@sync
async def test_help_theme_and_command_palette(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("ctrl+t")
        assert app.theme == "textual-light"
        assert json.loads((tmp_path / "settings.json").read_text())["theme"] == "textual-light"
        await pilot.press(*ONUW, "x")
        assert app.game is not None
        await pilot.press("ctrl+p")
        await pilot.press(*"recommended deck")

        def deck_highlighted() -> bool:  # the palette searches in batches, off the keys
            palette = app.screen
            if not isinstance(palette, CommandPalette):
                return False
            option = palette.query_one(CommandList).highlighted_option
            return isinstance(option, Command) and option.hit.text == "Recommended deck"

        await settle(pilot, deck_highlighted)
        await pilot.press("enter")
        await settle(pilot, lambda: app.game is not None and app.game.counts.get("villager") == 3)
        assert isinstance(app.screen, SetupScreen)


@sync
async def test_voices_devices_and_microphones_are_offered_and_a_saved_voice_kept(
    tmp_path: Path,
) -> None:
    from narrator.session.config import Settings

    choices = FakeChoices()
    app, engine, _ = make_app(tmp_path, Settings(voice="old-voice"), choices=choices)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f2")
        form = app.screen
        assert isinstance(form, SettingsScreen)
        await settle(pilot, lambda: choices.asked == ["en"])
        device = form.query_one("#device", Select)
        # the lists come from a worker: the form has them once the device "3" is offered
        await settle(pilot, lambda: "3" in [value for _, value in device._options])
        voice = form.query_one("#voice", Select)
        assert voice.value == "old-voice"  # a voice no longer offered is not lost
        device.value = "3"
        microphone = form.query_one("#microphone", Select)
        assert [value for _, value in microphone._options if value != Select.NULL] == ["1", "4"]
        microphone.value = "4"
        form.query_one("#language", Select).value = "it"
        await settle(pilot, lambda: choices.asked == ["en", "it"])
        await pilot.press("ctrl+s")
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["device"] == "3" and saved["language"] == "it"
    assert saved["microphone"] == "4"
    assert engine.settings.device == 3


@sync
async def test_the_night_ends_under_an_open_dialog_and_the_day_follows(tmp_path: Path) -> None:
    from narrator.tui.screens.day import DayScreen

    app, _, clock = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "space")
        night = app.screen
        assert isinstance(night, NightScreen)
        await settle(pilot, lambda: night.state().sounding)
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDialog)
        clock.advance(500)
        await settle(pilot, lambda: night.state().done)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot, lambda: isinstance(app.screen, DayScreen))


@sync
async def test_a_night_that_cannot_play_stays_with_retry_and_export(tmp_path: Path) -> None:
    from narrator.tui.screens.day import DayScreen

    app, engine, clock = make_app(tmp_path)
    engine.broken = "Connection refused by the sound server"
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "space")
        night = app.screen
        assert isinstance(night, NightScreen)
        await settle(pilot, lambda: night.state().status == "failed")
        clock.advance(900)  # it never moves on by itself
        await pilot.pause(0.3)
        assert app.screen is night and night.state().status == "failed"
        await shows(
            pilot,
            "The night could not be played: Connection refused by the sound server",
            "Retry",
            "Export",
        )
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("escape")
        assert app.screen is night
        engine.broken = None  # the server is back
        await pilot.press("r")
        await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen), step=5)
        assert app.game is not None
        calls = [s.text for s in app.game.script("night").steps if isinstance(s, Say)]
        assert engine.said("night") == calls  # the whole night, once


@sync
async def test_the_day_left_follows_plus_and_minus_30_seconds(tmp_path: Path) -> None:
    from narrator.tui.screens.day import DayScreen

    app, _, clock = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "space")
        await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen), step=5)
        day = app.screen
        assert isinstance(day, DayScreen)
        await run_until(pilot, clock, lambda: day.state().countdown is not None, step=0.5)
        before = day.state()
        await pilot.press("plus")
        after = day.state()
        assert after.total == before.total + 30 and after.elapsed == before.elapsed
        left = after.total - after.elapsed
        await shows(pilot, f"{int(left + 0.999) // 60}:{int(left + 0.999) % 60:02d} left")
        await pilot.press("minus", "minus")
        assert day.state().total == before.total - 30


@sync
async def test_a_read_only_config_folder_is_reported_when_the_app_starts_and_saves(
    read_only_folder: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(read_only_folder.parent))
    (read_only_folder.parent / "narrator").symlink_to(read_only_folder)
    app = make_real_app({"NARRATOR_AUDIO": "fake"})
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("ctrl+t")  # a change to save
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("nor moved aside" in m for m in messages)
        assert any(m.startswith("Could not save the settings: ") for m in messages)
        assert app.is_running
