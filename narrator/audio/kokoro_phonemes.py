"""Kokoro's input: a line's text as espeak-ng's IPA, in the symbols Kokoro was trained on.

Kokoro-82M reads phonemes, not letters. Its own pipeline gets them from misaki, which
for Italian (and every language but English, Japanese and Chinese) asks espeak-ng and
maps what it says onto Kokoro's symbols; for English, misaki's lexicon falls back on
espeak-ng the same way. narrator asks espeak-ng directly: the libespeak-ng that the
`espeakng-loader` wheel already ships, through ctypes (`Espeak`), with no `phonemizer`
(GPL) and no `kokoro-onnx`. The mappings below are misaki's (`misaki/espeak.py`,
Apache-2.0), written again as data.

espeak-ng drops punctuation, and Kokoro pauses and shapes its intonation on it: the
text is cut at punctuation (`chunks`), each stretch of words is phonemised alone, and
the marks are put back between them. Persian's comma, semicolon and question mark are
read as Latin ones first (Kokoro knows only those). A symbol Kokoro does not know is
dropped (`tokens`), as Kokoro's own tokenizer does.

Standard library only: the worker (`_kokoro_worker.py`) imports it, and so can a test
without onnxruntime.
"""

from __future__ import annotations

import ctypes
import json
import re
from collections.abc import Iterator
from pathlib import Path

DATA = Path(__file__).with_name("kokoro")
MAX_TOKENS = 510  # a line's tokens, pads aside: the voice vectors have a row per length

# The marks Kokoro reads (kokoro-js and kokoro-onnx cut at the same set), with the
# spaces around them: one run of marks is one pause.
PUNCTUATION = re.compile(r'(?:\s*[;:,.!?¡¿—…"«»“”(){}\[\]]+\s*)+')
# Persian's own marks and the typographic ones, as the Latin marks Kokoro knows.
MARKS = str.maketrans({"،": ",", "؛": ";", "؟": "?", "‘": "'", "’": "'", "«": "“", "»": "”"})
TIE = "^"
# espeak_TextToPhonemes's phoneme mode: bit 1 IPA; bit 7 with bits 8-23 a tie character
# inside every multi-letter phoneme ("t^ʃ"), so the pairs below can be found.
IPA_WITH_TIE = 0x02 | 0x80 | (ord(TIE) << 8)
LANGUAGE_FLAG = re.compile(r"\([a-z]{2,3}(?:-[a-z0-9]+)*\)")  # espeak's "(en)" switches
FILES = {"en-gb": "en"}  # espeak-ng's British English is the voice file "en"

# misaki's EspeakG2P: espeak-ng's tied pairs as Kokoro's one-symbol phonemes.
TIED = {
    "a^ɪ": "I",
    "a^ʊ": "W",
    "d^z": "ʣ",
    "d^ʒ": "ʤ",
    "e^ɪ": "A",
    "o^ʊ": "O",
    "ə^ʊ": "Q",
    "s^s": "S",
    "t^s": "ʦ",
    "t^ʃ": "ʧ",
    "ɔ^ɪ": "Y",
}
# misaki's EspeakFallback (English): the same pairs and English's other differences,
# longest first, after the American or British vowels below.
ENGLISH = sorted(
    {
        "ʔˌn\u0329": "tn",
        "ʔn\u0329": "tn",
        "ʔn": "tn",
        "ʔ": "t",
        "a^ɪ": "I",
        "a^ʊ": "W",
        "d^ʒ": "ʤ",
        "e^ɪ": "A",
        "e": "A",
        "t^ʃ": "ʧ",
        "ɔ^ɪ": "Y",
        "ə^l": "ᵊl",
        "ʲo": "jo",
        "ʲə": "jə",
        "ʲ": "",
        "ɚ": "əɹ",
        "r": "ɹ",
        "x": "k",
        "ç": "k",
        "ɐ": "ə",
        "ɬ": "l",
        "\u0303": "",
    }.items(),
    key=lambda pair: -len(pair[0]),
)
BRITISH = (("e^ə", "ɛː"), ("iə", "ɪə"), ("ə^ʊ", "Q"))
AMERICAN = (("o^ʊ", "O"), ("ɜːɹ", "ɜɹ"), ("ɜː", "ɜɹ"), ("ɪə", "iə"), ("ː", ""))


def load_vocab(path: Path = DATA / "vocab.json") -> dict[str, int]:
    """Kokoro's phoneme-to-token map (its config.json's "vocab"; see that file)."""
    vocab: dict[str, int] = json.loads(path.read_text(encoding="utf-8"))["vocab"]
    return vocab


def espeak_voice(lang: str, voice: str) -> str:
    """The espeak-ng voice whose reading a Kokoro voice speaks a line of `lang` with:
    English as the voice's own accent (Kokoro's "a" voices American, "b" British),
    every other language as itself (a borrowed voice speaks it with an accent)."""
    base = lang.split("-")[0].lower()
    if base == "en":
        return "en-gb" if voice.startswith("b") else "en-us"
    return base


def chunks(text: str) -> Iterator[tuple[str, bool]]:
    """`text` as runs of words and runs of punctuation, in order: (run, is_marks)."""
    at = 0
    for found in PUNCTUATION.finditer(text):
        if found.start() > at:
            yield text[at : found.start()], False
        yield found.group(), True
        at = found.end()
    if at < len(text):
        yield text[at:], False


class Espeak:
    """libespeak-ng through ctypes, for its IPA only (nothing is spoken here)."""

    def __init__(self, library: str, data: str) -> None:
        lib = ctypes.CDLL(library)
        lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.espeak_Initialize.restype = ctypes.c_int
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_SetVoiceByName.restype = ctypes.c_int
        lib.espeak_TextToPhonemes.argtypes = [
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_int,
            ctypes.c_int,
        ]
        lib.espeak_TextToPhonemes.restype = ctypes.c_char_p
        # AUDIO_OUTPUT_RETRIEVAL (1): no sound device is ever opened.
        if lib.espeak_Initialize(1, 0, data.encode("utf-8"), 0) <= 0:
            raise RuntimeError(f"libespeak-ng did not start (data in {data})")
        self._lib = lib
        self._voice: str | None = None

    def ipa(self, text: str, voice: str) -> str:
        """espeak-ng's IPA for `text` read by `voice`, multi-letter phonemes tied by
        `TIE`, stress marks kept; clause by clause, joined by spaces."""
        if voice != self._voice:
            name = FILES.get(voice, voice)
            if self._lib.espeak_SetVoiceByName(name.encode("utf-8")) != 0:
                raise ValueError(f"espeak-ng has no voice {voice!r}")
            self._voice = voice
        buffer = ctypes.c_char_p(text.encode("utf-8"))
        pointer = ctypes.pointer(buffer)
        clauses = []
        while pointer.contents.value:
            said = self._lib.espeak_TextToPhonemes(pointer, 1, IPA_WITH_TIE)  # 1: UTF-8
            clauses.append((said or b"").decode("utf-8").strip())
        return LANGUAGE_FLAG.sub("", " ".join(c for c in clauses if c))


def kokoro_symbols(ipa: str, espeak: str) -> str:
    """espeak-ng's tied IPA (from the espeak voice `espeak`) in Kokoro's symbols."""
    if espeak.startswith("en"):
        # The accent's vowels first: misaki maps them after its "e" -> "A", which
        # leaves no "e^ə" for its British rule to find ("werewolves" as "wˈAəwʊlvz").
        for old, new in BRITISH if espeak == "en-gb" else AMERICAN:
            ipa = ipa.replace(old, new)
        for old, new in ENGLISH:
            ipa = ipa.replace(old, new)
        ipa = re.sub(r"(\S)\u0329", r"ᵊ\1", ipa).replace("\u0329", "")
        ipa = ipa.replace("o", "ɔ")  # espeak-ng before 1.52 wrote "o" for English's "ɔ"
    else:
        for old, new in TIED.items():
            ipa = ipa.replace(old, new)
        ipa = ipa.replace("-", "")
    # A digit is a phoneme name of espeak-ng's own that has no IPA ("q1" in Persian).
    return re.sub(r"[0-9]", "", ipa.replace(TIE, ""))


def phonemize(text: str, lang: str, voice: str, espeak: Espeak) -> str:
    """`text` as Kokoro's phonemes, for the Kokoro voice `voice` speaking `lang`: each
    run of words phonemised alone, the punctuation between them kept."""
    reader = espeak_voice(lang, voice)
    text = " ".join(text.translate(MARKS).split())
    parts = []
    for run, marks in chunks(text):
        if marks:
            parts.append(run)
        else:
            parts.append(kokoro_symbols(espeak.ipa(run, reader), reader))
    return re.sub(r" {2,}", " ", "".join(parts)).strip()


def tokens(phonemes: str, vocab: dict[str, int]) -> list[int]:
    """Kokoro's token ids for `phonemes`; symbols it does not know are left out."""
    return [vocab[symbol] for symbol in phonemes if symbol in vocab]


def batches(phonemes: str, vocab: dict[str, int], limit: int = MAX_TOKENS) -> list[list[int]]:
    """The tokens of `phonemes` in runs of at most `limit`, cut after a sentence's
    end (else after any mark, else anywhere): a call is one run, a long text several."""
    out: list[list[int]] = []
    rest = phonemes.strip()
    while rest:
        ids = tokens(rest, vocab)
        if len(ids) <= limit:
            out.append(ids)
            break
        cut = _cut(rest, vocab, limit)
        out.append(tokens(rest[:cut], vocab))
        rest = rest[cut:].strip()
    return [ids for ids in out if ids]


def _cut(phonemes: str, vocab: dict[str, int], limit: int) -> int:
    """Where to cut `phonemes` so that the first part has at most `limit` tokens."""
    count, fits = 0, len(phonemes)
    for index, symbol in enumerate(phonemes):
        count += symbol in vocab
        if count > limit:
            fits = index
            break
    head = phonemes[:fits]
    for marks in (".!?…", ";:,—"):
        at = max(head.rfind(mark) for mark in marks)
        if at > 0:
            return at + 1
    return fits
