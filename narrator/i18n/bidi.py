"""Persian on a terminal: right to left, in visual order, with joined letters.

A terminal draws the characters of a line left to right in the order it gets
them. Terminals that implement the Unicode bidirectional algorithm themselves
(VTE-based ones such as GNOME Terminal, Konsole, mlterm) reorder Persian; most
others do not, and tmux never does (it lays out cells itself). There Persian
reads mirrored, in isolated letter forms. `visual()` does the terminal's work:
arabic-reshaper picks each letter's joined form (presentation forms) and
python-bidi reorders the line into visual order, numbers and Latin words kept
left to right inside it.

The setting is "auto" (do it unless the terminal is known to do bidi itself),
"on" or "off".
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

from narrator.i18n import is_rtl

BidiMode = Literal["auto", "on", "off"]
BIDI_MODES: tuple[BidiMode, ...] = ("auto", "on", "off")


def terminal_does_bidi(env: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal reorders right-to-left text itself (tmux never does)."""
    env = os.environ if env is None else env
    if env.get("TMUX") or env.get("TERM", "").startswith(("screen", "tmux")):
        return False
    if env.get("VTE_VERSION") or env.get("KONSOLE_VERSION"):
        return True
    return env.get("TERM", "").startswith("mlterm") or "MLTERM" in env


def shaping_on(mode: BidiMode, env: Mapping[str, str] | None = None) -> bool:
    """Whether the app must shape and reorder right-to-left lines itself."""
    if mode == "on":
        return True
    if mode == "off":
        return False
    return not terminal_does_bidi(env)


def visual(text: str, *, lang: str, mode: BidiMode = "auto") -> str:
    """`text` as the terminal must receive it to show it right: for a right-to-left
    language with shaping on, each line reshaped and in visual order."""
    if not is_rtl(lang) or not shaping_on(mode) or not text:
        return text
    import arabic_reshaper  # lazy: only Persian on screen needs it
    from bidi import get_display

    return "\n".join(
        get_display(arabic_reshaper.reshape(line), base_dir="R") for line in text.split("\n")
    )


__all__ = ["BIDI_MODES", "BidiMode", "shaping_on", "terminal_does_bidi", "visual"]
