"""Players' names: what a phone may send as a name, checked once at the door.

A name is shown on every phone, on the host's screen and in the terminal, and the
voice speaks it, so it must be short, printable and unambiguous. Any script is
welcome; a name is normalised (NFKC: fullwidth letters become letters), and control
characters, invisible format characters (all but the zero-width non-joiner that
Persian needs), the bidirectional controls that can make one name look like another,
and names that show nothing are refused. Two names that look alike -- in another
script's letters, with invisible joiners -- are the same name (`same_name`). Pages
show names with `textContent`, never as HTML, so escaping is not this module's job,
but nothing here lets markup look special either.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from narrator.table.errors import TableError

MAX_NAME = 24

# Bidirectional embeddings, overrides and isolates: a name holding them can reorder
# the text around it (and spoof another player's name) on the other phones.
_BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
# Format characters are invisible; only the zero-width non-joiner is kept (Persian
# writes with it: «می‌خواهم»).
_KEPT_FORMAT = frozenset("\u200c")
# Letters and symbols that draw as blank space (Hangul fillers, the braille blank).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


class BadName(TableError):
    """A name a phone sent that cannot be used; the message says how to fix it."""


def clean_name(raw: object) -> str:
    """The name as it will be shown and spoken, or `BadName` saying what is wrong."""
    if not isinstance(raw, str):
        raise BadName("the name must be text")
    # NFKC: fullwidth and other compatibility forms become the letters they show
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise BadName("the name is empty; type the name the table knows you by")
    if len(name) > MAX_NAME:
        raise BadName(f"the name is {len(name)} characters long; use at most {MAX_NAME}")
    for char in name:
        category = unicodedata.category(char)
        invisible = category == "Cf" and char not in _KEPT_FORMAT
        if category in ("Cc", "Cs", "Co", "Cn") or char in _BIDI_CONTROLS or invisible:
            raise BadName(
                f"the name holds an invisible character (U+{ord(char):04X}); "
                "type it again with letters, digits and spaces"
            )
    if not any(_visible(char) for char in name):
        raise BadName("the name shows nothing; type the name the table knows you by")
    return name


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS


def same_name(a: str, b: str) -> bool:
    """Two names the table could not tell apart when spoken or read: the same once
    case, accents' combining marks, invisible joiners and look-alike letters of other
    scripts (Cyrillic «А» for Latin «A»: Unicode's confusables, UTS #39) are set aside."""
    return skeleton(a) == skeleton(b)


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, case folded, marks and format characters
    dropped, each character replaced by the look-alike with the lowest code point."""
    out = []
    for char in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold()):
        if unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        out.append(_look_alike(char))
    return "".join(out)


@cache
def _look_alike(char: str) -> str:
    from confusable_homoglyphs import confusables  # its table loads on the first join

    found = confusables.is_confusable(char, greedy=True, preferred_aliases=[])
    glyphs = [char]
    for entry in found or ():
        glyphs += [h["c"] for h in entry["homoglyphs"] if len(h["c"]) == 1]
    return min(glyphs, key=ord).casefold()
