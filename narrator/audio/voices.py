"""Every voice behind one `Synthesizer`: each line goes to the engine of its voice.

espeak-ng is the default and always there (the only engine for Persian today); a
Piper voice (`piper_voice.py`) is chosen by naming it: a path to its `.onnx`, or
its name in the user's voices folder. The engine holds one `VoiceRouter`, so a
settings change between nights can switch engines without rebuilding anything.
"""

from __future__ import annotations

import threading
from pathlib import Path

from narrator.audio.piper_voice import PiperSynthesizer, find_model, list_piper_voices
from narrator.audio.synth import Clip, EspeakSynthesizer, Line, Synthesizer, Voice, speaks


class VoiceRouter:
    """A `Synthesizer` that hands each line to espeak-ng or to the Piper voice its
    `voice` names; the engines start on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._espeak: EspeakSynthesizer | None = None
        self._piper: dict[Path, PiperSynthesizer] = {}

    @property
    def espeak(self) -> EspeakSynthesizer:
        with self._lock:
            if self._espeak is None:
                self._espeak = EspeakSynthesizer()
            return self._espeak

    def engine_for(self, line: Line) -> Synthesizer:
        model = find_model(line.voice)
        if model is None:
            return self.espeak
        with self._lock:
            if model not in self._piper:
                self._piper[model] = PiperSynthesizer(model)
            return self._piper[model]

    def start(self) -> None:
        """Start the espeak-ng worker now (it loads while the app does other work)."""
        self.espeak.start()

    def key(self, line: Line) -> str:
        return self.engine_for(line).key(line)

    def synthesize(self, line: Line) -> Clip:
        return self.engine_for(line).synthesize(line)

    def voices(self) -> list[Voice]:
        return self.espeak.voices() + list_piper_voices()

    def close(self) -> None:
        with self._lock:
            engines: list[Synthesizer] = list(self._piper.values())
            if self._espeak is not None:
                engines.append(self._espeak)
            self._espeak, self._piper = None, {}
        for engine in engines:
            engine.close()


def list_voices(lang: str | None = None) -> list[Voice]:
    """Every voice of every engine (espeak-ng's, then the user's Piper voices), those
    speaking `lang` (e.g. "it") when given."""
    router = VoiceRouter()
    try:
        voices = router.voices()
    finally:
        router.close()
    return voices if lang is None else [v for v in voices if speaks(v, lang)]
