"""Kokoro-82M's worker: the model (onnxruntime) in a process of its own.

Run by file path (`python -P .../_kokoro_worker.py THREADS`), as hibari's worker is and
for the same reasons (workerproc.py): loading the model holds the GIL, and onnxruntime
must not be mid-inference in the app's process when a signal ends it. One worker
speaks every Kokoro voice: the model (~345 MB resident) is loaded once, the voices'
vectors (0.5 MB each) on first use.

It runs `NICE` steps below the app (the playback must never wait for it), loads
the four parts, checks the joined model's sha256 (`kokoro_model.py`), starts
libespeak-ng for the phonemes (`kokoro_phonemes.py`), and says one short word before
it reports ready, so its first call costs what any call does. Then, as `_serve.py`
runs every worker:

- `{"op": "say", "id": n, "text", "lang", "voice", "speed"}` answers `{"id": n, "ok":
  true, "sample_rate": 24000, "samples": base64, "phonemes": ...}`: float32 at 24 kHz,
  as the model made them -- not clipped (if_sara peaks above full scale; the loudness
  pass brings every call under its ceiling), not resampled (the app resamples once, to
  the mix rate). A text longer than one inference (510 tokens) is said in parts, cut
  after a sentence, each trimmed and joined by `SENTENCE_GAP`. A line it cannot say
  answers `{"ok": false, "error": ...}`.
"""

from __future__ import annotations

import base64
import os
import sys
from typing import Any

import numpy as np

from narrator.audio._serve import Handler, serve
from narrator.audio.kokoro_model import (
    SAMPLE_RATE,
    STYLE,
    VOICE_ROWS,
    joined_model,
    part_files,
    voice_bytes,
)
from narrator.audio.kokoro_phonemes import Espeak, batches, load_vocab, phonemize

SENTENCE_GAP = 0.3  # seconds between the parts of a text too long for one inference
# Below the app that plays: a night's output must never wait for the voice's core time
# (a call not ready is waited for under the bed; an output that runs dry is heard).
NICE = 5


def trim(samples: np.ndarray) -> np.ndarray:
    """`samples` without the quiet at their ends (48 dB under the peak, 5 ms kept)."""
    x = np.abs(samples)
    loud = np.flatnonzero(x > 10 ** (-48 / 20) * float(np.max(x, initial=0.0)))
    if len(loud) == 0:
        return samples[:0]
    margin = SAMPLE_RATE // 200
    return samples[max(0, loud[0] - margin) : loud[-1] + 1 + margin]


class Kokoro:
    def __init__(self, threads: int) -> None:
        import espeakng_loader
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # its warnings would go to stderr, i.e. nowhere
        model = joined_model(part_files())
        self.session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        del model
        self.vocab = load_vocab()
        self.espeak = Espeak(espeakng_loader.get_library_path(), espeakng_loader.get_data_path())
        self.voices: dict[str, np.ndarray] = {}

    def voice(self, name: str) -> np.ndarray:
        if name not in self.voices:
            vectors = np.frombuffer(voice_bytes(name), "<f4")
            self.voices[name] = vectors.reshape(VOICE_ROWS, STYLE)
        return self.voices[name]

    def say(self, text: str, lang: str, voice: str, speed: float) -> tuple[np.ndarray, str]:
        styles = self.voice(voice)
        phonemes = phonemize(text, lang, voice, self.espeak)
        parts = []
        for ids in batches(phonemes, self.vocab):
            audio = self.session.run(
                None,
                {
                    "tokens": np.array([[0, *ids, 0]], np.int64),
                    "style": styles[len(ids)][None, :],
                    "speed": np.array([speed], np.float32),
                },
            )[0]
            parts.append(np.asarray(audio, np.float32).reshape(-1))
        if len(parts) > 1:
            gap = np.zeros(round(SENTENCE_GAP * SAMPLE_RATE), np.float32)
            joined = [trim(parts[0])]
            for part in parts[1:]:
                joined += [gap, trim(part)]
            parts = joined
        samples = np.concatenate(parts) if parts else np.zeros(0, np.float32)
        return samples, phonemes


def main() -> int:
    def start() -> tuple[Handler, dict[str, Any]]:
        os.nice(NICE)
        kokoro = Kokoro(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
        kokoro.say("Pronti.", "it", "if_sara", 1.0)

        def handle(req: dict[str, Any]) -> dict[str, Any]:
            try:
                if req.get("op") != "say":
                    raise ValueError(f"unknown op {req.get('op')!r}")
                samples, phonemes = kokoro.say(
                    str(req["text"]), str(req["lang"]), str(req["voice"]), float(req["speed"])
                )
                encoded = base64.b64encode(samples.astype("<f4").tobytes()).decode("ascii")
                return {
                    "ok": True,
                    "sample_rate": SAMPLE_RATE,
                    "samples": encoded,
                    "phonemes": phonemes,
                }
            except Exception as exc:  # one bad line must not end the worker
                return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}

        return handle, {"sample_rate": SAMPLE_RATE}

    return serve(start)


if __name__ == "__main__":
    sys.exit(main())
