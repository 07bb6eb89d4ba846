"""The bed masks the table: measured from renders of a full One Night night.

A card sliding on a table is broadband hiss of 0.2-1 s; the bed must fill the
1-6 kHz band in every pause, never fall silent, and stay well under the voice.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from narrator.audio import AudioEngine, AudioSettings, Timeline
from narrator.audio.ambience import AMBIENCES, Ambience
from narrator.audio.bed import NightBed, load_knocks
from narrator.audio.mixer import SAMPLE_RATE
from narrator.audio.settings import DEFAULT_AMBIENCE
from narrator.script import Pause
from tests.support import sound
from tests.support.fake_synth import FakeSynth, night

pytestmark = pytest.mark.audio


@pytest.fixture(scope="module")
def renders() -> dict[str, Timeline]:
    return {
        "mix": sound.onuw_render("en"),
        "voice": sound.onuw_render("en", bed=False),
        "loud_bed": sound.onuw_render("en", bed_volume=0.7),
        "loudest_bed": sound.onuw_render("en", bed_volume=1.0),
    }


def test_the_default_bed_fills_the_card_band_in_every_pause(renders: dict[str, Timeline]) -> None:
    mix = renders["mix"]
    levels = sound.pause_windows(mix)
    assert len(levels) > 2000  # minutes of pauses: the figure means something
    share = sound.masked_share(mix)
    assert share >= 0.95, f"only {share:.1%} of 50 ms windows reach -45 dBFS in 1-6 kHz"


def test_no_digital_silence_between_the_first_and_the_last_call(
    renders: dict[str, Timeline],
) -> None:
    assert sound.silent_windows(renders["mix"]) == 0
    # Without the bed, the same measure does find the pauses: it is not blind.
    assert sound.silent_windows(renders["voice"]) > 1000


def test_the_voice_stays_15_db_over_the_bed_under_every_call(
    renders: dict[str, Timeline],
) -> None:
    over = sound.voice_over_bed(renders["mix"], renders["voice"])
    assert len(over) >= 30
    assert min(over) >= 15.0, f"voice only {min(over):.1f} dB over the bed"


def test_the_bed_volume_setting_moves_the_bed(renders: dict[str, Timeline]) -> None:
    soft = np.median(sound.pause_windows(renders["mix"]))
    loud = np.median(sound.pause_windows(renders["loud_bed"]))
    assert loud - soft == pytest.approx(20 * np.log10(0.7 / 0.35), abs=0.5)


def test_the_mix_never_clips(renders: dict[str, Timeline]) -> None:
    for name, timeline in renders.items():
        assert np.max(np.abs(timeline.samples)) < 0.99, name


@pytest.mark.parametrize("name", [n for n in AMBIENCES if n != "taps"])
def test_every_ambience_fills_the_band_and_never_loops(name: str, tmp_path: Path) -> None:
    settings = AudioSettings(ambience=name)
    engine = AudioEngine(settings, cache_dir=tmp_path, synthesizer=FakeSynth(SAMPLE_RATE))
    timeline = engine.render(night(Pause(60.0)))
    levels = sound.pause_windows(timeline)
    assert np.mean(levels >= sound.MASK_LEVEL) >= 0.95
    # Slowly modulated: the level moves by a few dB over a minute...
    smooth = np.convolve(levels, np.ones(20) / 20, mode="valid")
    assert np.ptp(smooth) > 1.0
    # ... and no second of it comes back: the band's envelope never repeats.
    envelope = sound.window_levels(sound.band(timeline.samples, SAMPLE_RATE), SAMPLE_RATE, 0.01)
    envelope = envelope - envelope.mean()
    second = 100
    for lag in range(2 * second, len(envelope) - 2 * second, second):
        a, b = envelope[:second], envelope[lag : lag + second]
        assert np.corrcoef(a, b)[0, 1] < 0.9


def test_the_taps_alone_do_not_mask_so_they_are_not_the_default(tmp_path: Path) -> None:
    assert DEFAULT_AMBIENCE != "taps"
    engine = AudioEngine(
        AudioSettings(ambience="taps"), cache_dir=tmp_path, synthesizer=FakeSynth(SAMPLE_RATE)
    )
    assert sound.masked_share(engine.render(night(Pause(30.0)))) < 0.5


def test_an_ambience_is_the_same_rendered_in_chunks_or_at_once() -> None:
    bed = NightBed(load_knocks(SAMPLE_RATE), SAMPLE_RATE, ambience="crickets")
    whole = bed.render(0, 20 * SAMPLE_RATE)
    for name in AMBIENCES:
        one = Ambience(name, SAMPLE_RATE).render(0, 20 * SAMPLE_RATE)
        chunked = sound.render_in_chunks(Ambience(name, SAMPLE_RATE), len(one), seed=5)
        assert np.array_equal(chunked, one), name
    assert np.any(whole)


def test_an_unknown_bed_is_one_clear_error(tmp_path: Path) -> None:
    engine = AudioEngine(
        AudioSettings(ambience="surf"), cache_dir=tmp_path, synthesizer=FakeSynth(SAMPLE_RATE)
    )
    with pytest.raises(ValueError, match=r"unknown bed 'surf': choose one of rain, wind"):
        engine.render(night(Pause(1.0)))


def test_narrator_beds_lists_every_ambience_and_the_default() -> None:
    listed = sound.narrator("beds", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [r["name"] for r in rows] == list(AMBIENCES)
    assert [r["name"] for r in rows if r["default"]] == [DEFAULT_AMBIENCE]
    text = sound.narrator("beds").stdout
    assert f"* {DEFAULT_AMBIENCE}" in text


def test_render_with_a_chosen_bed_and_an_unknown_one(tmp_path: Path) -> None:
    out = tmp_path / "night.wav"
    game = ["render", "onuw", "--players", "3", "--out", str(out)]
    done = sound.narrator(*game, "--bed", "crickets")
    assert done.returncode == 0, done.stderr
    samples, rate = sf.read(out, dtype="float32")
    # Crickets chirp at 4.2-5 kHz: that band is busy all night long.
    chirps = sound.window_levels(sound.band(samples, rate, 4100, 5100), rate)
    assert np.median(chirps[rate // 1000 * 3 :]) > -60
    bad = sound.narrator(*game, "--bed", "surf")
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "narrator: unknown bed 'surf': choose one of rain, wind, fire, crickets, room, taps "
        "(see: narrator beds)"
    ]
    assert not (tmp_path / "x.wav").exists()


def test_kept_noise_tables_give_the_very_samples_made_ones_do(tmp_path: Path) -> None:
    """The ambience's tables are kept in the cache between processes: a bed read
    from them is sample for sample the bed made from scratch, and a kept file that
    is damaged is made again and replaced (never played as noise of the wrong kind)."""
    from narrator.audio.ambience import noise_table

    seconds = 5 * SAMPLE_RATE
    for name in AMBIENCES:
        noise_table.cache_clear()
        made = Ambience(name, SAMPLE_RATE).render(0, seconds)
        noise_table.cache_clear()
        Ambience(name, SAMPLE_RATE, tables=tmp_path)  # makes and keeps them
        noise_table.cache_clear()
        kept = Ambience(name, SAMPLE_RATE, tables=tmp_path).render(0, seconds)
        assert np.array_equal(kept, made), name
    files = sorted(tmp_path.glob("*/noise-*.npy"))
    assert len(files) == sum(len(Ambience(n, SAMPLE_RATE).layers) for n in AMBIENCES)
    assert {p.suffix for p in tmp_path.glob("*/*")} == {".npy"}  # written whole, then renamed

    rain = Ambience("rain", SAMPLE_RATE, tables=tmp_path)
    noise_table.cache_clear()
    for path in files:
        path.write_bytes(path.read_bytes()[:1000])  # cut short, as by a full disk
    again = Ambience("rain", SAMPLE_RATE, tables=tmp_path).render(0, seconds)
    assert np.array_equal(again, rain.render(0, seconds))

    def whole(path: Path) -> bool:
        try:
            return np.load(path).shape == rain.layers[0].table.shape
        except ValueError:
            return False

    assert sum(whole(p) for p in files) == len(rain.layers)  # rain's, made again


def test_noise_tables_of_another_numpy_are_removed_when_new_ones_are_made(
    tmp_path: Path,
) -> None:
    """Kept tables depend on numpy's generator: after an upgrade the old ones are
    never read again, and they go as soon as the new ones are made."""
    from narrator.audio.ambience import noise_table

    stale = tmp_path / "v1-numpy-1.26.4"
    stale.mkdir()
    (stale / "noise-0123.npy").write_bytes(b"old")
    other = tmp_path / "notes.txt"
    other.write_text("not ours")
    noise_table.cache_clear()
    Ambience("wind", SAMPLE_RATE, tables=tmp_path)
    assert not stale.exists()
    assert other.exists()
    assert [d.name for d in tmp_path.glob("v*-numpy-*")] == [f"v1-numpy-{np.__version__}"]
