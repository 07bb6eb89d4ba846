"""Pronunciation: the lexicon respells a line before espeak-ng reads it, and espeak-ng
really makes the sounds we want of the respelling (its own phoneme output)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.audio import AudioEngine, AudioSettings
from narrator.audio.lexicon import lexicon_dir, load_lexicon, respell
from narrator.audio.synth import EspeakSynthesizer
from narrator.script import Say
from tests.support.fake_synth import FakeSynth, night

pytestmark = pytest.mark.audio


@pytest.fixture(scope="module")
def espeak() -> Iterator[EspeakSynthesizer]:
    synth = EspeakSynthesizer()
    yield synth
    synth.close()


def test_italian_doppelganger_is_said_the_german_way(espeak: EspeakSynthesizer) -> None:
    line = "Doppelgänger, svegliati."
    # Unaided, espeak-ng's Italian rules give [dopːelɡandʒˈɛr]: a soft g, stress at the end.
    plain = espeak.phonemes(line, "it")
    assert "dʒ" in plain
    fixed = espeak.phonemes(respell(line, "it"), "it")
    word = fixed.split()[0]
    assert word.startswith("dˈɔp")  # stressed on the first syllable
    assert "ɡˈɛŋɡ" in word  # a hard g, then [ɛŋɡ]
    assert "dʒ" not in word


def test_every_lexicon_entry_changes_what_espeak_says(espeak: EspeakSynthesizer) -> None:
    files = sorted(lexicon_dir().glob("*.yaml"))
    assert files
    for path in files:
        lang = path.stem
        for word, respelling in load_lexicon(lang).items():
            assert espeak.phonemes(word, lang) != espeak.phonemes(respelling, lang), word


def test_respelling_is_whole_words_any_case_and_leaves_other_languages() -> None:
    assert respell("Il DOPPELGÄNGER e il doppelgänger.", "it") == (
        "Il Dòppelghèngher e il Dòppelghèngher."
    )
    assert respell("Doppelgängers", "it") == "Doppelgängers"  # not part of a word
    assert respell("Doppelgänger", "en") == "Doppelgänger"


def test_the_engine_speaks_the_respelling_and_shows_the_original(tmp_path: Path) -> None:
    fake = FakeSynth()
    engine = AudioEngine(AudioSettings(bed=False), cache_dir=tmp_path, synthesizer=fake)
    timeline = engine.render(night(Say("Doppelgänger, svegliati."), lang="it"))
    assert [line.text for line in fake.calls] == ["Dòppelghèngher, svegliati."]
    assert timeline.events[0].text == "Doppelgänger, svegliati."


def test_a_broken_lexicon_names_its_file(tmp_path: Path) -> None:
    (tmp_path / "it.yaml").write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"it\.yaml: expected lines of `word: respelling`"):
        load_lexicon("it", tmp_path)
