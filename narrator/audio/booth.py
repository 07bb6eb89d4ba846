"""The recording booth: a microphone to record takes from, a speaker to hear them back.

`Booth` is the contract the app's recording screen relies on (its workers call it;
the screen never does): `record` records from the moment it is called until `stop`
is set (or `recording.MAX_TAKE` seconds), reporting the level about twenty times a
second, and returns the take as recorded; `play` plays a take and returns once it
has been heard, or at once when `stop` is set. Both raise `AudioUnavailable` (one
line) when the machine cannot: no microphone, no output, a stream that died.

`DeviceBooth` is PortAudio's default input (with PulseAudio, the default source)
and the app's output device, played through the night's own player. `SimulatedBooth`
is `NARRATOR_AUDIO=fake`'s: no device is touched, a take is a synthetic voice of
the line's length (or silence, when told). Both pass the same contract tests
(`tests/audio/test_booth.py`, the real one through a PulseAudio source).
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from narrator.audio.recording import MAX_TAKE
from narrator.audio.settings import NO_MICROPHONE, AudioUnavailable
from narrator.audio.synth import Clip, Samples
from narrator.i18n import N_

Level = Callable[[float], None]  # the level of the last block, in dBFS (-inf: silence)
BLOCK = 0.05  # seconds per block (and per level reported)
STALL = 3.0  # seconds without a block from the microphone: it is gone
MICROPHONE_LOST = N_(
    "the microphone stopped sending sound (unplugged, or the sound server stopped)"
)


class Booth(Protocol):
    """Records takes and plays them back; thread-safe, called from workers."""

    def record(self, stop: threading.Event, level: Level) -> Clip: ...

    def play(self, clip: Clip, stop: threading.Event) -> None: ...


def block_level(block: Samples) -> float:
    """The loudest sample of `block`, in dBFS."""
    peak = float(np.max(np.abs(block), initial=0.0))
    return 20 * math.log10(peak) if peak > 0 else float("-inf")


def _joined(blocks: list[Samples]) -> Samples:
    if not blocks:
        return np.zeros(0, np.float32)
    return np.ascontiguousarray(np.concatenate(blocks), np.float32)


@dataclass
class DeviceBooth:
    """The `microphone` and the output `device`, each by index or name (None: the
    default one)."""

    device: str | int | None = None
    microphone: str | int | None = None

    def record(self, stop: threading.Event, level: Level) -> Clip:
        from narrator.audio.devices import resolve_device, sounddevice

        sd = sounddevice()
        microphone = resolve_device(self.microphone, "input")
        try:
            rate = int(sd.query_devices(microphone)["default_samplerate"])
        except (ValueError, sd.PortAudioError) as exc:
            raise AudioUnavailable(NO_MICROPHONE) from exc
        blocks: queue.Queue[Samples] = queue.Queue()

        def heard(indata: np.ndarray, frames: int, time_info: object, status: object) -> None:
            blocks.put(np.array(indata[:, 0], np.float32))

        taken: list[Samples] = []
        limit = round(MAX_TAKE * rate)
        try:
            stream = sd.InputStream(
                samplerate=rate,
                channels=1,
                dtype="float32",
                device=microphone,
                blocksize=round(BLOCK * rate),
                callback=heard,
            )
        except (ValueError, sd.PortAudioError) as exc:
            raise AudioUnavailable(f"{NO_MICROPHONE} ({exc})") from exc
        with stream:
            last = time.monotonic()
            while not stop.is_set() and sum(map(len, taken)) < limit:
                try:
                    block = blocks.get(timeout=0.1)
                except queue.Empty:
                    if time.monotonic() - last > STALL:
                        raise AudioUnavailable(MICROPHONE_LOST) from None
                    continue
                last = time.monotonic()
                taken.append(block)
                level(block_level(block))
        while not blocks.empty():  # what the stream had already heard when stopped
            taken.append(blocks.get_nowait())
        return Clip(_joined(taken)[:limit], rate)

    def play(self, clip: Clip, stop: threading.Event) -> None:
        from narrator.audio.devices import resolve_device
        from narrator.audio.mixer import SAMPLE_RATE, MixBuilder, to_rate
        from narrator.audio.player import Playback, open_output
        from narrator.script.model import Say

        mix = MixBuilder(SAMPLE_RATE)
        mix.add(0, Say(""), [to_rate(clip, SAMPLE_RATE)])
        mix.finish()
        playback = Playback(mix, open_output(resolve_device(self.device), SAMPLE_RATE), SAMPLE_RATE)
        try:
            playback.start()
            while not playback.wait(0.05):
                if stop.is_set():
                    break
            if playback.error:
                raise AudioUnavailable(playback.error)
        finally:
            playback.close()


@dataclass
class SimulatedBooth:
    """A booth with no device: a take is `speech` seconds of a synthetic voice (a
    vowel-like tone swelling three times a second) after a moment of room
    noise, then room noise until stopped; `speech` 0 records the room alone. Takes
    and playbacks last as long as they would at a real booth."""

    speech: float = 1.6
    rate: int = 16000
    loudness: float = 0.3  # the voice's peak, 0..1

    def _voice(self, start: int, n: int) -> Samples:
        t = (start + np.arange(n)) / self.rate
        onset = 0.3
        envelope = 0.6 + 0.4 * np.sin(2 * np.pi * 3.0 * (t - onset))  # syllables
        envelope = envelope * ((t >= onset) & (t < onset + self.speech))
        tone = sum(np.sin(2 * np.pi * f * t) / k for k, f in enumerate((180, 360, 540, 720), 1))
        noise = np.random.default_rng(start).normal(0.0, 3e-4, n)
        return np.asarray(self.loudness * 0.55 * envelope * tone + noise, np.float32)

    def record(self, stop: threading.Event, level: Level) -> Clip:
        size = round(BLOCK * self.rate)
        taken: list[Samples] = []
        at, limit = 0, round(MAX_TAKE * self.rate)
        while not stop.wait(BLOCK) and at < limit:
            block = self._voice(at, size)
            taken.append(block)
            at += size
            level(block_level(block))
        return Clip(_joined(taken), self.rate)

    def play(self, clip: Clip, stop: threading.Event) -> None:
        stop.wait(clip.seconds)
