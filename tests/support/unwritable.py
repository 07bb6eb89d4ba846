"""A folder nobody may write in -- root included -- as a full disk or a read-only
mount refuses: the tests of every save that must fail whole (a saved game, a voice
pack's take, the settings) share it."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """Nobody may add to, remove from or rename in `folder` while inside: its mode
    without the write bits, or for root (whom modes do not stop) `chattr +i`; as it
    was after. Skips the test where neither can be done."""
    if os.geteuid() != 0:
        mode = stat.S_IMODE(folder.stat().st_mode)
        folder.chmod(mode & ~0o222)
        try:
            yield
        finally:
            folder.chmod(mode)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a folder read-only")
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"chattr +i is not supported here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
