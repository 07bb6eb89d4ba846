"""Output devices: what PortAudio offers and whether we can play at all.

sounddevice is imported here, lazily, and its two failure modes (no PortAudio
library, no output device) become `AudioUnavailable` with the command that fixes
them, so the CLI can exit 3 with one line instead of a traceback. A device the user
named that is not there is their mistake, not the machine's: `UnknownDevice` (exit 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from narrator.audio.settings import NO_DEVICE, NO_PORTAUDIO, AudioUnavailable
from narrator.rules.errors import NarratorError


class UnknownDevice(NarratorError):
    """The output device asked for (by index or name) is not there."""


@dataclass(frozen=True, slots=True)
class Device:
    """An output device as PortAudio numbers it."""

    index: int
    name: str
    default: bool
    channels: int
    hostapi: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name,
            "default": self.default,
            "channels": self.channels,
            "hostapi": self.hostapi,
        }


def sounddevice() -> ModuleType:
    """The sounddevice module, or AudioUnavailable when PortAudio is missing."""
    try:
        import sounddevice as sd
    except OSError as exc:  # sounddevice raises OSError when libportaudio is absent
        raise AudioUnavailable(NO_PORTAUDIO) from exc
    module: ModuleType = sd
    return module


def list_devices() -> list[Device]:
    """Every device that can play, with the default marked."""
    sd = sounddevice()
    try:
        default_out = sd.default.device[1]
        apis = [api["name"] for api in sd.query_hostapis()]
        found = []
        for info in sd.query_devices():
            if info["max_output_channels"] > 0:
                found.append(
                    Device(
                        index=int(info["index"]),
                        name=str(info["name"]),
                        default=int(info["index"]) == default_out,
                        channels=int(info["max_output_channels"]),
                        hostapi=str(apis[info["hostapi"]]),
                    )
                )
    except sd.PortAudioError as exc:
        raise AudioUnavailable(NO_DEVICE) from exc
    return found


def resolve_device(device: str | int | None) -> int:
    """The index of the output device meant by `device` (index, name or part of it)."""
    sd = sounddevice()
    try:
        if device is None:
            info = sd.query_devices(kind="output")
        else:
            key: str | int = int(device) if str(device).isdigit() else device
            info = sd.query_devices(key, kind="output")
    except (ValueError, sd.PortAudioError) as exc:
        if device is None:
            raise AudioUnavailable(NO_DEVICE) from exc
        raise UnknownDevice(
            f"no output device {device!r}; see `narrator devices` for the ones there are"
        ) from exc
    if not info or info["max_output_channels"] < 1:
        if device is not None:
            raise UnknownDevice(
                f"device {device!r} cannot play sound; see `narrator devices` for the ones that can"
            )
        raise AudioUnavailable(NO_DEVICE)
    return int(info["index"])


def check_output(device: str | int | None = None) -> str | None:
    """None when playback is possible, else a one-line reason."""
    try:
        resolve_device(device)
    except (AudioUnavailable, UnknownDevice) as exc:
        return str(exc)
    return None
