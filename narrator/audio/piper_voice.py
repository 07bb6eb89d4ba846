"""Piper: neural voices, offline, from a voice file the user brings.

A Piper voice is an ONNX model (`NAME.onnx`) and its config (`NAME.onnx.json` or
`NAME.json`). narrator finds them in the user's data folder (`narrator voices`
lists them; `--voice NAME`) or takes a path (`--voice PATH.onnx`). Nothing is ever
downloaded. `piper-tts` (with onnxruntime) is an optional extra: without it a
Piper voice is one clear line, and espeak-ng goes on working.

Speaking rate: Piper's `length_scale` stretches every phoneme. A voice's natural
rate at its own length scale is measured the first time it is used (`rate.py`:
a calibration sentence, cached by the model's digest), so a rate of R words a
minute asks for `length_scale * natural / R`: the rate set is the rate heard.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from narrator.audio.rate import RATE_VERSION, NaturalRate, RateBook, measure_rate, natural_rate
from narrator.audio.settings import AudioUnavailable
from narrator.audio.synth import PROCESSING_VERSION, Clip, Utterance, Voice, postprocess

NO_PIPER = (
    "Piper voices need the piper extra: install it with `pip install 'narrator[piper]'` "
    "(or `pip install piper-tts`)"
)
SENTENCE_GAP = 0.2  # seconds between the sentences Piper renders one by one


def voices_dir() -> Path:
    """Where the user drops Piper voices (`~/.local/share/narrator/voices` on Linux)."""
    return Path(platformdirs.user_data_dir("narrator")) / "voices"


def config_for(model: Path) -> Path | None:
    for candidate in (Path(f"{model}.json"), model.with_suffix(".json")):
        if candidate.is_file():
            return candidate
    return None


def find_model(voice: str | None) -> Path | None:
    """The Piper model `voice` names: a path to an `.onnx` file, or the name of one in
    `voices_dir()`. None when `voice` is not a Piper voice (espeak-ng's, say).
    ValueError for a `.onnx` path that is missing or has no config beside it."""
    if not voice:
        return None
    if voice.endswith(".onnx"):
        model = Path(voice).expanduser()
        if not model.is_file():
            raise ValueError(f"no Piper voice at {model}: give the path of an .onnx file")
    else:
        model = voices_dir() / f"{voice}.onnx"
        if not model.is_file():
            return None
    if config_for(model) is None:
        raise ValueError(
            f"the Piper voice {model.name} has no config: put {model.name}.json beside it"
        )
    return model


def _language(config: dict[str, Any]) -> str:
    code = str(config.get("language", {}).get("code") or config.get("espeak", {}).get("voice"))
    return code.replace("_", "-")


def list_piper_voices() -> list[Voice]:
    """The voices in `voices_dir()` that have a config."""
    found = []
    folder = voices_dir()
    for model in sorted(folder.glob("*.onnx")) if folder.is_dir() else []:
        config = config_for(model)
        if config is None:
            continue
        try:
            data = json.loads(config.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        found.append(Voice(model.stem, model.stem, (_language(data),), None, engine="piper"))
    return found


class PiperSynthesizer:
    """One Piper voice, loaded on first use, in this process (onnxruntime runs its
    own threads; calls are serialised by a lock)."""

    def __init__(self, model: Path, rates: RateBook | None = None) -> None:
        config = config_for(model)
        if config is None:
            raise ValueError(f"the Piper voice {model.name} has no config beside it")
        self.model = model
        self.config = config
        # The cache key holds the model's content: a new file under the same name
        # is a new voice.
        digest = hashlib.sha256()
        for part in (model, config):
            with part.open("rb") as f:
                while block := f.read(1 << 20):
                    digest.update(block)
        self.digest = digest.hexdigest()[:16]
        self._lock = threading.Lock()
        self._voice: Any = None
        self.rates = rates
        self._natural: NaturalRate | None = None

    def _load(self) -> Any:
        if self._voice is None:
            try:
                from piper import PiperVoice
            except ImportError as exc:
                raise AudioUnavailable(NO_PIPER) from exc
            try:
                self._voice = PiperVoice.load(self.model, config_path=self.config)
            except Exception as exc:  # a broken model file: what, where, how to fix
                raise ValueError(
                    f"cannot load the Piper voice {self.model}: {exc} "
                    "(use the .onnx and .json of one Piper voice)"
                ) from exc
        return self._voice

    @functools.cached_property
    def version(self) -> str:
        """piper-tts's version, read once (every line's cache key holds it)."""
        try:
            return importlib.metadata.version("piper-tts")
        except importlib.metadata.PackageNotFoundError:
            return "none"

    @property
    def identity(self) -> str:
        return f"piper {self.version} {self.digest}"

    def measure(self) -> NaturalRate:
        """The voice's pace at its own length scale, measured now (rate.py)."""
        with self._lock:
            return measure_rate(lambda text, speed: self._say(text, 1.0 / speed))

    def natural(self) -> NaturalRate:
        """The voice's pace: shipped for the voice narrator ships, else measured once
        and kept (rate.py)."""
        if self._natural is None:
            self._natural = natural_rate(self.rates, self.identity, self.measure)
        return self._natural

    def scale(self, rate: int) -> float:
        """The length scale, relative to the voice's own, that makes `rate` wpm heard."""
        return 1.0 / self.natural().speed(max(rate, 40))

    def key(self, line: Utterance) -> str:
        # The rate, not the length scale: the natural rate is a function of the voice
        # (measured once and kept), and a cache hit must not wait for a measurement.
        parts = [
            "piper", self.version, self.digest, PROCESSING_VERSION, RATE_VERSION, line.rate,
            line.text,
        ]  # fmt: skip
        return json.dumps(parts, ensure_ascii=False)

    def _say(self, text: str, scale: float | None) -> tuple[np.ndarray, int]:
        """Raw samples and their rate; `scale` times the voice's own length scale (None:
        its own). The caller holds the lock."""
        from piper import SynthesisConfig

        voice = self._load()
        own = float(voice.config.length_scale)
        settings = SynthesisConfig(length_scale=own * (scale or 1.0), normalize_audio=False)
        rate = int(voice.config.sample_rate)
        pause = np.zeros(round(SENTENCE_GAP * rate), np.float32)
        parts: list[np.ndarray] = []
        for chunk in voice.synthesize(text, syn_config=settings):
            if parts:
                parts.append(pause)
            parts.append(np.asarray(chunk.audio_float_array, np.float32))
        return (np.concatenate(parts) if parts else np.zeros(0, np.float32)), rate

    def synthesize(self, line: Utterance) -> Clip:
        scale = self.scale(line.rate)
        with self._lock:
            raw, rate = self._say(line.text, scale)
        if not np.any(raw) and any(c.isalnum() for c in line.text):
            raise ValueError(f"the Piper voice {self.model.name} gave no sound for {line.text!r}")
        return postprocess(raw, rate)

    def voices(self) -> list[Voice]:
        data = json.loads(self.config.read_text(encoding="utf-8"))
        return [Voice(str(self.model), self.model.stem, (_language(data),), engine="piper")]

    def close(self) -> None:
        with self._lock:
            self._voice = None
