"""What "no English in the chrome" means, for the tests in Italian and Persian.

The app's English words are those of its own texts (the msgids of the catalogue),
less those the translations use too (max, Medium, Enter, WAV...). A screen speaks
English when one of them is on it outside the game's own texts (a ruleset without
Persian lines shows its English name: that is the game, not the app).
"""

from __future__ import annotations

import re
from functools import cache

from babel.messages.pofile import read_po

from narrator.i18n import LOCALE_DIR
from narrator.rules import Ruleset

_WORD = re.compile(r"[A-Za-z]{3,}")


def _texts(message_id: object) -> tuple[str, ...]:
    return message_id if isinstance(message_id, tuple) else (str(message_id),)


@cache
def app_english_words() -> frozenset[str]:
    with open(LOCALE_DIR / "narrator.pot", "rb") as f:
        english = {
            w.lower()
            for m in read_po(f)
            if m.id
            for t in _texts(m.id)
            for w in _WORD.findall(re.sub(r"\{\w+\}", "", t))
        }
    shared: set[str] = set()
    for lang in ("it", "fa"):
        with open(LOCALE_DIR / lang / "LC_MESSAGES" / "narrator.po", "rb") as f:
            for m in read_po(f):
                for t in _texts(m.string):
                    shared |= {w.lower() for w in _WORD.findall(t or "")}
    return frozenset(english - shared)


def english_in(screen: str, rulesets: list[Ruleset]) -> set[str]:
    """The app's English words on `screen`, the rulesets' own texts left out."""
    values: list[str] = []
    for ruleset in rulesets:
        texts = [ruleset.name, *(r.name for r in ruleset.roles), *(n for _, n in ruleset.teams)]
        if ruleset.description is not None:
            texts.append(ruleset.description)
        values += [value for text in texts for _, value in text.values]
    for value in sorted(values, key=len, reverse=True):  # whole sentences before names
        screen = screen.replace(value, " ")
    return {w.lower() for w in _WORD.findall(screen)} & app_english_words()
