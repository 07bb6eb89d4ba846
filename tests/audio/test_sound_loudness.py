"""Every call at one loudness, in every language: measured from renders (BS.1770)."""

from __future__ import annotations

import numpy as np
import pytest

from narrator.audio.loudness import CEILING_DBTP, TARGET_LUFS, fade, normalise, true_peak_db
from tests.audio import sound

pytestmark = pytest.mark.audio

LANGS = ("en", "it", "fa")


@pytest.mark.parametrize("lang", LANGS)
def test_calls_spread_at_most_1_lu_in_each_language(lang: str) -> None:
    calls = sound.call_loudness(sound.onuw_render(lang, bed=False))
    assert len(calls) >= 30
    assert max(calls) - min(calls) <= 1.0, f"{lang}: {min(calls):.2f}..{max(calls):.2f} LUFS"


def test_languages_sit_within_1_lu_of_each_other() -> None:
    means = {
        lang: float(np.median(sound.call_loudness(sound.onuw_render(lang, bed=False))))
        for lang in LANGS
    }
    assert max(means.values()) - min(means.values()) <= 1.0, means


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
