"""A whole One Night night in Persian recorded through a real microphone, then played
from the pack into a real sink.

The microphone is PortAudio's default input: the test sound server's null sink,
heard through its monitor, fed with prepared speech (espeak-ng's Persian, one file a
line, played into the sink while the app records). The app is driven as a user
drives it -- the deck chosen, `v`, the voice's name and language, then space, the
line read, space, Enter, line after line -- with the real booth. Then `narrator play`
plays the night with `--voice pack:ID` into the sink while the test records it:
every call is the pack's take, where the render says it starts (within 10 ms).
A small deck: its real time is the night's, twice. The reader reads fast (espeak-ng
at 200 words a minute, not 140): every take, and so the night, is a third shorter;
what is checked does not depend on how fast a line is said.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from textual.widgets import Input

from narrator.audio import AudioEngine, AudioSettings
from narrator.audio.booth import DeviceBooth
from narrator.audio.loudness import TARGET_LUFS, loudness
from narrator.audio.mixer import to_rate
from narrator.audio.pack_voice import read_take
from narrator.audio.voicepack import find_pack
from narrator.rules.selection import parse_roles
from narrator.script import Plan, Say, build_script
from narrator.script.lines import spoken
from narrator.session.config import Settings
from narrator.tui.screens.new_pack import NewPackDialog
from narrator.tui.screens.record import RecordScreen, Studio
from narrator.tui.screens.setup import SetupScreen
from tests.audio.measure import local_lag, offset_of
from tests.audio.microphone import listen_to_the_sink, prepared_speech, say_into_the_sink
from tests.support.cli import run_narrator
from tests.support.soundserver import RATE, SoundServer
from tests.tui.conftest import settle, sync
from tests.tui.fakes import make_app
from tests.unit.helpers import ruleset

# Measures time itself: one at a time under xdist (see tests/conftest.py).
pytestmark = [pytest.mark.audio, pytest.mark.xdist_group("timing")]
DECK = "werewolf:2,villager:3,tanner"
NIGHT = ["onuw", "--players", "3", "--roles", DECK, "--lang", "fa", "--pace", "0.1", "--seed", "1"]
TOLERANCE = round(0.010 * RATE)  # 10 ms
READ_AT = 200  # words a minute: the reader's pace, a quick one (the test's real time)


def night_lines() -> list[str]:
    rs = ruleset("onuw")
    plan = Plan(players=3, roles=parse_roles(DECK, rs), lang="fa", pace=0.1, seed=1)
    return list(dict.fromkeys(spoken(build_script(rs, plan).steps)))


async def record_the_night(pilot, server: SoundServer, speech: dict[str, Path]) -> str:  # type: ignore[no-untyped-def]
    """Choose the deck, open a Persian pack and read every line of the night into it."""
    app = pilot.app
    await pilot.press("down", "down", "enter")
    assert isinstance(app.screen, SetupScreen)
    game = app.game
    game.set_players(3)
    game.counts = dict(parse_roles(DECK, game.ruleset))
    game.seed = 1
    app.screen.show()
    await pilot.press("v")
    dialog = app.screen
    assert isinstance(dialog, NewPackDialog)
    dialog.query_one("#pack-name", Input).value = "Nava"
    dialog.query_one("#pack-by", Input).value = "espeak-ng"
    dialog.query_one("#pack-language").value = "fa"  # type: ignore[attr-defined]
    await pilot.press("enter")
    await settle(pilot, lambda: isinstance(app.screen, RecordScreen))
    screen = app.screen
    assert isinstance(screen, RecordScreen)
    rec = screen.recording
    lines = list(speech)
    assert list(rec.lines[: len(lines)]) == lines  # tonight's lines first, as heard
    for n, text in enumerate(lines):
        assert rec.text == text
        await pilot.press("space")
        await settle(pilot, lambda: screen.blocks_heard >= 3)  # the microphone is live
        say_into_the_sink(server, speech[text])
        heard = screen.blocks_heard
        await settle(pilot, lambda heard=heard: screen.blocks_heard >= heard + 6)  # some room
        await pilot.press("space")
        await settle(pilot, lambda: screen.state in ("playing", "review", "idle"))
        assert screen.take is not None, screen.note
        await pilot.press("enter")
        await settle(pilot, lambda n=n: rec.done == n + 1 and screen.state == "idle")
    await pilot.press("escape")
    return rec.manifest.id


@pytest.mark.timeout(600)  # two nights in real time, and a cold Persian voice
@sync
async def test_a_persian_night_recorded_through_a_microphone_plays_from_the_pack(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    listen_to_the_sink(sound_server)
    lines = night_lines()
    speech = prepared_speech(lines, "fa", tmp_path / "speech", rate=READ_AT)
    app, _, _ = make_app(tmp_path, Settings(language="fa"))
    app.studio = Studio(booth=lambda device, microphone: DeviceBooth(device, microphone))
    async with app.run_test(size=(100, 32)) as pilot:
        pack = await record_the_night(pilot, sound_server, speech)

    folder, manifest = find_pack(pack)
    assert (manifest.game, manifest.language) == ("onuw", "fa")
    assert sorted(line.text for line in manifest.lines) == sorted(lines)
    for line in manifest.lines:
        take = read_take(folder, line)
        assert loudness(take.samples, take.sample_rate) == pytest.approx(TARGET_LUFS, abs=0.2)
        # the take is the line as it was said: cut to it, no longer, hardly shorter
        said = speech[line.text]
        import soundfile as sf

        info = sf.info(said)
        assert info.duration - 0.1 < take.seconds < info.duration + 0.4, line.text

    # The night from the pack, into the sink, recorded from its monitor.
    env = {
        **sound_server.env,
        "XDG_DATA_HOME": str(folder.parents[2]),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONUNBUFFERED": "1",
    }
    dry: list[str] = []  # what `narrator play` told of an output that ran dry, each try
    for _ in range(2):  # ran dry (a busy machine; the player says so): played again
        recorder = sound_server.record(tmp_path / "night.raw")
        played = run_narrator("play", *NIGHT, "--voice", f"pack:{pack}", env=env, timeout=180)
        recording = recorder.stop()
        assert played.returncode == 0, played.stderr
        dry.append(" ".join(line for line in played.stderr.splitlines() if "ran dry" in line))
        if not dry[-1]:
            break
    assert not dry[-1], f"the output ran dry on each try: {dry}"
    assert f"voice pack {pack}: all {len(lines)} lines recorded" in played.stdout

    rs = ruleset("onuw")
    script = build_script(
        rs, Plan(players=3, roles=parse_roles(DECK, rs), lang="fa", pace=0.1, seed=1)
    )
    engine = AudioEngine(
        AudioSettings(voice=f"pack:{pack}"), cache_dir=tmp_path / "cache" / "narrator"
    )
    try:
        timeline = engine.render(script)
    finally:
        engine.close()
    said = [e for e in timeline.events if e.kind == "say"]
    assert len(said) == sum(isinstance(s, Say) for s in script.steps)
    voices = json.loads(json.dumps(timeline.to_dict()))["events"]
    assert {v["voice"]["engine"] for v in voices if v["kind"] == "say"} == {"voicepack"}

    reference = timeline.samples
    offset = offset_of(recording, reference)
    assert offset >= 0 and offset + len(reference) <= len(recording)
    span, search = round(0.3 * RATE), round(0.05 * RATE)
    takes = {line.text: read_take(folder, line) for line in manifest.lines}
    for event in said:
        lag = local_lag(recording, reference, event.start, offset, span, search)
        assert abs(lag) <= TOLERANCE, f"{event.text!r} heard {lag / RATE * 1000:.1f} ms off"
        # what was heard there is the pack's take of that line
        take = to_rate(takes[event.text or ""], RATE)
        at = offset + event.start + lag
        heard = recording[at : at + len(take)]
        n = min(len(heard), len(take))
        match = float(np.dot(heard[:n], take[:n]))
        match /= float(np.linalg.norm(heard[:n]) * np.linalg.norm(take[:n])) or 1.0
        assert match > 0.9, f"{event.text!r}: what was heard is not its take ({match:.2f})"
