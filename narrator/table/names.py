"""Players' names: what a phone may send as a name, checked once at the door.

A name is shown on every phone, on the host's screen and in the terminal, and the
voice speaks it, so it must be short, printable and unambiguous. Any script is
welcome (Persian names need the zero-width non-joiner, U+200C, so format characters
are not all refused); control characters and the bidirectional overrides that can
make one name look like another are refused. Pages show names with `textContent`,
never as HTML, so escaping is not this module's job, but nothing here lets markup
look special either.
"""

from __future__ import annotations

import unicodedata

from narrator.table.errors import TableError

MAX_NAME = 24

# Bidirectional embeddings, overrides and isolates: a name holding them can reorder
# the text around it (and spoof another player's name) on the other phones.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


class BadName(TableError):
    """A name a phone sent that cannot be used; the message says how to fix it."""


def clean_name(raw: object) -> str:
    """The name as it will be shown and spoken, or `BadName` saying what is wrong."""
    if not isinstance(raw, str):
        raise BadName("the name must be text")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise BadName("the name is empty; type the name the table knows you by")
    if len(name) > MAX_NAME:
        raise BadName(f"the name is {len(name)} characters long; use at most {MAX_NAME}")
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") or char in _BIDI_CONTROLS:
            raise BadName(
                f"the name holds an invisible control character (U+{ord(char):04X}); "
                "type it again with letters, digits and spaces"
            )
    return name


def same_name(a: str, b: str) -> bool:
    """Two names the table could not tell apart when spoken or read."""
    return a.casefold() == b.casefold()
