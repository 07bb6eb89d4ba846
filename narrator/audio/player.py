"""The player: a PortAudio output stream fed, block by block, from a timeline.

The stream's callback (`Feeder.fill`) only copies samples that the mixer has made
final; while the render-ahead is behind, the bed goes on under the wait (the mix
writes it down), so a late line delays the night instead of cutting it, and a block
that finds the writer placing the next step waits for it (half the buffer at most)
rather than hand the device silence the night does not have. Silence that is not in
the night after all -- that wait ran out, or PortAudio reported the output ran dry --
counts as an underrun, never as a night played as mixed. Pause, resume, skip and stop are
flags under one lock, read by the callback: the TUI's thread and a polling worker
may call them at any time. Stop aborts the stream, which frees the device at once.

A stream that ends without having played to the end and without a stop (the sound
server died, the device went away) or that stops calling back is an error
(`OUTPUT_LOST`, `OUTPUT_STALLED`), never a night that "finished": the table has its
eyes closed and cannot tell.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from narrator.audio.mixer import Event, MixBuilder
from narrator.audio.synth import Samples
from narrator.i18n import N_

log = logging.getLogger(__name__)

LATENCY = 0.1  # seconds of output buffering: PulseAudio's default underruns
MAX_LATENCY = 0.8  # the most a busy machine earns (a call starts that much late)
# Of the device's buffer, how long a block may wait for the writer placing a step.
PATIENCE = 0.5
AUDIBLE = 10 ** (-60 / 20)  # the first sample above -60 dBFS counts as "heard"
STALL = 3.0  # seconds without a callback after which the output counts as gone
# Seconds between two looks of the watcher, beyond what it asked to wait, past which
# the app itself did not run (its process or its interpreter held up: seen for 6 s
# under a test run's load): the output's silence then was not seen, and it is not
# blamed for it -- it gets `STALL` seconds more, watched (`Playback.wait`).
FROZEN = 1.0
# PortAudio's paTimedOut: a sound server too busy to answer a new stream in time (seen
# at the start of a night or a day, under a test run's load). Nothing has been heard yet,
# so the stream is opened again, once, after `START_AGAIN` seconds, and the night starts
# from its first frame; a second time is the error.
PA_TIMED_OUT = -9987
START_AGAIN = 0.5
# The table reads these in its own language: each is a message of the catalogue, shown
# through it (`tui.text.say_problem`). The stall's seconds are written out for that: STALL.
OUTPUT_LOST = N_("the sound output went away (the sound server stopped, or the device was removed)")
OUTPUT_STALLED = N_("the sound output stopped responding for 3 s")


class OutputLatency:
    """The output buffer new streams get, in seconds: `LATENCY`, doubled (up to
    `MAX_LATENCY`) each time a playback underruns. A machine too busy for a short
    buffer drops audio in ALSA's recovery (a short call heard for a fraction of its
    length); the next calls then get the buffer it needs, for the rest of the run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value: float | None = None

    @property
    def value(self) -> float:
        with self._lock:
            return LATENCY if self._value is None else self._value

    def underran(self, latency: float) -> None:
        """A stream opened with `latency` underran: grow the buffer of the next ones."""
        with self._lock:
            current = LATENCY if self._value is None else self._value
            self._value = max(current, min(MAX_LATENCY, latency * 2))

    def reset(self, start: float | None = None) -> None:
        """Back to `LATENCY` (or to `start`: the tests starve the output on purpose)."""
        with self._lock:
            self._value = start


output_latency = OutputLatency()


class Stream(Protocol):
    """The device side of the player (a sounddevice.OutputStream in practice).

    Once started it calls the callback it was built with, from its own thread, for
    each block of mono float32 frames it needs, and calls `finished` once when it
    ends (the callback raised CallbackStop, or abort). `abort` stops at once,
    dropping what is buffered; `close` frees the device.
    """

    def start(self) -> None: ...

    def abort(self, ignore_errors: bool = True) -> None: ...

    def close(self, ignore_errors: bool = True) -> None: ...


class Feeder:
    """The callback's logic, free of any device so it can be tested alone."""

    def __init__(self, mix: MixBuilder, latency_frames: int) -> None:
        self.mix = mix
        self.latency_frames = latency_frames
        self.lock = threading.Lock()
        self.pos = 0  # next frame to hand to the device
        self.paused = False
        self.skip_from: int | None = None
        self.skipped_to = 0  # the call the last skip went to (a second skip goes past it)
        self.drained = 0  # frames of silence sent after the end
        # Blocks with silence the night does not have: PortAudio reported an output
        # underflow, or the writer held the mix past the block's patience.
        self.underruns = 0
        self.patience = PATIENCE * latency_frames / mix.sample_rate  # seconds
        self.starved = 0  # blocks the render-ahead had not reached yet
        # Frame and perf_counter() time at which the first sound was handed over
        # (the bench adds the output latency to know when it was heard).
        self.first_sound: int | None = None
        self.first_sound_at: float | None = None
        self.last_fill: float | None = None  # monotonic time of the last callback
        self.fills = 0  # callbacks so far

    def rewind(self) -> None:
        """Back to the night's first frame: what a stream given up on took was not heard."""
        with self.lock:
            self.pos = self.drained = self.skipped_to = 0
            self.first_sound = self.first_sound_at = None

    def heard(self) -> int:
        """Frame the listener hears now: the device buffer lags what was handed over."""
        with self.lock:
            if self.paused:
                return self.pos
            return max(0, self.pos - self.latency_frames)

    def skip(self) -> None:
        with self.lock:
            # From what the listener hears -- or from the call a skip just went to and
            # the device buffer has not let them hear yet: skipping twice, quickly,
            # skips two calls instead of going back to the same one again and again.
            self.skip_from = max(0, self.pos - self.latency_frames, self.skipped_to)

    def _apply_skip(self) -> None:
        if self.skip_from is None:
            return
        for event in self.mix.events:
            if event.kind == "say" and event.start > self.skip_from:
                self.pos = event.start
                self.skipped_to = event.start
                self.skip_from = None
                return
        if self.mix.length is not None:
            # No call left: go to the tail after the last sound.
            ends = [e.end for e in self.mix.events]
            self.pos = max([self.pos, *ends])
            self.skip_from = None

    def fill(self, out: Samples) -> bool:
        """Fill one device block; False once the end has been heard."""
        with self.lock:
            self.last_fill = time.monotonic()
            self.fills += 1
            out[:] = 0.0
            if self.paused:
                return True
            self._apply_skip()
            got = self.mix.read(self.pos, out)
            length = self.mix.length
            if got < len(out) and length is None:
                self.starved += 1
                # The next step is not made yet: the bed goes on under the wait. Or the
                # writer is placing it now: then this block waits for it.
                self.mix.pad(self.pos + len(out), wait=self.patience)
                got += self.mix.read(self.pos + got, out[got:])
                length = self.mix.length
                if got < len(out) and length is None and self.mix.bed is not None:
                    self.underruns += 1  # a hole in the bed: the listener hears it
            self.pos += got
            if got < len(out) and length is not None and self.pos >= length:
                self.drained += len(out) - got
                # Keep the stream open until the device buffer has played out.
                return self.drained < self.latency_frames + len(out)
            if self.first_sound is None and got:
                loud = np.flatnonzero(np.abs(out[:got]) > AUDIBLE)
                if len(loud):
                    self.first_sound = self.pos - got + int(loud[0])
                    self.first_sound_at = time.perf_counter()
            return True


class Playback:
    """A night being played. Thread-safe; see the module docstring."""

    def __init__(
        self,
        mix: MixBuilder,
        open_stream: Callable[[Callable[..., None], Callable[[], None]], Stream],
        sample_rate: int,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.mix = mix
        self.sample_rate = sample_rate
        self.latency = output_latency.value  # what open_output gives the stream below
        self.feeder = Feeder(mix, round(self.latency * sample_rate))
        self._done = threading.Event()
        self._error: str | None = None
        self._on_close = on_close
        self._stop_lock = threading.Lock()
        self._ended = False  # the callback played the night to its end
        self._stopping = False  # stop() was asked for
        self._started_at: float | None = None
        self._looked: float | None = None  # when wait() last found the night going on
        self._watched_from: float | None = None  # since a freeze of the app's own (`wait`)
        self._open = open_stream
        self._streams = 1  # streams opened: only the last one's end counts (`_ended_by`)
        # An end PortAudio reports while the stream is still starting waits for the
        # start's outcome (`_starting`): see `start`.
        self._start_lock = threading.Lock()
        self._starting = False
        self._ended_early = False
        self._stream: Stream | None = open_stream(self._callback, self._ended_by(1))
        self.start_retried = False  # the first start timed out and a new stream began

    def start(self) -> None:
        if self._stream is None:
            return
        try:
            self._start(self._stream)
        except Exception as exc:  # sounddevice.PortAudioError: (text, code, ...)
            if exc.args[1:2] != (PA_TIMED_OUT,):
                raise
            # PortAudio gave up waiting for the stream's thread, and ended the thread
            # itself (reporting that end from inside the start: not the night's). The
            # thread may have handed over a few blocks first; they were never heard (the
            # stream is dropped), so the night starts again from its first frame.
            self._streams += 1
            self._stream.close(ignore_errors=True)
            time.sleep(START_AGAIN)
            with self._stop_lock:
                if self._stopping:  # stopped meanwhile: nothing to start
                    return
                self.feeder.rewind()
                self._stream = stream = self._open(self._callback, self._ended_by(self._streams))
            self.start_retried = True
            self._start(stream)

    def _start(self, stream: Stream) -> None:
        """Start `stream`; an end it reports before its start returned counts only if
        the start succeeded (a very short night can end that soon)."""
        self._started_at = time.monotonic()
        with self._start_lock:
            self._starting, self._ended_early = True, False
        try:
            stream.start()
        finally:
            with self._start_lock:
                self._starting = False
                ended, self._ended_early = self._ended_early, False
        if ended:
            self._stream_finished()

    def _callback(self, outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        import sounddevice as sd

        dry = self.feeder.underruns == 0
        if status.output_underflow:
            self.feeder.underruns += 1
        more = self.feeder.fill(outdata[:, 0])
        if dry and self.feeder.underruns:
            output_latency.underran(self.latency)
        if not more:
            self._ended = True
            raise sd.CallbackStop

    def _ended_by(self, number: int) -> Callable[[], None]:
        """What PortAudio calls when the `number`th stream opened ends."""

        def finished() -> None:
            if number != self._streams:  # a stream given up on (`start`) ends unheard
                return
            with self._start_lock:
                if self._starting:
                    self._ended_early = True
                    return
            self._stream_finished()

        return finished

    def _stream_finished(self) -> None:
        """PortAudio ended the stream: an end nobody asked for is an error."""
        if not self._ended and not self._stopping and self._error is None:
            self._error = OUTPUT_LOST
        self._finished()

    def _finished(self) -> None:
        if self._done.is_set():
            return
        self._done.set()
        if self._on_close is not None:
            self._on_close()

    def fail(self, message: str) -> None:
        """The render-ahead hit an error: keep it, end the night."""
        self._error = message
        self.stop()

    # -- what the TUI reads ---------------------------------------------------
    @property
    def position(self) -> float:
        return self.feeder.heard() / self.sample_rate

    @property
    def duration(self) -> float | None:
        length = self.mix.length
        return None if length is None else length / self.sample_rate

    @property
    def events(self) -> list[Event]:
        return self.mix.events

    @property
    def current_step(self) -> int | None:
        heard = self.feeder.heard()
        current = None
        for event in self.mix.events:
            if event.start > heard:
                break
            current = event.step
        return current

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    @property
    def error(self) -> str | None:
        return self._error

    @property
    def underruns(self) -> int:
        return self.feeder.underruns

    @property
    def waits(self) -> dict[int, int]:
        """{step index: samples}: the bed waited under before a step that was not made
        in time (`MixBuilder.pad`); the events already include them."""
        return dict(self.mix.waits)

    # -- what the TUI does ----------------------------------------------------
    def pause(self) -> None:
        with self.feeder.lock:
            if not self.feeder.paused:
                # Resume where the listener is, not where the device buffer was.
                self.feeder.pos = max(0, self.feeder.pos - self.feeder.latency_frames)
                self.feeder.paused = True

    def resume(self) -> None:
        with self.feeder.lock:
            self.feeder.paused = False

    def skip(self) -> None:
        self.feeder.skip()

    def stop(self) -> None:
        """Stop now and free the device (idempotent)."""
        self._stopping = True
        with self._stop_lock:
            stream, self._stream = self._stream, None
        if stream is not None:
            stream.abort(ignore_errors=True)
            stream.close(ignore_errors=True)
        self._finished()

    def close(self) -> None:
        """Free the output stream -- its sound-server connection, fds and thread.

        Idempotent; stops first if still playing. A stream that ended by itself is
        still open until this (PortAudio cannot close it from its own callback), so
        whoever got the playback closes it on every path: end, stop, error."""
        self.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the night has been heard to the end (or stopped, or failed).

        An output that stopped calling back for `STALL` seconds fails the playback
        here: a dead device must not keep a waiter (and the table) waiting forever. The
        seconds counted are those the watcher could see: after the app itself did not
        run (`FROZEN`), the output has `STALL` seconds more."""
        if self._done.wait(timeout):
            return True
        now = time.monotonic()
        looked, self._looked = self._looked, now
        last = self.feeder.last_fill or self._started_at
        if last is None or self._stopping:
            return False
        unseen = 0.0 if looked is None else now - looked - (timeout or 0.0)
        if looked is not None and unseen > FROZEN and last >= looked - FROZEN:
            # The output was calling back when the watcher last looked, and then the
            # watcher itself did not run: the app was held up, not (yet) the output. It
            # has `STALL` seconds from now, watched, to call back again.
            self._watched_from = now
            log.warning(
                "the app itself did not run for %.2f s (the output's last callback %.2f s"
                " ago); the output is watched for %g s more",
                unseen, now - last, STALL,
            )  # fmt: skip
            return False
        if now - max(last, self._watched_from or last) > STALL:
            # What tells a dead output from an app that itself did not run: when the
            # watcher looked before (a stall seen in a test run's crowd only).
            feeder = self.feeder
            log.warning(
                "%s: %.2f s since the last callback (%d so far, at frame %d, %d underruns);"
                " the watcher looked %.2f s before",
                OUTPUT_STALLED, now - last, feeder.fills, feeder.pos, feeder.underruns,
                now - (looked or now),
            )  # fmt: skip
            self.fail(OUTPUT_STALLED)
            return True
        return False


StreamOpener = Callable[[Callable[..., None], Callable[[], None]], Stream]
# (device, sample rate) -> a StreamOpener: what AudioEngine takes to reach a device
OpenOutput = Callable[[str | int | None, int], StreamOpener]


def open_output(device: str | int | None, sample_rate: int) -> StreamOpener:
    """A factory of sounddevice output streams on `device` (mono float32)."""

    def opener(callback: Callable[..., None], finished: Callable[[], None]) -> Stream:
        import sounddevice as sd

        stream: Stream = sd.OutputStream(
            samplerate=sample_rate,
            channels=1,
            dtype="float32",
            latency=output_latency.value,
            device=device,
            callback=callback,
            finished_callback=finished,
        )
        return stream

    return opener
