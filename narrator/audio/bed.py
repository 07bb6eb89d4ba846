"""The bed: hands tapping on a wooden table over an ambience, generated as needed.

`NightBed` is what the mixer plays under a night: the taps below and one of the
continuous ambiences of `ambience.py` (rain, wind...) that fills the 1-6 kHz band
the taps leave empty.

There is no loop, so there is no seam: the bed is placed tap by tap from a dozen
synthesised knocks (`audio/knock_*.wav`, made by `scripts/make_tapping`) with a
seeded random generator. Three hands tap at their own pace with human timing; the
first keeps a steady beat so the table is never silent for long (at most
`max_gap` seconds between taps), the others drift, double-tap and rest.

`TapBed.render(start, n)` is exact for any window: rendering a night in chunks, as
the player's render-ahead does, gives the very samples a one-shot render gives.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.random  # loaded with the module, not while mixing the first night
import soundfile as sf
import soxr

from narrator.audio.ambience import Ambience
from narrator.audio.settings import DEFAULT_AMBIENCE
from narrator.audio.synth import Clip, Samples

# (mean interval in s at tempo 1, shape of the gamma spread, chance of a double tap)
_HANDS = ((0.42, 14.0, 0.05), (0.71, 5.0, 0.18), (0.97, 3.0, 0.25))
_STEADY_RANGE = (0.26, 0.58)  # the steady hand's interval is kept in this range
_BATCH = 64  # taps drawn at a time per hand


def assets_dir() -> Path:
    """The sound assets: inside the installed wheel, else the checkout's `audio/`."""
    try:
        packaged = resources.files("narrator") / "assets"
        if packaged.is_dir():
            return Path(str(packaged))
    except (ModuleNotFoundError, NotADirectoryError):
        pass
    return Path(__file__).resolve().parents[2] / "audio"


def load_sound(name: str, sample_rate: int, folder: Path | None = None) -> Clip:
    """A named asset (`chime`, `bell`, `knock_palm_1`...) as mono at `sample_rate`."""
    path = (folder or assets_dir()) / f"{name}.wav"
    if not path.exists():
        raise ValueError(f"unknown sound {name!r}: no {path.name} in {path.parent}")
    data, rate = sf.read(path, dtype="float32", always_2d=True)
    mono = data.mean(axis=1)
    if rate != sample_rate:
        mono = soxr.resample(mono, rate, sample_rate, quality="HQ")
    return Clip(np.ascontiguousarray(mono, dtype=np.float32), sample_rate)


def load_knocks(sample_rate: int, folder: Path | None = None) -> list[tuple[str, Samples]]:
    """Every knock of the manifest, with the hand that makes it."""
    base = folder or assets_dir()
    manifest = json.loads((base / "knocks.json").read_text(encoding="utf-8"))
    out = []
    for entry in manifest["knocks"]:
        clip = load_sound(Path(entry["file"]).stem, sample_rate, base)
        out.append((str(entry["hand"]), clip.samples))
    return out


@dataclass
class _Hand:
    rng: np.random.Generator
    mean: float
    shape: float
    double: float
    knocks: list[int]
    steady: bool
    cursor: float = 0.0
    onsets: list[int] = field(default_factory=list)
    which: list[int] = field(default_factory=list)
    gains: list[float] = field(default_factory=list)


class TapBed:
    """An endless, deterministic tapping track at `sample_rate`."""

    def __init__(
        self,
        knocks: list[tuple[str, Samples]],
        sample_rate: int,
        *,
        tempo: float = 1.0,
        seed: int = 7,
    ) -> None:
        if tempo <= 0:
            raise ValueError("bed tempo must be positive")
        self.sample_rate = sample_rate
        self.tempo = tempo
        self.knocks = [k for _hand, k in knocks]
        self.longest = max(len(k) for k in self.knocks)
        by_hand: dict[str, list[int]] = {}
        for i, (hand, _k) in enumerate(knocks):
            by_hand.setdefault(hand, []).append(i)
        groups = list(by_hand.values())
        self.hands = [
            _Hand(
                rng=np.random.default_rng([seed, n]),
                mean=mean / tempo,
                shape=shape,
                double=double,
                knocks=groups[n % len(groups)],
                steady=n == 0,
                cursor=0.05 * n,
            )
            for n, (mean, shape, double) in enumerate(_HANDS)
        ]
        self.taps_rendered = 0

    @property
    def max_gap(self) -> float:
        """The longest silence between two taps, in seconds."""
        return _STEADY_RANGE[1] / self.tempo

    def _extend(self, hand: _Hand, until: int) -> None:
        """Place the hand's taps up to sample `until`, a batch of random draws at a time
        (the batches are fixed in size, so the taps do not depend on `until`)."""
        rate = self.sample_rate
        low, high = (bound / self.tempo for bound in _STEADY_RANGE)
        while hand.cursor * rate <= until:
            rng, n = hand.rng, _BATCH
            which = rng.integers(len(hand.knocks), size=n)
            gains = np.clip(rng.lognormal(-0.25, 0.3, size=n), 0.25, 1.2)
            # Now and then a quick second tap (a flam, a roll of two fingers).
            doubles = rng.random(n) < hand.double
            steps = np.where(
                doubles,
                rng.uniform(0.07, 0.14, size=n),
                rng.gamma(hand.shape, hand.mean / hand.shape, size=n),
            )
            if hand.steady:
                steps = np.clip(steps, low, high)
            times = hand.cursor + np.concatenate([[0.0], np.cumsum(steps[:-1])])
            hand.onsets.extend(np.round(times * rate).astype(int).tolist())
            hand.which.extend(hand.knocks[i] for i in which.tolist())
            hand.gains.extend(gains.tolist())
            hand.cursor = float(times[-1] + steps[-1])

    def onsets(self, start: int, stop: int) -> list[int]:
        """Sample positions of every tap starting in [start, stop), sorted."""
        found: list[int] = []
        for hand in self.hands:
            self._extend(hand, stop)
            found.extend(
                hand.onsets[bisect_left(hand.onsets, start) : bisect_left(hand.onsets, stop)]
            )
        return sorted(found)

    def render(self, start: int, n: int) -> Samples:
        """The bed's samples [start, start + n), knock peaks at about 1."""
        out = np.zeros(n, np.float32)
        stop = start + n
        for hand in self.hands:
            self._extend(hand, stop)
            lo = bisect_left(hand.onsets, start - self.longest)
            hi = bisect_left(hand.onsets, stop)
            for i in range(lo, hi):
                onset = hand.onsets[i]
                knock = self.knocks[hand.which[i]]
                a, b = max(onset, start), min(onset + len(knock), stop)
                if a < b:
                    out[a - start : b - start] += hand.gains[i] * knock[a - onset : b - onset]
                    self.taps_rendered += 1
        return out


class NightBed:
    """The taps and an ambience (`ambience.AMBIENCES`), one endless deterministic track;
    `render(start, n)` is exact for any window, as both parts are. ValueError names
    the known ambiences when `ambience` is not one of them."""

    def __init__(
        self,
        knocks: list[tuple[str, Samples]],
        sample_rate: int,
        *,
        ambience: str = DEFAULT_AMBIENCE,
        tempo: float = 1.0,
        seed: int = 7,
        tables: Path | None = None,
    ) -> None:
        self.ambience = Ambience(ambience, sample_rate, tables=tables)
        self.taps = TapBed(knocks, sample_rate, tempo=tempo, seed=seed)
        self.sample_rate = sample_rate

    def render(self, start: int, n: int) -> Samples:
        out = self.taps.render(start, n)
        out += self.ambience.render(start, n)
        return out
