"""Build the app from the environment: real audio, or the silent stand-in.

`NARRATOR_AUDIO=fake` makes the app use `SilentEngine` (no sound library is loaded,
no device is touched): for tests that drive the real `narrator` command, and for
trying the app on a machine without speakers. Anything else uses the real
`narrator.audio.AudioEngine`, imported here and only here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from narrator.rules import load_catalog
from narrator.session.config import SettingsStore
from narrator.session.engine import AudioChoices, NightEngine, NoChoices, SilentEngine, SystemClock
from narrator.tui.app import NarratorApp

if TYPE_CHECKING:
    from narrator.audio.settings import AudioSettings


class RealChoices:
    """Voices and devices from the audio layer; none when it cannot tell."""

    def __init__(self) -> None:
        self._voices: dict[str, list[tuple[str, str]]] = {}

    def voices(self, lang: str) -> list[tuple[str, str]]:
        if lang not in self._voices:  # each ask starts a speech process: once is enough
            try:
                from narrator.audio import list_voices

                self._voices[lang] = [(v.id, v.name) for v in list_voices(lang)]
            except Exception:
                return []
        return self._voices[lang]

    def beds(self) -> list[tuple[str, str]]:
        try:
            from narrator.audio.ambience import AMBIENCES

            return [(name, name) for name in AMBIENCES]
        except Exception:
            return []

    def devices(self) -> list[tuple[str, str]]:
        try:
            from narrator.audio import list_devices

            return [
                (str(d.index), d.name + (" (default)" if d.default else "")) for d in list_devices()
            ]
        except Exception:
            return []


def make_app(environ: Mapping[str, str] | None = None) -> NarratorApp:
    env = os.environ if environ is None else environ
    store = SettingsStore()
    settings, notice = store.load()
    clock = SystemClock()
    engine: NightEngine
    choices: AudioChoices
    if env.get("NARRATOR_AUDIO", "").lower() == "fake":
        engine, choices = SilentEngine(clock=clock), NoChoices()
    else:
        from narrator.audio import AudioEngine

        real = AudioEngine(_placeholder())
        # sounddevice points fd 2 at /dev/null while PortAudio starts up (to hide
        # ALSA's chatter), and Textual draws on fd 2: PortAudio must be loaded here,
        # before the app draws, never in a thread beside it -- or the app loses
        # output (the alternate-screen switch among it). Checking the output loads it.
        real.check_output()
        real.prewarm()  # the speech worker starts now, so the first call is quick
        engine, choices = real, RealChoices()
    return NarratorApp(engine, store, settings, load_catalog(), clock, choices, notice)


def _placeholder() -> AudioSettings:
    # The app sets the engine's real settings on mount (from the user's file).
    from narrator.audio.settings import AudioSettings

    return AudioSettings()
