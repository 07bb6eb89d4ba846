"""The app's audio choices from the real audio layer (voices, beds, devices), for
the composition root (`narrator.compose.make_app`) to give the app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.tui.text import t

if TYPE_CHECKING:
    from narrator.audio.devices import Kind
    from narrator.audio.synth import Voice


def voice_label(voice: Voice) -> str:
    """A voice as the settings list it: name, engine, languages, sex, licence note."""
    parts = [voice.engine, ",".join(voice.languages), (voice.gender or "-").lower()]
    if voice.licence:
        parts.append(f"licence: {voice.licence}")
    return f"{voice.name} [{'; '.join(parts)}]"


class RealChoices:
    """Voices and devices from the audio layer; none when it cannot tell."""

    def __init__(self) -> None:
        self._voices: dict[str, list[tuple[str, str]]] = {}

    def voices(self, lang: str) -> list[tuple[str, str]]:
        if lang not in self._voices:  # each ask starts a speech process: once is enough
            try:
                from narrator.audio import list_voices

                self._voices[lang] = [
                    (v.id, voice_label(v)) for v in list_voices(lang) if v.engine != "voicepack"
                ]
            except Exception:
                return []
        return self._voices[lang] + self._packs(lang)

    @staticmethod
    def _packs(lang: str) -> list[tuple[str, str]]:
        """The voice packs of `lang`, read afresh (one recorded a minute ago is there)."""
        try:
            from narrator.audio.pack_voice import installed_pack_voices
            from narrator.audio.synth import speaks

            return [(v.id, v.name) for v in installed_pack_voices() if speaks(v, lang)]
        except Exception:
            return []

    def beds(self) -> list[tuple[str, str]]:
        try:
            from narrator.audio.ambience import AMBIENCES

            return [(name, name) for name in AMBIENCES]
        except Exception:
            return []

    def devices(self) -> list[tuple[str, str]]:
        return self._devices("output")

    def microphones(self) -> list[tuple[str, str]]:
        return self._devices("input")

    @staticmethod
    def _devices(kind: Kind) -> list[tuple[str, str]]:
        """Each device by its name and host API, as PortAudio matches it exactly
        (`name, API`): what is saved follows the device, where its index changes when
        another is plugged in or taken out."""
        try:
            from narrator.audio import list_devices

            return [
                (
                    f"{d.name}, {d.hostapi}",
                    t("{name} (default)").format(name=d.name) if d.default else d.name,
                )
                for d in list_devices(kind)
            ]
        except Exception:
            return []
