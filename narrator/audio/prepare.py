"""Preparing a night: its lines made into the speech cache before it is played.

A neural voice can be slower than the night needs it (Kokoro makes a call in ~0.6 of
its length, on a whole core, and takes a second to load), so the app makes the chosen
night's lines while the group sets up, `narrator prepare` fills the cache from the
command line, and the phones' table prepares its nights and announcements. Once a
night is prepared, playing it synthesises nothing: no call can be late.

`Preparation` is one such job on background threads: lines in the order they will be
heard (so a night played before it ends finds the first ones made), progress to read
at any time, cancelled at once between two lines. Playing meanwhile is safe: a line
both want is made once (`synth.CachedSynthesizer`), and the render-ahead makes what
the preparation has not reached yet, ahead of the playhead.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from narrator.audio.synth import CachedSynthesizer, Synthesizer, Utterance

Progress = Callable[[int, int], None]  # (lines ready, lines in all), from a worker thread


class Preparation:
    """Lines made into the cache on `len(synths)` threads, each through its own
    synthesizer (a second speech process on a second core, for the command line)."""

    def __init__(
        self,
        cache: CachedSynthesizer,
        lines: Sequence[Utterance],
        synths: Sequence[Synthesizer],
        on_progress: Progress | None = None,
    ) -> None:
        unique = list(dict.fromkeys(lines))
        self.total = len(unique)
        self._missing = [line for line in unique if not cache.is_cached(line)]
        self.done = self.total - len(self._missing)
        self.made = 0  # lines synthesised by this preparation (not found in the cache)
        self.failure: Exception | None = None  # the line that could not be made, why
        self._cache = cache
        self._lock = threading.Lock()
        self._next = 0
        self._cancel = threading.Event()
        self._progress = on_progress
        self._threads = [
            threading.Thread(target=self._run, args=(synth,), name="narrator-prepare", daemon=True)
            for synth in synths[: max(1, min(len(synths), len(self._missing)))]
        ]
        self._left = len(self._threads)
        self._finished = threading.Event()
        if not self._missing:
            self._left = 0
            self._threads = []
            self._finished.set()

    def start(self) -> Preparation:
        if self._progress is not None:
            self._progress(self.done, self.total)
        for thread in self._threads:
            thread.start()
        return self

    @property
    def finished(self) -> bool:
        """Every line made, or stopped (cancelled, or a line that failed: `error`)."""
        return self._finished.is_set()

    @property
    def ready(self) -> bool:
        return self.done == self.total

    @property
    def error(self) -> str | None:
        """Why a line could not be made, in one line (None while all is well)."""
        failure = self.failure
        return None if failure is None else str(failure)

    def cancel(self) -> None:
        """Stop after the line being made (it is kept)."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    def _take(self) -> Utterance | None:
        with self._lock:
            stop = self._cancel.is_set() or self.failure is not None
            if stop or self._next >= len(self._missing):
                return None
            line = self._missing[self._next]
            self._next += 1
            return line

    def _run(self, synth: Synthesizer) -> None:
        try:
            while (line := self._take()) is not None:
                try:
                    made = not self._cache.is_cached(line)
                    if made:
                        self._cache.make(line, synth)
                except Exception as exc:  # kept for whoever reads it; the night will say it too
                    with self._lock:
                        self.failure = self.failure or exc
                    return
                with self._lock:
                    self.done += 1
                    self.made += made
                    done, total = self.done, self.total
                if self._progress is not None:
                    self._progress(done, total)
        finally:
            with self._lock:
                self._left -= 1
                last = self._left == 0
            if last:
                self._finished.set()
                if self.failure is not None and self._progress is not None:
                    self._progress(self.done, self.total)  # so that the failure is seen
