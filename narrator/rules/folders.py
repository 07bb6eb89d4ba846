"""Where rulesets live and where what was read of them is kept; the rules code's stamp.

Light on purpose (no model, no loader): the app's first frame finds its kept games
list through it before any ruleset is parsed (issue 18).
"""

from __future__ import annotations

import functools
import hashlib
from importlib import resources
from pathlib import Path

import platformdirs

FORMAT = 1  # bump when what is kept changes shape other than through the code


def shipped_dir() -> Path:
    """The rulesets inside an installed wheel, or the checkout's top-level rulesets/."""
    packaged = Path(str(resources.files("narrator"))) / "rulesets"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rulesets"


def user_dir() -> Path:
    return Path(platformdirs.user_config_dir("narrator")) / "rulesets"


def cache_dir() -> Path:
    """The user's cache folder for what was read of rulesets (kept rulesets, the games
    list)."""
    return Path(platformdirs.user_cache_dir("narrator")) / "rulesets"


def ruleset_files(folder: Path) -> list[Path]:
    """The ruleset files of a folder, in the order they are loaded (none if it is not a
    folder)."""
    return sorted(folder.glob("*.y*ml")) if folder.is_dir() else []


@functools.cache
def code_stamp() -> bytes:
    """The rules package's code as it is now: names, sizes and modification times."""
    here = Path(__file__).parent
    stamp = hashlib.sha256(str(FORMAT).encode())
    for source in sorted(here.glob("*.py")):
        info = source.stat()
        stamp.update(f"{source.name} {info.st_size} {info.st_mtime_ns}\n".encode())
    return stamp.digest()


def catalog_folders(*dirs: Path) -> list[tuple[Path, bool]]:
    """The folders a catalogue is read from, in order, each with whether it is the
    user's: the shipped one, then the user's (or `dirs`)."""
    return [(shipped_dir(), False), *((d, True) for d in dirs or (user_dir(),))]
