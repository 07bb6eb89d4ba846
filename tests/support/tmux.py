"""The real `narrator` command in a tmux terminal of its own, and its processes.

Used by the terminal tests (tests/tui/test_terminal.py, test_sound_server_dies.py)
and by the soak (tests/support/soak.py: its test and scripts/bench).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

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


def app_logs(tmp_path: Path, lines: int = 20) -> str:
    """The end of each log of the app `start_tmux(tmp_path)` ran: narrator's own and
    the one PortAudio's and ALSA's messages go to -- or why there is none."""
    out = []
    for name in ("narrator.log", "audio.log"):
        path = tmp_path / "state" / "narrator" / name
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            out.append(f"{name}: (none: {exc.strerror})")
            continue
        out.append(f"{name} ends:\n" + "\n".join(text.splitlines()[-lines:]))
    return "\n".join(out)


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
        "XDG_STATE_HOME": str(tmp_path / "state"),  # the app's logs: `app_logs`
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


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not). It may end while it is looked at: its
    /proc files then answer ESRCH (ProcessLookupError) or are gone."""
    try:
        os.kill(pid, 0)
        status = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:  # ProcessLookupError, FileNotFoundError: ended meanwhile
        return False
    return status not in ("Z", "X")
