"""The app records a voice pack, shares it and plays with it (Pilot, a simulated booth).

The booth is `SimulatedBooth`, the one `NARRATOR_AUDIO=fake` uses (it passes the real
booth's contract tests, tests/audio/test_booth.py): takes are real samples, checked,
normalised and written by the real code, into the test's own data folder.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from textual.widgets import Input

from narrator.audio.booth import SimulatedBooth
from narrator.audio.voicepack import find_pack, installed_packs, packs_dir
from narrator.i18n.bidi import visual
from narrator.session.config import Settings
from narrator.tui.app import NarratorApp
from narrator.tui.screens.confirm import ConfirmDialog
from narrator.tui.screens.new_pack import NewPackDialog
from narrator.tui.screens.pack_file import PackFileDialog
from narrator.tui.screens.packs import VoicePacksScreen
from narrator.tui.screens.record import RecordScreen, Studio
from narrator.tui.screens.setup import SetupScreen
from tests.support.unwritable import unwritable
from tests.tui.conftest import settle, shows, sync
from tests.tui.fakes import make_app

ONUW = ("down", "down", "enter")


def with_booth(app: NarratorApp, speech: float = 0.6) -> None:
    app.studio = Studio(booth=lambda device, microphone: SimulatedBooth(speech=speech))


async def open_recording(pilot, name: str = "Nonna") -> RecordScreen:  # type: ignore[no-untyped-def]
    await pilot.press(*ONUW)
    assert isinstance(pilot.app.screen, SetupScreen)
    await pilot.press("v")
    assert isinstance(pilot.app.screen, NewPackDialog)
    pilot.app.screen.query_one("#pack-name", Input).value = name
    pilot.app.screen.query_one("#pack-by", Input).value = "Rosa"
    await pilot.press("enter")
    await settle(pilot, lambda: isinstance(pilot.app.screen, RecordScreen))
    screen = pilot.app.screen
    assert isinstance(screen, RecordScreen)
    return screen


async def take(pilot, screen: RecordScreen) -> None:  # type: ignore[no-untyped-def]
    """Record until the meter has heard the voice come and go, then stop."""
    await pilot.press("space")
    assert screen.state == "recording"
    meter = screen.query_one("#level")
    await settle(pilot, lambda: meter.level > -20)  # the voice
    await settle(pilot, lambda: meter.level < -50)  # and the room after it
    await pilot.press("space")
    await settle(pilot, lambda: screen.state in ("playing", "review", "idle"))


@sync
async def test_the_booth_records_from_the_microphone_the_settings_name(tmp_path: Path) -> None:
    from narrator.session.config import Settings

    app, _, _ = make_app(tmp_path, Settings(device="3", microphone="4"))
    asked: list[tuple[str | None, str | None]] = []

    def booth(device: str | None, microphone: str | None) -> SimulatedBooth:
        asked.append((device, microphone))
        return SimulatedBooth(speech=0.6)

    app.studio = Studio(booth=booth)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_recording(pilot)
    assert asked == [("3", "4")]


@sync
async def test_record_keep_skip_and_leave_loses_nothing(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path)
    with_booth(app)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_recording(pilot)
        rec = screen.recording
        first = rec.text
        assert first == "Everyone, close your eyes."  # tonight's deck first, as heard
        await shows(pilot, f"Line 1 of {len(rec.lines)}", "0 recorded", first)
        await take(pilot, screen)
        assert screen.take is not None  # checked, and being played back
        await pilot.press("enter")
        await settle(pilot, lambda: screen.state == "idle" and rec.done == 1)
        await shows(pilot, "Kept: line 1.", "Line 2 of", "1 recorded")
        second = rec.text
        await pilot.press("s")  # skipped: the default voice will say it
        assert rec.text != second and rec.recorded(second) is None
        await take(pilot, screen)
        await pilot.press("escape")  # a take not kept is dropped; the kept one stays
        assert isinstance(app.screen, SetupScreen)
    folder, manifest = find_pack("nonna")
    assert [line.text for line in manifest.lines] == [first]
    assert (manifest.name, manifest.game, manifest.language) == ("Nonna", "onuw", "en")
    assert (manifest.recorded_by, manifest.licence) == ("Rosa", "CC BY 4.0")
    assert (folder / manifest.lines[0].file).stat().st_size > 1000

    app, _, _ = make_app(tmp_path)  # the same name again: it goes on where it stopped
    with_booth(app)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_recording(pilot)
        assert screen.recording.done == 1 and screen.recording.index == 1
        await shows(pilot, "Line 2 of", "1 recorded")


@sync
async def test_a_take_the_disk_will_not_take_is_one_line_and_the_pack_as_it_was(
    tmp_path: Path,
) -> None:
    """The pack's folder refuses the take (as a full disk does): the screen says so in
    one line, the take stays to be kept again, and the pack is as it was; once the
    folder takes it, Enter keeps it."""
    app, _, _ = make_app(tmp_path)
    with_booth(app)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_recording(pilot)
        folder = screen.recording.folder
        before = (folder / "pack.json").read_bytes()
        await take(pilot, screen)
        with unwritable(folder / "lines"):
            await pilot.press("enter")
            shown = await shows(pilot, "The take could not be kept (")
            assert screen.state == "review" and screen.take is not None
            assert (folder / "pack.json").read_bytes() == before
            assert list((folder / "lines").iterdir()) == []  # no temporary file left
        row = next(r for r in shown.splitlines() if "could not be kept" in r)
        assert "try again" in row and "Traceback" not in shown
        await pilot.press("enter")  # the same take, now the folder takes it
        await settle(pilot, lambda: screen.recording.done == 1)
    assert len(find_pack("nonna")[1].lines) == 1


@sync
async def test_a_silent_take_is_refused_with_the_reason(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path, Settings(app_language="it"))
    with_booth(app, speech=0.0)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_recording(pilot)
        await pilot.press("space")
        await settle(pilot, lambda: screen.query_one("#level").level > -100)
        await pilot.press("space")
        await settle(pilot, lambda: screen.state == "idle")
        assert screen.take is None
        await shows(pilot, "Non si è sentito nulla")
        await pilot.press("enter")  # nothing to keep
    assert find_pack("nonna")[1].lines == ()


@sync
async def test_the_persian_line_is_drawn_right_to_left_in_an_english_app(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path, Settings(app_language="en", bidi="on"))
    with_booth(app)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*ONUW, "v")
        dialog = app.screen
        assert isinstance(dialog, NewPackDialog)
        dialog.query_one("#pack-name", Input).value = "Nava"
        dialog.query_one("#pack-language").value = "fa"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, RecordScreen))
        screen = app.screen
        assert isinstance(screen, RecordScreen)
        assert screen.recording.text == "همگی، لطفاً چشم‌هایتان را ببندید."
        drawn = visual(screen.recording.text, lang="fa", mode="on")
        shown = await shows(pilot, drawn)
        row = next(r for r in shown.splitlines() if drawn in r)
        inside = row.strip().strip("│")
        assert len(inside) - len(inside.lstrip()) > len(inside) - len(inside.rstrip())
        assert "Line 1 of" in shown  # the app's own words stay English


@sync
async def test_voice_packs_use_export_import_and_the_night_says_what_it_lacks(
    tmp_path: Path,
) -> None:
    app, engine, _ = make_app(tmp_path)
    with_booth(app)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_recording(pilot, "Our Voice")
        await take(pilot, screen)
        await pilot.press("enter")
        await settle(pilot, lambda: screen.recording.done == 1)
        await pilot.press("escape", "escape")  # to the games
        await pilot.press("v")
        packs = app.screen
        assert isinstance(packs, VoicePacksScreen)
        await shows(pilot, "Our Voice", "pack:our-voice", "1 line")
        await pilot.press("u")
        await settle(pilot, lambda: app.settings.voice == "pack:our-voice")
        assert app.store.load()[0].voice == "pack:our-voice"

        out = tmp_path / "shared.zip"
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, PackFileDialog)
        dialog.query_one(Input).value = str(out)
        await pilot.press("enter")
        await settle(pilot, lambda: out.exists())
        with zipfile.ZipFile(out) as archive:
            assert "pack.json" in archive.namelist()

        await pilot.press("i")  # the same pack again: the app asks before replacing it
        dialog = app.screen
        assert isinstance(dialog, PackFileDialog)
        dialog.query_one(Input).value = str(out)
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        told = lambda: [n.message for n in app._notifications]  # noqa: E731
        await settle(pilot, lambda: any("installed" in m for m in told()))

        hostile = tmp_path / "hostile.zip"
        with zipfile.ZipFile(hostile, "w") as archive:
            archive.writestr("../../escape.flac", b"x")
        before = sorted(p for p in packs_dir().rglob("*"))
        await pilot.press("i")
        dialog = app.screen
        assert isinstance(dialog, PackFileDialog)
        dialog.query_one(Input).value = str(hostile)
        await pilot.press("enter")
        await settle(pilot, lambda: any("points outside the pack" in m for m in told()))
        assert sorted(p for p in packs_dir().rglob("*")) == before

        await pilot.press("escape")  # to the games, and a night with the pack
        await pilot.press("enter")  # One Night, still highlighted
        assert app.game is not None and app.game.ruleset.id == "onuw"
        await pilot.press("space")
        await settle(pilot, lambda: any("Voice pack Our Voice: 1 of" in m for m in told()))
        notice = next(m for m in told() if "Voice pack Our Voice: 1 of" in m)
        assert "lines of tonight recorded; the default voice says the other" in notice
        assert engine.playbacks
    assert [m.id for _, m in installed_packs()] == ["our-voice"]


@sync
async def test_a_pack_deleted_after_a_yes_is_gone_and_the_default_voice_takes_over(
    tmp_path: Path,
) -> None:
    app, _, _ = make_app(tmp_path)
    with_booth(app)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_recording(pilot, "Our Voice")
        await take(pilot, screen)
        await pilot.press("enter")
        await settle(pilot, lambda: screen.recording.done == 1)
        await pilot.press("escape", "escape", "v")
        await shows(pilot, "Our Voice", "pack:our-voice")
        await pilot.press("u")
        await settle(pilot, lambda: app.settings.voice == "pack:our-voice")

        await pilot.press("d")  # asked first: a no keeps it
        await settle(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("n")
        await settle(pilot, lambda: isinstance(app.screen, VoicePacksScreen))
        assert [m.id for _, m in installed_packs()] == ["our-voice"]

        await pilot.press("d")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await settle(pilot, lambda: app.settings.voice is None)
        assert app.store.load()[0].voice is None  # saved: the default voice says the night
        await shows(pilot, "No voice pack yet")
    assert installed_packs() == []
    assert [p.name for p in packs_dir().iterdir()] == []  # nothing left aside
