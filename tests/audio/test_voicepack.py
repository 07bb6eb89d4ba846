"""Voice packs without a sound device: takes checked and made like every call, kept at
once; the pack as a voice (its takes, the default voice for the rest, the timeline
saying which); export then import byte for byte."""

from __future__ import annotations

import stat
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from narrator.audio import AudioEngine, AudioSettings
from narrator.audio.booth import SimulatedBooth
from narrator.audio.loudness import CEILING_DBTP, TARGET_LUFS, loudness, true_peak_db
from narrator.audio.pack_voice import PackSynthesizer, read_take
from narrator.audio.packzip import export_pack, import_pack
from narrator.audio.recording import (
    MAX_TAKE,
    Recording,
    TakeRefused,
    keep_take,
    make_take,
)
from narrator.audio.synth import Clip, Utterance
from narrator.audio.voicepack import (
    MANIFEST,
    PackError,
    coverage,
    find_pack,
    open_pack,
    packs_dir,
    read_manifest,
)
from narrator.base.errors import WriteError
from narrator.script.model import Say, Script
from tests.support.fake_synth import FakeSynth
from tests.support.soundserver import SoundServer
from tests.support.unwritable import unwritable

RATE = 16000


def voice(seconds: float = 1.6, *, peak: float = 0.3, rate: int = RATE) -> np.ndarray:
    """A take as a simulated booth records it: room, a voice, room."""
    booth = SimulatedBooth(speech=seconds, rate=rate, loudness=peak)
    return booth._voice(0, round((seconds + 1.0) * rate))


def take(text: str, seconds: float = 1.6) -> Clip:
    return make_take(voice(seconds), RATE, text)


def test_a_take_is_cut_to_the_speech_and_made_like_every_call() -> None:
    raw = voice(1.6, peak=0.05)
    clip = make_take(raw, RATE, "Everyone, close your eyes.")
    assert clip.sample_rate == RATE
    assert 1.4 < clip.seconds < 1.6 + 0.08 + 0.15 + 0.05  # the speech and a little room
    assert loudness(clip.samples, RATE) == pytest.approx(TARGET_LUFS, abs=0.1)
    assert true_peak_db(clip.samples, RATE) <= CEILING_DBTP + 0.05
    assert clip.samples[0] == 0.0 and abs(clip.samples[-1]) < 1e-3  # faded in and out


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (np.zeros(RATE * 2, np.float32), "silent"),
        (np.random.default_rng(1).normal(0, 3e-4, RATE * 2).astype(np.float32), "silent"),
        (np.clip(voice(1.0, peak=3.0), -1.0, 1.0), "clipped"),
        (voice(30.0), "too_long"),
    ],
    ids=["digital-silence", "room-noise", "clipped", "far-too-long"],
)
def test_a_bad_take_is_refused_with_a_plain_reason(raw: np.ndarray, reason: str) -> None:
    with pytest.raises(TakeRefused) as refused:
        make_take(raw, RATE, "Seer, wake up.")
    assert refused.value.reason == reason
    for lang in ("en", "it", "fa"):
        message = refused.value.message(lang)
        assert message and "\n" not in message and "{" not in message
    assert refused.value.message("it") != refused.value.message("en")


def test_a_take_as_long_as_a_long_line_is_kept() -> None:
    text = " ".join(["word"] * 40)  # about 27 s read slowly
    assert make_take(voice(20.0), RATE, text).seconds > 19


def test_keeping_a_take_commits_it_and_a_new_take_replaces_the_old(tmp_path: Path) -> None:
    folder, manifest = open_pack("Nonna Rosa", "onuw", "en", recorded_by="Rosa", root=tmp_path)
    assert folder == tmp_path / "nonna-rosa" and manifest.lines == ()
    first = keep_take(folder, "Seer, wake up.", take("Seer, wake up.", 1.0))
    assert [x.text for x in first.lines] == ["Seer, wake up."]
    old = folder / first.lines[0].file
    again = keep_take(folder, "Seer, wake up.", take("Seer, wake up.", 1.4))
    assert len(again.lines) == 1 and again.lines[0].file != first.lines[0].file
    assert not old.exists()  # the take recorded over is gone
    assert sorted(p.name for p in (folder / "lines").iterdir()) == [Path(again.lines[0].file).name]
    assert read_manifest(folder) == again
    # a voice is its owner's: the pack's folders 0700, its files 0600
    assert {stat.S_IMODE(p.stat().st_mode) for p in (folder, folder / "lines")} == {0o700}
    assert {stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*") if p.is_file()} == {0o600}
    # the same name, game and language: the same pack, to go on with
    assert open_pack("Nonna Rosa", "onuw", "en", root=tmp_path)[1] == again
    # another game under that name: a pack of its own, the first untouched
    other, made = open_pack("Nonna Rosa", "lupus", "it", root=tmp_path)
    assert other.name == "nonna-rosa-2" and made.lines == ()
    assert open_pack("نوا", "onuw", "fa", root=tmp_path)[0].name.startswith("voice-")


@pytest.mark.parametrize("where", ["lines", "."], ids=["the-take", "the-manifest"])
def test_a_take_the_disk_will_not_take_leaves_the_pack_as_it_was(
    tmp_path: Path, where: str
) -> None:
    folder, _ = open_pack("Full", "onuw", "en", root=tmp_path)
    kept = keep_take(folder, "Seer, wake up.", take("Seer, wake up."))
    before = (folder / MANIFEST).read_bytes()
    with unwritable(folder / where), pytest.raises(WriteError) as refused:
        keep_take(folder, "Robber, wake up.", take("Robber, wake up.", 1.2))
    # one line, an OSError too (the app's recording worker shows its strerror)
    assert str(refused.value).startswith(f"cannot write {folder / where}/")
    assert isinstance(refused.value, OSError) and "\n" not in str(refused.value)
    assert (folder / MANIFEST).read_bytes() == before
    assert read_manifest(folder) == kept
    assert not [p for p in folder.rglob("*.part")]
    # the next take is kept, and a take the manifest never listed is cleared away
    done = keep_take(folder, "Robber, wake up.", take("Robber, wake up.", 1.3))
    assert sorted(p.name for p in (folder / "lines").iterdir()) == sorted(
        Path(x.file).name for x in done.lines
    )
    assert len(done.lines) == 2


def test_the_recording_goes_to_the_first_line_not_recorded(tmp_path: Path) -> None:
    folder, manifest = open_pack("Go on", "onuw", "en", root=tmp_path)
    manifest = keep_take(folder, "A.", take("A."))
    recording = Recording(folder, manifest, ("A.", "B.", "C."), deck=2)
    assert (recording.index, recording.text, recording.done, recording.deck_done) == (1, "B.", 1, 1)
    recording.keep(take("B."))
    recording.index = recording.next_missing()
    assert (recording.text, recording.done, recording.deck_done) == ("C.", 2, 2)
    recording.move(-5)
    assert recording.index == 0 and recording.recorded() is not None


def test_the_simulated_booth_records_until_told_and_reports_levels() -> None:
    stop, levels = threading.Event(), []
    threading.Timer(0.6, stop.set).start()
    clip = SimulatedBooth(speech=0.2).record(stop, levels.append)
    assert 0.4 < clip.seconds < MAX_TAKE and len(levels) >= 5
    assert max(levels) > -20 and min(levels) < -50


# -- the pack as a voice -------------------------------------------------------------


def recorded_pack(root: Path, lines: dict[str, float], lang: str = "en") -> Path:
    folder, _ = open_pack("Test", "onuw", lang, root=root)
    for text, seconds in lines.items():
        keep_take(folder, text, take(text, seconds))
    return folder


def test_the_pack_says_its_takes_and_the_default_voice_the_rest(tmp_path: Path) -> None:
    folder = recorded_pack(tmp_path, {"Seer, wake up.": 1.0, "Seer, close your eyes.": 1.3})
    fallback = FakeSynth()
    pack = PackSynthesizer("test", fallback, root=tmp_path)
    manifest = read_manifest(folder)
    seer = next(x for x in manifest.lines if x.text == "Seer, wake up.")

    said = pack.synthesize(Utterance("Seer, wake up.", "en", "pack:test", 150))
    assert np.array_equal(said.samples, read_take(folder, seer).samples)
    assert fallback.calls == []
    joined = pack.synthesize(
        Utterance("Seer, wake up. Seer, close your eyes.", "en", "pack:test", 150)
    )
    parts = [read_take(folder, x).seconds for x in manifest.lines]
    assert joined.seconds == pytest.approx(sum(parts) + 0.35, abs=0.01)  # a breath between
    slower = pack.synthesize(
        Utterance("Seer, wake up. Seer, close your eyes.", "en", "pack:test", 75)
    )
    assert slower.seconds == pytest.approx(sum(parts) + 0.7, abs=0.01)  # the rate: the breath
    assert pack.key(Utterance("Seer, wake up.", "en", "pack:test", 75)) == pack.key(
        Utterance("Seer, wake up.", "en", "pack:test", 300)
    )  # a single take is the same at every rate: never stretched

    pack.synthesize(Utterance("Robber, wake up.", "en", "pack:test", 150))
    pack.synthesize(Utterance("Seer, wake up.", "it", "pack:test", 150))  # another language
    assert [(c.text, c.voice) for c in fallback.calls] == [
        ("Robber, wake up.", "heart" if fallback_is_heart() else "en"),
        ("Seer, wake up.", AudioSettings().voice_for("it")),  # Kokoro's if_sara, or espeak-ng
    ]
    assert (
        pack.describe(Utterance("Seer, wake up.", "en", "pack:test", 150))["engine"] == "voicepack"
    )


def fallback_is_heart() -> bool:
    from narrator.audio.packaged import default_voice

    return default_voice("en") == "heart"


def test_a_damaged_take_is_said_by_the_default_voice(tmp_path: Path) -> None:
    folder = recorded_pack(tmp_path, {"Seer, wake up.": 1.0})
    take_file = folder / read_manifest(folder).lines[0].file
    take_file.write_bytes(take_file.read_bytes()[:-10])
    fallback = FakeSynth()
    pack = PackSynthesizer("test", fallback, root=tmp_path)
    pack.synthesize(Utterance("Seer, wake up.", "en", "pack:test", 150))
    assert [c.text for c in fallback.calls] == ["Seer, wake up."]


def test_a_line_recorded_while_the_app_runs_is_heard_next_time(tmp_path: Path) -> None:
    folder = recorded_pack(tmp_path, {"Seer, wake up.": 1.0})
    fallback = FakeSynth()
    pack = PackSynthesizer("test", fallback, root=tmp_path)
    line = Utterance("Robber, wake up.", "en", "pack:test", 150)
    pack.synthesize(line)
    keep_take(folder, "Robber, wake up.", take("Robber, wake up."))
    pack.synthesize(line)
    assert len(fallback.calls) == 1


def test_an_uninstalled_pack_is_one_line() -> None:
    with pytest.raises(PackError, match="no voice pack 'gone' is installed"):
        PackSynthesizer("gone", FakeSynth())


def test_the_timeline_says_which_lines_came_from_the_pack(tmp_path: Path) -> None:
    recorded_pack(packs_dir(), {"Seer, wake up.": 1.0, "Seer, close your eyes.": 1.2})
    engine = AudioEngine(AudioSettings(voice="pack:test", bed=False), cache_dir=tmp_path)
    try:
        night = Script(
            "onuw",
            "night",
            1,
            "en",
            3,
            (),
            (Say("Seer, wake up."), Say("Seer, close your eyes."), Say("Robber, wake up.")),
        )
        timeline = engine.render(night).to_dict()
    finally:
        engine.close()
    said = {e["text"]: e["voice"]["engine"] for e in timeline["events"] if e["kind"] == "say"}
    assert said["Seer, wake up."] == said["Seer, close your eyes."] == "voicepack"
    assert said["Robber, wake up."] not in ("voicepack", None)
    manifest = find_pack("test")[1]
    assert coverage(manifest, said, "en") == (2, 3)
    assert coverage(manifest, said, "fa") == (0, 3)


# -- sharing ---------------------------------------------------------------------


def test_export_then_import_gives_the_same_pack_byte_for_byte(tmp_path: Path) -> None:
    folder = recorded_pack(tmp_path / "mine", {"Seer, wake up.": 1.0, "Robber, wake up.": 1.2})
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    export_pack("test", first, root=tmp_path / "mine")
    export_pack("test", second, root=tmp_path / "mine")
    assert first.read_bytes() == second.read_bytes()  # deterministic
    with zipfile.ZipFile(first) as archive:
        names = [i.filename for i in archive.infolist()]
        assert names == sorted(names) and MANIFEST in names
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    installed = import_pack(first, root=tmp_path / "theirs")
    theirs = tmp_path / "theirs" / installed.id

    def tree(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}

    assert tree(theirs) == tree(folder)
    export_pack("test", third := tmp_path / "c.zip", root=tmp_path / "theirs")
    assert third.read_bytes() == first.read_bytes()


def test_a_pack_whose_take_changed_is_not_exported(tmp_path: Path) -> None:
    folder = recorded_pack(tmp_path, {"Seer, wake up.": 1.0})
    take_file = folder / read_manifest(folder).lines[0].file
    take_file.write_bytes(take_file.read_bytes() + b"\0")
    with pytest.raises(PackError, match="does not match its hash"):
        export_pack("test", tmp_path / "out.zip", root=tmp_path)
    assert not (tmp_path / "out.zip").exists()


def test_the_phones_table_speaks_with_the_pack_through_its_settings(
    sound_server: SoundServer,
) -> None:
    """The table's voice is the session's engine on the user's settings: a pack chosen
    there says the table's whole lines it recorded (`compose.table_lines`)."""
    from narrator import compose
    from narrator.session.config import Settings

    dealt, *_ = compose.table_lines("en")
    recorded_pack(packs_dir(), {dealt: 2.0})
    voice = compose.table_voice(Settings(voice="pack:test"), silent=False)
    try:
        engine = voice.session.engine  # type: ignore[attr-defined]
        assert isinstance(engine, AudioEngine) and engine.settings.voice == "pack:test"
        said = engine.line_voices(Script("table", "day", 1, "en", 5, (), (Say(dealt),)))
        assert said == {dealt: {"engine": "voicepack", "id": "test"}}
    finally:
        voice.close()
