"""A night whose sound output dies is a failure, never a night that "finished".

The real thing: `narrator play` into a private PulseAudio server of its own, which
the test kills 3 s after the first call is heard (~5 s in). The command must exit 3
with one line of ours (PortAudio's raw `Expression '...' failed` lines go to the
log, not the terminal), must have printed only the calls heard before the server
died, and must return at once, not hang.
Below that, the Playback's contract with a scripted stream: an end nobody asked for
is `OUTPUT_LOST`; a stream that stops calling back is `OUTPUT_STALLED`.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from narrator.audio import player
from narrator.audio.mixer import MixBuilder
from narrator.audio.player import OUTPUT_LOST, OUTPUT_STALLED, Playback, open_output
from narrator.script.model import Say
from tests.support.soundserver import SoundServer, missing_tools, sound_server

RATE = 22050
LINE = re.compile(r"^(\d+):(\d\d\.\d)  (.+)$")


@pytest.mark.realtime  # starts a sound server of its own
@pytest.mark.skipif(bool(missing_tools()), reason="needs pulseaudio and pulseaudio-utils")
def test_killing_the_sound_server_5_s_into_play_is_exit_3_and_one_line(tmp_path: Path) -> None:
    with sound_server(tmp_path / "pulse") as server:
        assert server.process is not None
        env = {**server.env, "XDG_STATE_HOME": str(tmp_path / "state")}
        play = subprocess.Popen(
            [sys.executable, "-m", "narrator.cli", "play", "onuw", "--players", "3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert play.stdout is not None
        first = play.stdout.readline()  # the first call heard: the stream is running
        heard_first = LINE.match(first)
        assert heard_first, first
        first_at = int(heard_first[1]) * 60 + float(heard_first[2])  # after the lead-in
        # ~5 s into the night: timed from the stream, not from a start-up that a busy
        # machine makes slow
        time.sleep(3.0)
        server.process.kill()
        server.process.wait()
        rest, err = _ended(play, 20, "after the sound server died")
    assert play.returncode == 3
    stopped = re.fullmatch(
        r"narrator: the night stopped at (\d+):(\d\d\.\d): the sound output went away "
        r"\(the sound server stopped, or the device was removed\)\n",
        err,
    )
    assert stopped, err  # one line of ours, no raw PortAudio line
    stopped_at = int(stopped[1]) * 60 + float(stopped[2])
    assert first_at + 1.0 < stopped_at < first_at + 3.0 + 5.0  # where the server died
    heard = [first, *rest.splitlines()]
    for line in heard:
        match = LINE.match(line)
        assert match, line
        assert int(match[1]) * 60 + float(match[2]) <= stopped_at  # printed = heard
    assert not any("wake up and open your eyes" in line for line in heard)
    log = (tmp_path / "state" / "narrator" / "audio.log").read_text()
    assert "Connection" in log or "pa_linux_alsa" in log  # the raw lines went here


def _ended(play: subprocess.Popen[str], timeout: float, when: str) -> tuple[str, str]:
    """`narrator play`'s output and errors once it ended; a hang fails the test."""
    try:
        return play.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        play.kill()
        play.communicate()
        pytest.fail(f"narrator play hung {when}")


class ScriptedStream:
    """A stream that calls back from its own thread until told to `die` or `hang`."""

    def __init__(self, callback: Callable[..., None], finished: Callable[[], None]) -> None:
        self.callback = callback
        self.finished = finished
        self.mode = "run"
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.first: np.ndarray | None = None  # the first block it was handed

    def _run(self) -> None:
        out = np.zeros((256, 1), np.float32)
        status = type("Status", (), {"output_underflow": False})()
        while self.mode in ("run", "held"):
            if self.mode == "held":  # the app did not run: nor did its callback
                time.sleep(0.005)
                continue
            try:
                self.callback(out, 256, None, status)
            except Exception:  # CallbackStop: the night's end
                break
            if self.first is None:
                self.first = out[:, 0].copy()
            time.sleep(256 / RATE / 4)
        if self.mode != "hang":
            self.finished()

    def start(self) -> None:
        self.thread.start()

    def abort(self, ignore_errors: bool = True) -> None:
        if self.mode == "run":
            self.mode = "aborted"

    def close(self, ignore_errors: bool = True) -> None:
        pass


class TimedOutStream(ScriptedStream):
    """A stream the sound server did not answer in time: its start raises what
    sounddevice raises then (PortAudio's paTimedOut, or another `code`). With
    `thread_began`, as the real PortAudio does when the server answers just too late
    (`test_a_stream_started_while_the_server_does_not_answer_plays_the_night_whole`):
    its thread hands over a few blocks, and PortAudio, giving up on it, ends it and
    reports that end from inside the start."""

    def __init__(self, callback: Callable[..., None], finished: Callable[[], None]) -> None:
        super().__init__(callback, finished)
        self.code = player.PA_TIMED_OUT
        self.closed = False
        self.thread_began = False

    def start(self) -> None:
        import sounddevice as sd

        if self.thread_began:
            out = np.zeros((256, 1), np.float32)
            status = type("Status", (), {"output_underflow": False})()
            for _ in range(5):
                self.callback(out, 256, None, status)
            self.finished()
        raise sd.PortAudioError("Error starting stream: Wait timed out", self.code)

    def close(self, ignore_errors: bool = True) -> None:
        self.closed = True
        if self.thread_began:  # PortAudio ends an active stream it closes: it says so
            self.finished()


def _playback(
    seconds: float, timeouts: int = 0, code: int | None = None, thread_began: bool = False
) -> tuple[Playback, list[ScriptedStream]]:
    """A playback of `seconds` of sound (a ramp from 0 to 0.5: a block tells where it
    was in the night), started; its first `timeouts` streams time out as they start
    (with `code`, else PortAudio's paTimedOut; `thread_began`: after their thread took a
    few blocks, see `TimedOutStream`)."""
    mix = MixBuilder(RATE)
    frames = round(seconds * RATE)
    mix.add(0, Say("hello"), [np.linspace(0.0, 0.5, frames, dtype=np.float32)])
    mix.finish()
    streams: list[ScriptedStream] = []

    def opener(callback: Callable[..., None], finished: Callable[[], None]) -> Any:
        kind = TimedOutStream if len(streams) < timeouts else ScriptedStream
        streams.append(kind(callback, finished))
        if isinstance(streams[-1], TimedOutStream):
            streams[-1].code = player.PA_TIMED_OUT if code is None else code
            streams[-1].thread_began = thread_began
        return streams[-1]

    playback = Playback(mix, opener, RATE)
    playback.start()
    return playback, streams


def test_a_night_played_to_its_end_has_no_error() -> None:
    playback, _ = _playback(0.2)
    assert playback.wait(10)
    assert playback.error is None


def test_a_stop_is_not_an_error() -> None:
    playback, _ = _playback(30)
    playback.stop()
    assert playback.wait(1) and playback.error is None


def test_a_stream_that_ends_by_itself_midway_is_output_lost() -> None:
    playback, streams = _playback(30)
    time.sleep(0.2)
    streams[0].mode = "died"
    assert playback.wait(5)
    assert playback.error == OUTPUT_LOST
    playback.stop()  # closing afterwards keeps the error
    assert playback.error == OUTPUT_LOST


def test_a_stream_that_stops_calling_back_is_output_stalled(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(player, "STALL", 0.3)
    playback, streams = _playback(30)
    time.sleep(0.2)
    streams[0].mode = "hang"
    deadline = time.monotonic() + 10
    with caplog.at_level("WARNING", logger="narrator.audio.player"):
        while not playback.wait(0.1):
            assert time.monotonic() < deadline, "wait() never noticed the stall"
    assert playback.error == OUTPUT_STALLED
    # the log tells a dead output (the watcher looked every 0.1 s) from an app that
    # itself did not run (the watcher's last look as old as the silence)
    (record,) = [r for r in caplog.records if r.message.startswith(OUTPUT_STALLED)]
    since, looked = (float(x) for x in re.findall(r"([0-9.]+) s (?:since|before)", record.message))
    assert since >= 0.3 and looked < 0.25, record.message
    assert re.search(r"\((\d+) so far", record.message) and "so far, at frame" in record.message


def test_a_stream_the_server_was_too_busy_to_start_is_opened_again_once() -> None:
    """Seen under a test run's load: the sound server answered a night's new stream too
    late (PortAudio's "Wait timed out"). Nothing has played yet, so a new stream is
    opened and the night plays whole; the first is closed."""
    playback, streams = _playback(0.2, timeouts=1)
    assert playback.wait(10) and playback.error is None
    assert playback.start_retried and len(streams) == 2
    assert isinstance(streams[0], TimedOutStream) and streams[0].closed
    playback.close()


def test_the_end_of_a_stream_given_up_on_is_not_the_night_s() -> None:
    """PortAudio's start may time out waiting for a stream thread it did start: it
    ends that thread and reports its end, from inside the start (and closing it may
    report it again). The night is the new stream's: it plays whole, from its first
    frame, with no error (a fresh clone's suite lost a soak's day to "the sound output
    went away" at a start under load, twice)."""
    playback, streams = _playback(2.0, timeouts=1, thread_began=True)  # ~0.5 s here
    assert streams[0].closed and playback.start_retried
    assert not playback.wait(0.1)  # still playing: the first stream's end ended nothing
    assert playback.wait(10) and playback.error is None
    # the blocks the first stream took were not heard: the second began at frame 0
    first = streams[1].first
    assert first is not None
    np.testing.assert_allclose(first, np.linspace(0.0, 0.5, round(2.0 * RATE))[:256], atol=1e-6)
    playback.close()


def test_a_second_timeout_or_another_error_is_the_night_s_failure() -> None:
    import sounddevice as sd

    started = time.monotonic()
    with pytest.raises(sd.PortAudioError, match="Wait timed out"):
        _playback(0.2, timeouts=2)
    assert time.monotonic() - started >= player.START_AGAIN  # it waited, then tried once
    with pytest.raises(sd.PortAudioError) as refused:
        _playback(0.2, timeouts=1, code=-9996)  # paInvalidDevice: no second try
    assert refused.value.args[1] == -9996


@pytest.mark.audio
def test_a_stream_started_while_the_server_does_not_answer_plays_the_night_whole(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    """The real thing behind the two tests above: a sound server that does not answer
    as a night's stream starts (stopped for 1.2 s here; in the suite's crowd, one too
    busy). PortAudio gives up on the stream after 1 s, ends its thread and says so from
    inside the start; a new stream then plays the night whole, from its first frame --
    as heard in the sink: 3 s of tone, once."""
    assert sound_server.process is not None
    pid, rate = sound_server.process.pid, 44100
    tone = 0.3 * np.sin(2 * np.pi * 440 * np.arange(3 * rate) / rate)
    mix = MixBuilder(rate)
    mix.add(0, Say("tone"), [tone.astype(np.float32)])
    mix.finish()
    playback = Playback(mix, open_output(None, rate), rate)
    recorder = sound_server.record(tmp_path / "night.raw")
    try:
        os.kill(pid, signal.SIGSTOP)
        answers = threading.Timer(1.2, os.kill, (pid, signal.SIGCONT))
        answers.start()
        try:
            playback.start()
        finally:
            answers.join()
            os.kill(pid, signal.SIGCONT)  # whatever happened: the worker's server runs on
        assert playback.wait(20)
    finally:
        playback.close()
        heard = recorder.stop()
    assert playback.start_retried and playback.error is None, playback.error
    block = 1102  # 50 ms of the monitor (22050 Hz)
    blocks = heard[: len(heard) // block * block].reshape(-1, block)
    seconds = float(np.count_nonzero(np.sqrt((blocks**2).mean(axis=1)) > 0.1)) * 0.05
    assert 2.9 <= seconds <= 3.2, seconds


def test_a_watcher_that_itself_did_not_run_does_not_blame_the_output(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Seen in the suite's crowd: the soak's app did not run for 6 s (its watcher had
    last looked 5.93 s before), and its output was failed as stalled. When the output
    was calling back up to the watcher's last look, the silence since was the app's: the
    output gets `STALL` seconds more, watched, and the night goes on."""
    monkeypatch.setattr(player, "STALL", 0.3)
    monkeypatch.setattr(player, "FROZEN", 0.2)
    playback, streams = _playback(3.0)
    while playback.feeder.fills < 5:
        assert not playback.wait(0.02)
    streams[0].mode = "held"  # the whole app held up: callback and watcher alike
    time.sleep(1.0)
    streams[0].mode = "run"
    with caplog.at_level("WARNING", logger="narrator.audio.player"):
        assert not playback.wait(0.02), playback.error  # the first look after: not a stall
        deadline = time.monotonic() + 10
        while not playback.wait(0.02):
            assert time.monotonic() < deadline
    assert playback.error is None
    assert any("the app itself did not run for" in r.message for r in caplog.records)
    playback.close()


def test_an_output_dead_after_the_app_was_held_up_is_still_a_stall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """... but an output that does not call back in those `STALL` watched seconds is
    gone: the night fails, no sooner and not much later."""
    monkeypatch.setattr(player, "STALL", 0.3)
    monkeypatch.setattr(player, "FROZEN", 0.2)
    playback, streams = _playback(30.0)
    while playback.feeder.fills < 5:
        assert not playback.wait(0.02)
    streams[0].mode = "held"
    time.sleep(1.0)
    watched = time.monotonic()
    deadline = watched + 10
    while not playback.wait(0.02):
        assert time.monotonic() < deadline, "a dead output was never failed"
    assert playback.error == OUTPUT_STALLED
    assert time.monotonic() - watched >= 0.3
    streams[0].mode = "hang"
    playback.close()


@pytest.mark.realtime  # starts a sound server of its own
@pytest.mark.skipif(bool(missing_tools()), reason="needs pulseaudio and pulseaudio-utils")
@pytest.mark.parametrize("held", ["app", "server"])
def test_narrator_play_held_up_goes_on_and_a_server_held_up_is_a_stall(
    tmp_path: Path, held: str
) -> None:
    """The real thing, 1 s into a Secret Moon night of `narrator play`: the command
    itself stopped (SIGSTOP) for 4 s -- a computer too busy to run it -- goes on to the
    night's end and says the output ran dry, not that it stopped responding; the sound
    server stopped for 4 s is the output's stall: exit 3, one line."""
    with sound_server(tmp_path / "pulse") as server:
        assert server.process is not None
        env = {**server.env, "XDG_STATE_HOME": str(tmp_path / "state")}
        play = subprocess.Popen(
            [sys.executable, "-m", "narrator.cli", "play", "secret_moon", "--players", "5"]
            + ["--pace", "0.1", "--no-bed"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert play.stdout is not None
        assert LINE.match(play.stdout.readline())  # the first call heard: it is playing
        time.sleep(1.0)
        pid = play.pid if held == "app" else server.process.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            time.sleep(4.0)
        finally:
            os.kill(pid, signal.SIGCONT)
        out, err = _ended(play, 60, f"after it or its sound server was held up ({held})")
    log = (tmp_path / "state" / "narrator" / "narrator.log").read_text()
    if held == "app":
        assert play.returncode == 0, err
        assert "the sound output ran dry" in err and "stopped responding" not in err, err
        assert "The game begins" in out  # to the night's end
        assert "the app itself did not run for" in log, log
    else:
        assert play.returncode == 3, err
        assert re.fullmatch(rf"narrator: the night stopped at \S+: {OUTPUT_STALLED}\n", err), err
        assert "the watcher looked 0." in log, log  # it was awake: the output was dead
