"""The real `narrator` in a real terminal (tmux), in Italian and in Persian: the
games list, players & roles, the night and the day show no English in their
chrome, and the Persian night call is right-aligned and in visual order.

The drawing setting stays on auto: inside tmux narrator shapes Persian itself.
`NARRATOR_AUDIO=fake` keeps the sound device out of it (a silent engine).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from narrator.i18n.bidi import visual
from narrator.rules import load_catalog
from tests.tui.languages import english_in
from tests.tui.test_terminal import NARRATOR, Tmux
from tests.tui.test_terminal import tmux as tmux_fixture  # noqa: F401 -- the fixture

pytestmark = pytest.mark.slow


def _settings(tmp_path: Path, lang: str) -> None:
    folder = tmp_path / "config" / "narrator"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"language": lang}), encoding="utf-8")


def _clean(screen: str) -> set[str]:
    return english_in(screen, list(load_catalog(Path("/nonexistent")).rulesets.values()))


def _to_the_day(tmux: Tmux, day_word: str) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # skip call by call (the silent engine plays in real time)
        screen = tmux.screen()
        if day_word in screen:
            return screen
        tmux.keys("s")
        time.sleep(0.3)  # a skip at a time: the app takes one in before the next comes
    return tmux.wait_for(lambda t: day_word in t)


def test_the_app_in_italian(tmux_fixture: Tmux, tmp_path: Path) -> None:  # noqa: F811
    tmux = tmux_fixture
    _settings(tmp_path, "it")
    tmux.keys(str(NARRATOR), "Enter")
    screens = {"games": tmux.wait_for(lambda t: "Scegli il gioco" in t and "Lupus" in t)}
    tmux.keys("Enter")
    screens["setup"] = tmux.wait_for(lambda t: "Pronti a giocare." in t)
    tmux.keys("Space")
    screens["night"] = tmux.wait_for(lambda t: "Notte 1 · Lupus in Tabula" in t and "Lupi" in t)
    screens["day"] = _to_the_day(tmux, "Risveglio")
    for name, screen in screens.items():
        assert _clean(screen) == set(), f"{name}:\n{screen}"
    tmux.keys("q")
    tmux.wait_for(lambda t: t.rstrip().endswith("READY$"))


def test_the_app_in_persian_right_to_left(tmux_fixture: Tmux, tmp_path: Path) -> None:  # noqa: F811
    tmux = tmux_fixture
    _settings(tmp_path, "fa")
    tmux.keys(str(NARRATOR), "Enter")
    title = visual("بازی را انتخاب کنید", lang="fa", mode="on")
    screens = {"games": tmux.wait_for(lambda t: title in t)}
    tmux.keys("Down", "Down", "Enter")
    ready = visual("آماده‌ی بازی.", lang="fa", mode="on")
    screens["setup"] = tmux.wait_for(lambda t: ready in t)
    tmux.keys("Space")
    call = visual("همگی، لطفاً چشم‌هایتان را ببندید.", lang="fa", mode="on")
    screens["night"] = night = tmux.wait_for(lambda t: call in t)
    row = next(r for r in night.splitlines() if call in r)
    inside = row.strip().strip("│")
    left, right = len(inside) - len(inside.lstrip()), len(inside) - len(inside.rstrip())
    assert left > right, row  # right-aligned
    # In visual order the sentence ends (its full stop) at the left; shaped letters only.
    assert inside.strip().startswith(".")
    assert not any("\u0600" <= c <= "\u06ff" for c in inside if c.isalpha())
    screens["day"] = _to_the_day(tmux, visual("گفت‌وگو", lang="fa", mode="on"))
    for name, screen in screens.items():
        assert _clean(screen) == set(), f"{name}:\n{screen}"
    tmux.keys("q")
    tmux.wait_for(lambda t: t.rstrip().endswith("READY$"))
