"""Time as the session reads it: a `Clock`, and the system's.

Apart from the engine's Protocols so that the app's first frame, which needs a clock
and nothing of the script, loads nothing more (issue 18).
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds on a monotonic scale; the app's timers read nothing else."""

    def now(self) -> float: ...


class SystemClock:
    def now(self) -> float:
        return time.monotonic()
