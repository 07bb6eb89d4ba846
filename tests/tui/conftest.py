"""Shared helpers: build the app with fakes, and run it until something shows."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from tests.support.clock import ManualClock
from tests.tui.fakes import screen_text

# Each round of `run_until` and `settle`: the app's pending messages are handled, then
# this much real time lets the session's threads run (they are woken, never polled).
PAUSE = 0.002


async def run_until(
    pilot: Pilot[object],
    clock: ManualClock,
    done: Callable[[], bool],
    step: float = 2.0,
    limit: int = 600,
) -> None:
    """Advance the clock `step` seconds at a time until `done()` (or fail). Each
    advance wakes the phase's driver at once (`ManualClock.watch`); the pause lets
    it run and the app take in what it posted."""
    for _ in range(limit):
        await pilot.pause(PAUSE)
        if done():
            return
        clock.advance(step)
    raise AssertionError("the app never got there")


async def settle(pilot: Pilot[object], done: Callable[[], bool], limit: int = 200) -> None:
    """Wait (without moving the clock) until `done()`: workers and messages catch up.
    At least `limit` rounds, and at least 10 s of wall time: a busy machine makes
    each round longer, never the budget shorter."""
    deadline = time.monotonic() + 10
    rounds = 0
    while rounds < limit or time.monotonic() < deadline:
        if done():
            return
        await pilot.pause(PAUSE)
        rounds += 1
    raise AssertionError("the app never settled")


async def shows(pilot: Pilot[Any], *texts: str) -> str:
    """Wait (without moving the clock) until the screen shows every one of `texts`, and
    return what it shows. The session's state changes on its driver's thread; the
    screen draws it once the app has taken in the message: a test that reads the
    state and then the screen reads too early on a busy machine."""
    app = pilot.app
    try:
        await settle(pilot, lambda: all(t in screen_text(app) for t in texts))  # type: ignore[arg-type]
    except AssertionError:
        shown = screen_text(app)  # type: ignore[arg-type]
        missing = [t for t in texts if t not in shown]
        raise AssertionError(f"the screen never showed {missing}:\n{shown}") from None
    return screen_text(app)  # type: ignore[arg-type]


def sync(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test in its own event loop (no pytest async plugin needed)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))  # type: ignore[arg-type]

    return run
