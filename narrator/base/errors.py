"""The error every domain error of narrator subclasses, and the exit codes.

A `NarratorError` is a mistake in the user's input: its str() is the one line shown
to the user, saying what, where and how to fix it; each layer subclasses it for its
own (`rules.errors.RulesetError`, `table.errors.TableError`, ...). A `MissingPart` is
not the user's mistake but the machine's: a speech engine, PortAudio or a sound
device that is not there. Here, below every layer, so that the command line, the
audio layer and the table share them without importing the rules.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """'; did you mean 'x'?' for the closest choice, or '' when nothing is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


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


class MissingPart(Exception):
    """Something narrator needs from the machine is missing (no speech engine, no
    PortAudio, no output device). Its str() says what and the command that installs
    it; the command line exits 3."""
