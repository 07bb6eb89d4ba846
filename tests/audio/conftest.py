"""Fixtures for the audio tests: a fake synthesizer and a sample night (the private
PulseAudio server, `sound_server`, is in tests/conftest.py: the app's tests use it too).

The server is real and started by the tests themselves; tests record its null
sink's monitor with `parec` and measure what was really played.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from narrator.audio.synth import Clip, Line, Voice
from narrator.script.model import Cue, Pause, Say, Script, Step
from tests.audio.soundserver import RATE


class FakeSynth:
    """A synthesizer without an engine: a tone as long as the text, calls counted."""

    def __init__(self, sample_rate: int = RATE) -> None:
        self.sample_rate = sample_rate
        self.calls: list[Line] = []

    def key(self, line: Line) -> str:
        return f"fake|{line.lang}|{line.voice}|{line.rate}|{line.text}"

    def synthesize(self, line: Line) -> Clip:
        self.calls.append(line)
        n = int(self.sample_rate * (0.2 + 0.02 * len(line.text)))
        t = np.arange(n) / self.sample_rate
        tone = 0.5 * np.sin(2 * np.pi * (200 + len(line.text)) * t)
        return Clip(tone.astype(np.float32), self.sample_rate)

    def voices(self) -> list[Voice]:
        return [Voice("fake/en", "Fake", ("en",))]

    def close(self) -> None:
        pass


def night(*steps: Step, lang: str = "en", phase: str = "night") -> Script:
    return Script("test", phase, 1, lang, 5, (("werewolf", 2),), tuple(steps))  # type: ignore[arg-type]


def sample_night() -> Script:
    """A short night with every kind of night step and pauses of several lengths."""
    return night(
        Say("Everyone, close your eyes."),
        Pause(0.25),
        Say("Werewolves, wake up.", role="werewolf"),
        Pause(1.0, role="werewolf"),
        Say("Werewolves, close your eyes.", role="werewolf"),
        Cue("chime"),
        Say("Seer, wake up.", role="seer"),
        Pause(0.5, role="seer"),
        Say("Seer, close your eyes.", role="seer"),
        Pause(2.0),
        Say("Everyone, wake up!"),
    )


@pytest.fixture(autouse=True)
def _default_output_buffer() -> Iterator[None]:
    """Each test starts with the default output buffer: one that underran under load
    must not hand its grown buffer (see player.OutputLatency) to the next test."""
    from narrator.audio.player import output_latency

    output_latency.reset()
    yield
    output_latency.reset()
