"""Measuring a recording against the timeline it should contain (numpy only)."""

from __future__ import annotations

import numpy as np


def xcorr(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full cross-correlation of a with b via FFT; index k <-> lag k - (len(b) - 1)."""
    n = 1 << int(np.ceil(np.log2(len(a) + len(b))))
    fa = np.fft.rfft(a.astype(np.float64), n)
    fb = np.fft.rfft(b[::-1].astype(np.float64), n)
    return np.fft.irfft(fa * fb, n)[: len(a) + len(b) - 1]


def offset_of(recording: np.ndarray, reference: np.ndarray) -> int:
    """Where `reference` starts inside `recording`, in samples."""
    corr = xcorr(recording, reference)
    return int(np.argmax(corr)) - (len(reference) - 1)


def local_lag(
    recording: np.ndarray, reference: np.ndarray, at: int, offset: int, span: int, search: int
) -> int:
    """How far (samples) reference[at : at + span] sits from where the global offset
    puts it in the recording, searching +-`search` samples."""
    seg = reference[at : at + span]
    lo = offset + at - search
    window = recording[max(0, lo) : offset + at + span + search]
    if lo < 0:
        window = np.concatenate([np.zeros(-lo, window.dtype), window])
    best, best_lag = -np.inf, 0
    corr = xcorr(window, seg)[len(seg) - 1 :]  # lags 0..len(window)-1
    for lag in range(0, 2 * search + 1):
        if lag < len(corr) and corr[lag] > best:
            best, best_lag = corr[lag], lag
    return best_lag - search


def silent_runs(x: np.ndarray, rate: int, level: float, shortest: float) -> list[tuple[int, int]]:
    """(start, end) of every stretch quieter than `level` lasting at least `shortest` s,
    between the first and the last sound."""
    loud = np.abs(x) > level
    idx = np.flatnonzero(loud)
    if len(idx) == 0:
        return []
    gaps = np.diff(idx)
    runs = []
    for k in np.flatnonzero(gaps > shortest * rate):
        runs.append((int(idx[k]) + 1, int(idx[k + 1])))
    return runs
