"""The app in Italian and in Persian (Pilot): the games list, players & roles, the
night and the day speak the game's language, and Persian is drawn right to left.

`bidi="on"` fixes the drawing of Persian, whatever terminal runs the tests; the
tmux tests (test_terminal_languages.py) run the real app with the setting on auto.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from narrator.audio.player import OUTPUT_LOST, OUTPUT_STALLED, STALL
from narrator.audio.settings import NO_MICROPHONE
from narrator.i18n.bidi import visual
from narrator.session.config import Settings
from narrator.tui.screens.day import DayScreen
from narrator.tui.screens.night import NightScreen
from narrator.tui.text import say_problem, use
from narrator.tui.widgets.call_view import CallView
from tests.support.clock import ManualClock
from tests.tui.conftest import run_until, settle, shows, sync
from tests.tui.fakes import make_app, screen_text
from tests.tui.languages import english_in

SIZE = (100, 32)
GAMES = {"it": ("enter",), "fa": ("down", "down", "enter")}  # Lupus; One Night
DISCUSSION = {"it": "Discussione", "fa": "گفت‌وگو"}  # the day's phases, on its first screen
# A line of each screen, read once it is drawn (not after a pause: a busy machine
# draws late): the games list, players & roles, the night's call 31 s in.
SHOWN = {
    "it": ("Scegli il gioco", "Pronti a giocare.", "Mettetevi d'accordo in silenzio"),
    "fa": (
        "بازی را انتخاب کنید",
        "آماده‌ی بازی.",
        "می‌توانی کارت یک بازیکن دیگر، یا دو کارت از وسط میز را ببینی.",
    ),
}


async def _walk(pilot: Pilot[Any], clock: ManualClock, lang: str) -> dict[str, str]:
    """The games list, players & roles, the night and the day, as screen text."""
    app = pilot.app
    games, setup, call = (visual(line, lang=lang, mode="on") for line in SHOWN[lang])
    seen = {"games": await shows(pilot, games)}
    await pilot.press(*GAMES[lang])
    seen["setup"] = await shows(pilot, setup)
    await pilot.press("space")
    night = app.screen
    assert isinstance(night, NightScreen)
    await settle(pilot, lambda: night.state().sounding)
    clock.advance(31)
    seen["night"] = await shows(pilot, call)
    await run_until(pilot, clock, lambda: isinstance(app.screen, DayScreen))
    day = app.screen
    assert isinstance(day, DayScreen)
    await run_until(pilot, clock, lambda: day.state().kind in ("timer", "wait"), step=0.5)
    seen["day"] = await shows(pilot, visual(DISCUSSION[lang], lang=lang, mode="on"))
    return seen


@pytest.mark.parametrize("lang", ["it", "fa"])
@sync
async def test_no_english_in_the_chrome(tmp_path: Path, lang: str) -> None:
    app, _, clock = make_app(tmp_path, settings=Settings(language=lang, bidi="on"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen = await _walk(pilot, clock, lang)
    rulesets = list(app.catalog.rulesets.values())
    for screen, text in seen.items():
        found = english_in(text, rulesets)
        assert found == set(), f"{lang} {screen}: {found}\n{text}"
    # The English app would have shown these; the translated one shows its own words.
    assert "Choose the game" not in seen["games"]
    if lang == "it":
        assert "Scegli il gioco" in seen["games"]
        assert "Pronti a giocare." in seen["setup"]
        assert "Notte 1 · Lupus in Tabula" in seen["night"]
        assert "Risveglio" in seen["day"] and "Discussione" in seen["day"]
    else:
        assert visual("بازی را انتخاب کنید", lang="fa", mode="on") in seen["games"]
        assert visual("آماده‌ی بازی.", lang="fa", mode="on") in seen["setup"]


@sync
async def test_the_app_follows_the_game_unless_the_settings_fix_it(tmp_path: Path) -> None:
    fixed = Settings(language="it", app_language="en")
    app, _, _ = make_app(tmp_path, settings=fixed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        text = await shows(pilot, "Ready to play.")
    # The game (and its roles) in Italian, the app in English as the user chose.
    assert "Ready to play." in text and "Lupo mannaro" in text


@sync
async def test_the_persian_night_call_is_right_aligned_in_visual_order(tmp_path: Path) -> None:
    app, _, clock = make_app(tmp_path, settings=Settings(language="fa", bidi="on"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*GAMES["fa"], "space")
        night = app.screen
        assert isinstance(night, NightScreen)
        await settle(pilot, lambda: night.state().sounding)
        clock.advance(31)
        line = "می‌توانی کارت یک بازیکن دیگر، یا دو کارت از وسط میز را ببینی."
        shown = visual(line, lang="fa", mode="on")
        text = await shows(pilot, shown)
        call = night.query_one(CallView)
        assert call.styles.text_align == "right"
    row = next(r for r in text.splitlines() if shown in r)
    inside = row.strip().strip("│")
    left, right = len(inside) - len(inside.lstrip()), len(inside) - len(inside.rstrip())
    assert left > right  # right-aligned: the space is on the left
    # Visual order: the sentence's full stop is drawn first (leftmost).
    assert inside.strip().startswith(".")


TABLE = {"it": ("t",), "fa": ("down", "down", "t")}  # Lupus; One Night


@pytest.mark.parametrize("lang", ["it", "fa"])
@sync
async def test_the_table_mode_speaks_the_games_language(tmp_path: Path, lang: str) -> None:
    from narrator.tui.screens.table import TableScreen
    from tests.tui.test_table_mode import join

    app, _, _ = make_app(tmp_path, settings=Settings(language=lang, bidi="on"))
    app.table_address, app.table_port = "127.0.0.1", 0
    async with app.run_test(size=(110, 44)) as pilot:
        await pilot.pause()
        await pilot.press(*TABLE[lang])
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await settle(pilot, lambda: screen.host.serving)
        urls = screen.host.urls
        base = urls["join"].split("/?")[0]
        for name in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina"):
            join(base, urls["room"], name)  # seven: Lupus deals from seven players
        await settle(pilot, lambda: "Gina" in screen_text(app))
        seen = {"lobby": screen_text(app)}
        await pilot.press("d")
        await settle(pilot, lambda: screen.host.table.phase == "cards")
        await pilot.press("n")
        await settle(
            pilot,
            lambda: (
                screen.host.table.phase == "night"
                and screen.view
                and screen.view["state"]["phase"] == "night"
            ),
        )
        night = {"it": "Notte 1", "fa": "شب 1"}[lang]
        seen["night"] = await shows(pilot, visual(night, lang=lang, mode="on"))
        await pilot.press("escape")
        await settle(pilot, lambda: not isinstance(app.screen, TableScreen))
    rulesets = list(app.catalog.rulesets.values())
    for phase, text in seen.items():
        # the join URL and the room code are addresses, not words of the app
        chrome = text.replace(urls["join"], " ").replace(urls["room"], " ")
        found = english_in(chrome, rulesets)
        assert found == set(), f"{lang} {phase}: {found}\n{text}"
    assert "Room" not in seen["lobby"] and "joined" not in seen["lobby"]
    room = {"it": "Stanza {room}", "fa": "اتاق {room}"}[lang].format(room=urls["room"])
    joined = {"it": "7 arrivati", "fa": "7 نفر آمده‌اند"}[lang]
    for line, phase in ((room, "lobby"), (joined, "lobby"), (night, "night")):
        assert visual(line, lang=lang, mode="on") in seen[phase], f"{line}\n{seen[phase]}"


@sync
async def test_the_persian_help_is_right_aligned_and_shaped(tmp_path: Path) -> None:
    app, _, _ = make_app(tmp_path, settings=Settings(language="fa", bidi="on"))
    async with app.run_test(size=(110, 44)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        line = "همین راهنما"  # a cell of the keys' table
        shown = visual(line, lang="fa", mode="on")
        text = await shows(pilot, shown)
        page = app.screen.query_one("#help-rtl")
        assert page.styles.text_align == "right"
    assert "**" not in text and "|---" not in text  # no Markdown source left raw
    assert shown != line  # shaped (joined letters, visual order)
    frame = "█"  # the help's thick border; the screen below shows around it
    row = next(r for r in text.splitlines() if shown in r)
    inside = next(part for part in row.split(frame) if shown in part).strip()
    # the table's first column ("where") is drawn rightmost, the description leftmost
    assert inside.endswith(visual("همه‌جا", lang="fa", mode="on")), inside
    assert inside.startswith(shown), inside
    # a paragraph: its first words on the right of its first line
    start = visual("بازی،", lang="fa", mode="on")
    first = next(r for r in text.splitlines() if start in r)
    body = next(part for part in first.split(frame) if start in part).rstrip()
    assert body.endswith(start), body


@sync
@pytest.mark.parametrize("lang", ["it", "fa"])
async def test_a_refused_file_name_is_said_in_the_apps_language(tmp_path: Path, lang: str) -> None:
    """The file dialogs' refusal line is the app's words too (the night's export said
    it in English before its dialog shared the voice packs' base)."""
    from textual.widgets import Input

    from narrator.tui.screens.export import ExportDialog

    app, _, _ = make_app(tmp_path, settings=Settings(language=lang, bidi="on"))
    suffixes = ".wav, .flac, .ogg, .mp3"
    said = {"it": f"Il nome deve finire in {suffixes}", "fa": f"نام باید با {suffixes} تمام شود"}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*GAMES[lang], "p", "e")
        await settle(pilot, lambda: isinstance(app.screen, ExportDialog))
        app.screen.query_one(Input).value = "/tmp/night.txt"
        await pilot.press("enter")
        await shows(pilot, visual(said[lang], lang=lang, mode="on"))
        assert isinstance(app.screen, ExportDialog)  # refused: still asking


# What the sound said, as the table reads it: the night's failure line, in a part short
# enough not to wrap (Persian: in visual order, as the screen holds it).
GONE = {"it": "l'uscita audio è sparita", "fa": "خروجی صدا قطع شد"}


@sync
@pytest.mark.parametrize("lang", ["it", "fa"])
async def test_a_night_that_cannot_play_says_why_in_the_apps_language(
    tmp_path: Path, lang: str
) -> None:
    """The sound's problems are the app's words too: an Italian table whose sound
    server went away reads why in Italian, not in the audio layer's English."""
    app, engine, _ = make_app(tmp_path, settings=Settings(language=lang, bidi="on"))
    engine.broken = OUTPUT_LOST
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*GAMES[lang], "space")
        night = app.screen
        assert isinstance(night, NightScreen)
        await settle(pilot, lambda: night.state().status == "failed")
        screen = await shows(pilot, visual(GONE[lang], lang=lang, mode="on"))
    assert "sound output" not in screen and "went away" not in screen, screen
    found = english_in(screen, list(app.catalog.rulesets.values()))
    assert found == set(), f"{lang}: {found}\n{screen}"


@pytest.mark.parametrize(
    ("lang", "line", "said"),
    [
        ("it", OUTPUT_STALLED, "l'uscita audio non ha risposto per 3 s"),
        ("fa", OUTPUT_STALLED, "خروجی صدا ۳ ثانیه پاسخ نداد"),
        # a known message with the system's own words after it: those kept as they came
        (
            "it",
            f"{NO_MICROPHONE} (Error querying device -1)",
            "nessun microfono: collegane uno e sceglilo nelle impostazioni (Microfono) "
            "oppure, con PulseAudio, come sorgente predefinita: "
            "`pactl set-default-source NOME` (Error querying device -1)",
        ),
        ("it", "Connection refused (by the server)", "Connection refused (by the server)"),
        ("en", OUTPUT_LOST, OUTPUT_LOST),
    ],
)
def test_a_problem_from_below_is_said_in_the_apps_language(lang: str, line: str, said: str) -> None:
    use(lang, lang)
    try:
        assert say_problem(line) == said
    finally:
        use("auto", "en")


def test_the_stall_says_its_own_seconds() -> None:
    """The stall's message is a fixed text of the catalogue: it must name `STALL`."""
    assert f"for {STALL:g} s" in OUTPUT_STALLED
