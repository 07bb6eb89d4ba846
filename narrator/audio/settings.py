"""The user's audio choices and the one error that means "this machine cannot".

Both are plain values with no audio imports, so the CLI and the TUI can build
settings and catch `AudioUnavailable` before any sound library has been loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.base.errors import MissingPart
from narrator.i18n import N_

# Words per minute per language, a little slower than espeak's 175: the table has
# its eyes closed and the calls must be understood the first time.
DEFAULT_RATES = {"en": 150, "it": 150, "fa": 140}
DEFAULT_RATE = 150
# The bed's continuous layer (narrator/audio/ambience.py holds them all).
DEFAULT_AMBIENCE = "rain"
# The bed's and the voice's levels: the one default, for the engine, the mixer and
# the user's settings file alike.
DEFAULT_BED_VOLUME = 0.35
DEFAULT_BED_TEMPO = 1.0
DEFAULT_VOLUME = 1.0


@dataclass(frozen=True, slots=True)
class AudioSettings:
    """How a night sounds and where it plays.

    `voice` None means the default voice of the script's language (`voice_for`); `rate` None a
    per-language default (`DEFAULT_RATES`). `ambience` names the bed's continuous
    layer under the taps (`narrator beds` lists them). `bed_volume` and `volume`
    are linear gains 0..1; `bed_tempo` multiplies the density of the taps. `device` is a
    PortAudio output device, by index or by (part of its) name; None is the default.
    """

    voice: str | None = None
    rate: int | None = None
    bed: bool = True
    ambience: str = DEFAULT_AMBIENCE
    bed_volume: float = DEFAULT_BED_VOLUME
    bed_tempo: float = DEFAULT_BED_TEMPO
    volume: float = DEFAULT_VOLUME
    device: str | int | None = None

    def rate_for(self, lang: str) -> int:
        if self.rate is not None:
            return self.rate
        return DEFAULT_RATES.get(lang.split("-")[0], DEFAULT_RATE)

    def voice_for(self, lang: str) -> str:
        """The chosen voice, else the language's default: a packaged neural voice when
        one speaking `lang` is installed (the `voices` extra), else the language code,
        which espeak-ng takes as a voice name."""
        if self.voice:
            return self.voice
        from narrator.audio.packaged import default_voice

        return default_voice(lang)


class AudioUnavailable(MissingPart):
    """Speech or playback is impossible here. `str()` is one line: what is missing
    and the command that installs it. The CLI prints it and exits 3 (as it does
    for every `MissingPart`)."""


# Messages of the catalogue (marked N_): the app shows them in its language.
NO_PORTAUDIO = N_("no PortAudio library: install it with `apt-get install libportaudio2`")
NO_DEVICE = N_(
    "no audio output device: start a sound server with "
    "`apt-get install pulseaudio && pulseaudio --start`"
)
NO_MICROPHONE = N_(
    "no microphone: plug one in, and choose it in the settings (Microphone) or, with "
    "PulseAudio, as the default source: `pactl set-default-source NAME`"
)
NO_SPEECH = N_(
    "no speech engine: install it with `pip install espeakng-loader` or `apt-get install espeak-ng`"
)
