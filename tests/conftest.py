"""Fixtures shared by the audio tests and the app's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.audio.soundserver import SoundServer, missing_tools
from tests.audio.soundserver import sound_server as start_sound_server


@pytest.fixture(scope="session")
def sound_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SoundServer]:
    """A private PulseAudio server with a null sink (see tests/audio/soundserver.py),
    started once for the whole session; everything in this process plays into it."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"no {', '.join(missing)}: apt-get install pulseaudio pulseaudio-utils")
    with start_sound_server(tmp_path_factory.mktemp("pulse")) as server:
        yield server
