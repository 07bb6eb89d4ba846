"""The real `narrator` command in a real terminal (tmux): walk to the night, quit,
and find the terminal restored -- alternate screen off, cursor shown, the prompt back.

`NARRATOR_AUDIO=fake` keeps the sound device out of it (a silent engine).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.audio.soundserver import SoundServer

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

NARRATOR = Path(sys.executable).with_name("narrator")


class Tmux:
    def __init__(self, name: str, socket: Path) -> None:
        self.name = name
        self.base = ["tmux", "-S", str(socket)]

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            [*self.base, *args], capture_output=True, text=True, check=True, timeout=10
        )
        return done.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self("send-keys", "-t", self.name, *keys)

    def wait_for(self, found: Callable[[str], bool], timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            if found(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out; the terminal shows:\n{self.screen()}")


@contextmanager
def start_tmux(tmp_path: Path, extra: dict[str, str] | None = None) -> Iterator[Tmux]:
    """A tmux server of our own running a bare bash with `extra` in its environment."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "NARRATOR_AUDIO": "fake",
        "PS1": "READY$ ",
        **(extra or {}),
    }
    socket = tmp_path / "tmux.sock"
    session = Tmux("narrator-test", socket)
    subprocess.run(
        [
            "tmux",
            "-S",
            str(socket),
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            session.name,
            "-x",
            "100",
            "-y",
            "32",
            "env",
            "-i",
            *(f"{k}={v}" for k, v in env.items()),
            "bash",
            "--norc",
            "--noprofile",
        ],
        check=True,
        timeout=10,
    )
    try:
        session.wait_for(lambda t: "READY$" in t)
        yield session
    finally:
        subprocess.run([*session.base, "kill-server"], capture_output=True, timeout=10)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    with start_tmux(tmp_path) as session:
        yield session


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = (
        Path(f"/proc/{pid}/stat").read_text().split()[2] if Path(f"/proc/{pid}").exists() else "X"
    )
    return status not in ("Z", "X")


def test_walk_to_the_night_quit_and_the_terminal_is_restored(tmux: Tmux) -> None:
    tmux.keys(str(NARRATOR), "Enter")
    tmux.wait_for(lambda t: "Choose the game" in t and "One Night Ultimate Werewolf" in t)
    assert tmux("display-message", "-p", "-t", tmux.name, "#{alternate_on}").strip() == "1"
    assert tmux("display-message", "-p", "-t", tmux.name, "#{mouse_any_flag}").strip() == "1"
    tmux.keys("Down", "Down", "Enter")
    tmux.wait_for(lambda t: "5 players (3–10)" in t and "Ready to play" in t)
    tmux.keys("p")
    tmux.wait_for(lambda t: "Preview · night 1" in t)
    tmux.keys("Space")
    tmux.wait_for(lambda t: "Night 1 · One Night Ultimate Werewolf" in t)
    tmux.wait_for(lambda t: "Werewolves, wake up" in t or "Everyone, close your eyes" in t)
    tmux.keys("q")
    text = tmux.wait_for(lambda t: "Night 1" not in t and t.rstrip().endswith("READY$"))
    assert "narrator" in text.splitlines()[0]  # the command line is back on screen
    assert tmux("display-message", "-p", "-t", tmux.name, "#{alternate_on}").strip() == "0"
    assert tmux("display-message", "-p", "-t", tmux.name, "#{cursor_flag}").strip() == "1"
    assert tmux("display-message", "-p", "-t", tmux.name, "#{mouse_any_flag}").strip() == "0"
    tmux.keys("echo status=$?", "Enter")
    tmux.wait_for(lambda t: "status=0" in t)


@pytest.mark.audio
@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_a_signal_restores_the_terminal_and_ends_the_speech_worker(
    signal_name: str, sound_server: SoundServer, tmp_path: Path
) -> None:
    """The real app with real audio (its speech worker running) is sent SIGTERM or
    SIGHUP mid-night: the terminal is given back and every process is gone within 1 s."""
    server = {k: sound_server.env[k] for k in ("PULSE_SERVER", "XDG_RUNTIME_DIR")}
    with start_tmux(tmp_path, {**server, "NARRATOR_AUDIO": "real"}) as tmux:
        tmux.keys(str(NARRATOR), "Enter")
        tmux.wait_for(lambda t: "Choose the game" in t, timeout=30)
        shell = int(tmux("display-message", "-p", "-t", tmux.name, "#{pane_pid}").strip())
        (app,) = children(shell)
        deadline = time.monotonic() + 15
        while not children(app):  # the speech worker, started with the app
            assert time.monotonic() < deadline, "no speech worker"
            time.sleep(0.1)
        workers = children(app)
        tmux.keys("Down", "Down", "Enter")
        tmux.wait_for(lambda t: "Ready to play" in t)
        tmux.keys("Space")
        tmux.wait_for(lambda t: "Night 1 · One Night" in t, timeout=30)
        os.kill(app, getattr(signal, signal_name))
        started = time.monotonic()

        def restored() -> bool:
            return tmux("display-message", "-p", "-t", tmux.name, "#{alternate_on}").strip() == "0"

        while (any(alive(p) for p in workers) or not restored()) and time.monotonic() - started < 5:
            time.sleep(0.02)
        took = time.monotonic() - started
        assert took < 1.0, f"the terminal and the speech worker took {took:.2f} s"
        while alive(app) and time.monotonic() - started < 5:
            time.sleep(0.02)
        assert not alive(app), "the app still runs 5 s after the signal"
        tmux.wait_for(lambda t: t.rstrip().endswith("READY$"))
        assert tmux("display-message", "-p", "-t", tmux.name, "#{alternate_on}").strip() == "0"
        assert tmux("display-message", "-p", "-t", tmux.name, "#{cursor_flag}").strip() == "1"
        assert tmux("display-message", "-p", "-t", tmux.name, "#{mouse_any_flag}").strip() == "0"
        assert "Traceback" not in tmux.screen()
        tmux.keys("echo status=$?", "Enter")
        code = 128 + getattr(signal, signal_name)
        tmux.wait_for(lambda t: f"status={code}" in t)
