"""How the real app is put together before it draws anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _python(code: str, config: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh Python with its own config folder; its stderr on failure."""
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CONFIG_HOME": str(config), **env},
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return run


def test_portaudio_is_loaded_before_the_app_draws(tmp_path: Path) -> None:
    # sounddevice silences fd 2 while PortAudio initialises, and Textual draws on
    # fd 2: if PortAudio were first loaded by a worker while the app runs, screen
    # output would be lost (seen as an app drawn over the shell in tmux).
    probe = (
        "import sys\n"
        "from narrator.compose import make_app\n"
        "assert 'sounddevice' not in sys.modules\n"
        "app = make_app({})\n"
        "print('sounddevice' in sys.modules, type(app.engine).__name__)\n"
        "app.engine.close()\n"
    )
    run = _python(probe, tmp_path, XDG_CACHE_HOME=str(tmp_path))
    assert run.stdout.split() == ["True", "AudioEngine"]


def test_fake_audio_loads_no_sound_library(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from narrator.compose import make_app\n"
        "app = make_app({'NARRATOR_AUDIO': 'fake'})\n"
        "print(sorted(m for m in ('sounddevice', 'soundfile', 'numpy') if m in sys.modules))\n"
    )
    assert _python(probe, tmp_path).stdout.strip() == "[]"


def test_the_app_is_built_without_the_web_server_installed(tmp_path: Path) -> None:
    """With aiohttp not importable, the composition root gives the app no table
    factory (the app then says "Table mode unavailable") and nothing imports it."""
    probe = (
        "import sys\n"
        "class Gone:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'aiohttp':\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Gone())\n"
        "from narrator.compose import make_app\n"
        "app = make_app({'NARRATOR_AUDIO': 'fake'})\n"
        "print(app.tables is None, 'aiohttp' in sys.modules, 'narrator.table' in sys.modules)\n"
    )
    assert _python(probe, tmp_path).stdout.split() == ["True", "False", "False"]
