"""Every call at one loudness: ITU-R BS.1770 integrated loudness, a true-peak ceiling.

Peak normalisation left calls 2-4.5 dB apart and Italian quieter than English:
loudness is what the ear hears, peaks are not. So each clip is

1. brought to `TARGET_LUFS` integrated loudness (BS.1770-4: K-weighting, 400 ms
   blocks, the absolute and relative gates),
2. held under `CEILING_DBTP` true peak by a look-ahead limiter (true peak is read
   at 4x oversampling, as BS.1770 asks), and measured and corrected again, since
   limiting takes a little loudness away,
3. trimmed of what the limiter left under the edge level and faded in and out (a
   few ms: no click where speech starts or stops) -- `synth.postprocess`.

espeak-ng's speech has a peak-to-loudness ratio of 17-20 dB, so at -16 LUFS the
limiter takes a few dB off the highest peaks; its gain moves over 5 ms and never
overshoots the ceiling. Pure functions over numpy arrays.

The meter and the limiter's filters are numpy alone. They were pyloudnorm and
scipy, whose import (~0.35 s, scipy.signal) stood between `narrator play` with a
cold speech cache and its first word (issue 18). pyloudnorm stays the reference a
test holds this meter to (tests/audio/test_sound_loudness.py, within 0.01 LU).
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt
import soxr

Samples = npt.NDArray[np.float32]

TARGET_LUFS = -16.0  # spoken content on a speaker in a room (and podcasts) sit here
CEILING_DBTP = -1.0
FADE_IN = 0.008  # seconds
FADE_OUT = 0.03
LOOKAHEAD = 0.005  # seconds of limiter look-ahead (and release smoothing)
_BLOCK = 0.4  # BS.1770's gating block: shorter clips are measured looped
_STEP = 0.25  # of a block: blocks start every 100 ms (75 % overlap)
_OFFSET = -0.691  # BS.1770: cancels the K-weighting's gain at 997 Hz
_GATE = -70.0  # LUFS: blocks quieter than this are not counted at all


def _biquad_response(
    b: tuple[float, ...], a: tuple[float, ...], n: int
) -> npt.NDArray[np.complex128]:
    """A biquad's frequency response at the `n // 2 + 1` bins of an `n`-point rfft."""
    z = np.exp(-1j * np.pi * np.arange(n // 2 + 1) / (n // 2))  # z^-1 on the unit circle
    return (b[0] + b[1] * z + b[2] * z * z) / (a[0] + a[1] * z + a[2] * z * z)  # type: ignore[no-any-return]


def _k_weighting(sample_rate: int) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """BS.1770's two stages at `sample_rate`, as pyloudnorm designs them (RBJ
    biquads): a +4 dB shelf above 1.5 kHz, then a high-pass at 38 Hz."""
    stages: list[tuple[tuple[float, ...], tuple[float, ...]]] = []
    for kind, gain_db, q, fc in (("shelf", 4.0, 1 / np.sqrt(2), 1500.0), ("pass", 0.0, 0.5, 38.0)):
        big_a = 10 ** (gain_db / 40)
        w0 = 2 * np.pi * fc / sample_rate
        alpha, cos = np.sin(w0) / (2 * q), np.cos(w0)
        if kind == "shelf":
            root = 2 * np.sqrt(big_a) * alpha
            b = (
                big_a * ((big_a + 1) + (big_a - 1) * cos + root),
                -2 * big_a * ((big_a - 1) + (big_a + 1) * cos),
                big_a * ((big_a + 1) + (big_a - 1) * cos - root),
            )
            a = (
                (big_a + 1) - (big_a - 1) * cos + root,
                2 * ((big_a - 1) - (big_a + 1) * cos),
                (big_a + 1) - (big_a - 1) * cos - root,
            )
        else:
            b = ((1 + cos) / 2, -(1 + cos), (1 + cos) / 2)
            a = (1 + alpha, -2 * cos, 1 - alpha)
        stages.append((b, a))
    return stages


def k_weighted(x: npt.NDArray[np.float64], sample_rate: int) -> npt.NDArray[np.float64]:
    """`x` through the K-weighting filters, from rest, as a recursive filter gives it:
    here by one FFT, with room after the signal for the filters' tails to die away
    (the 38 Hz high-pass's falls 200 dB in about half a second) so nothing wraps."""
    n = 1 << int(np.ceil(np.log2(len(x) + sample_rate // 2)))
    return np.fft.irfft(np.fft.rfft(x, n) * _k_response(sample_rate, n), n)[: len(x)]


@functools.lru_cache(maxsize=8)
def _k_response(sample_rate: int, n: int) -> npt.NDArray[np.complex128]:
    """Both stages' response for an `n`-point FFT (kept: a night has a few sizes)."""
    response = np.ones(n // 2 + 1, np.complex128)
    for b, a in _k_weighting(sample_rate):
        response *= _biquad_response(b, a, n)
    response.flags.writeable = False
    return response


def loudness(samples: Samples, sample_rate: int) -> float:
    """Integrated loudness in LUFS (BS.1770-4, mono); -inf for silence. A clip shorter
    than one 400 ms gating block is measured repeated to that length."""
    x = np.asarray(samples, np.float64)
    if len(x) == 0 or not np.any(x):
        return float("-inf")
    need = int(np.ceil(_BLOCK * sample_rate)) + 1
    if len(x) < need:
        x = np.tile(x, need // len(x) + 1)
    energy = np.concatenate([[0.0], np.cumsum(np.square(k_weighted(x, sample_rate)))])
    # each block's mean square, bounded as pyloudnorm bounds them
    count = int(np.round((len(x) / sample_rate - _BLOCK) / (_BLOCK * _STEP))) + 1
    starts = (_BLOCK * _STEP * np.arange(count) * sample_rate).astype(np.int64)
    ends = (_BLOCK * (_STEP * np.arange(count) + 1) * sample_rate).astype(np.int64)
    power = (energy[np.minimum(ends, len(x))] - energy[starts]) / (_BLOCK * sample_rate)
    with np.errstate(divide="ignore"):
        level = _OFFSET + 10 * np.log10(power)
    gated = power[level >= _GATE]
    if len(gated) == 0:
        return float("-inf")
    relative = _OFFSET + 10 * np.log10(np.mean(gated)) - 10.0  # 10 LU under the gated mean
    gated = power[(level >= _GATE) & (level > relative)]
    if len(gated) == 0:
        return float("-inf")
    return float(_OFFSET + 10 * np.log10(np.mean(gated)))


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
    gain = moving_min(need, 2 * span + 1)
    gain = moving_mean(gain, span + 1)
    return np.asarray(samples * gain, np.float32)


def _edges(x: npt.NDArray[np.floating], size: int) -> npt.NDArray[np.floating]:
    """`x` with its end values repeated around it for a window of `size` centred as
    scipy.ndimage centres it ("nearest" mode)."""
    return np.pad(x, (size // 2, size - 1 - size // 2), mode="edge")


def moving_min(x: npt.NDArray[np.floating], size: int) -> npt.NDArray[np.floating]:
    """The minimum over a centred window of `size` samples at each sample, the ends
    repeated outward (as scipy.ndimage.minimum_filter1d): van Herk's running minima
    over blocks of `size`, forward and backward, so any window is two lookups."""
    padded = _edges(x, size)
    n = len(x)
    blocks = -(-len(padded) // size)
    full = np.pad(padded, (0, blocks * size - len(padded)), mode="edge").reshape(blocks, size)
    forward = np.minimum.accumulate(full, axis=1).ravel()
    backward = np.minimum.accumulate(full[:, ::-1], axis=1)[:, ::-1].ravel()
    return np.minimum(backward[:n], forward[size - 1 : size - 1 + n])


def moving_mean(x: npt.NDArray[np.floating], size: int) -> npt.NDArray[np.floating]:
    """The mean over a centred window of `size` samples, the ends repeated outward (as
    scipy.ndimage.uniform_filter1d)."""
    padded = _edges(np.asarray(x, np.float64), size)
    total = np.concatenate([[0.0], np.cumsum(padded)])
    return np.asarray((total[size : size + len(x)] - total[: len(x)]) / size, np.float64)


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
    """Bring to `target` LUFS and hold under the true-peak ceiling."""
    out = np.asarray(samples, np.float32)
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
