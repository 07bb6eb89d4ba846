"""Cache files written whole or not at all.

narrator keeps what it can make again -- checked rulesets, spoken calls, voices'
measured rates, the bed's noise tables -- in the user's cache folder. Each file is
written into a temporary file beside it and renamed over it, so a reader (another
process, the next run) never sees half a file. Losing the cache costs only time:
a folder that cannot be written, a full disk, a file-size limit cost the file and
nothing else, and leave no temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_aside(
    path: Path,
    write: Callable[[BinaryIO], object],
    *,
    private: bool = False,
    errors: tuple[type[Exception], ...] = (),
) -> bool:
    """Write `path` by `write(file)`, aside then renamed; whether it was written.

    An OSError, or one of `errors` raised by `write`, is not raised: the file is not
    written. `private`: a folder made here is the user's alone (0700)."""
    caught: tuple[type[Exception], ...] = (OSError, *errors)
    tmp = None
    try:
        path.parent.mkdir(mode=0o700 if private else 0o777, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(fd, "wb") as file:
            write(file)
        os.replace(tmp, path)
        return True
    except caught:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False
