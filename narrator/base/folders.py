"""Where narrator's rulesets live, and where what was read of them is kept.

The shipped rulesets (and the lexicons beside them, `rulesets/lexicon/`) inside an
installed wheel or a checkout, the user's own in their config folder, the kept
copies in their cache folder (platformdirs: XDG-aware on Linux, right on macOS and
Windows). Light on purpose (paths only, no reading): the app's first frame finds
its kept games list through it before any ruleset is parsed (issue 18).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import platformdirs


def shipped_dir() -> Path:
    """The rulesets inside an installed wheel, or the checkout's top-level rulesets/."""
    packaged = Path(str(resources.files("narrator"))) / "rulesets"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rulesets"


def user_dir() -> Path:
    """The user's own rulesets: `<config folder>/narrator/rulesets`."""
    return Path(platformdirs.user_config_dir("narrator")) / "rulesets"


def cache_dir() -> Path:
    """The user's cache folder for what was read of rulesets (kept rulesets, the games
    list)."""
    return Path(platformdirs.user_cache_dir("narrator")) / "rulesets"


def ruleset_files(folder: Path) -> list[Path]:
    """The ruleset files of a folder, in the order they are loaded (none if it is not a
    folder)."""
    return sorted(folder.glob("*.y*ml")) if folder.is_dir() else []


def catalog_folders(*dirs: Path) -> list[tuple[Path, bool]]:
    """The folders a catalogue is read from, in order, each with whether it is the
    user's: the shipped one, then the user's (or `dirs`)."""
    return [(shipped_dir(), False), *((d, True) for d in dirs or (user_dir(),))]
