"""Where narrator's errors leave a trace: a small rotating log file.

Everything below logs with `logging.getLogger(__name__)` and never configures
logging itself; the command line (the composition root) calls `setup()` once, so a
library user or a test chooses their own handlers. The file lives in the user's
state folder (platformdirs; `XDG_STATE_HOME` respected): `narrator.log`, at most
256 kB, with two older files kept. Nothing is written to the terminal: the app
draws there, and the table's players must never see a traceback -- not even when
the file itself cannot be written (the process out of file descriptors, a full
disk): then the records are lost quietly, counted, and the file says so once it
can be written again (review 2, H2: 25.9 MB of "Logging error" tracebacks reached
the terminal in 13 s).
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

import platformdirs

MAX_BYTES = 256 * 1024
BACKUPS = 2
_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_HANDLERS: dict[Path, logging.Handler] = {}  # one per file, however often setup() runs


class QuietFile(logging.handlers.RotatingFileHandler):
    """A rotating log file that, when it cannot be written, drops the record without a
    word on the terminal (logging's default prints a traceback for every record),
    counts it, and writes one line saying how many were lost and why once it can
    write again. It tries again at every record: a process that ran out of file
    descriptors logs again as soon as it has one."""

    lost = 0
    why = ""

    def emit(self, record: logging.LogRecord) -> None:
        if self.lost:  # first the line saying what was lost, if it can be written now
            lost, why = self.lost, self.why
            self.lost, self.why = 0, ""
            note = logging.LogRecord(
                record.name, logging.WARNING, __file__, 0,
                "%d log records were lost (%s)", (lost, why), None,
            )  # fmt: skip
            super().emit(note)
            if self.lost:  # not yet: this record is lost too
                self.lost, self.why = lost + 1, why
                return
        super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:
        error = sys.exc_info()[1]
        self.lost += 1
        self.why = self.why or (str(error) if error is not None else "unknown")


def default_path() -> Path:
    return Path(platformdirs.user_state_dir("narrator")) / "narrator.log"


def setup(path: Path | None = None, level: int = logging.INFO) -> logging.Handler | None:
    """Send the `narrator` loggers to the rotating file `path`; returns the handler,
    or None when the folder cannot be written (narrator runs on without a log)."""
    path = path or default_path()
    if path in _HANDLERS:
        return _HANDLERS[path]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Opened now, not at the first record: a file opened mid-evening is one more
        # descriptor at some night, which a leak check cannot tell from a leak.
        handler: logging.Handler = QuietFile(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=False
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(_FORMAT))
    root = logging.getLogger("narrator")
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False
    # The web server's and the event loop's own messages (a malformed request, an
    # accept() that ran out of file descriptors) go to the file too: on the terminal
    # they would bury the table's address under a flood of tracebacks.
    for name in ("aiohttp", "asyncio"):
        other = logging.getLogger(name)
        other.addHandler(handler)
        other.propagate = False
    _HANDLERS[path] = handler
    return handler
