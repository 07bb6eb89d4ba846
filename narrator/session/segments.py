"""How the app walks through a script: segments to play, timers to run, waits.

A night is one stretch of speech and silence, handed to the audio engine whole so
that every pause is exact. A day is different: its timers can be lengthened or
shortened while they run and its waits last until someone presses a key, so the
day is cut into `Segment`s -- speech for the engine, then a `RunningTimer` the app
runs on its clock, then a wait for the user. Pure python, no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from narrator.script import Cue, Pause, Say, Script, Step, Timer, TimerWarning, Wait, timefmt

SegmentKind = Literal["speech", "timer", "wait"]


@dataclass(frozen=True, slots=True)
class Segment:
    kind: SegmentKind
    start: int  # index in the script of the first step
    steps: tuple[Step, ...]

    def script(self, whole: Script) -> Script:
        """The speech of this segment as a script of its own, for the engine."""
        return replace(whole, steps=self.steps)


def segments(script: Script) -> list[Segment]:
    """Consecutive say/pause/cue steps form one speech segment; timers and waits stand alone."""
    out: list[Segment] = []
    run: list[Step] = []
    start = 0
    for index, step in enumerate(script.steps):
        if isinstance(step, Say | Pause | Cue):
            if not run:
                start = index
            run.append(step)
            continue
        if run:
            out.append(Segment("speech", start, tuple(run)))
            run = []
        out.append(Segment("timer" if isinstance(step, Timer) else "wait", index, (step,)))
    if run:
        out.append(Segment("speech", start, tuple(run)))
    return out


class RunningTimer:
    """A running timer: adjustable, pausable, with warnings spoken once each."""

    def __init__(self, seconds: float, warnings: tuple[TimerWarning, ...], now: float) -> None:
        self.length = seconds
        self.warnings = warnings
        self._end = now + seconds
        self._paused_left: float | None = None
        self._said: set[float] = {w.at for w in warnings if w.at >= seconds}

    def remaining(self, now: float) -> float:
        if self._paused_left is not None:
            return self._paused_left
        return max(0.0, self._end - now)

    def elapsed(self, now: float) -> float:
        return max(0.0, self.length - self.remaining(now))

    @property
    def paused(self) -> bool:
        return self._paused_left is not None

    def pause(self, now: float) -> None:
        if self._paused_left is None:
            self._paused_left = self.remaining(now)

    def resume(self, now: float) -> None:
        if self._paused_left is not None:
            self._end = now + self._paused_left
            self._paused_left = None

    def adjust(self, delta: float, now: float) -> None:
        """Add (or take away) time; a warning whose moment comes back is armed again."""
        left = max(0.0, self.remaining(now) + delta)
        self.length = max(0.0, self.length + delta)
        if self._paused_left is not None:
            self._paused_left = left
        else:
            self._end = now + left
        self._said = {at for at in self._said if at >= left}

    def due(self, now: float) -> list[TimerWarning]:
        """Warnings to speak now (each once; only the latest if several passed together)."""
        left = self.remaining(now)
        passed = [w for w in self.warnings if w.at not in self._said and left <= w.at and left > 0]
        self._said.update(w.at for w in passed)
        return passed[-1:] if passed else []

    def done(self, now: float) -> bool:
        return self.remaining(now) <= 0


def branch_target(segments: list[Segment], segment: Segment | None) -> int | None:
    """The segment a wait's branch jumps to (Wherewolf: every vote on one player,
    burned at once, no ballot); None when `segment` is not a wait with a branch."""
    if segment is None or segment.kind != "wait":
        return None
    step = segment.steps[0]
    if not isinstance(step, Wait) or step.branch_to is None:
        return None
    to = step.branch_to
    return next(
        (i for i, seg in enumerate(segments) if seg.start + len(seg.steps) > to), len(segments)
    )


def clock(seconds: float) -> str:
    """A time still to come or running on screen, rounded up (see script.timefmt)."""
    return timefmt.clock(seconds, up=True)
