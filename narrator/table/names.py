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

A name must also read as a name wherever the pages and the voice put it (review 2,
H10): not as a seat number ("3. Eli"), not with the marks the pages write beside a
name ("Cy (out)", "Dee — Werewolf", "Ann → Bo"), not as a sentence of the voice
("Everyone open your eyes": at most three words), and with no letter under a stack
of marks that draws over the lines around it (Zalgo: at most two marks a letter).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from narrator.i18n.phrase import Phrase
from narrator.table.errors import TableError

MAX_NAME = 24
MAX_WORDS = 3  # "Maria del Carmen"; a fourth word starts to read as a sentence
MAX_MARKS = 2  # combining marks on one letter: Persian's shadda and a vowel, no more

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
# What the pages and the voice write beside a name: brackets and quotes (Unicode's
# opening, closing and quoting punctuation: "(out)" in any script's parentheses),
# dashes but the hyphen, and these marks. Square and curly brackets stay: the pages
# never write them, and a name that looks like markup is shown as it is typed.
_MARK_CATEGORIES = frozenset({"Ps", "Pe", "Pi", "Pf", "Pd"})
_KEPT_MARKS = frozenset("-\u2010[]{}")
_MARKS = frozenset(':;|·•→←⇒⇐"')


class BadName(TableError):
    """A name a phone sent that cannot be used; the message says how to fix it."""


def clean_name(raw: object) -> str:
    """The name as it will be shown and spoken, or `BadName` saying what is wrong."""
    if not isinstance(raw, str):
        raise BadName("the name must be text")
    # NFKC: fullwidth and other compatibility forms become the letters they show
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise BadName(Phrase("the name is empty; type the name the table knows you by"))
    if len(name) > MAX_NAME:
        raise BadName(
            Phrase(
                "the name is {n} characters long; use at most {most}", n=len(name), most=MAX_NAME
            )
        )
    for char in name:
        category = unicodedata.category(char)
        invisible = category == "Cf" and char not in _KEPT_FORMAT
        if category in ("Cc", "Cs", "Co", "Cn") or char in _BIDI_CONTROLS or invisible:
            code = f"U+{ord(char):04X}"
            raise BadName(
                Phrase(
                    "the name holds an invisible character ({code}); "
                    "type it again with letters, digits and spaces",
                    code=code,
                )
            )
    if not any(_visible(char) for char in name):
        raise BadName(Phrase("the name shows nothing; type the name the table knows you by"))
    _reads_as_a_name(name)
    return name


def _reads_as_a_name(name: str) -> None:
    """`BadName` for a name that would read as something else beside the others."""
    if unicodedata.category(name[0]) == "Nd":
        raise BadName(Phrase("a name starts with a letter (a number first reads as a seat number)"))
    for char in name:
        category = unicodedata.category(char)
        if char in _MARKS or (category in _MARK_CATEGORIES and char not in _KEPT_MARKS):
            raise BadName(
                Phrase(
                    "the name holds '{mark}', which the table writes beside names; "
                    "use letters, digits, spaces, hyphens and apostrophes",
                    mark=char,
                )
            )
    if len(name.split()) > MAX_WORDS:
        raise BadName(
            Phrase(
                "a name is at most {most} words; the table reads more as a sentence",
                most=MAX_WORDS,
            )
        )
    stacked = 0
    for char in name:
        stacked = stacked + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if stacked > MAX_MARKS:
            raise BadName(
                Phrase(
                    "the name stacks more than {most} marks on one letter; "
                    "type it with the letters as they are written",
                    most=MAX_MARKS,
                )
            )


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
