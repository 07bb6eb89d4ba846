"""PhaseRunner: one night or one day, played through an engine, with no front end.

The runner owns everything that used to live in a screen: the segments of the
script, the one being played, the step being heard, the running countdown, paused
or not, and what went wrong. Front ends send it commands and render its state:

- Commands (`start`, `pause`, `resume`, `toggle`, `skip`, `go_on`, `branch`,
  `adjust`, `stop`, `retry`, `close`) may be called from any thread. They change the state
  at once, under one lock, and never block on the sound device or the speech
  engine: `state()` right after a command already shows its effect.
- Everything slow -- `engine.play()` synthesising the first call, the timer's
  spoken warnings, polling the playback -- happens on the runner's own driver
  thread, started by `start()` and ended when the phase is over (or closed).
- Every change is reported as a `PhaseEvent` (what happened + a full `PhaseState`
  snapshot) to the listeners given to `subscribe()`. Listeners are always called
  from one thread at a time, in order -- usually the driver thread, so a front end
  hands them over to its own loop (Textual: `app.call_from_thread`; asyncio:
  `loop.call_soon_threadsafe(queue.put_nowait, event)`).

Failure is a state: when a segment cannot be played (no device, the server went
away, an aborted stream, a line that cannot be synthesised) the runner stops
where it is with `status == "failed"` and `error` set, and waits: `retry()` plays
again from the step that failed, `stop()` gives up. It never moves on by itself.

Every playback the runner opens is closed by the runner, on every path: when it
ends, when it is stopped, when it fails, and when the runner is closed.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from narrator.script import Say, Script, Timer
from narrator.script.render_text import estimate_seconds
from narrator.session.clock import Clock
from narrator.session.engine import NightEngine, Playing
from narrator.session.events import (
    EventKind,
    Listener,
    Listeners,
    PhaseEvent,
    PhaseState,
    PhaseStatus,
)
from narrator.session.segments import (
    RunningTimer,
    Segment,
    SegmentKind,
    branch_target,
    segments,
)

POLL = 0.02  # seconds between the driver's looks at the playback and the clock

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Job:
    """Speech the driver must start: `script`, whose step 0 is script step `base`."""

    generation: int
    script: Script
    base: int | None  # None: a timer's end call, shown on the timer's step


class PhaseRunner:
    """Plays `script` segment by segment on `engine`; see the module docstring."""

    def __init__(
        self,
        script: Script,
        engine: NightEngine,
        clock: Clock,
        *,
        listener: Listener | None = None,
        poll: float = POLL,
    ) -> None:
        self.script = script
        self.engine = engine
        self.clock = clock
        self.poll = poll
        self.segments: list[Segment] = segments(script)
        self._lengths = [sum(estimate_seconds(s) for s in seg.steps) for seg in self.segments]
        self._lock = threading.RLock()
        self._listeners = Listeners()
        if listener is not None:
            self._listeners.add(listener)
        self._outbox: deque[PhaseEvent] = deque()
        self._flush_lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._driver_done = False
        self._closed = False
        self._status: PhaseStatus = "ready"
        self._error: str | None = None
        self._seg = -1
        self._step: int | None = None
        self._generation = 0
        self._job: _Job | None = None
        self._base: int | None = None  # script index of the playback's step 0
        self._playback: Playing | None = None
        self._countdown: RunningTimer | None = None
        self._voices: list[Playing] = []  # timer warnings being spoken
        self._to_say: list[str] = []
        self._looks = 0  # the driver's passes over the clock and the playback
        self._emit("opened")
        self._deliver()

    # -- reading -----------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(event)` for every event from now on; returns an unsubscribe."""
        return self._listeners.add(listener)

    def state(self) -> PhaseState:
        with self._lock:
            return self._snapshot()

    @property
    def segment(self) -> Segment | None:
        with self._lock:
            return self._segment()

    # -- commands ----------------------------------------------------------------------
    @property
    def looks(self) -> int:
        """How many times the driver has looked at the clock and the playback and acted
        on what it saw: one more look after a change is proof it saw the change (a test
        that checks nothing moved waits for it, not for a sleep)."""
        with self._lock:
            return self._looks

    def start(self) -> None:
        """Begin with the first segment (nothing happens if already started)."""
        with self._lock:
            if self._status != "ready" or self._closed:
                return
            self._status = "running"
            self._emit("started")
            self._next()
            self._thread = threading.Thread(target=self._drive, name="narrator-phase", daemon=True)
            self._thread.start()
        self._deliver()

    def pause(self) -> None:
        with self._lock:
            if self._status != "running":
                return
            self._status = "paused"
            if self._playback is not None:
                self._playback.pause()
            if self._countdown is not None:
                self._countdown.pause(self.clock.now())
            self._emit("paused")
        self._deliver()

    def resume(self) -> None:
        with self._lock:
            if self._status != "paused":
                return
            self._status = "running"
            if self._playback is not None:
                self._playback.resume()
            if self._countdown is not None:
                self._countdown.resume(self.clock.now())
            self._emit("resumed")
        self._deliver()

    def toggle(self) -> None:
        """The one big button: start; go on from a wait; else pause or resume."""
        with self._lock:
            status, kind = self._status, self._kind()
        if status == "ready":
            self.start()
        elif status == "running" and kind == "wait":
            self.go_on()
        elif status == "running":
            self.pause()
        elif status == "paused":
            self.resume()

    def skip(self) -> None:
        """To the next call: skips the rest of a silence, a timer, or a wait."""
        with self._lock:
            segment = self._segment()
            if segment is None or self._status not in ("running", "paused"):
                return
            if segment.kind == "speech":
                if self._playback is not None:
                    self._playback.skip()
            elif self._countdown is not None:
                self._finish_timer(spoken_end=False)
            elif segment.kind == "wait":
                self._next()
        self._deliver()

    def go_on(self) -> None:
        """The table is ready: start, or leave a wait."""
        with self._lock:
            status, kind = self._status, self._kind()
        if status == "ready":
            self.start()
            return
        with self._lock:
            if kind == "wait" and self._status in ("running", "paused"):
                self._next()
        self._deliver()

    def branch(self) -> None:
        """Take the way round offered by the wait being shown (see `Wait.branch`)."""
        with self._lock:
            if self._status not in ("running", "paused"):
                return
            target = branch_target(self.segments, self._segment())
            if target is None:
                return
            for skipped in range(self._seg + 1, target):
                self._lengths[skipped] = 0.0  # not played: the progress jumps past them
            self._seg = target - 1
            self._next()
        self._deliver()

    def adjust(self, seconds: float) -> None:
        """Add (or, negative, take away) time on the running timer."""
        with self._lock:
            if self._countdown is None:
                return
            self._countdown.adjust(seconds, self.clock.now())
            self._emit("adjusted")
        self._deliver()

    def retry(self) -> None:
        """After a failure: play again from the step that failed."""
        with self._lock:
            segment = self._segment()
            if self._status == "failed" and segment is not None:
                self._status = "running"
                self._error = None
                self._emit("retried")
                if segment.kind == "speech":
                    self._generation += 1
                    first = max(0, (self._step or segment.start) - segment.start)
                    steps = segment.steps[first:]
                    script = replace(self.script, steps=steps)
                    self._job = _Job(self._generation, script, segment.start + first)
                    self._wake.set()
                else:  # a timer's end call could not be said: go on
                    self._next()
        self._deliver()

    def stop(self) -> None:
        """Silence at once; the phase is over (safe from any thread, any number of times)."""
        with self._lock:
            if self._status in ("finished", "stopped"):
                return
            self._status = "stopped"
            self._generation += 1
            self._job = None
            self._countdown = None
            playing = self._take_playbacks()
            self._emit("stopped")
        for playback in playing:
            _end(playback)
        self._deliver()

    def close(self) -> None:
        """Stop, free every playback and end the driver thread (waits for it)."""
        self.stop()
        with self._lock:
            self._closed = True
            playing = self._take_playbacks()
            thread = self._thread
        self._wake.set()
        for playback in playing:
            _end(playback)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    # -- state, under the lock ---------------------------------------------------------
    def _segment(self) -> Segment | None:
        if 0 <= self._seg < len(self.segments):
            return self.segments[self._seg]
        return None

    def _kind(self) -> SegmentKind | None:
        segment = self._segment()
        return None if segment is None else segment.kind

    def _lengths_now(self) -> list[float]:
        """Each segment's length; a running timer's as lengthened or shortened."""
        lengths = list(self._lengths)
        if self._countdown is not None and 0 <= self._seg < len(lengths):
            lengths[self._seg] = self._countdown.length
        return lengths

    def _elapsed(self, now: float) -> float:
        total = sum(self._lengths_now())
        if self._status == "finished" or self._seg >= len(self.segments):
            return total
        before = sum(self._lengths[: max(0, self._seg)])
        if self._countdown is not None:
            return before + self._countdown.elapsed(now)
        if self._playback is not None and self._base is not None and self._seg >= 0:
            segment = self.segments[self._seg]
            skipped = sum(estimate_seconds(s) for s in segment.steps[: self._base - segment.start])
            heard = skipped + self._playback.position
            return before + min(heard, self._lengths[self._seg])
        return min(before, total)

    def _snapshot(self) -> PhaseState:
        now = self.clock.now()
        countdown = self._countdown
        return PhaseState(
            phase=self.script.phase,
            night=self.script.night,
            status=self._status,
            segment=self._seg,
            segments=len(self.segments),
            kind=self._kind(),
            step=self._step,
            countdown=None if countdown is None else countdown.remaining(now),
            countdown_length=None if countdown is None else countdown.length,
            elapsed=self._elapsed(now),
            total=sum(self._lengths_now()),
            error=self._error,
            sounding=self._playback is not None,
        )

    def _emit(self, kind: EventKind, text: str | None = None) -> None:
        self._outbox.append(PhaseEvent(kind, self._snapshot(), text))

    def _take_playbacks(self) -> list[Playing]:
        playing = [p for p in (self._playback, *self._voices) if p is not None]
        self._playback = None
        self._base = None
        self._voices = []
        return playing

    def _next(self) -> None:
        """On to the next segment (or the end)."""
        self._generation += 1
        self._countdown = None
        self._job = None
        self._seg += 1
        segment = self._segment()
        if segment is None:
            self._seg = len(self.segments)
            self._status = "finished"
            self._emit("finished")
            return
        self._step = segment.start
        if segment.kind == "speech":
            self._job = _Job(self._generation, segment.script(self.script), segment.start)
            self._wake.set()
        elif segment.kind == "timer":
            step = segment.steps[0]
            assert isinstance(step, Timer)
            self._countdown = RunningTimer(step.seconds, step.warnings, self.clock.now())
            if self._status == "paused":
                self._countdown.pause(self.clock.now())
        self._emit("segment")

    def _finish_timer(self, spoken_end: bool) -> None:
        segment = self._segment()
        assert segment is not None and self._countdown is not None
        step = segment.steps[0]
        self._lengths[self._seg] = self._countdown.length
        self._countdown = None
        if spoken_end and isinstance(step, Timer) and step.end:
            # "Time is up" is heard before the next call starts, never over it.
            self._generation += 1
            end = replace(self.script, steps=(Say(step.end, step.role),))
            self._job = _Job(self._generation, end, None)
            self._wake.set()
            self._emit("segment")
        else:
            self._next()

    def _fail(self, error: str) -> None:
        # In the log too: the table sees it on screen (or hears nothing); whoever looks
        # into why later reads it there, beside what the player logged.
        log.warning("the %s could not be played: %s", self.script.phase, error)
        self._status = "failed"
        self._error = error
        self._emit("failed", error)

    # -- the driver thread -------------------------------------------------------------
    def _drive(self) -> None:
        # A clock that jumps rather than flows (a test's manual clock) may offer
        # `watch(callback) -> unwatch`: the driver then looks as soon as it moves,
        # not at its next poll.
        watch = getattr(self.clock, "watch", None)
        unwatch = watch(self._wake.set) if callable(watch) else None
        try:
            while True:
                self._wake.wait(self.poll)
                self._wake.clear()
                with self._lock:
                    over = self._status in ("finished", "stopped") and not self._voices
                    if self._closed or over:
                        break
                    job, self._job = self._job, None
                    to_say, self._to_say = self._to_say, []
                if job is not None:
                    self._open(job)
                for text in to_say:
                    self._say(text)
                with self._lock:
                    ended = self._look()
                for playback in ended:
                    _end(playback)
                self._deliver()
                with self._lock:
                    self._looks += 1
        finally:
            if unwatch is not None:
                unwatch()
            with self._lock:
                self._driver_done = True
                playing = self._take_playbacks() if self._closed else []
            for playback in playing:
                _end(playback)
            self._deliver()

    def _open(self, job: _Job) -> None:
        try:
            playback = self.engine.play(job.script)
        except Exception as exc:  # AudioUnavailable, a speech error: a state, never raised
            with self._lock:
                if job.generation == self._generation and self._status in ("running", "paused"):
                    self._fail(_one_line(exc))
            return
        with self._lock:
            current = job.generation == self._generation and self._status in ("running", "paused")
            if current:
                self._playback = playback
                self._base = job.base
                if self._status == "paused":
                    playback.pause()
        if not current:
            _end(playback)

    def _say(self, text: str) -> None:
        try:
            voice = self.engine.speak(text, self.script.lang)
        except Exception as exc:  # a warning that cannot be said must not end the day
            with self._lock:
                self._emit("notice", f"Could not say {text!r}: {_one_line(exc)}")
            return
        with self._lock:
            if self._status in ("finished", "stopped") and not self._voices:
                stale = True
            else:
                stale = False
                self._voices.append(voice)
        if stale:
            _end(voice)

    def _look(self) -> list[Playing]:
        """One look at the playback, the timer and the warnings; returns what ended."""
        ended: list[Playing] = []
        for voice in list(self._voices):
            if voice.finished:
                self._voices.remove(voice)
                ended.append(voice)
                if voice.error:
                    self._emit("notice", voice.error)
        playback = self._playback
        segment = self._segment()
        if playback is not None and segment is not None:
            if playback.duration is not None and self._base == segment.start:
                self._lengths[self._seg] = playback.duration
            index = playback.current_step
            if index is not None and self._base is not None:
                step = min(self._base + index, segment.start + len(segment.steps) - 1)
                if step != self._step:
                    self._step = step
                    self._emit("step")
            if playback.wait(0):  # (the real one fails a stalled output here)
                self._playback = None
                self._base = None
                ended.append(playback)
                if playback.error:
                    self._fail(playback.error)
                else:
                    self._next()
        countdown = self._countdown
        if countdown is not None and self._status == "running":
            now = self.clock.now()
            for warning in countdown.due(now):
                self._to_say.append(warning.text)
                self._wake.set()
                self._emit("warning", warning.text)
            if countdown.done(now):
                self._finish_timer(spoken_end=True)
        return ended

    def _deliver(self) -> None:
        """Hand queued events to the listeners, in order, one thread at a time."""
        with self._lock:
            driven = self._thread is not None and not self._driver_done
        if driven and threading.current_thread() is not self._thread:
            self._wake.set()  # the driver delivers within a moment
            return
        with self._flush_lock:
            while True:
                with self._lock:
                    if not self._outbox:
                        return
                    event = self._outbox.popleft()
                self._listeners(event)


def _end(playback: Playing) -> None:
    """Stop and free a playback; it is ours, and nobody else will."""
    for step in (playback.stop, playback.close):
        try:
            step()
        except Exception:  # the sound output may already be gone; the night goes on
            log.warning("freeing a playback failed", exc_info=True)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
