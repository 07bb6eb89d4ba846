"""hibari: a small neural English voice ("heart") whose weights are in its wheel.

`hibari-tts` (the `voices` extra) is an 8M-parameter student of Kokoro-82M: numpy
and onnxruntime, ~0.3 s to load, far faster than real time on one thread. It is not
a Piper graph, so it has its own adapter here; what comes out is treated as every
voice's: hibari's ~0.2 s of near-digital silence at each end trimmed, its 24 kHz
resampled once (soxr) to the mix rate before the loudness pass, so the cache holds
what the mixer uses, and the same -16 LUFS / -1 dBTP as every call.

Only "heart" is ever loaded: hibari downloads its other voices on first use, and
narrator never lets it (`packaged.packaged_voice` refuses them by name; this module
checks the registry says "bundled" before loading anything).

The noise part of hibari's signal is random; a fixed seed makes a line sound the
same every time, so a cached line and a fresh one are identical.
"""

from __future__ import annotations

import importlib.metadata
import json
import threading
from typing import Any

import numpy as np
import soxr

from narrator.audio.packaged import EXTRA_HINT, PackagedVoice
from narrator.audio.rate import RATE_VERSION, NaturalRate, RateBook, measure_rate, natural_rate
from narrator.audio.settings import AudioUnavailable
from narrator.audio.synth import PROCESSING_VERSION, Clip, Line, Voice, postprocess

MIX_RATE = 22050  # narrator.audio.mixer.SAMPLE_RATE (not imported: the mixer is heavier)
SEED = 0
SPEED = (0.5, 2.0)  # what hibari accepts
SENTENCE_GAP = 0.3  # seconds between the sentences of one call (as Piper's, with its edges)


def trim(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """`samples` without the quiet at their ends (as `synth.postprocess` trims a call)."""
    x = np.abs(samples)
    loud = np.flatnonzero(x > 10 ** (-48 / 20) * float(np.max(x, initial=0.0)))
    if len(loud) == 0:
        return samples[:0]
    margin = sample_rate // 200
    return samples[max(0, loud[0] - margin) : loud[-1] + 1 + margin]


def no_hibari() -> AudioUnavailable:
    return AudioUnavailable(f"the voice 'heart' needs hibari-tts: {EXTRA_HINT}")


class HibariSynthesizer:
    """One bundled hibari voice in this process, loaded on first use (onnxruntime on one
    thread; calls serialised by a lock)."""

    def __init__(self, voice: PackagedVoice, rates: RateBook | None = None) -> None:
        self.voice = voice
        self.rates = rates
        try:
            self.version = importlib.metadata.version(voice.package)
        except importlib.metadata.PackageNotFoundError as exc:
            raise no_hibari() from exc
        self._lock = threading.Lock()
        self._tts: Any = None
        self._natural: NaturalRate | None = None

    @property
    def identity(self) -> str:
        return f"hibari {self.version} {self.voice.id}"

    def _load(self) -> Any:
        if self._tts is None:
            try:
                from hibari import Hibari
                from hibari.voices import VOICES
            except ImportError as exc:
                raise no_hibari() from exc
            if not VOICES.get(self.voice.id, {}).get("bundled"):
                # Never reached for the voices we list; a future hibari that moved
                # "heart" out of its wheel must not start a download either.
                raise AudioUnavailable(
                    f"hibari {self.version} does not ship the voice {self.voice.id!r} in its "
                    "package; narrator does not download voices"
                )
            self._tts = Hibari(voice=self.voice.id, threads=1)
        return self._tts

    def _say(self, text: str, speed: float) -> np.ndarray:
        """Samples at hibari's own rate (24 kHz), each sentence trimmed of the quiet
        hibari leaves at its ends (0.3-0.4 s: 0.7 s between two sentences, a long
        hole in a call) and joined by `SENTENCE_GAP`. The caller holds the lock."""
        tts = self._load()
        gap = np.zeros(round(SENTENCE_GAP * int(tts.sample_rate)), np.float32)
        parts: list[np.ndarray] = []
        for chunk in tts.stream(text, speed=speed, seed=SEED):
            sentence = trim(np.asarray(chunk, np.float32), int(tts.sample_rate))
            if len(sentence):
                parts.extend([gap, sentence] if parts else [sentence])
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)

    def measure(self) -> NaturalRate:
        """The voice's own pace, measured now (rate.py): a few seconds of speech."""
        with self._lock:
            return measure_rate(
                lambda text, speed: (self._say(text, speed), int(self._tts.sample_rate))
            )

    def natural(self) -> NaturalRate:
        """The voice's own pace: shipped for the voices narrator ships, else measured
        once per voice and version and kept (rate.py)."""
        if self._natural is None:
            self._natural = natural_rate(self.rates, self.identity, self.measure)
        return self._natural

    def speed(self, rate: int) -> float:
        return min(SPEED[1], max(SPEED[0], self.natural().speed(rate)))

    def key(self, line: Line) -> str:
        parts = [
            "hibari",
            self.version,
            self.voice.id,
            SEED,
            PROCESSING_VERSION,
            MIX_RATE,
            RATE_VERSION,  # with the rate, not the speed: a cache hit measures nothing
            line.rate,
            line.text,
        ]
        return json.dumps(parts, ensure_ascii=False)

    def synthesize(self, line: Line) -> Clip:
        speed = self.speed(line.rate)
        with self._lock:
            raw = self._say(line.text, speed)
            rate = int(self._tts.sample_rate)
        if not np.any(raw) and any(c.isalnum() for c in line.text):
            raise ValueError(f"the voice {self.voice.id!r} gave no sound for {line.text!r}")
        if rate != MIX_RATE and len(raw):
            raw = np.asarray(soxr.resample(raw, rate, MIX_RATE, quality="HQ"), np.float32)
        return postprocess(raw, MIX_RATE)

    def voices(self) -> list[Voice]:
        return [as_voice(self.voice)]

    def close(self) -> None:
        with self._lock:
            self._tts = None


def as_voice(voice: PackagedVoice) -> Voice:
    return Voice(
        voice.id,
        voice.name,
        voice.languages,
        voice.sex,
        engine=voice.engine,
        licence=voice.licence,
    )
