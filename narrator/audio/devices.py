"""Sound devices: what PortAudio offers, whether we can play at all, the microphones.

sounddevice is imported here, lazily, and its two failure modes (no PortAudio
library, no output device) become `AudioUnavailable` with the command that fixes
them, so the CLI can exit 3 with one line instead of a traceback. A device the user
named that is not there is their mistake, not the machine's: `UnknownDevice` (exit 2).

PortAudio and ALSA print their own diagnostics on fd 2 from their own threads
(`Expression '...' failed in 'src/hostapi/alsa/pa_linux_alsa.c'`, `ALSA lib pcm.c:
underrun occurred`): over a terminal app's screen, or as raw lines after a command's
one-line error. `route_native_messages()` sends fd 2 to a log file and gives Python's
`sys.stderr` (and `sys.__stderr__`, where Textual draws) a private copy of the
terminal: our own messages still reach the user, the libraries' go to the log.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import platformdirs

from narrator.audio.settings import NO_DEVICE, NO_MICROPHONE, NO_PORTAUDIO, AudioUnavailable
from narrator.base.errors import NarratorError

Kind = Literal["output", "input"]  # a device that plays, or one that records


@dataclass(frozen=True, slots=True)
class _Words:
    """How the messages name a kind of device."""

    none: str  # no device of the kind at all (AudioUnavailable)
    what: str  # the device
    able: str  # what it must be able to do
    listed: str  # the command that lists them


WORDS: dict[Kind, _Words] = {
    "output": _Words(NO_DEVICE, "output device", "play", "`narrator devices`"),
    "input": _Words(NO_MICROPHONE, "microphone", "record", "`narrator devices --microphones`"),
}


class UnknownDevice(NarratorError):
    """The device asked for (by index or name) is not there, or cannot do what it
    was named for (play, or record)."""


@dataclass(frozen=True, slots=True)
class Device:
    """A device as PortAudio numbers it (`channels`: of the kind it was listed for)."""

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


def list_devices(kind: Kind = "output") -> list[Device]:
    """Every device that can play (`kind` "output") or record ("input": a
    microphone), with the default marked."""
    sd = sounddevice()
    try:
        default = sd.default.device[0 if kind == "input" else 1]
        apis = [api["name"] for api in sd.query_hostapis()]
        found = []
        for info in sd.query_devices():
            if info[f"max_{kind}_channels"] > 0:
                found.append(
                    Device(
                        index=int(info["index"]),
                        name=str(info["name"]),
                        default=int(info["index"]) == default,
                        channels=int(info[f"max_{kind}_channels"]),
                        hostapi=str(apis[info["hostapi"]]),
                    )
                )
    except sd.PortAudioError as exc:
        raise AudioUnavailable(NO_DEVICE) from exc
    return found


def resolve_device(device: str | int | None, kind: Kind = "output") -> int:
    """The index of the device meant by `device` (index, name or part of it): one
    that plays (`kind` "output") or records ("input"). None: the default one."""
    sd = sounddevice()
    words = WORDS[kind]
    try:
        if device is None:
            info = sd.query_devices(kind=kind)
        else:
            key: str | int = int(device) if str(device).isdigit() else device
            info = sd.query_devices(key, kind=kind)
    except (ValueError, sd.PortAudioError) as exc:
        if device is None:
            raise AudioUnavailable(words.none) from exc
        raise UnknownDevice(
            f"no {words.what} {device!r}; see {words.listed} for the ones there are"
        ) from exc
    if not info or info[f"max_{kind}_channels"] < 1:
        if device is not None:
            raise UnknownDevice(
                f"device {device!r} cannot {words.able} sound; "
                f"see {words.listed} for the ones that can"
            )
        raise AudioUnavailable(words.none)
    return int(info["index"])


def check_output(device: str | int | None = None) -> str | None:
    """None when playback is possible, else a one-line reason."""
    try:
        resolve_device(device)
    except (AudioUnavailable, UnknownDevice) as exc:
        return str(exc)
    return None


LOG_LIMIT = 1_000_000  # bytes; a bigger log is started afresh (the old one kept as .1)
_routed: Path | None = None


def native_log_path() -> Path:
    """Where PortAudio's and ALSA's own messages go (XDG_STATE_HOME respected)."""
    return Path(platformdirs.user_state_dir("narrator")) / "audio.log"


def route_native_messages(log: Path | None = None) -> Path | None:
    """Point fd 2 at `log` (default `native_log_path()`) for the rest of the process,
    keeping `sys.stderr` on the terminal. Call it before PortAudio loads and before a
    terminal app starts. Idempotent; returns the log's path, or None when the log
    cannot be opened (then nothing changes: raw lines beat a crash)."""
    global _routed
    if _routed is not None:
        return _routed
    log = log or native_log_path()
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        if log.exists() and log.stat().st_size > LOG_LIMIT:
            os.replace(log, log.with_name(log.name + ".1"))
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError:
        return None
    terminal = sys.__stderr__ or sys.stderr
    if terminal is None:
        os.close(fd)
        return None
    terminal.flush()
    ours = os.dup(2)
    os.dup2(fd, 2)
    os.close(fd)
    stream = os.fdopen(
        ours,
        "w",
        buffering=1,
        encoding=getattr(terminal, "encoding", None) or "utf-8",
        errors="backslashreplace",
    )
    sys.stderr = stream
    sys.__stderr__ = stream  # type: ignore[misc]  # where Textual draws
    _routed = log
    return log
