"""The error every domain error of narrator subclasses, and the exit codes.

A `NarratorError` is a mistake in the user's input: its str() is the one line shown
to the user, saying what, where and how to fix it; each layer subclasses it for its
own (`rules.errors.RulesetError`, `table.errors.TableError`, ...). A `WriteError` is
a file that could not be kept (`files.write_whole`): one line too, and an OSError. A
`MissingPart` is not the user's mistake but the machine's: a speech engine, PortAudio
or a sound device that is not there. Here, below every layer, so that the command line, the
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


class WriteError(NarratorError, OSError):
    """A file narrator keeps could not be written (`files.write_whole`): a full disk, a
    folder that cannot be written, a file-size limit. The file is as it was. Its str()
    is one line, `cannot write PATH (why)`; `errno`, `strerror` and `filename` are the
    system's, and an OSError handler takes it as the OSError it is."""

    @classmethod
    def of(cls, path: object, cause: OSError) -> WriteError:
        return cls(cause.errno, cause.strerror or str(cause), str(path))

    def __str__(self) -> str:
        return one_line(f"cannot write {self.filename} ({self.strerror})")


class MissingPart(Exception):
    """Something narrator needs from the machine is missing (no speech engine, no
    PortAudio, no output device). Its str() says what and the command that installs
    it; the command line exits 3."""
