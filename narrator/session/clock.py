"""Time as narrator reads it: the `Clock` protocol, and its two production clocks.

- `SystemClock`, the machine's monotonic time: the session's timers and the night's
  playback measure spans within one run of the program, and must not jump when the
  wall clock is set (NTP, a laptop's timezone).
- `WallClock`, the wall's time (`time.time`): the phones' table saves its deadlines
  (a vote's window, a day's timer) with the game, and a deadline must mean the same
  moment after a restart -- a monotonic clock starts again with the process.

The tests' own clocks (a manual one, a fast one) are `tests/support/clock.py`.
Apart from the engine's Protocols so that the app's first frame, which needs a clock
and nothing of the script, loads nothing more (issue 18).
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds on a scale that never goes back; the timers read nothing else."""

    def now(self) -> float: ...


class SystemClock:
    """The machine's monotonic seconds: the session's (spans within one run)."""

    def now(self) -> float:
        return time.monotonic()


class WallClock:
    """The wall's seconds since the epoch: the table's (deadlines saved with the game
    that must hold after a restart)."""

    def now(self) -> float:
        return time.time()
