"""The rules core's domain errors: one line each, saying what, where and how to fix it.

They subclass `narrator.base.errors.NarratorError`, the error the command line and
every front end answer with one line and exit code 2.
"""

from __future__ import annotations

from pathlib import Path

from narrator.base.errors import NarratorError, one_line

MAX_MESSAGE = 400  # characters of a ruleset error after its file:line


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
