"""The continuous part of the bed: rain, wind, fire, crickets, a murmuring room.

The taps alone leave the 1-6 kHz band empty, and that band is where a card
sliding on a table is heard (broadband hiss of 0.2-1 s). Each ambience here fills
it without pause, from numbers only, at run time: no recording, no loop.

- Noise is shaped in blocks: each block of `2 * HOP` samples is white noise drawn
  from a generator seeded by (seed, block number), filtered in the frequency
  domain by the ambience's spectrum, windowed by a sine window and overlap-added
  at half a block. Sine windows at 50 % overlap keep the power constant, and a
  sample depends only on the two blocks that cover it, so `render(start, n)` is
  exact for any window: chunks give the very samples a one-shot render gives.
- Sparse layers (rain drops, fire crackle) are the same, with a few random
  impulses per block instead of white noise.
- Every layer drifts in level and the wind in colour, by sums of slow sines with
  incommensurate periods (25 s to 5 min): nothing ever repeats.
- Crickets and the murmur of a room are closed-form functions of time (pulse
  trains, syllable-rate envelopes), so they too are exact for any window.

Each layer's `level_db` is tuned so that every ambience holds its 1-6 kHz band
near -18 dBFS before the bed's gain (about -36 dBFS in the mix at the default bed
volume); `scripts/bench` and tests/audio/test_sound_bed.py measure it from renders.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from narrator.audio.synth import Samples
from narrator.base.files import write_cache

HOP = 4096  # half a noise block, in samples

# name -> one line for `narrator beds`
AMBIENCES = {
    "rain": "steady rain on leaves and a roof, with drops (the default)",
    "wind": "wind in the trees: gusts and rustling leaves",
    "fire": "a fireplace: soft roar, hiss and crackle",
    "crickets": "a summer night: crickets over a light breeze",
    "room": "a murmuring room: far-off voices and air",
    "taps": "the tapping alone (no continuous layer: masks least)",
}


def _spectrum(points: tuple[tuple[float, float], ...], freqs: Samples) -> Samples:
    """Gains at `freqs` from (Hz, dB) corner points, straight lines on a log-frequency
    axis; below the first point and above the last, -60 dB a decade."""
    hz = np.array([p[0] for p in points])
    db = np.array([p[1] for p in points])
    f = np.maximum(freqs, 1.0)
    out = np.interp(np.log10(f), np.log10(hz), db)
    out = np.where(f < hz[0], db[0] - 60 * np.log10(hz[0] / f), out)
    out = np.where(f > hz[-1], db[-1] - 60 * np.log10(f / hz[-1]), out)
    gains = 10 ** (out / 20)
    # Unit power out for unit white noise in: the levels below are true RMS.
    return np.asarray(gains / np.sqrt(np.mean(gains**2)), np.float32)


_COARSE = 64  # syllable-rate curves are computed every this many samples, interpolated


def _on_grid(
    start: int, n: int, rate: int, curve: Callable[[npt.NDArray[np.float64]], Samples]
) -> Samples:
    """`curve(seconds)` for samples [start, start + n), computed on a grid of whole
    sample numbers fixed in time and interpolated: any window gets the same values."""
    first = start // _COARSE * _COARSE
    grid = first + _COARSE * np.arange((start + n - first) // _COARSE + 2)
    values = curve(grid / rate)
    return np.interp(np.arange(start, start + n), grid, values).astype(np.float32)


# Samples of shaped noise per layer (6 s at 22050 Hz), made once per process (~7 ms a
# layer) or read from where they were kept (`folder`): grains are read from it in an
# order that never repeats, so its length is not heard.
TABLE = 1 << 17
TABLES_VERSION = 1  # raise it when what `_make_table` makes changes (old tables go)


@functools.lru_cache(maxsize=32)
def noise_table(
    points: tuple[tuple[float, float], ...],
    sample_rate: int,
    seed: int,
    density: float | None,
    folder: Path | None = None,
) -> Samples:
    """`TABLE` samples of noise with the spectrum `points`, unit RMS for white noise,
    circular (filtered over the whole table, so it has no seam where it wraps).

    `density` None: Gaussian white noise. A number: that many random impulses a
    second (drops, crackles), each of size ~1 (so `level_db` is a click's peak).

    With a `folder`, the table is kept there once made and read back by the next
    process (~1 ms instead of ~7: the bed's tables were most of the time from `play`
    to its first sound). It goes in a subfolder named for this code's tables and
    numpy's version (what the samples depend on besides the arguments, which name the
    file); when one is made, the subfolders of other versions go, so an upgrade
    leaves nothing behind. A file that cannot be read, or is not one of ours, is
    made again and replaced."""
    if folder is None:
        return _make_table(points, sample_rate, seed, density)
    here = folder / f"v{TABLES_VERSION}-numpy-{np.__version__}"
    what = repr((TABLE, points, sample_rate, seed, density))
    path = here / f"noise-{hashlib.sha256(what.encode()).hexdigest()[:32]}.npy"
    with contextlib.suppress(OSError, ValueError, EOFError):
        kept: Samples = np.load(path, allow_pickle=False)
        if kept.dtype == np.float32 and kept.shape == (TABLE,):
            kept.flags.writeable = False
            return kept
    table = _make_table(points, sample_rate, seed, density)
    # A folder we cannot write: made each time.
    if write_cache(path, lambda file: np.save(file, table, allow_pickle=False)):
        with contextlib.suppress(OSError):
            for other in folder.glob("v*-numpy-*"):
                if other != here:
                    shutil.rmtree(other, ignore_errors=True)
    return table


def _make_table(
    points: tuple[tuple[float, float], ...], sample_rate: int, seed: int, density: float | None
) -> Samples:
    rng = np.random.default_rng([seed, 1])
    if density is None:
        x = rng.standard_normal(TABLE, dtype=np.float32)
    else:
        x = np.zeros(TABLE, np.float32)
        count = rng.poisson(density * TABLE / sample_rate)
        where = rng.integers(0, TABLE, count)
        # Mostly small, now and then a bigger one, either sign.
        sizes = rng.lognormal(0.0, 0.5, count) * rng.choice((-1.0, 1.0), count)
        np.add.at(x, where, sizes.astype(np.float32))
    gains = _spectrum(points, np.fft.rfftfreq(TABLE, 1 / sample_rate))
    if density is not None:
        gains /= np.float32(np.mean(gains))  # an impulse of size 1 peaks near 1
    table = np.fft.irfft(np.fft.rfft(x) * gains, TABLE).astype(np.float32)
    table.flags.writeable = False
    return table


def _block_gains(
    blocks: npt.NDArray[np.int64], rate: int, seed: int, depth_db: float, periods: tuple[float, ...]
) -> Samples:
    """`drift` at the centre of each noise block (the windows crossfade between them)."""
    return drift_at((blocks * HOP + HOP) / rate, seed, depth_db, periods)


def drift_at(
    seconds: npt.NDArray[np.float64], seed: int, depth_db: float, periods: tuple[float, ...]
) -> Samples:
    """A slow gain wobble at the given times: a sum of sines of the given periods (s)
    with seeded phases, `depth_db` at most either way."""
    rng = np.random.default_rng([seed, 99])
    phases = rng.uniform(0, 2 * np.pi, len(periods))
    wobble = np.zeros(len(seconds), np.float64)
    for period, phase in zip(periods, phases, strict=True):
        wobble += np.sin(2 * np.pi * seconds / period + phase)
    return np.asarray(10 ** (depth_db * wobble / len(periods) / 20), np.float32)


class ShapedNoise:
    """Endless noise with a given spectrum and a slow drift in level, exact for any
    window: grains of `2 * HOP` samples read from `noise_table` at pseudo-random
    places (a hash of the grain's number), each under a sine window and overlap-added
    at half a grain. Sine windows at 50 % overlap keep the power constant; the grains
    are far apart in the table, so there is no loop to hear. A few multiply-adds a
    sample: a whole night's bed renders in tens of milliseconds."""

    def __init__(
        self, sample_rate: int, layer: Layer, seed: int, tables: Path | None = None
    ) -> None:
        self.sample_rate = sample_rate
        self.layer = layer
        self.seed = seed
        self.table = noise_table(layer.points, sample_rate, seed, layer.density, tables)
        window = np.sin(np.pi * (np.arange(2 * HOP) + 0.5) / (2 * HOP))
        self.window = (window * 10 ** (layer.level_db / 20)).astype(np.float32)

    def _offset(self, k: int) -> int:
        # Knuth's multiplicative hash: neighbouring grains land far apart.
        return ((k + 1) * 2654435761 + self.seed * 40503) % (TABLE - 2 * HOP)

    def render(self, start: int, n: int) -> Samples:
        out = np.zeros(n, np.float32)
        stop = start + n
        first, last = start // HOP - 1, (stop - 1) // HOP
        blocks = np.arange(first, last + 1, dtype=np.int64)
        layer = self.layer
        gains = _block_gains(blocks, self.sample_rate, self.seed, layer.depth_db, layer.periods)
        # Grain k covers samples [k * HOP, k * HOP + 2 * HOP).
        for k, gain in zip(blocks.tolist(), gains.tolist(), strict=True):
            a, b = max(k * HOP, start), min(k * HOP + 2 * HOP, stop)
            if a >= b:
                continue
            off = self._offset(k) + a - k * HOP
            grain = self.table[off : off + b - a] * self.window[a - k * HOP : b - k * HOP]
            out[a - start : b - start] += grain * np.float32(gain)
        return out


class Crickets:
    """`count` crickets, each chirping 3 pulses of ~16 ms at its own pitch (4.2-5 kHz)
    and pace (0.6-1.1 s); the pace sways by a few per cent and each cricket is
    louder or quieter from minute to minute. Chirps are placed one by one (their
    times are a closed-form function of their number), so any window is exact."""

    def __init__(self, sample_rate: int, seed: int, count: int = 4) -> None:
        rng = np.random.default_rng([seed, 77])
        self.sample_rate = sample_rate
        t = np.arange(round(0.1 * sample_rate)) / sample_rate
        pulse = t * 30.0  # three pulses at 30 a second, each on for half its cycle
        on = (pulse < 3.0) & ((pulse % 1.0) < 0.5)
        envelope = np.where(on, np.sin(np.pi * (pulse % 1.0) / 0.5) ** 2, 0.0)
        self.crickets = []
        for i in range(count):
            pitch = rng.uniform(4200, 5000)
            chirp = (envelope * np.sin(2 * np.pi * pitch * t)).astype(np.float32)
            self.crickets.append(
                (chirp, rng.uniform(0.6, 1.1), rng.uniform(0.5, 1.0), rng.uniform(40, 90), i)
            )
        self.seed = seed

    def render(self, start: int, n: int) -> Samples:
        out = np.zeros(n, np.float32)
        rate, stop = self.sample_rate, start + n
        for chirp, period, level, sway, i in self.crickets:
            # Chirp j starts at j * period, swayed +-6 %: a slow sine of the time.
            lo = max(0, int(start / rate / period / 1.07) - 2)
            hi = int(stop / rate / period / 0.93) + 2
            j = np.arange(lo, hi)
            times = j * period * (1 + 0.06 * np.sin(2 * np.pi * j * period / sway + i))
            gains = level * drift_at(times, self.seed * 100 + i, 8.0, (37.0, 83.0))
            for at, gain in zip(
                np.round(times * rate).astype(int).tolist(), gains.tolist(), strict=True
            ):
                a, b = max(at, start), min(at + len(chirp), stop)
                if a < b:
                    out[a - start : b - start] += np.float32(gain) * chirp[a - at : b - at]
        return out


def murmur(start: int, n: int, rate: int, seed: int, voices: int) -> Samples:
    """Syllable-rate envelopes (3-6 Hz) of `voices` far-off talkers, each with phrases
    and breaths (a slower gate), to modulate speech-shaped noise."""
    rng = np.random.default_rng([seed, 55])
    talkers = [
        (
            rng.uniform(3.0, 6.0, 3),
            rng.uniform(0, 2 * np.pi, 3),
            rng.uniform(0.12, 0.3),
            rng.uniform(0, 2 * np.pi),
        )
        for _ in range(voices)
    ]

    def curve(t: npt.NDArray[np.float64]) -> Samples:
        total = np.zeros(len(t))
        for rates, phases, phrase_rate, phrase_phase in talkers:
            syllables = sum(
                np.sin(2 * np.pi * r * t + p) for r, p in zip(rates, phases, strict=True)
            )
            syllables = np.clip(syllables / 3 + 0.35, 0.0, None)
            phrases = np.clip(np.sin(2 * np.pi * phrase_rate * t + phrase_phase) + 0.6, 0.0, 1.0)
            total += syllables * phrases
        return np.asarray(total / max(voices, 1) ** 0.5, np.float32)

    return _on_grid(start, n, rate, curve)


@dataclass(frozen=True)
class Layer:
    """A shaped-noise layer: its spectrum, level, drift, and how it is made."""

    points: tuple[tuple[float, float], ...]
    level_db: float
    depth_db: float = 2.0
    periods: tuple[float, ...] = (29.0, 71.0, 173.0)
    density: float | None = None  # impulses a second for sparse layers
    # An extra amplitude shape: (start, n, sample rate, seed) -> gains.
    envelope: Callable[[int, int, int, int], Samples] | None = None


def _room(start: int, n: int, rate: int, seed: int) -> Samples:
    return murmur(start, n, rate, seed, 6) + np.float32(0.25)


# The ambiences. Corner points in (Hz, dB); levels in dBFS RMS before the bed's gain
# (sparse layers: a click's peak).
_LAYERS: dict[str, tuple[Layer, ...]] = {
    "rain": (
        # The wash of rain: broadband, strongest between 1.5 and 5 kHz.
        Layer(((300, -18), (1500, 0), (5000, 0), (9000, -10)), level_db=-19.0, depth_db=2.0),
        # A low rumble of rain on the roof.
        Layer(((60, -6), (200, 0), (500, -6), (1200, -24)), level_db=-28.0, depth_db=3.0),
        # Drops: clicks filtered to a bright tick (level: a drop's peak).
        Layer(((1500, -12), (3500, 0), (7000, -6)), level_db=-18.0, depth_db=3.0, density=30.0),
    ),
    "wind": (
        Layer(
            ((80, -6), (250, 0), (700, -8), (1500, -30)),
            level_db=-19.0,
            depth_db=6.0,
            periods=(11.0, 23.0, 59.0),
        ),
        # Leaves rustling: the gusts move them.
        Layer(
            ((700, -20), (2000, 0), (5500, -3), (9000, -15)),
            level_db=-18.5,
            depth_db=9.0,
            periods=(7.0, 13.0, 31.0),
        ),
    ),
    "fire": (
        Layer(((40, -4), (150, 0), (400, -10), (1000, -30)), level_db=-20.0, depth_db=4.0),
        Layer(((800, -15), (2500, 0), (6000, -4), (9000, -14)), level_db=-19.0, depth_db=3.0),
        # Crackle: sparse, bright, now and then loud.
        Layer(
            ((1000, -10), (4000, 0), (8000, -6)),
            level_db=-12.0,
            depth_db=6.0,
            density=12.0,
            periods=(5.0, 17.0, 41.0),
        ),
    ),
    "crickets": (
        # A light breeze under the crickets keeps the band filled between chirps.
        Layer(((300, -15), (1500, 0), (5000, -3), (8000, -14)), level_db=-19.5, depth_db=2.0),
    ),
    "room": (
        # Far-off voices: speech-shaped noise, syllables and phrases.
        Layer(
            ((150, -12), (500, 0), (1200, -2), (3500, -10), (6000, -22)),
            level_db=-18.0,
            depth_db=2.0,
            envelope=_room,
        ),
        # Air handling: a soft hiss that never stops.
        Layer(((800, -14), (2500, 0), (6000, -3), (9000, -14)), level_db=-20.5, depth_db=1.5),
    ),
    "taps": (),
}
CRICKET_LEVEL = 10 ** (-24 / 20)


class Ambience:
    """An endless, deterministic ambience at `sample_rate`; `render(start, n)` is exact
    for any window. Unknown names raise ValueError listing the known ones. `tables`:
    where the noise tables are kept between processes (`noise_table`)."""

    def __init__(
        self, name: str, sample_rate: int, *, seed: int = 11, tables: Path | None = None
    ) -> None:
        if name not in AMBIENCES:
            known = ", ".join(AMBIENCES)
            raise ValueError(f"unknown bed {name!r}: choose one of {known} (see: narrator beds)")
        self.name = name
        self.sample_rate = sample_rate
        self.seed = seed
        self.layers = [
            ShapedNoise(sample_rate, layer, seed * 10 + i, tables)
            for i, layer in enumerate(_LAYERS[name])
        ]
        self.crickets = Crickets(sample_rate, seed) if name == "crickets" else None

    def render(self, start: int, n: int) -> Samples:
        out = np.zeros(n, np.float32)
        if not self.layers:
            return out
        rate = self.sample_rate
        for noise in self.layers:
            layer = noise.layer
            sound = noise.render(start, n)
            if layer.envelope is not None:
                sound *= layer.envelope(start, n, rate, noise.seed)
            out += sound
        if self.crickets is not None:
            out += self.crickets.render(start, n) * np.float32(CRICKET_LEVEL)
        return out
