"""The app's words in its language, and Persian drawn right to left.

The app speaks the game's language (Italian for Lupus, Persian for One Night in
Persian) unless the user fixed one in the settings; `use()` sets it, and every
screen asks `t()` for its labels when it draws. Key descriptions are marked with
`N_()` where the bindings are declared and translated by `NarratorFooter` when
the footer is drawn, so the same `BINDINGS` serve every language.

For a right-to-left language, `shape()` and `block()` hand the terminal Persian
in visual order with joined letters (see `narrator.i18n.bidi`), unless the
setting says the terminal does that itself.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.widget import Widget

from narrator.i18n import LANGUAGES, N_, gettext, is_rtl, ngettext
from narrator.i18n.bidi import BIDI_MODES, BidiMode, shaping_on, visual
from narrator.tui.textual_internals import FooterKey
from narrator.tui.widgets.footer import Footer


@dataclass
class _Current:
    lang: str = "en"
    bidi: BidiMode = "auto"
    fixed: bool = False  # the user chose the app's language in the settings


_current = _Current()


def use(app_language: str, game_lang: str, bidi: str = "auto") -> None:
    """The app speaks `app_language`, or with "auto" the game's language."""
    _current.fixed = app_language != "auto"
    code = app_language if _current.fixed else game_lang
    _current.lang = code if code in LANGUAGES else "en"
    _current.bidi = next((m for m in BIDI_MODES if m == bidi), "auto")


def follow(game_lang: str) -> None:
    """The game's language changed: the app follows it unless it was fixed."""
    if not _current.fixed:
        _current.lang = game_lang if game_lang in LANGUAGES else "en"


def lang() -> str:
    return _current.lang


def rtl() -> bool:
    """Whether the app's language is drawn right to left."""
    return is_rtl(_current.lang)


def t(message: str) -> str:
    """`message` in the app's language."""
    return gettext(_current.lang, message)


def say_problem(line: str) -> str:
    """A problem as the layers below the screens put it (English, a message of the
    catalogue: a sound output gone, no microphone) in the app's language. A line that
    adds a detail of its own after a known message -- "MESSAGE (what the system
    said)" -- has the message translated and the detail kept as it came; a line the
    catalogue does not know is shown as it came."""
    said = t(line)
    if said != line:
        return said
    at = line.rfind(" (")
    while at > 0:
        head = line[:at]
        if (said := t(head)) != head:
            return said + line[at:]
        at = line.rfind(" (", 0, at)
    return line


def tn(singular: str, plural: str, n: int) -> str:
    return ngettext(_current.lang, singular, plural, n)


def shape(text: str, text_lang: str | None = None) -> str:
    """One line of `text` as the terminal must receive it."""
    return visual(text, lang=text_lang or _current.lang, mode=_current.bidi)


def block(text: str, width: int, text_lang: str | None = None) -> str:
    """`text` wrapped to `width` in reading order, then each line shaped: a
    terminal wraps what it gets, and wrapping a line already in visual order
    would put its end first."""
    code = text_lang or _current.lang
    if not is_rtl(code) or not shaping_on(_current.bidi) or width < 8:
        return text
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += textwrap.wrap(paragraph, width) or [""]
    return "\n".join(visual(line, lang=code, mode=_current.bidi) for line in lines)


def align(widget: Widget) -> None:
    """Right-align `widget` when the app speaks a right-to-left language."""
    if rtl():
        widget.styles.text_align = "right"
    else:
        widget.styles.clear_rule("text_align")  # back to the stylesheet's


# Words Textual itself puts in the footer, for the catalogue.
TEXTUAL_WORDS = (N_("palette"),)


class NarratorFooter(Footer):
    """The footer, its key descriptions in the app's language (drawn again when it
    changes)."""

    def __init__(self) -> None:
        super().__init__(words=lambda: (_current.lang, _current.bidi))

    def compose(self) -> ComposeResult:
        keys: Iterable[Widget] = super().compose()
        for widget in keys:
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = shape(t(widget.description))
            yield widget


__all__ = [
    "NarratorFooter",
    "align",
    "block",
    "follow",
    "lang",
    "rtl",
    "shape",
    "t",
    "tn",
    "use",
]
