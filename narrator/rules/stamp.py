"""The rules code's stamp: what a kept ruleset or games list was read by.

A copy kept in the cache (`parsed.py`, `index.py`) is used only while the code that
read it is unchanged. Light on purpose (no model, no loader).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

FORMAT = 1  # bump when what is kept changes shape other than through the code


@functools.cache
def code_stamp() -> bytes:
    """The rules package's code as it is now: names, sizes and modification times."""
    here = Path(__file__).parent
    stamp = hashlib.sha256(str(FORMAT).encode())
    for source in sorted(here.glob("*.py")):
        info = source.stat()
        stamp.update(f"{source.name} {info.st_size} {info.st_mtime_ns}\n".encode())
    return stamp.digest()
