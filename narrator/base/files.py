"""Files written whole or not at all: one writer for everything narrator keeps.

`write_whole` writes a file into a fresh temporary file beside it (an unguessable
name, made with O_EXCL: no link planted there is followed), then renames it over the
file, so a reader -- another process, the next run, a resumed game -- sees the old
file or the new one, never half of either. It raises: a write that fails (a full
disk, a folder that cannot be written, a file-size limit) is one `WriteError` (an
OSError and a NarratorError: one line) and the file is as it was; the temporary file
is removed on every path, a failure inside the caller's writer included.

What the user keeps -- a saved table game, a voice pack's takes and manifest, the
settings -- is written `durable` (the default): the file is synced to the disk before
the rename, and the folder after it, so a power cut just after the save keeps the
new file. Without the folder's sync the rename itself may be lost: the old file
comes back, whole but a step behind, and the phones' table promises that what a
phone saw acknowledged is saved. Measured (`scripts/bench_save`, docs/PERFORMANCE.md:
a 30-phone table's 16 kB save on ext4, a shared machine under heavy load) the
folder's sync adds 4-7 ms to a save of 5-6 ms synced without it; kept, for that
promise.

Files are the user's alone (0600) and a folder made for them too (0700, unless
asked otherwise): a saved game says who holds which card, a pack holds a voice.

`write_cache` is the cache's use of it (checked rulesets, spoken calls, voices'
rates, the bed's tables): what can be made again is written neither synced nor
raising -- losing it costs time, and a cache that cannot be written costs nothing
else.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from narrator.base.errors import WriteError

Writer = Callable[[BinaryIO], object]  # writes the file's content into an open file


def write_whole(
    path: Path,
    content: bytes | Writer,
    *,
    durable: bool = True,
    folder_mode: int = 0o700,
) -> None:
    """Make `path` hold `content` (bytes, or a function writing into the open file),
    whole, or leave it as it was. The folder is made if missing (`folder_mode`); the
    file is 0600. `durable`: synced to the disk, file and folder, before returning.

    WriteError (an OSError) when the system refuses, `path` as it was and no
    temporary file left; anything else the writer raises passes through unchanged,
    after the temporary file is removed."""
    tmp: str | None = None
    try:
        path.parent.mkdir(mode=folder_mode, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        with os.fdopen(fd, "wb") as file:
            if isinstance(content, bytes | bytearray | memoryview):
                file.write(content)
            else:
                content(file)
            file.flush()
            if durable:
                os.fsync(file.fileno())
        os.replace(tmp, path)
        tmp = None
    except BaseException as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise WriteError.of(path, exc) from None
        raise
    if durable:
        sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename, a new file) to the disk, where the system
    allows it (some file systems refuse a folder's sync: nothing more can be done)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def check_writable(path: Path, *, folder_mode: int = 0o700) -> None:
    """WriteError now if `path` could not be written later: its folder cannot be made,
    or a file cannot be made in it, or `path` is a folder. Nothing is left behind."""
    try:
        path.parent.mkdir(mode=folder_mode, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        os.close(fd)
        os.unlink(tmp)
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    except OSError as exc:
        raise WriteError.of(path, exc) from None


def write_cache(
    path: Path,
    write: Writer,
    *,
    private: bool = False,
    errors: tuple[type[Exception], ...] = (),
) -> bool:
    """Keep a cache file: `write_whole`, neither synced nor raising; whether it was
    written. A WriteError, or one of `errors` raised by `write`, costs the file and
    nothing else. `private`: a folder made here is the user's alone (0700)."""
    swallowed: tuple[type[Exception], ...] = (WriteError, *errors)
    try:
        write_whole(path, write, durable=False, folder_mode=0o700 if private else 0o777)
    except swallowed:
        return False
    return True
