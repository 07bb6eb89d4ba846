"""The tests' clocks: each is the session's `Clock` protocol (`now()`), as the
production ones are (`narrator.session.clock`), and moves only as its test needs.

- `ManualClock`: still until the test moves it (`advance`, `advance_to`), and then
  tells whoever `watch`es it at once. For everything that runs on a clock but not in
  real time: the session's phases, the app, the table's deadlines, a table played
  headless.
- `RunningClock`: the machine's time, `speed` times as fast, and `hold`-able: the
  voice's clock when a test plays a night on a real server (a silent night in
  seconds), held still while the phones see and answer a call.
- `TurnClock`: moves `quantum` seconds at each look of its reader, whatever the
  machine's speed, and held the same way: for a night that must never pass a call
  between two looks of the voice's driver, however busy the machine (a
  `RunningClock` on a loaded machine may jump a whole call).

tests/unit/test_clocks.py checks each against the protocol (mypy) and that each
moves as it says. Used by tests/session, tests/tui, tests/table and
scripts/bench_table_night.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class _Watchers:
    """Whoever watches a clock: told each time it moves (`fire`)."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` each time the clock moves; returns the way to stop."""
        with self._lock:
            self._callbacks.append(callback)

        def unwatch() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unwatch

    def fire(self) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()


class ManualClock:
    """Moves only on `advance` or `advance_to`, never back, and then tells whoever
    `watch`es it at once (the session's phase driver: it looks at the new time
    without waiting for its poll)."""

    def __init__(self, start: float = 1000.0) -> None:
        self._t = start
        self._watchers = _Watchers()

    def now(self) -> float:
        return self._t

    def advance(self, seconds: float) -> None:
        """`seconds` (>= 0) later."""
        self.advance_to(self._t + seconds)

    def advance_to(self, t: float) -> None:
        """To the time `t`: now or later (a monotonic clock never goes back)."""
        if t < self._t:
            raise ValueError(f"a clock at {self._t} cannot go back to {t}")
        self._t = t
        self._watchers.fire()

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` each time the clock moves; returns the way to stop."""
        return self._watchers.watch(callback)


class RunningClock:
    """The machine's monotonic time, `speed` times as fast, from 0 when made; still
    from `hold` to `release` (it goes on from where it was held, nothing skipped)."""

    def __init__(self, speed: float = 1.0) -> None:
        self.speed = speed
        self._base = time.monotonic()
        self._paused = 0.0  # machine seconds spent held
        self._held_at: float | None = None  # the machine's time when held
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            real = self._held_at if self._held_at is not None else time.monotonic()
            return (real - self._base - self._paused) * self.speed

    @property
    def held(self) -> bool:
        return self._held_at is not None

    def hold(self) -> None:
        with self._lock:
            if self._held_at is None:
                self._held_at = time.monotonic()

    def release(self) -> None:
        with self._lock:
            if self._held_at is not None:
                self._paused += time.monotonic() - self._held_at
                self._held_at = None


class TurnClock:
    """From 0, `quantum` seconds later at each look of its reader, whatever the
    machine's speed. A look is a read more than `LOOK` machine seconds after the
    clock last moved: the voice's driver looks every 20 ms and reads the clock
    several times a look, and those reads share a time. A call several quanta long is
    never passed between two looks, busy machine or not. Still from `hold` to
    `release`."""

    LOOK = 0.005  # machine seconds: reads closer than this to the last move are one look
    NUDGE = 0.006  # a little over LOOK: a nudge wakes the driver only for a new look

    def __init__(self, quantum: float) -> None:
        self.quantum = quantum
        self._t = 0.0
        self._held = False
        self._moved = 0.0  # when the clock last moved, on the machine's clock
        self._lock = threading.Lock()
        self._watchers = _Watchers()

    def now(self) -> float:
        with self._lock:
            real = time.monotonic()
            if not self._held and real - self._moved > self.LOOK:
                self._t += self.quantum
                self._moved = real
            return self._t

    @property
    def held(self) -> bool:
        return self._held

    def hold(self) -> None:
        with self._lock:
            self._held = True

    def release(self) -> None:
        with self._lock:
            self._held = False

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        """The voice's driver watches the clock (as it does a `ManualClock`) and
        looks when `nudge` says the clock would move at its next read."""
        return self._watchers.watch(callback)

    def nudge(self) -> None:
        """Wake the watchers once the clock would move at its next read (not held, its
        last move `NUDGE` ago): the driver looks at once instead of at its next 20 ms
        poll. Each look still moves one quantum, so a call is never passed between two
        looks; only the waits between them are shorter (a night's ~100 looks took 2 s
        of waiting, resumed 45 times for the boxes in test_restart)."""
        with self._lock:
            due = not self._held and time.monotonic() - self._moved > self.NUDGE
        if due:
            self._watchers.fire()
