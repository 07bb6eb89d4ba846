"""The app's message catalogues and Persian on screen, without a terminal."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.i18n import LOCALE_DIR, gettext, is_rtl, ngettext
from narrator.i18n.bidi import shaping_on, terminal_does_bidi, visual
from tests.unit.helpers import script

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("it", "fa")


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    from babel.messages.pofile import read_po

    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "narrator.po", "rb") as f:
        return read_po(f, locale=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_shipped_mo_is_the_compiled_po(lang: str) -> None:
    """Every message, plural and header of the shipped .mo is the .po's, compiled by
    the Babel installed here. Compared message by message, not byte by byte: the .mo
    names the Babel that wrote it ("Generated-By"), and a new Babel release is not a
    stale catalogue (2.19.0 failed a clean clone whose .mo 2.18.0 had written)."""
    from babel.messages.mofile import read_mo, write_mo

    compiled = io.BytesIO()
    write_mo(compiled, _catalog(lang))
    compiled.seek(0)
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "narrator.mo", "rb") as f:
        shipped = read_mo(f)
    expected = read_mo(compiled)

    def content(catalog: Any) -> tuple[object, ...]:
        headers = [(k, v) for k, v in catalog.mime_headers if k != "Generated-By"]
        messages = sorted((repr(m.context), repr(m.id), repr(m.string)) for m in catalog if m.id)
        return tuple(headers), tuple(messages)

    assert len(list(expected)) > 100
    assert content(shipped) == content(expected), f"run scripts/i18n compile ({lang})"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    catalog = _catalog(lang)
    messages = [m for m in catalog if m.id]
    assert messages
    for message in messages:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: no translation for {ids[0]!r}"
        assert not message.fuzzy, f"{lang}: {ids[0]!r} is fuzzy"
        wanted = set(re.findall(r"\{\w+\}", ids[0]))
        for text in strings:
            assert set(re.findall(r"\{\w+\}", text)) == wanted, f"{lang}: {text!r}"


def test_the_catalogue_holds_every_message_of_the_code(tmp_path: Path) -> None:
    pot = tmp_path / "narrator.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [
            str(pybabel),
            "extract",
            "--no-default-keywords",
            "--no-location",
            "-k",
            "gettext:2",
            "-k",
            "ngettext:2,3",
            "-k",
            "t",
            "-k",
            "N_",
            "-k",
            "tn:1,2",
            "-k",
            "Phrase",
            "-k",
            "counted:1,2",
            "-o",
            str(pot),
            str(ROOT / "narrator"),
        ],
        check=True,
        capture_output=True,
    )
    from babel.messages.pofile import read_po

    with open(pot, "rb") as f:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    for lang in LANGS:
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalog(lang) if m.id}
        assert not wanted - have, f"{lang}: run scripts/i18n, then translate {wanted - have}"


def test_english_needs_no_catalogue_and_unknown_text_falls_back() -> None:
    assert gettext("en", "Ballot") == "Ballot"
    assert gettext("it", "Ballot") == "Ballottaggio"
    assert gettext("fa", "Ballot") == "رأی‌گیری نهایی"
    assert gettext("it", "no such message") == "no such message"
    assert gettext("de", "Ballot") == "Ballot"
    assert ngettext("en", "{n} card", "{n} cards", 2) == "{n} cards"


def test_stage_names_come_from_the_core_in_the_games_language() -> None:
    roles = "werewolf:2,villager:5,seer"
    assert set(script("lupus", 8, roles, phase="day").stages) == {
        "Wake-up",
        "Discussion",
        "Accusation",
        "Defence",
        "Ballot",
        "Nightfall",
    }
    italian = script("lupus", 8, roles, phase="day", lang="it")
    assert len(italian.stages) == len(italian.steps)
    assert list(dict.fromkeys(italian.stages)) == [
        "Risveglio",
        "Discussione",
        "Accuse",
        "Difesa",
        "Ballottaggio",
        "Cala la notte",
    ]
    persian = script(
        "onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3", phase="day", lang="fa"
    )
    assert list(dict.fromkeys(persian.stages)) == ["گفت‌وگو", "رأی‌گیری"]
    night = script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3", lang="fa")
    assert set(night.stages) == {"شب 1"}
    rounds = script(
        "secret_moon", 6, "princess,wanderer,priestess,minister,guard:3", phase="day", lang="it"
    )
    assert "Round 2 · Turno 3" in rounds.stages


PERSIAN = "همزاد، بیدار شو."


def test_persian_is_shaped_and_put_in_visual_order() -> None:
    shown = visual(PERSIAN, lang="fa", mode="on")
    # Joined letter forms (Arabic Presentation Forms-B), no isolated base letters left.
    assert all(not "\u0600" <= c <= "\u06ff" for c in shown if c.isalpha())
    assert any("\ufe70" <= c <= "\ufeff" or "\ufb50" <= c <= "\ufdff" for c in shown)
    # Visual order: the first word read (همزاد) is drawn rightmost, the full stop leftmost.
    assert shown.startswith(".") and shown.endswith("ﻫ")  # initial form of ه
    assert visual(PERSIAN, lang="fa", mode="off") == PERSIAN
    assert visual("Ballot", lang="en", mode="on") == "Ballot"


def test_numbers_and_latin_words_keep_their_order_inside_persian() -> None:
    # Read right to left: "12", the word for seconds, then a Latin word at the far left.
    assert visual("12 ثانیه · paused", lang="fa", mode="on") == "paused · ﻪﯿﻧﺎﺛ 12"


def test_each_line_is_reordered_on_its_own() -> None:
    shown = visual("شب\nروز", lang="fa", mode="on").split("\n")
    assert len(shown) == 2
    assert shown[0] == visual("شب", lang="fa", mode="on")


@pytest.mark.parametrize(
    ("env", "does_bidi"),
    [
        ({"TERM": "xterm-256color"}, False),
        ({"TERM": "xterm-256color", "VTE_VERSION": "7600"}, True),
        ({"TERM": "xterm-256color", "KONSOLE_VERSION": "230804"}, True),
        ({"TERM": "mlterm"}, True),
        # Inside tmux the terminal outside never sees the line as a whole.
        (
            {"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "VTE_VERSION": "7600"},
            False,
        ),
    ],
)
def test_auto_shapes_unless_the_terminal_does_bidi(env: dict[str, str], does_bidi: bool) -> None:
    assert terminal_does_bidi(env) is does_bidi
    assert shaping_on("auto", env) is (not does_bidi)
    assert shaping_on("on", env) and not shaping_on("off", env)


def test_only_persian_is_right_to_left() -> None:
    assert is_rtl("fa") and not is_rtl("it") and not is_rtl("en")


def test_the_set_up_checks_speak_the_apps_language() -> None:
    from narrator.rules import check_selection
    from tests.unit.helpers import ruleset

    mafia = ruleset("mafia_infiltrators")
    assert check_selection(mafia, 6, (("gangster", 6),), "it").errors == (
        "Nel mazzo manca una carta di Infiltrati (Agente, Talpa o Delfino): i mafiosi non "
        "avrebbero nessuno da scoprire; aggiungine almeno uno.",
    )
    onuw = ruleset("onuw")
    report = check_selection(onuw, 5, (("seer", 1), ("villager", 3)), "fa")
    assert report.errors == ("5 بازیکن 8 کارت لازم دارند (بازیکن‌ها + 3)؛ 4 انتخاب شده",)
    # The command line (and the default) stay English.
    assert check_selection(onuw, 5, (("seer", 1), ("villager", 3))).errors == (
        "5 players need 8 cards (players + 3); 4 chosen",
    )
