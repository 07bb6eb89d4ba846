"""The app's own words in English, Italian and Persian, and Persian on screen.

The rulesets carry the narration in every language they declare; everything
else the table reads -- labels, stage names, key descriptions, help, notices --
comes from standard gettext catalogues under `locale/` (msgid = the English
text). Headless and small, below the core in the layers: the script builder
names a day's stages with it, and any front end (the terminal app, the phones'
page) asks it for the words of one language.

`gettext(lang, text)` and `ngettext(...)` translate; `N_()` marks a text for
extraction where it is defined (a key description, a class constant) and is
translated where it is shown. English needs no catalogue: a missing message or
language falls back to the English text, never to an error. A sentence made in one
place and said in another's language -- a refusal, made by the engine, read on a
phone -- is a `phrase.Phrase`: the English msgid and its values, said in any
language when shown.
"""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from pathlib import Path

DOMAIN = "narrator"
LOCALE_DIR = Path(__file__).with_name("locale")
# The languages the app itself speaks; a ruleset may declare others, and then its
# lines are in that language while the app's chrome falls back to English.
LANGUAGES = ("en", "it", "fa")
_RTL = frozenset({"fa", "ar", "he", "ur"})


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalogue of `lang` (compiled .mo, shipped beside its .po)."""
    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def gettext(lang: str, message: str) -> str:
    return translation(lang).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return translation(lang).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark `message` for the catalogue; it is translated where it is shown."""
    return message


def is_rtl(lang: str) -> bool:
    """Whether `lang` is written right to left (Persian)."""
    return lang in _RTL


__all__ = ["LANGUAGES", "N_", "gettext", "is_rtl", "ngettext", "translation"]
