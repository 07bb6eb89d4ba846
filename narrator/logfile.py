"""Where narrator's errors leave a trace: a small rotating log file.

Everything below logs with `logging.getLogger(__name__)` and never configures
logging itself; the command line (the composition root) calls `setup()` once, so a
library user or a test chooses their own handlers. The file lives in the user's
state folder (platformdirs; `XDG_STATE_HOME` respected): `narrator.log`, at most
256 kB, with two older files kept. Nothing is written to the terminal: the app
draws there, and the table's players must never see a traceback.
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

import platformdirs

MAX_BYTES = 256 * 1024
BACKUPS = 2
_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_HANDLERS: dict[Path, logging.Handler] = {}  # one per file, however often setup() runs


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
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
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
