"""The timeline mixer: a `Script` and its speech clips become one buffer of samples.

Pure numpy and no I/O. Steps are placed one after the other on a sample cursor:
a say or a cue takes the length of its clip (after a short breath when it follows
another sound; a wake call is followed by its own longer gap, `Say.after`), a pause
takes exactly `round(seconds * rate)` samples, a timer its length with its warnings
inside. The tapping bed runs under the whole night from a
lead-in before the first step to a tail after the last, ducked by the same amount
under every call.

`MixBuilder` works incrementally so the player can start on the first call while the
rest is still being synthesised: `add()` places a step, and every sample before
`committed` is final. Each call touches only its own samples and the bed under them,
so the cost is linear in the length of the night. When the player reaches `committed`
before the next step is made (a cold voice slower than the lead-in), `pad()` lets the
bed go on under it: the silence before that step grows, the bed never stops.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import soxr

from narrator.audio.bed import NightBed, TapBed
from narrator.audio.loudness import limit
from narrator.audio.settings import DEFAULT_BED_VOLUME
from narrator.audio.synth import Clip, Samples
from narrator.script.model import Cue, Pause, Say, Script, Step, Timer, Wait

SAMPLE_RATE = 22050  # espeak-ng's own rate: most speech needs no resampling at all
LEAD_IN = 2.0  # seconds of tapping before the first call
TAIL = 3.0  # seconds of tapping after the last
GAP = 0.45  # breath between two sounds that follow each other without a pause
BED_LEVEL = 0.35  # knock peaks at bed_volume * BED_LEVEL of full scale
DUCK = 0.45  # the bed's gain while the voice speaks (about -7 dB)
DUCK_ATTACK = 0.03  # seconds to duck, inside the start of each call
DUCK_RELEASE = 0.12  # seconds to come back up, after each call
FADE_IN = 0.5
FADE_OUT = 1.5
BUS_CEILING_DB = -0.5  # the whole mix stays under this (true peak)
BUS_CEILING = 10 ** (BUS_CEILING_DB / 20)


@dataclass(frozen=True, slots=True)
class Event:
    """Where a step is heard: `start`/`end` in samples; `step` indexes `script.steps`."""

    kind: str
    step: int
    role: str | None
    text: str | None
    start: int
    end: int


@dataclass
class Timeline:
    """A rendered night: mono float32 samples in -1..1 at `sample_rate`, and events."""

    sample_rate: int
    samples: Samples
    events: list[Event]
    # Which voice spoke the calls: {"engine": ..., "id": ...} (None when unknown).
    voice: dict[str, str] | None = None
    # Which voice said each line, by its text (None when unknown): with a voice pack,
    # {"engine": "voicepack", ...} for its takes, the default voice for the rest.
    line_voices: dict[str, dict[str, str]] | None = None

    @property
    def duration(self) -> float:
        return len(self.samples) / self.sample_rate

    def to_dict(self) -> dict[str, Any]:
        """The `--timeline` JSON: times in seconds."""
        rate = self.sample_rate
        return {
            "sample_rate": rate,
            "duration": self.duration,
            "voice": self.voice,
            "events": [
                {
                    "kind": e.kind,
                    "step": e.step,
                    "role": e.role,
                    "text": e.text,
                    "start": e.start / rate,
                    "end": e.end / rate,
                    **self._said_by(e),
                }
                for e in self.events
            ],
        }

    def _said_by(self, event: Event) -> dict[str, Any]:
        if self.line_voices is None or event.kind != "say":
            return {}
        return {"voice": self.line_voices.get(event.text or "")}


def to_rate(clip: Clip, sample_rate: int) -> Samples:
    """The clip's samples at `sample_rate` (soxr, band-limited) ."""
    if clip.sample_rate == sample_rate:
        return clip.samples
    out = soxr.resample(clip.samples, clip.sample_rate, sample_rate, quality="HQ")
    return np.ascontiguousarray(out, dtype=np.float32)


def estimate_seconds(script: Script, rate_wpm: int) -> float:
    """A generous guess at a night's length, to size the buffer once."""
    total = LEAD_IN + TAIL
    for step in script.steps:
        if isinstance(step, Say):
            words = len(step.text.split())
            total += GAP + step.after + 1.0 + words * 60.0 / max(rate_wpm, 40) * 1.3
        elif isinstance(step, Cue):
            total += GAP + 3.0
        elif isinstance(step, Pause):
            total += step.seconds
        elif isinstance(step, Timer):
            total += step.seconds + 5.0
    return total


class MixBuilder:
    """Places steps in order into a growing buffer; thread-safe for one writer and
    any number of readers (`read`, `events`, `committed`, and `pad`)."""

    def __init__(
        self,
        sample_rate: int = SAMPLE_RATE,
        *,
        bed: NightBed | TapBed | None = None,
        bed_volume: float = DEFAULT_BED_VOLUME,
        volume: float = 1.0,
        capacity: int = 0,
    ) -> None:
        self.sample_rate = sample_rate
        self.bed = bed
        self.bed_gain = float(np.clip(bed_volume, 0.0, 1.0)) * BED_LEVEL
        self.volume = float(np.clip(volume, 0.0, 1.0))
        self._buf = np.zeros(max(capacity, sample_rate), np.float32)
        self._lock = threading.Lock()  # the buffer and the events, for readers
        self._writing = threading.Lock()  # the cursor: `add`, `finish` and `pad`
        self._events: list[Event] = []
        self._spans: list[tuple[int, int]] = []  # where the voice sounds (for ducking)
        self._span_from = 0  # first span that can still touch unrendered bed
        self.cursor = round(LEAD_IN * sample_rate) if bed else 0
        self._bed_done = 0
        self._after_sound = False
        self.length: int | None = None  # set by finish()
        self.samples_written = 0  # work counter: linearity is tested on it
        self.padded = 0  # samples of bed `pad` put before a step that was late
        # {step index: samples of bed waited under before it}: where a late call's wait
        # went, so what was heard can be checked against the render (the tests).
        self.waits: dict[int, int] = {}
        self._next_step = 0  # the index of the step after the last one placed
        self._render_bed(self.cursor)

    # -- reading (any thread) -------------------------------------------------
    @property
    def committed(self) -> int:
        """Samples [0, committed) are final."""
        return self._bed_done

    @property
    def events(self) -> list[Event]:
        with self._lock:
            return list(self._events)

    def read(self, start: int, out: Samples) -> int:
        """Copy final samples from `start` into `out`; returns how many were ready."""
        with self._lock:
            n = max(0, min(len(out), self._bed_done - start))
            out[:n] = self._buf[start : start + n]
        return n

    def pad(self, until: int, wait: float = 0.0) -> bool:
        """The player has reached the end of what is final and the next step is not
        made yet: the bed goes on to `until` and the next step comes after it (its
        silence before grows by as much) instead of the bed stopping while the voice
        catches up. False without a bed, once finished, when what is final already
        reaches `until`, or when the writer, placing a step (whose samples are final
        a moment later), held the cursor for longer than `wait` seconds."""
        if self.bed is None:
            return False
        if not (self._writing.acquire(timeout=wait) if wait > 0 else self._writing.acquire(False)):
            return False
        try:
            if self.length is not None or until <= self.cursor:
                return False
            self.padded += until - self.cursor
            self.waits[self._next_step] = self.waits.get(self._next_step, 0) + until - self.cursor
            self._render_bed(until)
            self.cursor = until
            return True
        finally:
            self._writing.release()

    def timeline(self) -> Timeline:
        if self.length is None:
            raise RuntimeError("the mix is not finished")
        with self._lock:
            # A view, not a copy: nothing writes below `length` once finished.
            return Timeline(self.sample_rate, self._buf[: self.length], list(self._events))

    # -- writing (one thread) -------------------------------------------------
    def _ensure(self, size: int) -> None:
        if size <= len(self._buf):
            return
        bigger = np.zeros(max(size, len(self._buf) * 3 // 2), np.float32)
        with self._lock:
            bigger[: len(self._buf)] = self._buf
            self._buf = bigger

    def _place_voice(self, samples: Samples, at: int) -> None:
        self._ensure(at + len(samples))
        # Beyond the committed mark: readers never see these samples half-written.
        self._buf[at : at + len(samples)] += samples * self.volume
        self.samples_written += len(samples)
        if len(samples):
            self._spans.append((at, at + len(samples)))

    def _duck(self, layer: Samples, start: int) -> None:
        """Scale the bed `layer` (starting at sample `start`) down under each call:
        down over DUCK_ATTACK after the onset, up over DUCK_RELEASE after the end."""
        n = len(layer)
        release = round(DUCK_RELEASE * self.sample_rate)
        attack = max(1, round(DUCK_ATTACK * self.sample_rate))
        while self._span_from < len(self._spans) and (
            self._spans[self._span_from][1] + release <= start
        ):
            self._span_from += 1
        for a, b in self._spans[self._span_from :]:
            if a >= start + n:
                break
            lo, hi = max(a, start), min(b + release, start + n)
            if lo >= hi:
                continue
            t = np.arange(lo, hi, dtype=np.float32)
            down = np.clip((t - a) / attack, 0.0, 1.0)
            up = np.clip((t - b) / release, 0.0, 1.0)
            # Spans never overlap (calls follow each other), so one factor per sample.
            layer[lo - start : hi - start] *= 1.0 - (1.0 - DUCK) * down * (1.0 - up)

    def _render_bed(self, until: int, fade_end: int | None = None) -> None:
        start = self._bed_done
        if until <= start:
            return
        self._ensure(until)
        if self.bed is not None and self.bed_gain > 0:
            n = until - start
            rate = self.sample_rate
            layer = self.bed.render(start, n)
            layer *= self.bed_gain * self.volume
            self._duck(layer, start)
            fade_in = round(FADE_IN * rate)
            if start < fade_in:
                hi = min(until, fade_in)
                layer[: hi - start] *= np.arange(start, hi, dtype=np.float32) / fade_in
            if fade_end is not None:
                fade_out = round(FADE_OUT * rate)
                lo = max(start, fade_end - fade_out)
                ramp = (fade_end - np.arange(lo, until, dtype=np.float32)) / fade_out
                layer[lo - start :] *= np.clip(ramp, 0.0, 1.0)
            self._buf[start:until] += layer
            self.samples_written += n
        part = self._buf[start:until]
        if len(part) and float(np.max(np.abs(part))) > BUS_CEILING:
            # A loud bed under a call at its true-peak ceiling can sum past full
            # scale: a look-ahead limiter takes those few peaks down, no clipping.
            self._buf[start:until] = limit(part, self.sample_rate, ceiling_db=BUS_CEILING_DB)
        np.clip(self._buf[start:until], -1.0, 1.0, out=self._buf[start:until])
        with self._lock:
            self._bed_done = until

    def _event(self, kind: str, index: int, step: Step, text: str | None, a: int, b: int) -> None:
        with self._lock:
            self._events.append(Event(kind, index, step.role, text, a, b))

    def add(self, index: int, step: Step, clips: list[Samples]) -> None:
        """Place `script.steps[index]`. `clips` holds its sounds at the mix rate: one
        for a say or a cue, a timer's warnings then its end line, none otherwise."""
        with self._writing:
            self._add(index, step, clips)
            self._next_step = index + 1

    def _add(self, index: int, step: Step, clips: list[Samples]) -> None:
        rate = self.sample_rate
        if isinstance(step, Say | Cue):
            if self._after_sound:
                self.cursor += round(GAP * rate)
            clip = clips[0]
            self._place_voice(clip, self.cursor)
            text = step.text if isinstance(step, Say) else step.sound
            self._event(step.kind, index, step, text, self.cursor, self.cursor + len(clip))
            self.cursor += len(clip)
            after = round(step.after * rate) if isinstance(step, Say) else 0
            # A wake call's own gap replaces the breath before the next sound.
            self.cursor += after
            self._after_sound = after == 0
        elif isinstance(step, Pause):
            n = round(step.seconds * rate)
            self._event("pause", index, step, None, self.cursor, self.cursor + n)
            self.cursor += n
            self._after_sound = False
        elif isinstance(step, Timer):
            start, n = self.cursor, round(step.seconds * rate)
            self._ensure(start + n)
            self._event("timer", index, step, step.label, start, start + n)
            for warning, clip in zip(step.warnings, clips, strict=False):
                at = max(start, start + n - round(warning.at * rate))
                self._place_voice(clip, at)
                self._event("say", index, step, warning.text, at, at + len(clip))
            self.cursor = start + n
            if step.end is not None and len(clips) > len(step.warnings):
                clip = clips[len(step.warnings)]
                self._place_voice(clip, self.cursor)
                self._event("say", index, step, step.end, self.cursor, self.cursor + len(clip))
                self.cursor += len(clip)
            self._after_sound = step.end is not None
        elif isinstance(step, Wait):
            pass  # the TUI waits for the user; nothing is heard
        self._render_bed(self.cursor)

    def finish(self) -> None:
        """Add the tail and seal the buffer."""
        with self._writing:
            tail = round((TAIL if self.bed else 0.3) * self.sample_rate)
            end = self.cursor + tail
            self._render_bed(end, fade_end=end if self.bed else None)
            with self._lock:
                self.length = end


def lines_of(step: Step) -> list[str]:
    """The texts a step speaks, in the order `MixBuilder.add` wants their clips."""
    if isinstance(step, Say):
        return [step.text]
    if isinstance(step, Timer):
        return [w.text for w in step.warnings] + ([step.end] if step.end else [])
    return []
