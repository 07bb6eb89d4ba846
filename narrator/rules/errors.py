"""Domain errors of the rules core: one line each, saying what, where and how to fix it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest choice, or '' when nothing is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


MAX_MESSAGE = 400  # characters of a ruleset error after its file:line


def one_line(text: str) -> str:
    """`text` with every newline or other control character escaped (\\n, \\x1b): an
    argument or a key quoted in an error may hold one, and the error is one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# The command line's exit codes, in one place (the README's table): 0 success, 2 bad
# input (a NarratorError), 3 a missing or failing sound part (a MissingPart), 130
# interrupted.
EXIT_OK, EXIT_INPUT, EXIT_AUDIO, EXIT_INTERRUPTED = 0, 2, 3, 130


class NarratorError(Exception):
    """A mistake in the user's input. Its str() is the one line shown to the user."""


class RulesetError(NarratorError):
    """A ruleset file that cannot be used, with the file and line of the mistake."""

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        self.message = message
        self.path = Path(path) if path is not None else None
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        message = one_line(self.message)
        if len(message) > MAX_MESSAGE:  # a whole list quoted back: keep the line readable
            half = MAX_MESSAGE // 2
            message = f"{message[:half]} ... {message[-half:]}"
        return one_line(where) + message


class UnknownRuleset(NarratorError):
    """A ruleset id that is not installed."""


class SelectionError(NarratorError):
    """A choice of players and roles that the ruleset does not allow."""


class MissingPart(Exception):
    """Something narrator needs from the machine is missing (no speech engine, no
    PortAudio, no output device). Its str() says what and the command that installs
    it; the command line exits 3."""
