"""Fixtures shared by every test: a private home for each test, and the test sound server.

Every test runs with its own HOME and XDG config, cache and data folders, so no
test reads the developer's settings or rulesets (a user `onuw.yaml` must not change
a result) and none writes into them. Only the rendered speech is shared, through
one cache folder for the whole run: it depends on nothing but the text, voice and
rate, and re-synthesising every line in every test would cost minutes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.audio.soundserver import SoundServer, missing_tools
from tests.audio.soundserver import sound_server as start_sound_server


@pytest.fixture(scope="session")
def _speech_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("speech-cache")


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, _speech_cache: Path
) -> Path:
    home = tmp_path_factory.mktemp("home")
    for name, folder in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_DATA_HOME", "data"),
    ):
        (home / folder).mkdir()
        monkeypatch.setenv(name, str(home / folder))
    (home / "cache" / "narrator").mkdir()
    (home / "cache" / "narrator" / "speech").symlink_to(_speech_cache)
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture(scope="session")
def sound_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SoundServer]:
    """A private PulseAudio server with a null sink (see tests/audio/soundserver.py),
    started once for the whole session; everything in this process plays into it."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"no {', '.join(missing)}: apt-get install pulseaudio pulseaudio-utils")
    with start_sound_server(tmp_path_factory.mktemp("pulse")) as server:
        yield server


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody may write in -- root included (chattr +i), as a locked-down
    config folder or a read-only mount is."""
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "settings.json").write_bytes(b"{oops")
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: cannot make a folder read-only")
        done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i is not supported here: {done.stderr.decode().strip()}")
        try:
            yield folder
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
