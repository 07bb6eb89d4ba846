"""A night's defaults and the ranges they may take, written once.

What `Plan` takes when the table says nothing, and what the settings file, the
settings screen, the command line and the phones' table start from and accept. Light
on purpose (it imports nothing): the app's settings read it before its first frame.
"""

from __future__ import annotations

PACE = 1.0  # every silence of the night as written
PACE_RANGE = (0.1, 10.0)  # faster than a tenth is no silence, slower than 10x a wait
WAKE_GAP = 1.0  # seconds after "X, wake up." before the instruction (scaled by pace)
WAKE_GAP_RANGE = (0.0, 10.0)
