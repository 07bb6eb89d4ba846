"""The voice preview: one sample call, spoken as a night would speak it.

The settings screen plays it so the user hears the chosen voice, rate and bed
together (`AudioEngine.preview(lang)`): a wake call, its gap, the instruction, a
moment of bed, and the close. Our own lines, in every language narrator speaks.
"""

from __future__ import annotations

from narrator.script.defaults import WAKE_GAP
from narrator.script.model import Pause, Say, Script

_LINES = {
    "en": ("Seer, wake up.", "You may look at one card.", "Seer, close your eyes."),
    "it": ("Veggente, svegliati.", "Puoi guardare una carta.", "Veggente, chiudi gli occhi."),
    "fa": ("پیشگو، بیدار شو.", "می‌توانی یک کارت را ببینی.", "پیشگو، چشم‌هایت را ببند."),
}


def preview_script(lang: str) -> Script:
    """The sample call in `lang` (English for a language without lines here)."""
    wake, act, close = _LINES.get(lang.split("-")[0], _LINES["en"])
    steps = (
        Say(wake, "seer", after=WAKE_GAP),
        Say(act, "seer"),
        Pause(2.0, "seer"),
        Say(close, "seer"),
    )
    return Script("preview", "night", 1, lang, 0, (), steps)
