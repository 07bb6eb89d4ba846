"""Every key of every screen is in the help page and in the README's key table.

The help (`narrator/tui/screens/help.py`, F1) and the README were written by hand and
drifted from the bindings (issue 17: `t`, `o`, `r`/`e` were missing). This test reads
the live `BINDINGS` of the app and of each screen and fails, naming the key and the
screen, when one of the two tables does not list it under that screen's heading.
Dialogs (confirm, export, help, settings, game options) show their keys in their own
footer and are left out.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from textual.binding import Binding

from narrator.tui.screens.help import HELP

ROOT = Path(__file__).resolve().parents[2]
# screen class -> the "Where" of its rows in both tables
WHERE = {
    "NarratorApp": "everywhere",
    "GamesScreen": "games",
    "SetupScreen": "players & roles",
    "PreviewScreen": "preview",
    "ScriptScreen": "night, day",
    "DayScreen": "day",
    "TableScreen": "table",
    "RecordScreen": "recording",
    "VoicePacksScreen": "voice packs",
}
SHOWN = {
    "f1": "F1", "f2": "F2", "question_mark": "?", "ctrl+t": "Ctrl+T", "space": "space",
    "escape": "Esc", "enter": "Enter", "plus": "+", "minus": "−", "right_square_bracket": "]",
    "left_square_bracket": "[", "left": "←", "right": "→",
}  # fmt: skip


def bindings() -> list[tuple[str, str, str]]:
    """(screen class, where, the key as the tables write it) for every binding."""
    modules = ["narrator.tui.app", "narrator.tui.playing"] + [
        f"narrator.tui.screens.{m.name}"
        for m in pkgutil.iter_modules(importlib.import_module("narrator.tui.screens").__path__)
    ]
    out = []
    for name in modules:
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and cls.__module__ == name and "BINDINGS" in vars(cls)):
                continue
            if cls.__name__ not in WHERE:
                continue
            for b in cls.BINDINGS:
                assert isinstance(b, Binding), b
                key = b.key.split(",")[0]
                out.append((cls.__name__, WHERE[cls.__name__], SHOWN.get(key, key)))
    return out


def rows(text: str) -> list[tuple[str, set[str]]]:
    """The key table's rows: (where, the keys in its Key cell)."""
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("Where", "---"):
            keys = set(re.split(r"[\s/,()]+", cells[1].replace("`", "").replace("-", "−")))
            out.append((cells[0], keys))
    return out


BINDINGS = bindings()


def test_the_bindings_are_read() -> None:
    """The test sees the screens it checks (a renamed screen must not pass silently)."""
    assert {screen for screen, _, _ in BINDINGS} == set(WHERE)


@pytest.mark.parametrize(
    ("table", "text"),
    [("the help (F1)", HELP), ("README.md", (ROOT / "README.md").read_text(encoding="utf-8"))],
)
def test_every_key_is_in_the_table(table: str, text: str) -> None:
    listed = rows(text[text.index("| Where | Key | What |") :])
    missing = [
        f"{screen}: {key}"
        for screen, where, key in BINDINGS
        if not any(w == where and key in keys for w, keys in listed)
    ]
    assert missing == [], f"{table} does not list: {', '.join(missing)}"
