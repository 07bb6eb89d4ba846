"""How the real app is put together before it draws anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_portaudio_is_loaded_before_the_app_draws(tmp_path: Path) -> None:
    # sounddevice silences fd 2 while PortAudio initialises, and Textual draws on
    # fd 2: if PortAudio were first loaded by a worker while the app runs, screen
    # output would be lost (seen as an app drawn over the shell in tmux).
    probe = (
        "import sys\n"
        "from narrator.tui.launch import make_app\n"
        "assert 'sounddevice' not in sys.modules\n"
        "app = make_app({})\n"
        "print('sounddevice' in sys.modules, type(app.engine).__name__)\n"
        "app.engine.close()\n"
    )
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert run.stdout.split() == ["True", "AudioEngine"]


def test_fake_audio_loads_no_sound_library(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from narrator.tui.launch import make_app\n"
        "app = make_app({'NARRATOR_AUDIO': 'fake'})\n"
        "print(sorted(m for m in ('sounddevice', 'soundfile', 'numpy') if m in sys.modules))\n"
    )
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert run.stdout.strip() == "[]"
