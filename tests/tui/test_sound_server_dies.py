"""The app, when the sound server dies mid-night, stays on its night screen.

The real thing: the `narrator` app in tmux, real audio (`NARRATOR_AUDIO=real`) into
a private PulseAudio server of its own, which the test kills 5 s into the night.
From the terminal: the night screen stays, says in one plain line that the night
could not be played, offers Retry and Export, and never moves on to the day by
itself -- everyone at the table still has their eyes closed.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from narrator.audio.player import OUTPUT_LOST
from narrator.rules import load_catalog
from tests.support.soundserver import missing_tools, sound_server
from tests.support.tmux import NARRATOR, app_logs, start_tmux

pytestmark = [
    pytest.mark.audio,
    pytest.mark.realtime,  # starts a sound server of its own
    pytest.mark.skipif(bool(missing_tools()), reason="needs pulseaudio and pulseaudio-utils"),
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

FAILED = "The night could not be played: the sound output went away"


@pytest.mark.timeout(120)
def test_killing_the_sound_server_mid_night_keeps_the_night_screen_with_retry(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config" / "narrator"
    (config / "rulesets").mkdir(parents=True)
    position = sorted(load_catalog(config / "rulesets").rulesets).index("onuw")
    with sound_server(tmp_path / "pulse") as server:
        assert server.process is not None
        env = {k: server.env[k] for k in ("PULSE_SERVER", "XDG_RUNTIME_DIR")}
        env["NARRATOR_AUDIO"] = "real"
        with start_tmux(tmp_path, env) as tmux:
            tmux.keys(str(NARRATOR), "Enter")
            tmux.wait_for(lambda t: "Choose the game" in t, timeout=30)
            tmux.keys(*["Down"] * position, "Enter")
            tmux.wait_for(lambda t: "Ready to play" in t)
            tmux.keys("Space")
            tmux.wait_for(lambda t: "Night 1 ·" in t and "elapsed" in t, timeout=30)
            # The night is heard: its clock runs.
            tmux.wait_for(lambda t: "0:02 elapsed" in t, timeout=30)
            time.sleep(3)
            server.process.kill()
            server.process.wait()
            screen = tmux.wait_for(lambda t: FAILED in t, timeout=20)
            time.sleep(8)  # long past the night's end on the fallen clock: still here
            later = tmux.screen()
            lines = [line for line in later.splitlines() if "could not be played" in line]
            # ... and quit cleanly from there.
            tmux.keys("q")
    assert "Night 1 ·" in later, later
    assert "Day 1" not in later and "Discussion" not in later, later
    assert len(lines) == 1, later  # one plain line, no raw PortAudio/ALSA lines
    assert "Stopped · r to retry · e to export" in later, later
    assert "Retry" in later and "Export" in later, later  # the footer offers both
    assert "Expression" not in later and "pa_linux_alsa" not in later, later
    assert "Traceback" not in screen + later, later
    # The app's log says so too, with the same words.
    logs = app_logs(tmp_path)
    assert f"the night could not be played: {OUTPUT_LOST}" in logs, logs
