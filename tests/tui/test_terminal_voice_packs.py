"""The real `narrator` records a voice in a real terminal (tmux), in English, Italian and
Persian: the dialog, the line shown large, the meter while recording, the take played
back and kept, a take refused, the voice packs -- with no English in the Italian and
Persian chrome, and the Persian line right-aligned in visual order.

`NARRATOR_AUDIO=fake` gives the app its simulated booth (no device touched). With
`NARRATOR_CAPTURES=DIR` the screens are written there as text: docs/TUI.md's captures.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from narrator.i18n.bidi import visual
from narrator.rules import load_catalog
from tests.tui.languages import english_in
from tests.tui.test_terminal import NARRATOR, Tmux
from tests.tui.test_terminal import tmux as tmux_fixture  # noqa: F401 -- the fixture

pytestmark = pytest.mark.slow

WORDS = {  # what each screen shows once it is there, in the app's language
    "en": {"games": "Choose the game", "ready": "Ready to play.",
           "dialog": "Record a voice for", "line": "Everyone, close your eyes.",
           "recording": "Recording", "review": "Enter keeps", "kept": "Kept: line 1.",
           "refused": "Nothing was heard", "packs": "Voice packs"},
    "it": {"games": "Scegli il gioco", "ready": "Pronti a giocare.",
           "dialog": "Registra una voce per", "line": "Tutti, chiudete gli occhi.",
           "recording": "Registrazione", "review": "Invio la tiene",
           "kept": "Tenuta: frase 1.", "refused": "Non si è sentito nulla",
           "packs": "Pacchetti voce"},
    "fa": {"games": "بازی را انتخاب کنید", "ready": "آماده‌ی بازی.",
           "dialog": "ضبط یک صدا برای", "line": "همگی، لطفاً چشم‌هایتان را ببندید.",
           "recording": "در حال ضبط", "review": "نگهش می‌دارد", "kept": "نگه داشته شد",
           "refused": "چیزی شنیده نشد", "packs": "بسته‌های صدا"},
}  # fmt: skip


def _shown(text: str, lang: str) -> str:
    return visual(text, lang=lang, mode="on") if lang == "fa" else text


def _save(lang: str, screens: dict[str, str]) -> None:
    folder = os.environ.get("NARRATOR_CAPTURES")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for name, screen in screens.items():
        text = "\n".join(line.rstrip() for line in screen.rstrip().splitlines())
        (Path(folder) / f"record-{lang}-{name}.txt").write_text(text + "\n", encoding="utf-8")


def _record_a_voice(tmux: Tmux, tmp_path: Path, lang: str) -> dict[str, str]:
    folder = tmp_path / "config" / "narrator"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"language": lang}), encoding="utf-8")
    words = {key: _shown(text, lang) for key, text in WORDS[lang].items()}
    tmux.keys(str(NARRATOR), "Enter")
    tmux.wait_for(lambda t: words["games"] in t)
    tmux.keys("Down", "Down", "Enter")
    tmux.wait_for(lambda t: words["ready"] in t)
    screens: dict[str, str] = {}
    tmux.keys("v")
    tmux.wait_for(lambda t: words["dialog"] in t)
    tmux.keys("Nava")
    screens["dialog"] = tmux.wait_for(lambda t: "Nava" in t and "esc" in t)
    tmux.keys("Enter")
    screens["line"] = tmux.wait_for(lambda t: words["line"] in t and "^p" in t)
    tmux.keys("Space")
    # the simulated voice, loud on the meter
    screens["recording"] = tmux.wait_for(lambda t: words["recording"] in t and "████████" in t)
    tmux.wait_for(lambda t: "████" not in t, timeout=20)  # and it ended
    tmux.keys("Space")
    screens["review"] = tmux.wait_for(lambda t: words["review"] in t)
    tmux.keys("Enter")
    screens["kept"] = tmux.wait_for(lambda t: words["kept"] in t)
    tmux.keys("Space", "Space")  # stopped before the voice began: nothing heard
    screens["refused"] = tmux.wait_for(lambda t: words["refused"] in t)
    tmux.keys("Escape")
    tmux.wait_for(lambda t: words["ready"] in t)
    tmux.keys("Escape")
    tmux.wait_for(lambda t: words["games"] in t)
    tmux.keys("v")
    screens["packs"] = tmux.wait_for(
        lambda t: words["packs"] in t and "pack:nava" in t and "^p" in t
    )
    tmux.keys("q")
    tmux.wait_for(lambda t: t.rstrip().endswith("READY$"))
    _save(lang, screens)
    return screens


def _clean(screen: str) -> set[str]:
    screen = re.sub(r"pack:[\w-]+", " ", screen)  # a voice's id is a name, not a word
    return english_in(screen, list(load_catalog(Path("/nonexistent")).rulesets.values()))


def test_recording_a_voice_in_english(tmux_fixture: Tmux, tmp_path: Path) -> None:  # noqa: F811
    screens = _record_a_voice(tmux_fixture, tmp_path, "en")
    assert "Everyone, close your eyes." in screens["line"]
    assert "1 recorded" in screens["kept"]


def test_recording_a_voice_in_italian(tmux_fixture: Tmux, tmp_path: Path) -> None:  # noqa: F811
    screens = _record_a_voice(tmux_fixture, tmp_path, "it")
    assert "Tutti, chiudete gli occhi." in screens["line"]
    for name, screen in screens.items():
        assert _clean(screen) == set(), f"{name}:\n{screen}"


def test_recording_a_voice_in_persian_right_to_left(tmux_fixture: Tmux, tmp_path: Path) -> None:  # noqa: F811
    screens = _record_a_voice(tmux_fixture, tmp_path, "fa")
    for name, screen in screens.items():
        assert _clean(screen) == set(), f"{name}:\n{screen}"
    line = _shown("همگی، لطفاً چشم‌هایتان را ببندید.", "fa")
    row = next(r for r in screens["line"].splitlines() if line in r)
    inside = row.strip().strip("│")
    assert len(inside) - len(inside.lstrip()) > len(inside) - len(inside.rstrip())  # right
    assert inside.strip().startswith(".")  # visual order: the full stop at the left
