"""The voice preview: one sample call, spoken as a night would speak it.

The settings screen plays it so the user hears the chosen voice, rate and bed
together (`AudioEngine.preview(lang)`, the silent engine's too): a wake call, its
gap, the instruction, a moment of bed, and the close. The words are the app's, from
its catalogues (`narrator.i18n`), so they are translated where every app text is.
"""

from __future__ import annotations

from narrator.i18n import N_, gettext
from narrator.script.defaults import WAKE_GAP
from narrator.script.model import Pause, Say, Script

WAKE = N_("Seer, wake up.")
ACT = N_("You may look at one card.")
CLOSE = N_("Seer, close your eyes.")
LISTEN = 2.0  # seconds of bed between the instruction and the close


def preview_script(lang: str) -> Script:
    """The sample call in `lang` (English for a language the catalogues lack)."""
    wake, act, close = (gettext(lang, text) for text in (WAKE, ACT, CLOSE))
    steps = (  # a sample, of no game: the steps name no role
        Say(wake, after=WAKE_GAP),
        Say(act),
        Pause(LISTEN),
        Say(close),
    )
    return Script("preview", "night", 1, lang, 0, (), steps)
