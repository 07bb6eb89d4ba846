"""A whole evening in two minutes: the real app, real audio, 35 segments in a row.

Nights, day calls, timer warnings and end calls, one after another at a fast pace,
into the test sound server. After the first night nothing grows: the app's
sound-server clients, open fds and threads are the same after every day; its RSS,
once the evening's every kind of segment has played (two cycles: the second
night's own calls load once, ~5 MB), grows by less than 3 MB over the five cycles
after; and every night was heard (recorded from the monitor).
The figures go to scripts/bench and docs/PERFORMANCE.md.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.soak import run_soak
from tests.support.soundserver import SoundServer

pytestmark = [
    pytest.mark.slow,
    pytest.mark.audio,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.mark.timeout(400)
def test_a_long_evening_stays_flat_and_every_night_is_heard(
    sound_server: SoundServer, tmp_path: Path
) -> None:
    soak = run_soak(sound_server, tmp_path, cycles=7)
    assert soak.segments >= 30
    first, *rest = soak.samples
    for later in rest:
        assert (later.clients, later.fds, later.threads) == (
            first.clients,
            first.fds,
            first.threads,
        ), soak.samples
    steady = soak.samples[1]  # every kind of segment has played once
    growth = (soak.samples[-1].rss_kb - steady.rss_kb) / 1024
    nights = len(soak.samples) - 2
    assert growth < 3.0, f"RSS grew {growth:.1f} MB over {nights} nights: {soak.samples}"
    heard = soak.loudness()
    assert all(share > 0.6 for share in heard), f"a night went unheard: {heard}"
