"""Audio: speak a script, keep the tapping bed going, play and export a night.

Everything the CLI and the TUI need is re-exported here. The layers below are a
`Synthesizer` (text -> samples, cached on disk), the tapping bed, a pure numpy
mixer (script -> one buffer and its events) and a PortAudio player; see each
module. The core (`narrator.rules`, `narrator.script`) never imports this package.

In short: `engine = AudioEngine(AudioSettings(...))`; `engine.prewarm()` when the
app starts (optional: the first `play()` then starts in ~20 ms); change settings
between nights with `engine.settings = ...`; `engine.play(script)` returns a
thread-safe `Playback`; `engine.render(script)` a `Timeline` (float32 mono samples
in -1..1 at 22050 Hz, `Event`s whose `start`/`end` are sample indexes; `to_dict()`
gives seconds, one event per say, pause, cue and timer step, with its `step` index).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from narrator.audio.devices import Device, check_output, list_devices
    from narrator.audio.engine import AudioEngine
    from narrator.audio.mixer import Event, Timeline
    from narrator.audio.player import Playback
    from narrator.audio.settings import AudioSettings, AudioUnavailable
    from narrator.audio.synth import Synthesizer, Voice
    from narrator.audio.voices import list_voices

# Loaded when first asked for (PEP 562), so that `narrator.audio.settings` -- plain
# values the session and the CLI build before any sound is made -- can be imported
# without numpy, scipy, soundfile or PortAudio coming in with the package.
_HOME = {
    "AudioEngine": "engine",
    "AudioSettings": "settings",
    "AudioUnavailable": "settings",
    "Device": "devices",
    "Event": "mixer",
    "Playback": "player",
    "Synthesizer": "synth",
    "Timeline": "mixer",
    "Voice": "synth",
    "check_output": "devices",
    "list_devices": "devices",
    "list_voices": "voices",
}
__all__ = [
    "AudioEngine",
    "AudioSettings",
    "AudioUnavailable",
    "Device",
    "Event",
    "Playback",
    "Synthesizer",
    "Timeline",
    "Voice",
    "check_output",
    "list_devices",
    "list_voices",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'narrator.audio' has no attribute {name!r}")
    return getattr(importlib.import_module(f"narrator.audio.{_HOME[name]}"), name)
