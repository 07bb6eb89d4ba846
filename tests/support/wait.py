"""Waiting for something to happen, the one way the tests do it: poll a condition
until it holds, and fail with what was awaited when it never does (a test waits for
a signal, never for a fixed time)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

POLL = 0.005  # seconds between looks


def wait_until(
    done: Callable[[], bool],
    seconds: float = 10,
    what: str = "the condition",
    *,
    each: Callable[[], None] | None = None,
) -> None:
    """Return once `done()` holds; AssertionError naming `what` after `seconds`.
    `each` is called between looks (a manual clock moved on, say)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"{what} never came in {seconds:g} s"
        if each is not None:
            each()
        time.sleep(POLL)


def settle(done: Callable[[], bool], seconds: float) -> bool:
    """Like `wait_until`, but says whether `done()` came instead of failing: for a
    count taken once things are at rest, or after `seconds` whatever it is."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


async def wait_until_async(
    done: Callable[[], bool], seconds: float = 10, what: str = "the condition"
) -> None:
    """`wait_until` inside an event loop: the loop runs between looks."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"{what} never came in {seconds:g} s"
        await asyncio.sleep(POLL)
