"""What a phase runner tells its front ends: its state as plain values, the events
that carry it, and the listeners that hear them.

A front end renders a `PhaseState` and reacts to a `PhaseEvent`; `Listeners` calls
each listener in turn, and one that raises never stops the others (a broken front end
must never stop a night). The runner itself is `narrator.session.phase`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from narrator.script.model import Phase
from narrator.session.segments import SegmentKind

PhaseStatus = Literal["ready", "running", "paused", "failed", "finished", "stopped"]
EventKind = Literal[
    "opened",  # the runner exists; nothing plays yet
    "started",
    "segment",  # a new segment (speech, timer or wait) began
    "step",  # the playback reached another step of the script
    "paused",
    "resumed",
    "adjusted",  # the running timer was lengthened or shortened
    "warning",  # a timer warning is being spoken (`text`)
    "failed",  # the phase cannot go on (`text`: why, in one line)
    "retried",
    "finished",  # the script was heard to the end
    "stopped",
    "notice",  # something the table should know that does not stop the phase (`text`)
]
Listener = Callable[["PhaseEvent"], None]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PhaseState:
    """Everything a front end shows, as plain values (`to_dict()` is JSON-ready)."""

    phase: Phase
    night: int
    status: PhaseStatus
    segment: int  # -1 before the start; `segments` once done
    segments: int
    kind: SegmentKind | None  # of the current segment
    step: int | None  # index in the script of the step heard (or shown) now
    countdown: float | None  # seconds left on the running timer
    countdown_length: float | None
    elapsed: float
    total: float
    error: str | None
    sounding: bool = False  # a playback is open: the speaker is in use

    @property
    def started(self) -> bool:
        return self.status != "ready"

    @property
    def done(self) -> bool:
        return self.status in ("finished", "stopped")

    @property
    def paused(self) -> bool:
        return self.status == "paused"

    @property
    def waiting(self) -> bool:
        """A wait segment: the table goes on with `go_on()`."""
        return self.kind == "wait" and not self.done

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class PhaseEvent:
    kind: EventKind
    state: PhaseState
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "state": self.state.to_dict(), "text": self.text}


class Listeners:
    """Who hears the events: thread-safe; one that raises never stops the others
    (a broken front end must never stop a night)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: list[Listener] = []

    def add(self, listener: Listener) -> Callable[[], None]:
        """Add `listener`; returns the function that removes it."""
        with self._lock:
            self._items.append(listener)

        def remove() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._items.remove(listener)

        return remove

    def __call__(self, event: PhaseEvent) -> None:
        with self._lock:
            items = list(self._items)
        for listener in items:
            try:
                listener(event)
            except Exception:  # a broken front end must never stop a night: logged
                log.exception("a listener failed on the %s event", type(event).__name__)
