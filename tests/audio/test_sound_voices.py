"""Voices: one `Synthesizer` per engine behind a router; Piper tested end to end with a
tiny voice the tests build (no voice can be downloaded here)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from narrator.audio.loudness import TARGET_LUFS
from narrator.audio.piper_voice import PiperSynthesizer, find_model
from narrator.audio.rate import RateBook
from narrator.audio.synth import EspeakSynthesizer, Utterance
from narrator.audio.voices import VoiceRouter
from tests.support import sound
from tests.support.tiny_piper import build_tiny_voice

pytestmark = pytest.mark.audio
pytest.importorskip("piper", reason="the dev extra installs piper-tts")
pytest.importorskip("onnx", reason="the dev extra installs onnx")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_voice(tmp_path_factory.mktemp("voices"))


def test_piper_loads_a_voice_file_and_speaks_at_the_rate_asked(tiny: Path) -> None:
    synth = PiperSynthesizer(tiny)
    text = "Seer, wake up. You may look at another player's card."
    slow = synth.synthesize(Utterance(text, "en", str(tiny), 100))
    fast = synth.synthesize(Utterance(text, "en", str(tiny), 200))
    assert slow.sample_rate == 22050
    # Piper's own phonemizer ran: longer text, longer speech; half the rate, about
    # twice as long (the pause between its two sentences does not stretch).
    assert 1.6 < slow.seconds / fast.seconds < 2.1
    short = synth.synthesize(Utterance("Seer.", "en", str(tiny), 150))
    assert short.seconds < fast.seconds
    # The same post-processing as every engine: one loudness.
    assert sound.lufs(slow.samples, slow.sample_rate) == pytest.approx(TARGET_LUFS, abs=0.3)
    # The model's content is in the cache key: another file is another voice.
    other = build_tiny_voice(tiny.parent / "other", name="tiny")
    other.write_bytes(other.read_bytes() + b"\0")
    line = Utterance(text, "en", str(tiny), 150)
    assert synth.key(line) != PiperSynthesizer(other).key(line)


def test_the_router_sends_each_line_to_its_engine(tiny: Path) -> None:
    router = VoiceRouter()
    try:
        piper_line = Utterance("Seer, wake up.", "en", str(tiny), 150)
        espeak_line = Utterance("Seer, wake up.", "en", "en", 150)
        assert isinstance(router.engine_for(piper_line), PiperSynthesizer)
        assert isinstance(router.engine_for(espeak_line), EspeakSynthesizer)
        assert router.key(piper_line) != router.key(espeak_line)
        a, b = router.synthesize(piper_line), router.synthesize(espeak_line)
        assert not np.array_equal(a.samples[: len(b.samples)], b.samples[: len(a.samples)])
    finally:
        router.close()


def test_narrator_render_with_a_piper_voice_file_end_to_end(tiny: Path, tmp_path: Path) -> None:
    out, timeline = tmp_path / "night.wav", tmp_path / "night.json"
    done = sound.narrator(
        "render", "onuw", "--players", "3", "--voice", str(tiny), "--no-bed",
        "--out", str(out), "--timeline", str(timeline), data=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    samples, rate = sf.read(out, dtype="float32")
    events = [e for e in json.loads(timeline.read_text())["events"] if e["kind"] == "say"]
    assert len(events) >= 8
    # Every call in the file is the tiny voice's own rendering of that line (at the
    # natural rate the render measured and kept in its cache).
    synth = PiperSynthesizer(tiny, RateBook(tmp_path / "cache" / "narrator" / "voice-rates.json"))
    for e in events[:4]:
        clip = synth.synthesize(Utterance(e["text"], "en", str(tiny), 150))
        heard = samples[round(e["start"] * rate) : round(e["end"] * rate)]
        assert len(heard) == len(clip.samples)
        assert np.max(np.abs(heard - clip.samples)) < 2e-3  # 16-bit WAV


def test_voices_in_the_data_folder_are_listed_and_chosen_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "narrator" / "voices"
    build_tiny_voice(folder, name="it_IT-tiny", espeak_voice="it")
    listed = sound.narrator("voices", "--format", "json", data=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert {"engine": "piper", "id": "it_IT-tiny", "name": "it_IT-tiny", "languages": ["it"],
            "gender": None, "licence": None} in rows  # fmt: skip
    # the packaged neural engines are listed too when their extras are installed
    assert {r["engine"] for r in rows} - {"hibari", "kokoro"} == {"espeak-ng", "piper"}
    text = sound.narrator("voices", "--lang", "it", data=tmp_path).stdout
    assert any(row.split()[:2] == ["piper", "it_IT-tiny"] for row in text.splitlines())
    out = tmp_path / "n.wav"
    done = sound.narrator(
        "render", "onuw", "--players", "3", "--lang", "it", "--voice", "it_IT-tiny",
        "--out", str(out), data=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_a_broken_voice_is_one_clear_line(tmp_path: Path) -> None:
    lonely = tmp_path / "lonely.onnx"
    lonely.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="has no config"):
        find_model(str(lonely))
    missing = sound.narrator(
        "render", "onuw", "--players", "3", "--voice", str(tmp_path / "nope.onnx"),
        "--out", str(tmp_path / "x.wav"), data=tmp_path,
    )  # fmt: skip
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines() == [
        f"narrator: no Piper voice at {tmp_path / 'nope.onnx'}: give the path of an .onnx file"
    ]
    Path(f"{lonely}.json").write_text("{}", encoding="utf-8")
    broken = sound.narrator(
        "render", "onuw", "--players", "3", "--voice", str(lonely),
        "--out", str(tmp_path / "x.wav"), data=tmp_path,
    )  # fmt: skip
    assert broken.returncode == 2
    assert len(broken.stderr.strip().splitlines()) == 1
    assert "cannot load the Piper voice" in broken.stderr


def test_the_voice_preview_is_a_call_with_its_gap_over_the_bed(tmp_path: Path) -> None:
    from narrator.audio import AudioEngine, AudioSettings
    from narrator.script.defaults import WAKE_GAP
    from narrator.script.preview import preview_script
    from tests.support.fake_synth import FakeSynth

    for lang in ("en", "it", "fa"):
        fake = FakeSynth()
        engine = AudioEngine(AudioSettings(rate=180), cache_dir=tmp_path / lang, synthesizer=fake)
        timeline = engine.render(preview_script(lang))
        wake, act = timeline.events[0], timeline.events[1]
        assert (act.start - wake.end) / timeline.sample_rate == pytest.approx(WAKE_GAP)
        assert {line.rate for line in fake.calls} == {180}
        assert {line.lang for line in fake.calls} == {lang}
        assert sound.masked_share(timeline) == 1.0  # the bed plays under it
