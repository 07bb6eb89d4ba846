"""Every call at one loudness, in every language: measured from renders (BS.1770)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from narrator.audio.loudness import (
    CEILING_DBTP,
    TARGET_LUFS,
    fade,
    loudness,
    moving_mean,
    moving_min,
    normalise,
    true_peak_db,
)
from narrator.script import Say
from tests.support import sound
from tests.support.soak import install_game

pytestmark = pytest.mark.audio

LANGS = ("en", "it", "fa")
NEURAL_NIGHT = pytest.mark.timeout(sound.NEURAL_NIGHT)  # Italian's is Kokoro's


@NEURAL_NIGHT
@pytest.mark.parametrize("lang", LANGS)
def test_calls_spread_at_most_1_lu_in_each_language(lang: str) -> None:
    """Every call of the measured night (`sound.measured_night`: Italian's is smaller
    in the suite, 24 calls, and whole in the deep run)."""
    calls = sound.call_loudness(sound.onuw_render(lang, bed=False))
    night = sound.measured_night(lang)
    assert len(calls) == sum(isinstance(s, Say) for s in night.steps) >= 24
    assert max(calls) - min(calls) <= 1.0, f"{lang}: {min(calls):.2f}..{max(calls):.2f} LUFS"


@NEURAL_NIGHT
def test_languages_sit_within_1_lu_of_each_other() -> None:
    means = {
        lang: float(np.median(sound.call_loudness(sound.onuw_render(lang, bed=False))))
        for lang in LANGS
    }
    assert max(means.values()) - min(means.values()) <= 1.0, means


@NEURAL_NIGHT
@pytest.mark.parametrize("lang", LANGS)
def test_the_whole_mix_is_about_minus_16_lufs_and_never_clips(lang: str) -> None:
    mix = sound.onuw_render(lang)
    assert sound.lufs(mix.samples, mix.sample_rate) == pytest.approx(-16.0, abs=1.0)
    assert np.max(np.abs(mix.samples)) < 0.99
    assert true_peak_db(mix.samples, mix.sample_rate) < 0.0


def test_every_call_fades_in_and_out() -> None:
    voice = sound.onuw_render("en", bed=False)
    rate = voice.sample_rate
    ms = rate // 1000
    for e in (e for e in voice.events if e.kind == "say"):
        x = np.abs(voice.samples[e.start : e.end])
        body = x.max()
        # The first and last millisecond are far below the call's peak: no click.
        assert x[:ms].max() < 0.05 * body
        assert x[-ms:].max() < 0.05 * body


def test_normalise_meets_the_target_whatever_the_input_level() -> None:
    rate = 22050
    rng = np.random.default_rng(1)
    t = np.arange(2 * rate) / rate
    # A speech-like test: a tone in syllable-rate bursts, plus sharp peaks.
    burst = np.sin(2 * np.pi * 220 * t) * (np.sin(2 * np.pi * 4 * t) > 0)
    burst[rng.integers(0, len(t), 20)] = 1.0
    for level in (0.01, 0.3, 1.0):
        out = normalise((burst * level).astype(np.float32), rate)
        assert sound.lufs(out, rate) == pytest.approx(TARGET_LUFS, abs=0.3)
        assert true_peak_db(out, rate) <= CEILING_DBTP + 0.05
    assert fade(np.ones(rate, np.float32), rate)[0] == 0.0


def _signals(rate: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(rate)
    t = np.arange(int(2.3 * rate)) / rate
    return {
        "noise": rng.normal(0, 0.1, len(t)),
        "50 Hz": 0.3 * np.sin(2 * np.pi * 50 * t),  # where the high-pass bites
        "3 kHz": 0.3 * np.sin(2 * np.pi * 3000 * t),  # on the shelf
        "bursts": rng.normal(0, 0.1, len(t)) * (t % 0.7 < 0.2) + 1e-5 * rng.normal(0, 1, len(t)),
        "one block": rng.normal(0, 0.1, int(0.41 * rate)),
        "quiet": 1e-4 * rng.normal(0, 1, len(t)),  # under the absolute gate
    }


@pytest.mark.parametrize("rate", [16000, 22050, 24000, 44100, 48000])
def test_the_meter_reads_what_pyloudnorm_reads(rate: int) -> None:
    """The meter is numpy alone (no scipy on the first call's path); pyloudnorm, the
    reference BS.1770-4 implementation, is what it must agree with."""
    pyloudnorm = pytest.importorskip("pyloudnorm")
    for name, x in _signals(rate).items():
        x32 = x.astype(np.float32)
        reference = pyloudnorm.Meter(rate).integrated_loudness(x32.astype(np.float64))
        ours = loudness(x32, rate)
        if np.isinf(reference):
            assert np.isinf(ours), name
        else:
            assert ours == pytest.approx(reference, abs=0.01), name
    assert loudness(np.zeros(rate, np.float32), rate) == float("-inf")


@pytest.mark.parametrize("size", [2, 3, 110, 111, 120, 241])
def test_the_limiter_s_windows_are_scipy_s(size: int) -> None:
    ndimage = pytest.importorskip("scipy.ndimage")
    x = np.random.default_rng(size).random(5000)
    x[1000:1300] = 0.2  # a run, as a limiter's gain has
    assert np.array_equal(moving_min(x, size), ndimage.minimum_filter1d(x, size, mode="nearest"))
    expected = ndimage.uniform_filter1d(x, size, mode="nearest")
    assert np.allclose(moving_mean(x, size), expected, atol=1e-12)


def test_a_night_renders_and_is_normalised_without_scipy_or_pyloudnorm(tmp_path: Path) -> None:
    """They are the tests' reference, not narrator's dependencies (pyproject): a user's
    install has neither. A fresh cache, so every call is made, resampled (Kokoro's
    24 kHz) and normalised in this process: the soak's game (tests/support/soak.yaml)
    as a user's ruleset, two short calls in Italian -- Secret Moon's four were 13 CPU s
    of Kokoro for the same path."""
    install_game()
    block = "import sys; sys.modules.update(scipy=None, pyloudnorm=None); "
    run = "from narrator.cli import main; sys.exit(main())"
    out, timeline = tmp_path / "night.wav", tmp_path / "night.json"
    args = ["render", "soak", "--players", "3", "--lang", "it", "--no-bed"]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", block + run, *args, "--out", str(out), "--timeline", str(timeline)],
        capture_output=True, text=True, timeout=180, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(timeline.read_text())["voice"] == {"engine": "kokoro", "id": "if_sara"}
    samples, rate = sf.read(out, dtype="float32")
    assert sound.lufs(samples, rate) == pytest.approx(TARGET_LUFS, abs=1.0)
