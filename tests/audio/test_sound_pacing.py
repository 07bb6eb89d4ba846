"""Pacing for closed eyes, measured from renders: the rate heard, the wake gap."""

from __future__ import annotations

import numpy as np
import pytest

from narrator.audio import Timeline
from narrator.audio.settings import DEFAULT_RATES
from narrator.script import Say
from narrator.script.render_text import estimate_seconds
from tests.support import sound

pytestmark = pytest.mark.audio
NEURAL_NIGHT = pytest.mark.timeout(sound.NEURAL_NIGHT)  # Italian's is Kokoro's


@NEURAL_NIGHT
@pytest.mark.parametrize("lang", ["en", "it", "fa"])
def test_the_rate_heard_is_the_rate_set_in_every_language(lang: str) -> None:
    measured = sound.speech_rate(sound.onuw_render(lang, bed=False))
    assert measured.words > (150 if sound.measured_deck(lang) == sound.ONUW_SMALLER else 250)
    setting = DEFAULT_RATES[lang]
    assert measured.wpm == pytest.approx(setting, rel=0.10), f"{lang}: {measured.wpm:.0f} wpm"


@pytest.mark.parametrize(("lang", "rate"), [("en", 190), ("it", 120), ("fa", 170)])
def test_the_rate_follows_other_settings_too(lang: str, rate: int) -> None:
    """Each language's default voice at another rate; Italian's neural default (Kokoro)
    at another rate is measured on a few calls in test_kokoro.py (a whole night of it at
    a new rate is minutes of synthesis), the whole night here with espeak-ng's Italian."""
    voice = {"it": "it"}.get(lang)
    measured = sound.speech_rate(sound.onuw_render(lang, bed=False, rate=rate, voice=voice))
    assert measured.wpm == pytest.approx(rate, rel=0.10), f"{lang}: {measured.wpm:.0f} wpm"


def _gaps_after_wake_calls(timeline: Timeline, script_steps: tuple[object, ...]) -> list[float]:
    """Seconds of silence heard after every wake call that has an instruction: from
    its last sound to the first sound of the next call (read from the samples)."""
    rate = timeline.sample_rate
    x = np.abs(timeline.samples)
    level = 10 ** (-50 / 20)
    gaps = []
    for e in timeline.events:
        step = script_steps[e.step]
        if e.kind != "say" or not isinstance(step, Say) or step.after == 0:
            continue
        heard = np.flatnonzero(x[e.start : e.end + 3 * rate] > level)
        last_of_call = heard[heard < e.end - e.start].max()
        next_sound = heard[heard > last_of_call + rate // 4].min()  # past the call's end
        gaps.append((next_sound - last_of_call) / rate)
    return gaps


def test_a_wake_call_leaves_about_a_second_before_the_instruction() -> None:
    night = sound.onuw_night("en")
    gaps = _gaps_after_wake_calls(sound.onuw_render("en", bed=False), night.steps)
    assert len(gaps) >= 8
    # One second, give or take the few ms of fade at the end of a call.
    assert all(0.98 <= g <= 1.1 for g in gaps), gaps


@NEURAL_NIGHT
def test_the_wake_gap_is_a_setting_scaled_by_pace() -> None:
    night = sound.measured_night("it", wake_gap=1.5, pace=1.4)
    timeline = sound.render(night, sound._shared_cache(), bed=False)
    gaps = _gaps_after_wake_calls(timeline, night.steps)
    assert gaps and all(2.08 <= g <= 2.2 for g in gaps), gaps


def test_the_preview_and_the_audio_agree_on_the_gap() -> None:
    """The preview estimates speech, but the silence after a wake call it adds is the
    very silence the render leaves."""
    night = sound.onuw_night("en")
    timeline = sound.onuw_render("en", bed=False)
    rate = timeline.sample_rate
    checked = 0
    for e, following in zip(timeline.events, timeline.events[1:], strict=False):
        step = night.steps[e.step]
        if isinstance(step, Say) and step.after:
            in_preview = estimate_seconds(step) - estimate_seconds(Say(step.text))
            in_audio = (following.start - e.end) / rate
            assert in_audio == pytest.approx(in_preview, abs=1e-4)
            checked += 1
    assert checked >= 8
