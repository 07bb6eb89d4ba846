"""The table's one error type: a request the rules or the room refuse, in one line."""

from __future__ import annotations

from typing import Literal

from narrator.base.errors import NarratorError
from narrator.i18n.phrase import Localized, Phrase, say

# What kind of refusal it is, so that a front end can answer it (the web server maps
# these to 400, 409, 404, 401, 403 and 503); the message is for the person holding the
# phone. "unknown": no seat holds that token; "forbidden": a player's token where the
# host's is needed; "unsaved": the game could not be saved (the table stops).
Kind = Literal["invalid", "refused", "not_found", "unknown", "forbidden", "unsaved"]


class TableError(NarratorError):
    """A request the table refuses; str() says what is wrong and how to go on, in
    English (the command line, the logs); `say(lang)` says it to a phone, in its
    table's language. What a player can meet by tapping the page is a `Phrase`; what
    only a broken client can (a body of the wrong shape) is plain English."""

    def __init__(self, message: Phrase | str | Localized, kind: Kind = "invalid") -> None:
        super().__init__(say(message, "en"))
        self.kind: Kind = kind
        self.said = message

    def say(self, lang: str) -> str:
        return say(self.said, lang)
