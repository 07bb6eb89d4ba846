"""The real speech engine (pyttsx3 + espeak-ng in its worker), the cache, export."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from narrator.audio import AudioEngine, AudioSettings, list_voices
from narrator.audio._worker import _voice_rate
from narrator.audio.loudness import CEILING_DBTP, TARGET_LUFS, loudness, true_peak_db
from narrator.audio.mixer import SAMPLE_RATE, to_rate
from narrator.audio.synth import CachedSynthesizer, Clip, EspeakSynthesizer, Utterance, postprocess
from narrator.audio.voices import VoiceRouter
from narrator.script.model import script_to_dict
from tests.support import sound
from tests.support.fake_synth import sample_night

pytestmark = pytest.mark.audio


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Werewolves, wake up and look for each other."),
        ("it", "Lupi mannari, svegliatevi e riconoscetevi."),
        ("fa", "گرگ‌ها، بیدار شوید."),
    ],
)
def test_every_language_speaks(lang: str, text: str) -> None:
    synth = EspeakSynthesizer()
    try:
        clip = synth.synthesize(Utterance(text, lang, lang, 150))
    finally:
        synth.close()
    assert clip.sample_rate == 22050
    assert 0.8 < clip.seconds < 6
    # At the one loudness of every call, under the true-peak ceiling.
    assert loudness(clip.samples, clip.sample_rate) == pytest.approx(TARGET_LUFS, abs=0.3)
    assert true_peak_db(clip.samples, clip.sample_rate) <= CEILING_DBTP + 0.05
    # Trimmed: sound within the first and last 10 ms.
    edge = clip.sample_rate // 100
    assert np.max(np.abs(clip.samples[:edge])) > 0.003
    assert np.max(np.abs(clip.samples[-edge:])) > 0.003


def test_the_wheel_alone_speaks(monkeypatch: pytest.MonkeyPatch) -> None:
    """No apt package needed: espeakng-loader's own libespeak-ng and voices."""
    monkeypatch.setenv("NARRATOR_ESPEAK", "wheel")
    synth = EspeakSynthesizer()
    try:
        clip = synth.synthesize(Utterance("Buonanotte a tutti.", "it", "it", 150))
        assert "espeakng_loader" in str(synth.hello["library"])
        assert "wheel" in synth.key(Utterance("x", "it", "it", 150))
    finally:
        synth.close()
    assert clip.seconds > 0.5


def test_a_warm_cache_never_starts_the_engine(tmp_path: Path) -> None:
    cold = AudioEngine(AudioSettings(), cache_dir=tmp_path)
    first = cold.render(sample_night())
    assert cold.synth.misses == 6
    cold.close()
    warm = AudioEngine(AudioSettings(), cache_dir=tmp_path)
    again = warm.render(sample_night())
    inner = warm.synth.inner
    assert isinstance(inner, VoiceRouter)
    assert inner._espeak is None or not inner._espeak.running
    assert not any(voice.running for voice in inner._packaged.values())  # nor hibari's
    assert warm.synth.hits == 6 and warm.synth.misses == 0
    assert np.array_equal(first.samples, again.samples)
    warm.close()


# Which of the locks in a speech folder another process could take now.
PROBE = """
import fcntl, sys
from pathlib import Path
for lock in sorted(Path(sys.argv[1]).glob(".tests-rendering-*.lock")):
    with open(lock, "a") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            print(lock.name, "free")
        except BlockingIOError:
            print(lock.name, "held")
"""


def test_the_tests_renders_into_one_speech_cache_take_turns_by_voice(tmp_path: Path) -> None:
    """tests/support/sound.py: the xdist workers' renders into the run's speech cache
    with one voice take turns across processes (one makes a call, the others then read
    it); another voice's do not wait. What another process could take is asked of it."""

    def probe() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(tmp_path / "speech")],
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        return done.stdout.splitlines()

    with sound.rendering(tmp_path, "if_sara"):
        with sound.rendering(tmp_path, "heart"):  # another voice: taken at once
            pass
        held = probe()
    assert held == [".tests-rendering-heart.lock free", ".tests-rendering-if_sara.lock held"]
    assert probe() == [".tests-rendering-heart.lock free", ".tests-rendering-if_sara.lock free"]
    assert sound._voice_of(("render", "onuw", "--lang", "it")) == AudioSettings().voice_for("it")
    assert sound._voice_of(("render", "onuw", "--voice=joe", "--lang", "it")) == "joe"


def test_cache_key_holds_everything_that_changes_the_sound(tmp_path: Path) -> None:
    synth = CachedSynthesizer(EspeakSynthesizer(), tmp_path)
    base = Utterance("Seer, wake up.", "en", "en", 150)
    variants = [
        base,
        Utterance("Seer, wake up!", "en", "en", 150),
        Utterance("Seer, wake up.", "en", "en-us", 150),
        Utterance("Seer, wake up.", "en", "en", 170),
        Utterance("Seer, wake up.", "it", "en", 150),
    ]
    assert len({synth.path_for(v) for v in variants}) == len(variants)
    key = synth.key(base)
    assert "pyttsx3" in key and "espeak" in key
    synth.close()


def test_an_unknown_voice_is_an_error_not_the_default_voice(tmp_path: Path) -> None:
    engine = AudioEngine(AudioSettings(voice="no-such-voice"), cache_dir=tmp_path)
    with pytest.raises(ValueError, match="unknown voice"):
        engine.render(sample_night())
    engine.close()


def test_mbrola_rate_is_corrected_by_resampling() -> None:
    assert _voice_rate("mb/mb-en1") == 16000 and _voice_rate("gmw/en") == 22050
    tone = np.sin(2 * np.pi * 440 * np.arange(16000) / 16000).astype(np.float32)
    clip = postprocess(tone, 16000)
    out = to_rate(clip, SAMPLE_RATE)
    assert abs(len(out) - SAMPLE_RATE) <= 2  # one second stays one second
    spectrum = np.abs(np.fft.rfft(out[1000:-1000]))
    peak = np.argmax(spectrum) * SAMPLE_RATE / (len(out) - 2000)
    assert peak == pytest.approx(440, abs=3)  # and 440 Hz stays 440 Hz


def test_voices_are_listed_per_language() -> None:
    italian = list_voices("it")
    assert italian and all(any(c.startswith("it") for c in v.languages) for v in italian)
    assert {"en", "it", "fa"} <= {c.split("-")[0] for v in list_voices() for c in v.languages}


@pytest.mark.parametrize("suffix", [".wav", ".flac", ".ogg", ".mp3"])
def test_export_every_format(tmp_path: Path, suffix: str) -> None:
    engine = AudioEngine(AudioSettings(), cache_dir=tmp_path / "cache")
    timeline = engine.render(sample_night())
    engine.export(sample_night(), tmp_path / f"night{suffix}")
    engine.close()
    data, rate = sf.read(tmp_path / f"night{suffix}")
    assert rate == timeline.sample_rate
    assert len(data) / rate == pytest.approx(timeline.duration, abs=0.1)


def test_render_command_writes_sound_and_timeline_and_keeps_stdout_clean(
    tmp_path: Path,
) -> None:
    script = tmp_path / "night.json"
    script.write_text(json.dumps(script_to_dict(sample_night())))
    out = subprocess.run(
        [sys.executable, "-m", "narrator.audio.commands", "render", str(script)]
        + ["--out", str(tmp_path / "n.ogg"), "--timeline", str(tmp_path / "t.json")],
        capture_output=True,
        text=True,
        env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "Audio saved" not in out.stdout + out.stderr
    assert out.stdout.splitlines()[0].startswith(f"wrote {tmp_path / 'n.ogg'}")
    timeline = json.loads((tmp_path / "t.json").read_text())
    assert set(timeline) == {"sample_rate", "duration", "voice", "events"}
    kinds = [e["kind"] for e in timeline["events"]]
    assert kinds.count("say") == 6 and kinds.count("pause") == 4
    assert all({"kind", "role", "text", "start", "end"} <= set(e) for e in timeline["events"])
    assert (tmp_path / "cache" / "narrator" / "speech").is_dir()  # XDG_CACHE_HOME honoured


def test_cli_render_of_a_real_ruleset(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "narrator.cli", "render", "onuw", "--players", "3"]
        # espeak-ng's Italian, named: Kokoro's (the default) is tests/audio/test_kokoro.py's
        + ["--roles", "werewolf:2,villager:3,tanner", "--no-bed", "--lang", "it", "--voice", "it"]
        + ["--out", str(tmp_path / "n.wav"), "--timeline", str(tmp_path / "t.json")],
        capture_output=True,
        text=True,
        env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    timeline = json.loads((tmp_path / "t.json").read_text())
    assert timeline["events"][0]["start"] == 0.0  # no bed, no lead-in
    data, rate = sf.read(tmp_path / "n.wav")
    assert len(data) / rate == pytest.approx(timeline["duration"], abs=1e-3)


def test_clip_type_is_float32_mono() -> None:
    clip = postprocess(np.zeros(100, np.float32), 22050)
    assert isinstance(clip, Clip) and clip.samples.dtype == np.float32 and len(clip.samples) == 0


def test_no_speech_engine_is_exit_3_with_the_install_command(tmp_path: Path) -> None:
    """Neither the system's libespeak-ng (forced off) nor a working wheel."""
    fake = tmp_path / "shim" / "espeakng_loader"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('espeakng_loader is hidden')\n")
    out = subprocess.run(
        [sys.executable, "-m", "narrator.cli", "render", "onuw", "--players", "3"]
        + ["--roles", "werewolf:2,villager:3,tanner", "--out", str(tmp_path / "n.wav")]
        + ["--voice", "en"],  # espeak-ng's English (heart, the default, needs no espeak)
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(tmp_path / "shim"),
            "NARRATOR_ESPEAK": "wheel",
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
        },
        timeout=60,
    )
    assert out.returncode == 3, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "pip install espeakng-loader" in out.stderr


def test_line_after_line_every_call_has_sound() -> None:
    """pyttsx3's espeak driver can cancel a line with a late stop from the line
    before (an empty file, seen on a loaded machine); the worker guards it."""
    synth = EspeakSynthesizer()
    try:
        for i in range(40):
            lang = "it" if i % 3 == 0 else "en"
            clip = synth.synthesize(Utterance(f"Player {i}, close your eyes.", lang, lang, 150 + i))
            assert clip.seconds > 0.5, i
    finally:
        synth.close()


@pytest.mark.parametrize("suffix", [".ogg", ".mp3", ".flac"])
def test_export_of_a_whole_long_night(tmp_path: Path, suffix: str) -> None:
    # A full One Night night is minutes long: libvorbis used to overflow its
    # stack on it when the night was written in one call, killing the process.
    # Run in a subprocess so that a crash is a failure, not the end of the run.
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "narrator.cli",
            "render",
            "onuw",
            "--players",
            "10",
            "--out",
            str(tmp_path / f"night{suffix}"),
            "--timeline",
            str(tmp_path / "t.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )
    assert out.returncode == 0, (out.returncode, out.stderr)
    duration = json.loads((tmp_path / "t.json").read_text())["duration"]
    assert duration > 120
    info = sf.info(str(tmp_path / f"night{suffix}"))
    assert info.duration == pytest.approx(duration, abs=0.1)
