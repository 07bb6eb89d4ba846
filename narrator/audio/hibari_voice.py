"""hibari: a small neural English voice ("heart") whose weights are in its wheel.

`hibari-tts` (the `voices` extra) is an 8M-parameter student of Kokoro-82M: numpy
and onnxruntime, ~0.3 s to load, far faster than real time on one thread. It is not
a Piper graph, so it has its own adapter here; what comes out is treated as every
voice's: hibari's ~0.2 s of near-digital silence at each end trimmed, its 24 kHz
resampled once (soxr) to the mix rate before the loudness pass, so the cache holds
what the mixer uses, and the same -16 LUFS / -1 dBTP as every call.

Only "heart" is ever loaded: hibari downloads its other voices on first use, and
narrator never lets it (`packaged.packaged_voice` refuses them by name; the worker
checks the registry says "bundled" before loading anything).

The voice runs in a worker process (`_hibari_worker.py`: why is said there). The
noise part of hibari's signal is random; a fixed seed makes a line sound the same
every time, so a cached line and a fresh one are identical.
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
import threading
from pathlib import Path

import numpy as np
import soxr

from narrator.audio import _hibari_worker
from narrator.audio._hibari_worker import SEED
from narrator.audio.packaged import EXTRA_HINT, PackagedVoice
from narrator.audio.rate import RATE_VERSION, NaturalRate, RateBook, measure_rate, natural_rate
from narrator.audio.settings import AudioUnavailable
from narrator.audio.synth import PROCESSING_VERSION, Clip, Utterance, Voice, postprocess
from narrator.audio.workerproc import WorkerProcess

MIX_RATE = 22050  # narrator.audio.mixer.SAMPLE_RATE (not imported: the mixer is heavier)
SPEED = (0.5, 2.0)  # what hibari accepts
WORKER = Path(_hibari_worker.__file__)


def no_hibari() -> AudioUnavailable:
    return AudioUnavailable(f"the voice 'heart' needs hibari-tts: {EXTRA_HINT}")


class HibariSynthesizer:
    """One bundled hibari voice in a worker process of its own (`_hibari_worker.py`,
    onnxruntime on one thread), started on first use or by `start()`; calls are
    serialised by a lock."""

    def __init__(self, voice: PackagedVoice, rates: RateBook | None = None) -> None:
        self.voice = voice
        self.rates = rates
        try:
            self.version = importlib.metadata.version(voice.package)
        except importlib.metadata.PackageNotFoundError as exc:
            raise no_hibari() from exc
        self._lock = threading.Lock()
        self._worker = WorkerProcess(WORKER, (voice.id,), self._unavailable)
        self._natural: NaturalRate | None = None

    def _unavailable(self, why: str) -> AudioUnavailable:
        return AudioUnavailable(f"the voice {self.voice.id!r} cannot speak ({why})")

    @property
    def identity(self) -> str:
        return f"hibari {self.version} {self.voice.id}"

    @property
    def running(self) -> bool:
        """Whether its worker process is up."""
        return self._worker.running

    def start(self) -> None:
        """Launch the worker without waiting: the voice loads while we do other work."""
        with self._lock:
            self._worker.start()

    def _say(self, text: str, speed: float) -> tuple[np.ndarray, int]:
        """Samples at the voice's own rate, sentences trimmed and joined by the worker."""
        with self._lock:
            answer = self._worker.ask({"op": "say", "text": text, "speed": speed})
        if not answer.get("ok"):
            why = answer.get("error")
            raise ValueError(f"the voice {self.voice.id!r} cannot say {text!r}: {why}")
        raw = np.frombuffer(base64.b64decode(answer["samples"]), "<f4").astype(np.float32)
        return raw, int(answer["sample_rate"])

    def measure(self) -> NaturalRate:
        """The voice's own pace, measured now (rate.py): a few seconds of speech."""
        return measure_rate(self._say)

    def natural(self) -> NaturalRate:
        """The voice's own pace: shipped for the voices narrator ships, else measured
        once per voice and version and kept (rate.py)."""
        if self._natural is None:
            self._natural = natural_rate(self.rates, self.identity, self.measure)
        return self._natural

    def speed(self, rate: int) -> float:
        return min(SPEED[1], max(SPEED[0], self.natural().speed(rate)))

    def key(self, line: Utterance) -> str:
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

    def synthesize(self, line: Utterance) -> Clip:
        raw, rate = self._say(line.text, self.speed(line.rate))
        if not np.any(raw) and any(c.isalnum() for c in line.text):
            raise ValueError(f"the voice {self.voice.id!r} gave no sound for {line.text!r}")
        if rate != MIX_RATE and len(raw):
            raw = np.asarray(soxr.resample(raw, rate, MIX_RATE, quality="HQ"), np.float32)
        return postprocess(raw, MIX_RATE)

    def voices(self) -> list[Voice]:
        return [as_voice(self.voice)]

    def close(self) -> None:
        # Not under the lock, as espeak's: a line in flight is abandoned.
        self._worker.close()


def as_voice(voice: PackagedVoice) -> Voice:
    return Voice(
        voice.id,
        voice.name,
        voice.speaks,
        voice.sex,
        engine=voice.engine,
        licence=voice.licence,
    )
