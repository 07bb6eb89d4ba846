"""Fixtures for the audio tests (the fake synthesizer and the sample night are in
tests/support/fake_synth.py; the private PulseAudio server, `sound_server`, is in
tests/conftest.py: the app's tests use it too).

The server is real and started by the tests themselves; tests record its null
sink's monitor with `parec` and measure what was really played.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _default_output_buffer() -> Iterator[None]:
    """Each test starts with the default output buffer: one that underran under load
    must not hand its grown buffer (see player.OutputLatency) to the next test."""
    from narrator.audio.player import output_latency

    output_latency.reset()
    yield
    output_latency.reset()
