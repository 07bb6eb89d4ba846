"""HelpScreen: what narrator does and every key, on one page."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from narrator.i18n import N_
from narrator.tui.text import NarratorFooter, block, rtl, shape, t

WIDTH = 80  # the text inside the help's frame
PERSIAN = re.compile("[\u0600-\u06ff]")  # a key's cell without it keeps its order

HELP = N_(
    """\
# narrator

Pick the game, the players and the roles, press **space**, and close your eyes with
everyone else. narrator calls the night over a tapping sound, wakes the table, runs
the discussion timer and counts down the vote. Games of many nights go on to the
next night when you press **n**.

| Where | Key | What |
|---|---|---|
| everywhere | F1 / ? | this help |
| everywhere | F2 | settings (saved for next time) |
| everywhere | Ctrl+P | commands: search any action |
| everywhere | Ctrl+T | light or dark theme |
| everywhere | q | quit (stops the sound) |
| games | ↑ ↓ Enter | choose a game |
| games | t | the table: the players' phones deal and vote |
| games | v | voice packs: use, export, import, delete a recorded voice |
| players & roles | [ ] | fewer / more players |
| players & roles | ↑ ↓, + − (→ ←) | choose a role, change its count |
| players & roles | r / x | recommended deck / random roles |
| players & roles | o / Esc | the game's options / back to the games |
| players & roles | p / space | preview / play |
| players & roles | v | record a voice: read the game's lines into a voice pack |
| preview | + − | action time of the role under the cursor |
| preview | l / t / e | language / turn time / export to a sound file |
| preview | space / Esc | play / back |
| night, day | space | start, pause, resume |
| night, day | s | skip to the next call |
| night, day | Esc | stop (asks first; the calls go on meanwhile) |
| night, day | r / e | after the sound failed: try again / export to a file |
| day | + − | add or take 30 s on the running timer |
| day | Enter | go on (after the accusation, after the vote) |
| day | b | take the shortcut, when there is one (every vote on one player) |
| day | n / g | next night / new game |
| table | d / n / e / Esc | deal / go on / end the game / leave |
| recording | space | record, stop |
| recording | Enter / p / s | keep the take / play it / skip the line |
| recording | ← → / Esc | previous, next line / done (every take kept stays) |
| voice packs | u / e / i / d / Esc | use as the voice / export / import / delete / back |

Every possible role is called every night, whether its card is in play or not:
calling only the roles in play would tell everyone which they are.
"""
)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "close", N_("Close"))
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            if rtl():  # Markdown would draw it left to right, unshaped
                yield Static(right_to_left(t(HELP)), id="help-rtl", markup=False)
            else:
                yield Markdown(t(HELP))
        yield NarratorFooter()

    def action_close(self) -> None:
        self.dismiss(None)


def right_to_left(page: str) -> str:
    """The help page's Markdown as lines for a right-to-left language: paragraphs
    wrapped then shaped, the table's first column rightmost (the stylesheet aligns
    the text right)."""
    out: list[str] = []
    paragraph: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if paragraph:
            out.extend([block(" ".join(paragraph).replace("**", ""), WIDTH), ""])
            paragraph.clear()
        if rows:
            cells = [
                [shape(c.strip()) if PERSIAN.search(c) else c.strip() for c in r] for r in rows
            ]
            widths = [max(cell_len(r[i]) for r in cells) for i in range(len(cells[0]))]
            for r in cells:
                padded = [" " * (w - cell_len(c)) + c for c, w in zip(r, widths, strict=True)]
                out.append(" │ ".join(reversed(padded)))
            out.append("")
            rows.clear()

    for line in page.splitlines():
        if line.startswith("|"):
            if paragraph:
                flush()
            if not set(line) <= set("|-: "):  # not the header's rule
                rows.append(line.strip().strip("|").split("|"))
        elif line.startswith("#"):
            flush()
            out.extend([shape(line.lstrip("# ")), ""])
        elif line.strip():
            if rows:
                flush()
            paragraph.append(line.strip())
        else:
            flush()
    flush()
    return "\n".join(out).rstrip("\n")
