"""The real `narrator` command in a real terminal (tmux): walk to the night, quit,
and find the terminal restored -- alternate screen off, cursor shown, the prompt back.

`NARRATOR_AUDIO=fake` keeps the sound device out of it (a silent engine).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.soundserver import SoundServer
from tests.support.tmux import NARRATOR, Tmux, alive, children, start_tmux

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    with start_tmux(tmp_path) as session:
        yield session


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


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


# Real-time (the app plays into the sound server), not a timing test: the 15 s bound
# below is a hang guard, so it runs beside the others, not in the `timing` group.
@pytest.mark.audio
@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_a_signal_restores_the_terminal_and_ends_the_speech_worker(
    signal_name: str, sound_server: SoundServer, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The real app with real audio (its speech workers running: espeak-ng's, and the
    night's voice's) is sent SIGTERM or SIGHUP mid-night: the terminal is given back
    and every process is gone within 1 s."""
    server = {k: sound_server.env[k] for k in ("PULSE_SERVER", "XDG_RUNTIME_DIR")}
    with start_tmux(tmp_path, {**server, "NARRATOR_AUDIO": "real"}) as tmux:
        tmux.keys(str(NARRATOR), "Enter")
        tmux.wait_for(lambda t: "Choose the game" in t, timeout=30)
        shell = int(tmux("display-message", "-p", "-t", tmux.name, "#{pane_pid}").strip())
        (app,) = children(shell)
        # If an assertion fails with the app still running, it must not outlive the
        # test (an orphan app spinning on a closed terminal slows every test after it).
        request.addfinalizer(lambda: _kill_if_alive([app, *children(app)]))
        deadline = time.monotonic() + 15
        while not children(app):  # the speech worker, started with the app
            assert time.monotonic() < deadline, "no speech worker"
            time.sleep(0.1)
        workers = children(app)
        tmux.keys("Down", "Down", "Enter")
        tmux.wait_for(lambda t: "Ready to play" in t)
        tmux.keys("Space")
        tmux.wait_for(lambda t: "Night 1 · One Night" in t, timeout=30)
        if importlib.util.find_spec("hibari") is not None:
            # English speaks with heart, in a worker of its own started with the night:
            # it must go as well
            while not any("_hibari_worker" in _command(p) for p in children(app)):
                assert time.monotonic() < deadline + 15, "no worker for the night's voice"
                time.sleep(0.05)
            workers = children(app)
            assert len(workers) == 2, workers
        os.kill(app, getattr(signal, signal_name))
        started = time.monotonic()

        def restored() -> bool:
            return tmux("display-message", "-p", "-t", tmux.name, "#{alternate_on}").strip() == "0"

        def gone() -> bool:
            return restored() and not any(alive(p) for p in workers)

        while not gone() and time.monotonic() - started < 15:
            time.sleep(0.02)
        took = time.monotonic() - started
        # Promptly, never a hang: under 1 s on a quiet machine (about 0.1 s measured);
        # the bound is a hang guard, as a test's time is the machine's (STYLE: figures
        # go to the bench, not to timed assertions).
        assert took < 15.0, f"the terminal and the speech worker took {took:.2f} s"
        while alive(app) and time.monotonic() - started < 15:
            time.sleep(0.02)
        assert not alive(app), "the app still runs 15 s after the signal"
        tmux.wait_for(lambda t: t.rstrip().endswith("READY$"))
        assert tmux("display-message", "-p", "-t", tmux.name, "#{alternate_on}").strip() == "0"
        assert tmux("display-message", "-p", "-t", tmux.name, "#{cursor_flag}").strip() == "1"
        assert tmux("display-message", "-p", "-t", tmux.name, "#{mouse_any_flag}").strip() == "0"
        assert "Traceback" not in tmux.screen()
        tmux.keys("echo status=$?", "Enter")
        code = 128 + getattr(signal, signal_name)
        tmux.wait_for(lambda t: f"status={code}" in t)


def _kill_if_alive(pids: list[int]) -> None:
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
