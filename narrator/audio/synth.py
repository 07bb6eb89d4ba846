"""Speech: text in, samples out, behind a small `Synthesizer` interface.

The default synthesizer drives pyttsx3 over libespeak-ng in a separate worker
process (see `_worker.py` for why). Every rendered line goes through a disk cache
keyed by everything that changes its sound, so a repeated night costs only the mix
and a warm cache never even starts the worker.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import sysconfig
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import soundfile as sf

from narrator.audio.loudness import fade, normalise
from narrator.audio.packaged import serves
from narrator.audio.settings import NO_SPEECH, AudioUnavailable
from narrator.audio.workerproc import WorkerProcess
from narrator.base.files import write_cache

Samples = npt.NDArray[np.float32]

# Bump when the post-processing below changes, so old cache entries are not reused.
# 2: loudness-normalised with fades (was: peak-normalised); 3: trimmed again after
# normalising, the meter in numpy
PROCESSING_VERSION = 3
_TRIM_LEVEL = 10 ** (-48 / 20)  # 48 dB below the line's peak counts as silence at the edges


@dataclass(frozen=True, slots=True)
class Utterance:
    """One thing to say, and how."""

    text: str
    lang: str
    voice: str
    rate: int


@dataclass(frozen=True, slots=True)
class Clip:
    """Mono float32 samples in -1..1 at their own sample rate."""

    samples: Samples
    sample_rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.sample_rate


@dataclass(frozen=True, slots=True)
class Voice:
    """A voice the speech engine offers."""

    id: str
    name: str
    languages: tuple[str, ...]
    gender: str | None = None
    engine: str = "espeak-ng"
    licence: str | None = None  # what the user must know before choosing it, if anything

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "id": self.id,
            "name": self.name,
            "languages": list(self.languages),
            "gender": self.gender,
            "licence": self.licence,
        }


class Synthesizer(Protocol):
    """Turns lines of text into speech.

    `key(line)` is a string that changes whenever the sound of `line` would (engine
    and version included): the cache stores clips under it. `synthesize(line)`
    returns the line trimmed of leading and trailing silence, faded at both ends
    and loudness-normalised (`postprocess`),
    or raises `AudioUnavailable` when there is no engine, `ValueError` for a line
    it cannot say (an unknown voice). Implementations are thread-safe.
    """

    def key(self, line: Utterance) -> str: ...

    def synthesize(self, line: Utterance) -> Clip: ...

    def voices(self) -> list[Voice]: ...

    def close(self) -> None: ...


def espeak_identity() -> str:
    """Which libespeak-ng the worker will load, with its version (cache key)."""
    arch = sysconfig.get_config_var("MULTIARCH") or ""
    folders: tuple[str, ...] = (f"/usr/lib/{arch}", "/usr/lib64", "/usr/lib", "/usr/local/lib")
    if os.environ.get("NARRATOR_ESPEAK") == "wheel":  # as in _worker.load_espeak
        folders = ()
    for folder in folders:
        lib = Path(folder) / "libespeak-ng.so.1"
        if lib.exists():
            return f"system:{lib.resolve().name}"
    if importlib.util.find_spec("espeakng_loader") is not None:
        return f"wheel:espeakng-loader {importlib.metadata.version('espeakng-loader')}"
    raise AudioUnavailable(NO_SPEECH)


def postprocess(raw: Samples, sample_rate: int) -> Clip:
    """Trim silent edges (keeping 5 ms), bring the line to the one loudness every call
    has (`loudness.normalise`), trim again and fade both ends: the same for every
    engine. The second trim is against the peak as heard: the limiter lowers the
    peak and, releasing after a loud last word, the tail, so an edge kept against the
    first peak can end in tens of ms that are silence by the second."""
    cut = _trim(raw, sample_rate)
    if len(cut) == 0:
        return Clip(np.zeros(0, np.float32), sample_rate)
    return Clip(fade(_trim(normalise(cut, sample_rate), sample_rate), sample_rate), sample_rate)


def _trim(samples: Samples, sample_rate: int) -> Samples:
    """`samples` from 5 ms before the first to 5 ms after the last sample louder than
    `_TRIM_LEVEL` under the peak; empty if there is none."""
    x = np.abs(samples)
    loud = np.flatnonzero(x > _TRIM_LEVEL * float(np.max(x, initial=0.0)))
    if len(loud) == 0:
        return np.zeros(0, np.float32)
    margin = sample_rate // 200
    return np.ascontiguousarray(
        samples[max(0, loud[0] - margin) : loud[-1] + 1 + margin], np.float32
    )


# espeak-ng's words-a-minute setting is not what comes out: measured over a whole
# One Night night (scripts/bench), English speaks 10 % faster than set, Italian
# 10 % and Persian 26 % slower (its words are longer). The worker is asked for
# the setting times this factor, so the measured rate matches the setting.
ESPEAK_RATE_FACTOR = {"en": 0.91, "it": 1.10, "fa": 1.26}


def espeak_rate(line: Utterance) -> int:
    """The rate to ask espeak-ng for, so that `line.rate` is what is heard."""
    factor = ESPEAK_RATE_FACTOR.get(line.lang.split("-")[0], 1.0)
    return max(80, min(450, round(line.rate * factor)))


class EspeakSynthesizer:
    """pyttsx3 + espeak-ng in a long-lived worker process, started on first use."""

    def __init__(self) -> None:
        self._identity = espeak_identity()
        self._version = importlib.metadata.version("pyttsx3")
        self._lock = threading.Lock()
        self._worker = WorkerProcess(
            Path(__file__).with_name("_worker.py"),
            (),
            lambda why: AudioUnavailable(f"{NO_SPEECH} ({why})"),
        )
        self._tmp = Path(tempfile.mkdtemp(prefix="narrator-speech-"))

    @property
    def hello(self) -> dict[str, Any]:
        """The worker's greeting: which libespeak-ng it loaded."""
        return self._worker.hello

    @property
    def running(self) -> bool:
        """Whether its worker process is up."""
        return self._worker.running

    def key(self, line: Utterance) -> str:
        return json.dumps(
            [
                "pyttsx3-espeak",
                self._version,
                self._identity,
                PROCESSING_VERSION,
                line.lang,
                line.voice,
                espeak_rate(line),
                line.text,
            ],
            ensure_ascii=False,
        )

    def start(self) -> None:
        """Launch the worker without waiting for it (it loads while we do other work)."""
        with self._lock:
            self._worker.start()

    def synthesize(self, line: Utterance) -> Clip:
        with self._lock:
            path = self._tmp / f"{self._worker.next_id}.wav"
            answer = self._worker.ask(
                {
                    "op": "say",
                    "text": line.text,
                    "voice": line.voice,
                    "rate": espeak_rate(line),
                    "path": str(path),
                }
            )
        if not answer.get("ok"):
            raise ValueError(str(answer.get("error")))
        raw, _labelled = sf.read(path, dtype="float32", always_2d=False)
        path.unlink(missing_ok=True)
        if raw.ndim > 1:
            raw = raw.mean(axis=1)
        # The header always says 22050 Hz; the worker tells the true rate.
        return postprocess(np.asarray(raw, np.float32), int(answer["sample_rate"]))

    def phonemes(self, text: str, voice: str) -> str:
        """The IPA espeak-ng reads `text` as with `voice`: what it will say."""
        with self._lock:
            answer = self._worker.ask({"op": "phonemes", "text": text, "voice": voice})
        if not answer.get("ok"):
            raise ValueError(str(answer.get("error")))
        return str(answer["phonemes"])

    def voices(self) -> list[Voice]:
        with self._lock:
            answer = self._worker.ask({"op": "voices"})
        return [
            Voice(v["id"], v["name"], tuple(v["languages"]), v.get("gender"))
            for v in answer["voices"]
        ]

    def close(self) -> None:
        # Not under the lock: a line being made when the app quits (or is sent
        # SIGTERM) is abandoned -- its caller gets "the speech worker exited" -- so the
        # worker is gone within half a second instead of after the line.
        self._worker.close()
        remove_folder(self._tmp)


def remove_folder(folder: Path) -> None:
    """A worker's scratch folder, and what a line abandoned left in it."""
    for leftover in folder.glob("*"):
        leftover.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder.rmdir()


class _Making:
    """A line one thread is making: the others asking for it wait for its clip."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.clip: Clip | None = None


class CachedSynthesizer:
    """Wraps a synthesizer with a disk cache: one float WAV per distinct line.

    A line is made once even when several threads ask for it at the same time (the
    app's preparation of a night and the render-ahead of the same night, playing): the
    later ones wait for the first one's clip."""

    def __init__(self, inner: Synthesizer, folder: Path) -> None:
        self.inner = inner
        self.folder = folder
        self.hits = 0
        self.misses = 0
        self._count = threading.Lock()
        self._making: dict[Path, _Making] = {}

    def path_for(self, line: Utterance) -> Path:
        digest = hashlib.sha256(self.inner.key(line).encode("utf-8")).hexdigest()
        return self.folder / digest[:2] / f"{digest}.wav"

    def cached(self, line: Utterance) -> Clip | None:
        path = self.path_for(line)
        try:
            data, rate = sf.read(path, dtype="float32", always_2d=False)
        except (OSError, sf.LibsndfileError, RuntimeError):
            return None
        self.hits += 1
        return Clip(np.asarray(data, np.float32), int(rate))

    def key(self, line: Utterance) -> str:
        return self.inner.key(line)

    def synthesize(self, line: Utterance) -> Clip:
        clip = self.cached(line)
        if clip is not None:
            return clip
        return self.make(line, self.inner)

    def prefetch(self, lines: Sequence[Utterance], helper: Synthesizer | None) -> None:
        """Synthesise the lines missing from the cache, half of them with `helper`
        (a second engine process) in parallel: a cold night in about half the time."""
        missing = list({line: None for line in lines if not self.path_for(line).exists()})
        if helper is None or len(missing) < 2:
            return
        failed: list[BaseException] = []

        def other_half() -> None:
            try:
                for line in missing[1::2]:
                    self.make(line, helper)
            except Exception as exc:  # raised below, in the caller's thread
                failed.append(exc)

        side = threading.Thread(target=other_half, daemon=True)
        side.start()
        try:
            for line in missing[0::2]:
                self.make(line, self.inner)
        finally:
            side.join()
        if failed:
            raise failed[0]

    def is_cached(self, line: Utterance) -> bool:
        return self.path_for(line).exists()

    def make(self, line: Utterance, synth: Synthesizer) -> Clip:
        """Synthesise `line` with `synth` (this cache's engine or a helper) and keep it."""
        path = self.path_for(line)
        with self._count:
            other = self._making.get(path)
            mine = None if other is not None else self._making.setdefault(path, _Making())
        if other is not None:  # being made by another thread: its clip, once made
            other.done.wait()
            if other.clip is not None:
                return other.clip
            return self.make(line, synth)  # it failed: try for ourselves
        assert mine is not None
        try:
            clip = synth.synthesize(line)
            mine.clip = clip
            with self._count:
                self.misses += 1
            # Encoded in memory, then written: libsndfile writing into a Python file
            # turns a full disk into an AssertionError. A full disk or a read-only
            # cache costs only the cache. Written before the line stops being
            # "made": a thread asking just after finds it in the cache.
            wav = io.BytesIO()
            sf.write(wav, clip.samples, clip.sample_rate, subtype="FLOAT", format="WAV")
            write_cache(path, lambda file: file.write(wav.getbuffer()))
        finally:
            with self._count:
                del self._making[path]
            mine.done.set()
        return clip

    def voices(self) -> list[Voice]:
        return self.inner.voices()

    def close(self) -> None:
        self.inner.close()


def speaks(voice: Voice, lang: str) -> bool:
    """Whether `voice` speaks `lang` ("it" matches "it" and "it-IT")."""
    return any(serves(code, lang) for code in voice.languages)
