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

from typing import TYPE_CHECKING

from narrator.base.lazy import lazy_exports

if TYPE_CHECKING:
    from narrator.audio.devices import Device as Device
    from narrator.audio.devices import check_output as check_output
    from narrator.audio.devices import list_devices as list_devices
    from narrator.audio.engine import AudioEngine as AudioEngine
    from narrator.audio.mixer import Event as Event
    from narrator.audio.mixer import Timeline as Timeline
    from narrator.audio.player import Playback as Playback
    from narrator.audio.settings import AudioSettings as AudioSettings
    from narrator.audio.settings import AudioUnavailable as AudioUnavailable
    from narrator.audio.synth import Synthesizer as Synthesizer
    from narrator.audio.synth import Voice as Voice
    from narrator.audio.voices import list_voices as list_voices

# Loaded when first asked for, so that `narrator.audio.settings` -- plain
# values the session and the CLI build before any sound is made -- can be imported
# without numpy, scipy, soundfile or PortAudio coming in with the package.
__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "devices": ("Device", "check_output", "list_devices"),
        "engine": ("AudioEngine",),
        "mixer": ("Event", "Timeline"),
        "player": ("Playback",),
        "settings": ("AudioSettings", "AudioUnavailable"),
        "synth": ("Synthesizer", "Voice"),
        "voices": ("list_voices",),
    },
)
