"""A real microphone for the tests: the private sound server's null sink, heard through
its monitor as the default source, fed with prepared speech (espeak-ng's, rendered to
files and played into the sink with `paplay`)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import soundfile as sf

from narrator.audio.synth import EspeakSynthesizer, Utterance
from tests.support.soundserver import SINK, SoundServer

SPOKEN_AT = 0.5  # the prepared speech's level: a voice well under the microphone's ceiling


def listen_to_the_sink(server: SoundServer) -> None:
    """Make the null sink's monitor the default source: PortAudio's default input."""
    subprocess.run(
        ["pactl", "set-default-source", f"{SINK}.monitor"], env=server.env, check=True, timeout=10
    )


def prepared_speech(
    texts: Iterable[str], lang: str, folder: Path, rate: int = 140
) -> dict[str, Path]:
    """Each text as espeak-ng says it (at `rate` words a minute), in a WAV file of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    speech = EspeakSynthesizer()
    files = {}
    try:
        for n, text in enumerate(dict.fromkeys(texts)):
            clip = speech.synthesize(Utterance(text, lang, lang, rate))
            path = folder / f"{n:03}.wav"
            sf.write(path, np.asarray(clip.samples * SPOKEN_AT, np.float32), clip.sample_rate)
            files[text] = path
    finally:
        speech.close()
    return files


def say_into_the_sink(server: SoundServer, path: Path) -> None:
    """Play `path` into the null sink; returns once it has been played."""
    subprocess.run(["paplay", "-d", SINK, str(path)], env=server.env, check=True, timeout=60)
