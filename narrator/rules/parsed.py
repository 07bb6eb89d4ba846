"""Checked rulesets kept between runs, so a command does not parse its game each time.

Reading and checking One Night's 1,400 lines takes ~90 ms (a YAML reader that keeps
every line number, for errors that name file:line), about a third of `narrator play`'s
time to its first word. A ruleset that checked out is kept, pickled, in the user's
cache folder, under the SHA-256 of its path, its bytes and the rules code that read
it: any change to the file or to this package reads it afresh. Only rulesets that
loaded are kept (an error is always found by reading). The folder is the user's own
(0700), and a file that cannot be read back is ignored and replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from pathlib import Path
from typing import BinaryIO

from narrator.base.files import write_cache
from narrator.base.folders import cache_dir
from narrator.rules.model import Ruleset
from narrator.rules.stamp import code_stamp


def _name(path: Path, data: bytes) -> str:
    """`<path's hash>-<bytes' and code's hash>.pickle`: one kept file per path."""
    where = hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogateescape"))
    what = hashlib.sha256(code_stamp() + data)
    return f"{where.hexdigest()[:32]}-{what.hexdigest()[:32]}.pickle"


def recall(path: Path, data: bytes) -> Ruleset | None:
    """The ruleset these bytes at this path gave last time, if it is kept."""
    try:
        with open(cache_dir() / _name(path, data), "rb") as file:
            ruleset = pickle.load(file)
    except Exception:
        return None
    return ruleset if isinstance(ruleset, Ruleset) else None


def keep(path: Path, data: bytes, ruleset: Ruleset) -> None:
    """Keep a ruleset that checked out; a cache that cannot be written costs nothing."""
    where = cache_dir()
    name = _name(path, data)

    def write(file: BinaryIO) -> None:
        pickle.dump(ruleset, file, protocol=pickle.HIGHEST_PROTOCOL)

    if write_cache(where / name, write, private=True, errors=(pickle.PicklingError,)):
        with contextlib.suppress(OSError):
            for old in where.glob(f"{name.split('-')[0]}-*.pickle"):  # this path's older ones
                if old.name != name:
                    old.unlink(missing_ok=True)
