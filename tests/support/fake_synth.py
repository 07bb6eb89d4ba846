"""A synthesizer without an engine, and short scripts to render with it.

Shared on purpose by the audio and session tests and by scripts/bench_sound (the
bed's figures): the fake stands in for a speech engine only where the speech itself
is not what is measured.
"""

from __future__ import annotations

import numpy as np

from narrator.audio.synth import Clip, Utterance, Voice
from narrator.script.model import Cue, Pause, Say, Script, Step
from tests.support.soundserver import RATE


class FakeSynth:
    """A synthesizer without an engine: a tone as long as the text, calls counted."""

    def __init__(self, sample_rate: int = RATE) -> None:
        self.sample_rate = sample_rate
        self.calls: list[Utterance] = []

    def key(self, line: Utterance) -> str:
        return f"fake|{line.lang}|{line.voice}|{line.rate}|{line.text}"

    def synthesize(self, line: Utterance) -> Clip:
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
