"""The soak: the real app in tmux, real audio into the test sound server, night after
night. Used by tests/tui/test_soak.py (asserts) and scripts/bench (figures).

Each cycle is a night heard to its end, then a day: its calls, a timer with a spoken
warning and an end call -- five segments. After each day the app's sound-server
clients, open fds, threads and RSS are sampled, and the monitor is recorded for the
whole run so every night can be checked for sound.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from narrator.base.folders import user_dir
from narrator.rules import load_catalog
from tests.support.soundserver import RATE, SoundServer
from tests.support.tmux import NARRATOR, Tmux, app_logs, children, start_tmux

GAME = Path(__file__).with_name("soak.yaml")
SEGMENTS_PER_CYCLE = 5  # night; the day's calls, timer, warning, end call


@dataclass(frozen=True)
class Sample:
    night: int
    clients: int
    fds: int
    threads: int
    rss_kb: int


@dataclass
class Soak:
    samples: list[Sample] = field(default_factory=list)
    nights: list[tuple[float, float]] = field(default_factory=list)  # seconds into the recording
    recording: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    seconds: float = 0.0

    @property
    def segments(self) -> int:
        return len(self.nights) * SEGMENTS_PER_CYCLE

    def loudness(self) -> list[float]:
        """For each night, the share of its 0.25 s blocks with sound above -45 dBFS."""
        out = []
        block = RATE // 4
        for start, end in self.nights:
            part = self.recording[int(start * RATE) : int(end * RATE)]
            blocks = part[: len(part) // block * block].reshape(-1, block)
            if not len(blocks):
                out.append(0.0)
                continue
            loud = np.abs(blocks).max(axis=1) > 10 ** (-45 / 20)
            out.append(float(loud.mean()))
        return out


def sample(server: SoundServer, pid: int, night: int) -> Sample:
    status = Path(f"/proc/{pid}/status").read_text()
    threads = int(re.search(r"^Threads:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]
    rss = int(re.search(r"^VmRSS:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]
    fds = len(list(Path(f"/proc/{pid}/fd").iterdir()))
    return Sample(night, server.clients(), fds, threads, rss)


def settled(server: SoundServer, pid: int, night: int, like: Sample | None) -> Sample:
    """A sample once the app is at rest: the end call's stream closes a moment after
    the screen says so (longer on a busy machine). Its clients, fds and threads those
    of `like`, or without one unchanged for half a second; up to 15 s, then as they are."""

    def numbers(s: Sample) -> tuple[int, int, int]:
        return s.clients, s.fds, s.threads

    deadline = time.monotonic() + 15
    seen: list[Sample] = []
    while True:
        time.sleep(0.1)
        seen.append(sample(server, pid, night))
        if like is not None:
            done = numbers(seen[-1]) == numbers(like)
        else:
            done = len(seen) >= 6 and len({numbers(s) for s in seen[-6:]}) == 1
        if done or time.monotonic() > deadline:
            return seen[-1]


def install_game(rulesets: Path | None = None) -> None:
    """The soak's game as a user's ruleset: in `rulesets`, or in the user's folder as
    narrator finds it (`narrator.base.folders.user_dir`: a test's own, tests/conftest.py)."""
    folder = rulesets if rulesets is not None else user_dir()
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(GAME, folder / "soak.yaml")


def run_soak(server: SoundServer, work: Path, cycles: int = 7) -> Soak:
    config = work / "config" / "narrator"
    install_game(config / "rulesets")
    (config / "settings.json").write_text(json.dumps({"pace": 0.1}))
    position = sorted(load_catalog(config / "rulesets").rulesets).index("soak")
    env = {k: server.env[k] for k in ("PULSE_SERVER", "XDG_RUNTIME_DIR")}
    env["NARRATOR_AUDIO"] = "real"
    soak = Soak()
    began = time.monotonic()
    with start_tmux(work, env) as tmux:
        tmux.keys(str(NARRATOR), "Enter")
        tmux.wait_for(lambda t: "Choose the game" in t, timeout=30)
        (app,) = children(int(tmux("display-message", "-p", "-t", tmux.name, "#{pane_pid}")))
        tmux.keys(*["Down"] * position, "Enter")
        tmux.wait_for(lambda t: "Ready to play" in t)
        recorder = server.record(work / "monitor.raw")
        t0 = time.monotonic() - 0.3  # the recorder waits 0.3 s for parec to connect
        try:
            tmux.keys("Space")
            _soak(tmux, soak, server, app, t0, cycles)
        except AssertionError as failed:
            raise AssertionError(f"{failed}\n{app_logs(work)}") from None
        finally:
            soak.recording = recorder.stop()
    soak.seconds = time.monotonic() - began
    return soak


def _soak(tmux: Tmux, soak: Soak, server: SoundServer, app: int, t0: float, cycles: int) -> None:
    """The evening: each night heard through to its day, the app sampled after each."""
    for night in range(1, cycles + 1):
        tmux.wait_for(lambda t, n=night: f"Night {n} · Soak" in t, timeout=30)
        start = time.monotonic() - t0
        tmux.wait_for(lambda t, n=night: f"Day {n} · Soak" in t, timeout=60)
        soak.nights.append((start, time.monotonic() - t0))
        tmux.wait_for(lambda t, n=night: f"Press n for night {n + 1}" in t, timeout=60)
        first = soak.samples[0] if soak.samples else None
        soak.samples.append(settled(server, app, night, first))
        tmux.keys("n")
    tmux.keys("q")
    tmux.wait_for(lambda t: t.rstrip().endswith("READY$"), timeout=15)
