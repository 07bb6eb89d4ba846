"""A voice pack as one more `Synthesizer`: the pack's takes, the default voice for the rest.

A line the pack recorded is its take; an utterance made of several recorded lines
(the lines of a call joined, a Doppelganger's recap) is their takes in a row, a
breath between them; anything else -- a line with a player's name, a line never
recorded, a line whose text the ruleset has changed since, a take whose file is
damaged -- is said by the language's default voice (`fallback`), as it would be
without the pack. The mixer places the clips as it places any voice's, so a pack
keeps the synthetic voices' timing contract: the same steps, pauses and events.

The takes are trimmed and at -16 LUFS already (`recording.py`, like every call):
they are played as recorded, never stretched. The speaking rate has no hold on a
recording's pitch or pace; what it changes is the breath between joined takes.
The pack is read again whenever its manifest changes, so a line recorded while the
app runs is heard the next night.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import threading
from pathlib import Path

import numpy as np
import soundfile as sf

from narrator.audio.lexicon import respell
from narrator.audio.packaged import default_voice
from narrator.audio.settings import DEFAULT_RATE
from narrator.audio.synth import Clip, Synthesizer, Utterance, Voice
from narrator.audio.voicepack import (
    MANIFEST,
    Manifest,
    PackError,
    PackLine,
    find_pack,
    packs_dir,
)
from narrator.script.lines import LineBook

VERSION = 1  # bump when the way takes are joined changes (it is in every cache key)
BREATH = 0.35  # seconds between two joined takes at the default rate
log = logging.getLogger(__name__)


def read_take(folder: Path, line: PackLine) -> Clip:
    """The take of `line`, checked against its hash; PackError when it cannot be used."""
    path = folder / line.file
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PackError(f"{path}: cannot read the take ({exc.strerror})") from None
    if hashlib.sha256(data).hexdigest() != line.sha256:
        raise PackError(f"{path}: the take does not match its hash; record the line again")
    try:
        samples, rate = sf.read(io.BytesIO(data), dtype="float32", always_2d=False)
    except (sf.LibsndfileError, RuntimeError, ValueError) as exc:
        raise PackError(f"{path}: not a take narrator can read ({exc})") from None
    if samples.ndim > 1:
        samples = samples.mean(axis=1)
    return Clip(np.ascontiguousarray(samples, np.float32), int(rate))


class _Loaded:
    """A pack as read from its folder: which (respelled) text is which take."""

    def __init__(self, folder: Path, manifest: Manifest, stamp: tuple[int, int]) -> None:
        self.folder = folder
        self.manifest = manifest
        self.stamp = stamp
        lang = manifest.language
        self.takes = {respell(line.text, lang): line for line in manifest.lines}
        self.book = LineBook(self.takes)


class PackSynthesizer:
    """The pack `pack_id` (in `root`, the user's packs by default), falling back to
    `fallback` with the line's language's default voice. Thread-safe."""

    def __init__(self, pack_id: str, fallback: Synthesizer, root: Path | None = None) -> None:
        self.pack_id = pack_id
        self.fallback = fallback
        self.root = root or packs_dir()
        self._lock = threading.Lock()
        self._loaded: _Loaded | None = None
        self._bad: set[str] = set()  # takes found damaged: said by the fallback
        self._load()  # a pack that is not installed is one line now, not at the first call

    def _load(self) -> _Loaded:
        """The pack, read again if its manifest changed since it was last read."""
        path = self.root / self.pack_id / MANIFEST
        try:
            info = path.stat()
            stamp = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = (0, 0)
        with self._lock:
            if self._loaded is None or self._loaded.stamp != stamp:
                folder, manifest = find_pack(self.pack_id, self.root)
                self._loaded = _Loaded(folder, manifest, stamp)
                self._bad = set()
            return self._loaded

    def takes(self, line: Utterance) -> tuple[PackLine, ...] | None:
        """The takes that say `line` (its text as the lexicon respelled it), or None
        when the pack cannot say it."""
        pack = self._load()
        if pack.manifest.language.split("-")[0] != line.lang.split("-")[0]:
            return None
        parts = pack.book.split(line.text)
        if parts is None:
            return None
        takes = tuple(pack.takes[part] for part in parts)
        return None if any(t.file in self._bad for t in takes) else takes

    @staticmethod
    def breath(line: Utterance) -> float:
        """The breath between joined takes: the rate's one hold on a pack."""
        return round(BREATH * DEFAULT_RATE / max(line.rate, 1), 3)

    def fallback_line(self, line: Utterance) -> Utterance:
        return Utterance(line.text, line.lang, default_voice(line.lang), line.rate)

    def key(self, line: Utterance) -> str:
        takes = self.takes(line)
        if takes is None:
            return self.fallback.key(self.fallback_line(line))
        breath = self.breath(line) if len(takes) > 1 else 0.0
        return json.dumps(
            ["voicepack", VERSION, self.pack_id, [t.sha256 for t in takes], breath],
        )

    def synthesize(self, line: Utterance) -> Clip:
        takes = self.takes(line)
        if takes is not None:
            try:
                return self._join(takes, self.breath(line))
            except PackError as exc:  # a damaged take: the default voice says it
                log.warning("voice pack %s: %s", self.pack_id, exc)
        return self.fallback.synthesize(self.fallback_line(line))

    def _join(self, takes: tuple[PackLine, ...], breath: float) -> Clip:
        from narrator.audio.mixer import to_rate

        folder = self._load().folder
        clips = []
        for take in takes:
            try:
                clips.append(read_take(folder, take))
            except PackError:
                with self._lock:
                    self._bad.add(take.file)
                raise
        rate = clips[0].sample_rate
        gap = np.zeros(round(breath * rate), np.float32)
        pieces: list[np.ndarray] = []
        for n, clip in enumerate(clips):
            if n:
                pieces.append(gap)
            pieces.append(to_rate(clip, rate))
        return Clip(np.concatenate(pieces).astype(np.float32), rate)

    def describe(self, line: Utterance) -> dict[str, str]:
        """Who says `line`: the pack, or the default voice (the timeline's "voice")."""
        if line.text and self.takes(line) is None:
            describe = getattr(self.fallback, "describe", None)
            if describe is not None:
                said: dict[str, str] = describe(self.fallback_line(line))
                return said
            return {"engine": "default", "id": default_voice(line.lang)}
        return {"engine": "voicepack", "id": self.pack_id}

    def voices(self) -> list[Voice]:
        return [pack_voice(self._load().manifest)]

    def close(self) -> None:
        """Nothing to free: the fallback belongs to whoever gave it."""


def pack_voice(manifest: Manifest) -> Voice:
    """The pack as `narrator voices` and the settings list it."""
    by = f", recorded by {manifest.recorded_by}" if manifest.recorded_by else ""
    lines = f"{len(manifest.lines)} line{'s' if len(manifest.lines) != 1 else ''}"
    return Voice(
        id=manifest.voice,
        name=f"{manifest.name} ({manifest.game}, {lines}{by})",
        languages=(manifest.language,),
        engine="voicepack",
        licence=manifest.licence or None,
    )


def installed_pack_voices() -> list[Voice]:
    """Every voice pack installed, as a voice."""
    from narrator.audio.voicepack import installed_packs

    return [pack_voice(manifest) for _, manifest in installed_packs()]
