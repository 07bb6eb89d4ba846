"""Every call at one loudness: ITU-R BS.1770 integrated loudness, a true-peak ceiling.

Peak normalisation left calls 2-4.5 dB apart and Italian quieter than English:
loudness is what the ear hears, peaks are not. So each clip is

1. faded in and out (a few ms: no click where speech starts or stops),
2. brought to `TARGET_LUFS` integrated loudness (pyloudnorm's BS.1770-4 meter),
3. held under `CEILING_DBTP` true peak by a look-ahead limiter (true peak is read
   at 4x oversampling, as BS.1770 asks), and measured and corrected again, since
   limiting takes a little loudness away.

espeak-ng's speech has a peak-to-loudness ratio of 17-20 dB, so at -16 LUFS the
limiter takes a few dB off the highest peaks; its gain moves over 5 ms and never
overshoots the ceiling. Pure functions over numpy arrays.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyloudnorm
import soxr
from scipy.ndimage import minimum_filter1d, uniform_filter1d

Samples = npt.NDArray[np.float32]

TARGET_LUFS = -16.0  # spoken content on a speaker in a room (and podcasts) sit here
CEILING_DBTP = -1.0
FADE_IN = 0.008  # seconds
FADE_OUT = 0.03
LOOKAHEAD = 0.005  # seconds of limiter look-ahead (and release smoothing)
_BLOCK = 0.4  # BS.1770's gating block: shorter clips are measured looped


def loudness(samples: Samples, sample_rate: int) -> float:
    """Integrated loudness in LUFS (BS.1770-4); -inf for silence. A clip shorter than
    one 400 ms gating block is measured repeated to that length."""
    x = np.asarray(samples, np.float64)
    if len(x) == 0 or not np.any(x):
        return float("-inf")
    need = int(np.ceil(_BLOCK * sample_rate)) + 1
    if len(x) < need:
        x = np.tile(x, need // len(x) + 1)
    meter = pyloudnorm.Meter(sample_rate)
    return float(meter.integrated_loudness(x))


def true_peak(samples: Samples, sample_rate: int) -> Samples:
    """|x| at 4x oversampling, the largest of the four per original sample."""
    up = soxr.resample(np.asarray(samples, np.float32), sample_rate, 4 * sample_rate, quality="HQ")
    n = min(len(samples), len(up) // 4)
    peaks = np.abs(up[: 4 * n]).reshape(n, 4).max(axis=1)
    if n < len(samples):
        peaks = np.concatenate([peaks, np.abs(samples[n:])])
    return np.asarray(np.maximum(peaks, np.abs(samples)), np.float32)


def true_peak_db(samples: Samples, sample_rate: int) -> float:
    peak = float(np.max(true_peak(samples, sample_rate))) if len(samples) else 0.0
    return 20 * np.log10(peak) if peak > 0 else float("-inf")


def limit(samples: Samples, sample_rate: int, ceiling_db: float = CEILING_DBTP) -> Samples:
    """A look-ahead peak limiter: the gain is the minimum needed within LOOKAHEAD of
    each sample, smoothed over LOOKAHEAD (a moving average of minima stays under
    every minimum it covers, so the ceiling holds)."""
    ceiling = 10 ** (ceiling_db / 20)
    peaks = true_peak(samples, sample_rate)
    need = np.minimum(1.0, ceiling / np.maximum(peaks, 1e-9))
    if np.all(need >= 1.0):
        return samples
    span = max(1, round(LOOKAHEAD * sample_rate))
    gain = minimum_filter1d(need, size=2 * span + 1, mode="nearest")
    gain = uniform_filter1d(gain, size=span + 1, mode="nearest")
    return np.asarray(samples * gain, np.float32)


def fade(samples: Samples, sample_rate: int) -> Samples:
    """Raised-cosine fades at both ends (shorter clips get shorter fades)."""
    out = np.array(samples, np.float32)
    n = len(out)
    for seconds, at_start in ((FADE_IN, True), (FADE_OUT, False)):
        k = min(round(seconds * sample_rate), n // 4)
        if k < 2:
            continue
        ramp = (0.5 - 0.5 * np.cos(np.pi * np.arange(k) / k)).astype(np.float32)
        if at_start:
            out[:k] *= ramp
        else:
            out[n - k :] *= ramp[::-1]
    return out


def normalise(samples: Samples, sample_rate: int, target: float = TARGET_LUFS) -> Samples:
    """Fade, bring to `target` LUFS and hold under the true-peak ceiling."""
    out = fade(samples, sample_rate)
    for _ in range(4):
        measured = loudness(out, sample_rate)
        if not np.isfinite(measured):
            return out
        if abs(measured - target) < 0.05:
            break
        out = limit(out * np.float32(10 ** ((target - measured) / 20)), sample_rate)
    # Whatever the iterations left, the ceiling holds.
    peak = float(np.max(true_peak(out, sample_rate)))
    ceiling = 10 ** (CEILING_DBTP / 20)
    if peak > ceiling:
        out = out * np.float32(ceiling / peak)
    return out.astype(np.float32)
