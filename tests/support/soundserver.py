"""A private PulseAudio server with a null sink, and a recorder of its monitor.

Used by the tests (the `sound_server` fixture, tests/conftest.py) and by the
benches that play (scripts/bench, bench_first_word, bench_first_frame,
bench_italian). The server runs with its own XDG_RUNTIME_DIR, a null sink, and a
keepalive stream of silence into it (without one the sink idles, its monitor
records nothing and playback runs slow). It runs as root too (CI): `-n` skips the
default configuration and loads only the two modules we need.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SINK = "narrator_test"
RATE = 22050
TOOLS = ("pulseaudio", "pactl", "pacat", "parec")
WAKE = 2.0  # seconds: the sink's first seconds after the keepalive joins (or it wakes) stall


def missing_tools() -> list[str]:
    return [b for b in TOOLS if shutil.which(b) is None]


@dataclass
class SoundServer:
    env: dict[str, str]
    runtime: Path
    process: subprocess.Popen[bytes] | None = None  # the pulseaudio daemon (tests kill it)
    resting: bool = False  # the sink suspended (`rest`)

    def sink_inputs(self) -> list[str]:
        out = subprocess.run(
            ["pactl", "list", "sink-inputs", "short"],
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return [row for row in out.stdout.splitlines() if row.strip()]

    def rest(self, resting: bool) -> None:
        """Suspend the sink (`resting`) or wake it. A running null sink and its
        keepalive cost ~6 % of a core for as long as they run (the keepalive's 10 ms
        latency: the underrun tests need the sink that quick); a worker of the suite
        that goes on to tests that play nothing suspends its sink for them
        (tests/conftest.py). Waking waits as a start does: the sink's first seconds
        stall. A server that is gone (a test killed it) is left alone."""
        if resting == self.resting:
            return
        done = subprocess.run(
            ["pactl", "suspend-sink", SINK, "1" if resting else "0"],
            env=self.env,
            capture_output=True,
            check=False,
            timeout=10,
        )
        if done.returncode == 0:
            self.resting = resting
            if not resting:
                time.sleep(WAKE)

    def clients(self) -> int:
        """Connections to the server now (pactl's own included)."""
        out = subprocess.run(
            ["pactl", "list", "short", "clients"],
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
        return len([row for row in out.stdout.splitlines() if row.strip()])

    def record(self, path: Path) -> Recorder:
        return Recorder(self, path)


class Recorder:
    """Records the null sink's monitor as mono float32 at 22050 Hz into a file."""

    def __init__(self, server: SoundServer, path: Path) -> None:
        self.path = path
        self.proc = subprocess.Popen(
            [
                "parec",
                "-d",
                f"{SINK}.monitor",
                "--raw",
                "--format=float32le",
                "--channels=1",
                f"--rate={RATE}",
                "--latency-msec=20",
                str(path),
            ],
            env=server.env,
        )
        time.sleep(0.3)  # let the recorder connect before anything plays

    def stop(self) -> np.ndarray:
        time.sleep(0.3)
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return np.fromfile(self.path, dtype=np.float32)


def _wait_for_server(env: dict[str, str], proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"pulseaudio exited with {proc.returncode}")
        ok = subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0
        if ok:
            return
        time.sleep(0.1)
    raise RuntimeError("pulseaudio did not start within 15 s")


def _above_the_load(pid: int) -> None:
    """The server's main thread in real time, just under its sink's thread (which
    PulseAudio puts there itself). It moves every client's sound to the sink; under
    the suite's load (four workers, two cores) it went without the CPU long enough
    that a playing app's output stalled for 3 s, or a stream could not start -- never
    alone. Where that is not allowed (not root), it stays as it was."""
    with contextlib.suppress(OSError):
        os.sched_setscheduler(pid, os.SCHED_RR, os.sched_param(4))


@contextmanager
def sound_server(runtime: Path) -> Iterator[SoundServer]:
    """Start the server in `runtime`; while inside, this process plays into it too."""
    runtime.mkdir(parents=True, exist_ok=True)
    runtime.chmod(0o700)
    env = dict(os.environ)
    env.update(
        XDG_RUNTIME_DIR=str(runtime),
        PULSE_SERVER=f"unix:{runtime}/pulse/native",
        HOME=str(runtime),  # the server writes its cookie and state under $HOME
        PULSE_STATE_PATH=str(runtime / "state"),
    )
    server = subprocess.Popen(
        [
            "pulseaudio",
            "-n",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--disallow-exit",
            "--system=false",
            "--log-target=stderr",
            "--log-level=error",
            "-L",
            "module-native-protocol-unix auth-anonymous=1",
            "-L",
            f"module-null-sink sink_name={SINK} rate=44100",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    keepalive = None
    saved = {k: os.environ.get(k) for k in ("XDG_RUNTIME_DIR", "PULSE_SERVER")}
    try:
        _wait_for_server(env, server)
        _above_the_load(server.pid)
        subprocess.run(["pactl", "set-default-sink", SINK], env=env, check=True)
        keepalive = subprocess.Popen(
            ["pacat", "--playback", "-d", SINK, "--latency-msec=10", "/dev/zero"], env=env
        )
        time.sleep(WAKE)
        # PortAudio's ALSA "default" reaches PulseAudio through these variables.
        os.environ.update(XDG_RUNTIME_DIR=env["XDG_RUNTIME_DIR"], PULSE_SERVER=env["PULSE_SERVER"])
        yield SoundServer(env=env, runtime=runtime, process=server)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        for proc in (keepalive, server):
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
