"""The booth's contract, one suite for the real one (PortAudio's default input: the test
sound server's sink monitor, fed with prepared speech) and the simulated one the app
uses with NARRATOR_AUDIO=fake: record until told, report the level, give a take the
recording code keeps (or refuses as silent), play a take back and stop when told."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from narrator.audio.booth import Booth, DeviceBooth, SimulatedBooth
from narrator.audio.devices import UnknownDevice
from narrator.audio.recording import TakeRefused, make_take
from narrator.audio.synth import Clip
from tests.audio.microphone import listen_to_the_sink, prepared_speech, say_into_the_sink
from tests.support.soundserver import SINK, SoundServer

TEXT = "Seer, wake up."
HANG = 30.0  # seconds: a guard against a booth that never returns, not a stopwatch


@dataclass
class Rig:
    """A booth, and how a test makes it hear a line (or nothing)."""

    booth: Booth
    speak: Callable[[], None]  # while recording: the line is said into the microphone
    quiet: Booth  # the same booth in a silent room
    after: int = 8  # blocks (of 50 ms) recorded after `speak` returns


@pytest.fixture(params=[pytest.param("device", marks=pytest.mark.realtime), "simulated"])
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rig]:
    if request.param == "simulated":
        # the simulated voice speaks from 0.3 s to 1.3 s of its own accord
        yield Rig(SimulatedBooth(speech=1.0), lambda: None, SimulatedBooth(speech=0.0), after=32)
        return
    server: SoundServer = request.getfixturevalue("sound_server")
    listen_to_the_sink(server)
    speech = prepared_speech([TEXT], "en", tmp_path)[TEXT]
    yield Rig(DeviceBooth(), lambda: say_into_the_sink(server, speech), DeviceBooth())


def record(booth: Booth, during: Callable[[], None], after: int) -> tuple[Clip, list[float]]:
    """Record while `during()` runs (once the microphone is live), then `after` blocks."""
    stop, levels, live = threading.Event(), [], threading.Event()

    def heard(level: float) -> None:
        levels.append(level)
        live.set()

    def speaker() -> None:
        live.wait(HANG)
        during()
        done = len(levels)
        while len(levels) < done + after and not stop.is_set():
            live.clear()
            live.wait(1.0)
        stop.set()

    thread = threading.Thread(target=speaker)
    thread.start()
    try:
        take = booth.record(stop, heard)
    finally:
        stop.set()
        thread.join(HANG)
    return take, levels


def test_a_spoken_line_is_a_take_the_pack_keeps(rig: Rig) -> None:
    take, levels = record(rig.booth, rig.speak, rig.after)
    assert take.samples.dtype == np.float32 and take.samples.ndim == 1
    assert take.sample_rate >= 8000 and take.seconds > 0.5
    assert len(levels) >= 5 and max(levels) > -30
    clip = make_take(take.samples, take.sample_rate, TEXT)
    assert 0.3 < clip.seconds < take.seconds


def test_a_silent_room_is_refused(rig: Rig) -> None:
    take, levels = record(rig.quiet, lambda: None, rig.after)
    assert levels
    with pytest.raises(TakeRefused) as refused:
        make_take(take.samples, take.sample_rate, TEXT)
    assert refused.value.reason == "silent"


def test_a_take_is_played_back_and_a_stop_ends_it(rig: Rig) -> None:
    take, _ = record(rig.booth, rig.speak, rig.after)
    clip = make_take(take.samples, take.sample_rate, TEXT)
    stop = threading.Event()
    done = threading.Event()

    def play() -> None:
        rig.booth.play(clip, stop)
        done.set()

    whole = threading.Thread(target=play)
    whole.start()
    whole.join(HANG)
    assert done.is_set()  # heard to the end
    done.clear()
    times = int(np.ceil((HANG + 10) / clip.seconds))
    long = Clip(np.tile(clip.samples, times), clip.sample_rate)  # longer than the guard
    stopped = threading.Thread(target=lambda: (rig.booth.play(long, stop), done.set()))
    stopped.start()
    stop.set()
    stopped.join(HANG)
    assert done.is_set()


def test_a_microphone_that_is_not_there_is_one_line(sound_server: SoundServer) -> None:
    with pytest.raises(UnknownDevice) as missing:
        DeviceBooth(microphone="no such microphone").record(threading.Event(), lambda _: None)
    said = str(missing.value)
    assert "no microphone 'no such microphone'" in said and "\n" not in said
    assert "narrator devices --microphones" in said


# In a process of its own (PortAudio lists the devices once, when it loads): the
# microphones listed, and a take from the named one and one from the default, each
# while the line is played into the test sink.
NAMED = """
import json, subprocess, sys, threading
import numpy as np
from narrator.audio.booth import DeviceBooth
from narrator.audio.devices import list_devices
from narrator.tui.choices import RealChoices
sink, speech = sys.argv[1], sys.argv[2]

def take(booth):
    stop, blocks = threading.Event(), []
    def heard(level):
        blocks.append(level)
        if len(blocks) == 2:
            threading.Thread(target=lambda: (
                subprocess.run(["paplay", "-d", sink, speech], check=True, timeout=60),
                stop.set())).start()
    clip = booth.record(stop, heard)
    return float(np.max(np.abs(clip.samples), initial=0.0))

# the microphone as the settings save it: the value their list gives it
saved = {label: value for value, label in RealChoices().microphones()}["narrator_mic"]
print(json.dumps({
    "listed": [d.name for d in list_devices("input")],
    "saved": saved,
    "named": take(DeviceBooth(microphone=saved)),
    "default": take(DeviceBooth()),
}))
"""


def test_the_microphone_named_in_the_settings_is_the_one_recorded(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    """Two microphones: the default one in a silent room (a second sink's monitor),
    and `narrator_mic` (an ALSA device on the test sink's monitor, as a USB microphone
    is one more ALSA device): the line said into the test sink is heard only in the
    take from the one named, and `narrator devices --microphones` lists it."""
    env = {**sound_server.env, "HOME": str(tmp_path)}  # where ALSA reads ~/.asoundrc
    (tmp_path / ".asoundrc").write_text(
        f'pcm.narrator_mic {{\n  type pulse\n  device "{SINK}.monitor"\n}}\n'
    )
    pactl = ["pactl"]
    before = subprocess.run(
        [*pactl, "get-default-source"], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    quiet = subprocess.run(
        [*pactl, "load-module", "module-null-sink", "sink_name=narrator_quiet"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    try:
        subprocess.run(
            [*pactl, "set-default-source", "narrator_quiet.monitor"], env=env, check=True
        )
        speech = prepared_speech([TEXT], "en", tmp_path / "speech")[TEXT]
        done = subprocess.run(
            [sys.executable, "-c", NAMED, SINK, str(speech)],
            env=env, capture_output=True, text=True, timeout=HANG * 2,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        heard = json.loads(done.stdout.strip().splitlines()[-1])
        listed = subprocess.run(
            [sys.executable, "-m", "narrator.cli", "devices", "--microphones", "--format", "json"],
            env=env, capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
    finally:
        subprocess.run([*pactl, "set-default-source", before], env=env, check=False)
        subprocess.run([*pactl, "unload-module", quiet], env=env, check=False)
    assert "narrator_mic" in heard["listed"] and heard["saved"] == "narrator_mic, ALSA"
    assert "narrator_mic" in [d["name"] for d in json.loads(listed.stdout)]
    assert heard["named"] > 0.1  # the line, said at half of full scale
    assert heard["default"] < 0.001  # the silent room: nothing of the line
