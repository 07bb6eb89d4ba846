"""Kokoro-82M: Italian's neural voice (and five English ones, two borrowed for Persian).

The model (the `kokoro` extra: four wheels, checked by hash, `kokoro_model.py`) runs in
a worker process of its own (`_kokoro_worker.py`), one for every Kokoro voice, started
when a Kokoro voice is first asked for a line that is not in the cache -- never for
English's default, never at the app's start -- and ended once it has had nothing to
say for `IDLE` seconds: it holds ~345 MB, more than the whole app.

What comes out is treated as every voice's: float samples at 24 kHz, never clipped
(if_sara peaks above full scale), resampled once (soxr) to the mix rate, then trimmed,
brought to -16 LUFS under -1 dBTP and faded (`synth.postprocess`), and spoken at the
rate set (the voice's own pace measured per language, `rate.py`). Kokoro is
deterministic: a cached line and a fresh one are the same samples.

It is slow (a call costs about 0.6 of its own length on one core): the app prepares
a night's lines before it is played (`engine.AudioEngine.prepare`), and what is not
ready is made ahead of the playhead, a late call waited for under the bed.
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
import threading
import time
from pathlib import Path

import numpy as np
import soxr

from narrator.audio import _kokoro_worker
from narrator.audio.kokoro_model import (
    EXTRA_HINT,
    MODEL_SHA256,
    VOICE_SHA256,
    installed,
)
from narrator.audio.rate import (
    RATE_VERSION,
    NaturalRate,
    RateBook,
    calibration,
    measure_rate,
    natural_rate,
)
from narrator.audio.settings import AudioUnavailable
from narrator.audio.synth import PROCESSING_VERSION, Clip, Utterance, Voice, postprocess
from narrator.audio.workerproc import WorkerProcess

MIX_RATE = 22050  # narrator.audio.mixer.SAMPLE_RATE (not imported: the mixer is heavier)
SPEED = (0.5, 2.0)  # what Kokoro says well
IDLE = 60.0  # seconds without a line after which the worker ends (its memory given back)
WORKER = Path(_kokoro_worker.__file__)
# Bump when the phonemes given to the model change (kokoro_phonemes.py): the cache keys
# a line by its text, not by its phonemes.
PHONEMES_VERSION = 1


def no_kokoro() -> AudioUnavailable:
    return AudioUnavailable(f"the Kokoro voices need the Kokoro model: {EXTRA_HINT}")


class KokoroSynthesizer:
    """Every Kokoro voice, in one worker process (onnxruntime on `threads` threads),
    started on first use or by `start()` and ended after `idle` seconds without a
    line; calls are serialised by a lock. `line.voice` names the voice."""

    def __init__(self, rates: RateBook | None = None, *, threads: int = 1, idle: float = IDLE):
        if not installed():
            raise no_kokoro()
        self.rates = rates
        self.idle = idle
        self.espeak = importlib.metadata.version("espeakng-loader")
        self._lock = threading.Lock()
        self._worker = WorkerProcess(WORKER, (str(threads),), self._unavailable)
        self._natural: dict[tuple[str, str], NaturalRate] = {}
        self._last = time.monotonic()
        self._timer: threading.Timer | None = None
        self._closed = False
        self.spoken = 0  # lines the worker made (the tests count them)

    @staticmethod
    def _unavailable(why: str) -> AudioUnavailable:
        # The model's own refusal (a hash that does not match) is already one line
        # saying what to do.
        if why.startswith("ModelError: "):
            return AudioUnavailable(why.removeprefix("ModelError: "))
        return AudioUnavailable(f"the Kokoro voices cannot speak ({why})")

    @property
    def running(self) -> bool:
        """Whether its worker process is up."""
        return self._worker.running

    def identity(self, voice: str, lang: str) -> str:
        """What a voice's natural rate is kept under: model, voice and language."""
        return f"kokoro {MODEL_SHA256[:12]} {voice} {lang.split('-')[0]}"

    def start(self) -> None:
        """Launch the worker without waiting: the model loads while we do other work."""
        with self._lock:
            if not self._closed:
                self._worker.start()
                self._touch()

    def _touch(self) -> None:
        """The worker was just used: it ends `idle` seconds from now unless used again
        (the caller holds the lock)."""
        self._last = time.monotonic()
        if self._timer is None and self.idle > 0:
            self._timer = threading.Timer(self.idle, self._end_if_idle)
            self._timer.daemon = True
            self._timer.start()

    def _end_if_idle(self) -> None:
        with self._lock:
            self._timer = None
            if self._closed or not self._worker.running:
                return
            left = self.idle - (time.monotonic() - self._last)
            if left > 0.05:  # used since: look again when it could be idle
                self._timer = threading.Timer(left, self._end_if_idle)
                self._timer.daemon = True
                self._timer.start()
                return
            self._worker.close()

    def _say(self, text: str, lang: str, voice: str, speed: float) -> tuple[np.ndarray, int]:
        """Samples at 24 kHz as the model made them (not clipped, not resampled)."""
        with self._lock:
            if self._closed:
                raise self._unavailable("closed")
            try:
                answer = self._worker.ask(
                    {"op": "say", "text": text, "lang": lang, "voice": voice, "speed": speed}
                )
            finally:
                self._touch()
            self.spoken += 1
        if not answer.get("ok"):
            why = answer.get("error")
            raise ValueError(f"the Kokoro voice {voice!r} cannot say {text!r}: {why}")
        raw = np.frombuffer(base64.b64decode(answer["samples"]), "<f4").astype(np.float32)
        return raw, int(answer["sample_rate"])

    def measure(self, voice: str, lang: str) -> NaturalRate:
        """The voice's own pace in `lang`, measured now (rate.py): a few seconds of
        speech, in that language."""
        return measure_rate(
            lambda text, speed: self._say(text, lang, voice, speed), calibration(lang)
        )

    def natural(self, voice: str, lang: str) -> NaturalRate:
        """The voice's own pace in `lang`: shipped (voice-rates.json), else measured once
        and kept."""
        base = lang.split("-")[0]
        if (voice, base) not in self._natural:
            self._natural[voice, base] = natural_rate(
                self.rates, self.identity(voice, base), lambda: self.measure(voice, base)
            )
        return self._natural[voice, base]

    def speed(self, voice: str, lang: str, rate: int) -> float:
        return min(SPEED[1], max(SPEED[0], self.natural(voice, lang).speed(rate)))

    @staticmethod
    def voice_of(line: Utterance) -> str:
        return line.voice.removeprefix("kokoro:")

    def key(self, line: Utterance) -> str:
        voice = self.voice_of(line)
        parts = [
            "kokoro",
            MODEL_SHA256[:16],
            VOICE_SHA256.get(voice, "?")[:16],
            voice,
            f"espeakng-loader {self.espeak}",
            PHONEMES_VERSION,
            PROCESSING_VERSION,
            MIX_RATE,
            RATE_VERSION,  # with the rate, not the speed: a cache hit measures nothing
            line.lang,
            line.rate,
            line.text,
        ]
        return json.dumps(parts, ensure_ascii=False)

    def synthesize(self, line: Utterance) -> Clip:
        voice = self.voice_of(line)
        raw, rate = self._say(line.text, line.lang, voice, self.speed(voice, line.lang, line.rate))
        if not np.any(raw) and any(c.isalnum() for c in line.text):
            raise ValueError(f"the Kokoro voice {voice!r} gave no sound for {line.text!r}")
        if rate != MIX_RATE and len(raw):
            # Float in, float out: peaks above full scale stay until the loudness pass.
            raw = np.asarray(soxr.resample(raw, rate, MIX_RATE, quality="HQ"), np.float32)
        return postprocess(raw, MIX_RATE)

    def voices(self) -> list[Voice]:
        from narrator.audio.hibari_voice import as_voice
        from narrator.audio.packaged import installed_voices

        return [as_voice(v) for v in installed_voices() if v.engine == "kokoro"]

    def close(self) -> None:
        # Not under the lock, as espeak's: a line in flight is abandoned.
        self._closed = True
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        self._worker.close()
