"""Shared helpers: build the app with fakes, and run it until something shows."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from tests.tui.fakes import ManualClock


async def run_until(
    pilot: Pilot[object],
    clock: ManualClock,
    done: Callable[[], bool],
    step: float = 2.0,
    limit: int = 600,
) -> None:
    """Advance the clock `step` seconds at a time until `done()` (or fail)."""
    for _ in range(limit):
        await pilot.pause(0.01)
        if done():
            return
        clock.advance(step)
    raise AssertionError("the app never got there")


async def settle(pilot: Pilot[object], done: Callable[[], bool], limit: int = 200) -> None:
    """Wait (without moving the clock) until `done()`: workers and messages catch up."""
    for _ in range(limit):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never settled")


def sync(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test in its own event loop (no pytest async plugin needed)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))  # type: ignore[arg-type]

    return run
