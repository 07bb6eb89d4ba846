"""A clock that only moves when a test says so."""

from __future__ import annotations

import threading
from collections.abc import Callable


class ManualClock:
    """Moves only on `advance`, and then tells whoever `watch`es it at once (the
    session's phase driver: it looks at the new time without waiting for its poll)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self._watchers: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
        with self._lock:
            watchers = list(self._watchers)
        for watcher in watchers:
            watcher()

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self._watchers.append(callback)

        def unwatch() -> None:
            with self._lock:
                if callback in self._watchers:
                    self._watchers.remove(callback)

        return unwatch
