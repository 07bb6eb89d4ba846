"""Recording a voice pack: each take checked, made like every call, kept at once.

A take from the microphone (`booth.py`) is refused with a plain reason when it is
silent (nothing above the room's noise), clipped (the microphone's ceiling was hit:
flat tops at full scale) or far too long for its line (the speaker talked on, or
forgot to stop). Otherwise it is cut to the speech, with a little room either side
(the room's noise, measured in 10 ms frames, is what "silence" means here, not
digital zero), and goes through the same `synth.postprocess` as every synthetic
call: trimmed, -16 LUFS under a -1 dBTP ceiling (`loudness.py`), faded. Then it is
kept as 24-bit FLAC (lossless) in the pack, the file first and the manifest renamed
over the old one after it (`base.files.write_whole`): stopping at any moment loses
no take that was kept.

`Recording` is the state of a session at the microphone -- which lines, which one
now, which are recorded -- so a screen only draws it.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
import soundfile as sf

from narrator.audio.loudness import loudness
from narrator.audio.synth import Clip, Samples, postprocess
from narrator.audio.voicepack import (
    LINES,
    MANIFEST,
    Manifest,
    PackLine,
    read_manifest,
)
from narrator.base.files import write_whole
from narrator.i18n import N_, gettext

MAX_TAKE = 60.0  # seconds the booth records at most
FRAME = 0.01  # seconds: the frames the room's noise and the speech are measured in
ABOVE_NOISE = 10 ** (12 / 20)  # speech is 12 dB above the room's quietest tenth
UNDER_PEAK = 10 ** (-40 / 20)  # ... and no more than 40 dB under the loudest frame
BEFORE, AFTER = 0.08, 0.15  # seconds kept before the first and after the last speech
QUIETEST = 10 ** (-50 / 20)  # a take whose loudest frame is under this heard nothing
SHORTEST = 0.15  # seconds of speech: less is a click, not a line
FULL_SCALE = 0.999  # a sample this loud is at the microphone's ceiling...
CLIP_RUN = 3  # ...and this many in a row are a flat top: clipped
SLOW_WPM = 90  # the slowest reading of a line (for "far too long")
TOO_LONG = 3.0  # times the slowest reading, plus...
TOO_LONG_MARGIN = 6.0  # ...these seconds, is far too long

Reason = Literal["silent", "clipped", "too_long"]
MESSAGES: dict[Reason, str] = {
    "silent": N_(
        "Nothing was heard: check the microphone (the meter moves when it hears you), "
        "then record the line again."
    ),
    "clipped": N_(
        "The take is clipped, too loud for the microphone: move back a little or turn "
        "its input level down, then record again."
    ),
    "too_long": N_(
        "The take is {seconds} s long, far too long for this line (about {expected} s): "
        "say only the line, then stop."
    ),
}


class TakeRefused(Exception):
    """A take that cannot be kept; `message(lang)` says why and what to do."""

    def __init__(self, reason: Reason, seconds: float = 0.0, expected: float = 0.0) -> None:
        super().__init__(reason)
        self.reason: Reason = reason
        self.seconds = seconds
        self.expected = expected

    def message(self, lang: str = "en") -> str:
        return gettext(lang, MESSAGES[self.reason]).format(
            seconds=f"{self.seconds:.0f}", expected=f"{self.expected:.0f}"
        )

    def __str__(self) -> str:
        return self.message()


def expected_seconds(text: str) -> float:
    """How long `text` takes read slowly (for "far too long")."""
    return max(1.0, len(text.split()) * 60.0 / SLOW_WPM)


def frame_levels(samples: Samples, sample_rate: int) -> npt.NDArray[np.float64]:
    """The RMS of each `FRAME` of `samples`."""
    size = max(1, round(FRAME * sample_rate))
    n = len(samples) // size
    frames = np.asarray(samples[: n * size], np.float64).reshape(n, size)
    return np.asarray(np.sqrt(np.mean(np.square(frames), axis=1)), np.float64)


def speech_span(samples: Samples, sample_rate: int) -> tuple[int, int] | None:
    """Where the speech is in a take, in samples, with `BEFORE` and `AFTER` of room
    either side; None when nothing in it stands out of the room's noise."""
    levels = frame_levels(samples, sample_rate)
    if len(levels) == 0 or float(np.max(levels)) < QUIETEST:
        return None
    top = float(np.max(levels))
    floor = float(np.percentile(levels, 10))
    threshold = min(max(floor * ABOVE_NOISE, top * UNDER_PEAK), top * 0.5)
    loud = np.flatnonzero(levels > threshold)
    size = max(1, round(FRAME * sample_rate))
    if len(loud) * size < SHORTEST * sample_rate:
        return None
    start = max(0, int(loud[0]) * size - round(BEFORE * sample_rate))
    end = min(len(samples), (int(loud[-1]) + 1) * size + round(AFTER * sample_rate))
    return start, end


def clipped(samples: Samples) -> bool:
    """Whether the take has a flat top at full scale (`CLIP_RUN` samples in a row)."""
    hot = np.abs(samples) >= FULL_SCALE
    if not hot.any():
        return False
    # the longest run of hot samples
    edges = np.flatnonzero(np.diff(np.concatenate([[0], hot.astype(np.int8), [0]])))
    return bool(np.max(edges[1::2] - edges[0::2]) >= CLIP_RUN)


def make_take(samples: Samples, sample_rate: int, text: str) -> Clip:
    """The take of `text` as the pack keeps it; TakeRefused with the reason."""
    raw = np.asarray(samples, np.float32).reshape(-1)
    if clipped(raw):
        raise TakeRefused("clipped")
    span = speech_span(raw, sample_rate)
    if span is None:
        raise TakeRefused("silent")
    cut = raw[span[0] : span[1]]
    seconds, expected = len(cut) / sample_rate, expected_seconds(text)
    if seconds > TOO_LONG * expected + TOO_LONG_MARGIN:
        raise TakeRefused("too_long", seconds, expected)
    if not np.isfinite(loudness(cut, sample_rate)):
        raise TakeRefused("silent")
    clip = postprocess(cut, sample_rate)
    if clip.seconds < SHORTEST:
        raise TakeRefused("silent")
    return clip


def flac_bytes(clip: Clip) -> bytes:
    """`clip` as 24-bit FLAC (lossless: what is kept is what was heard)."""
    out = io.BytesIO()
    sf.write(out, clip.samples, clip.sample_rate, format="FLAC", subtype="PCM_24")
    return out.getvalue()


def keep_take(folder: Path, text: str, clip: Clip) -> Manifest:
    """Keep `clip` as the take of `text` in the pack in `folder` (a take of the same
    text before is replaced); the manifest as it now is. WriteError (an OSError, one
    line) when the disk will not take it: the pack is then as it was."""
    data = flac_bytes(clip)
    digest = hashlib.sha256(data).hexdigest()
    line = PackLine(text, f"{LINES}/{digest[:32]}.flac", digest)
    write_whole(folder / line.file, data)  # (lines/ made again, 0700, if it was removed)
    manifest = read_manifest(folder).with_line(line)
    write_whole(folder / MANIFEST, manifest.to_json())
    kept = {Path(x.file).name for x in manifest.lines}
    for old in (folder / LINES).glob("*.flac"):  # takes recorded over: no longer listed
        if old.name not in kept:
            old.unlink(missing_ok=True)
    return manifest


@dataclass
class Recording:
    """A session at the microphone: the lines to record (`deck` of them are tonight's
    deck's, first), the one shown now, and the pack as recorded so far."""

    folder: Path
    manifest: Manifest
    lines: tuple[str, ...]
    deck: int
    index: int = 0

    def __post_init__(self) -> None:
        self.index = self.next_missing(-1) if self.lines else 0

    @property
    def text(self) -> str:
        return self.lines[self.index] if self.lines else ""

    def recorded(self, text: str | None = None) -> PackLine | None:
        """The take of `text` (the current line by default), if recorded."""
        wanted = self.text if text is None else text
        return next((line for line in self.manifest.lines if line.text == wanted), None)

    @property
    def done(self) -> int:
        """How many of the lines are recorded."""
        have = {line.text for line in self.manifest.lines}
        return sum(line in have for line in self.lines)

    @property
    def deck_done(self) -> int:
        have = {line.text for line in self.manifest.lines}
        return sum(line in have for line in self.lines[: self.deck])

    def move(self, delta: int) -> None:
        if self.lines:
            self.index = max(0, min(len(self.lines) - 1, self.index + delta))

    def next_missing(self, after: int | None = None) -> int:
        """The first line after `after` (the current one) not recorded yet, wrapping
        round; the current line when every line is."""
        start = self.index if after is None else after
        have = {line.text for line in self.manifest.lines}
        for step in range(1, len(self.lines) + 1):
            at = (start + step) % len(self.lines)
            if self.lines[at] not in have:
                return at
        return max(0, min(start, len(self.lines) - 1))

    def keep(self, clip: Clip) -> None:
        """Keep `clip` as the current line's take (I/O: a worker calls it)."""
        self.manifest = keep_take(self.folder, self.text, clip)
