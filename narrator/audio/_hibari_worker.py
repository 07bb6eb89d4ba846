"""The neural voice's worker: hibari (onnxruntime) in a process of its own.

Run by file path (`python -P .../_hibari_worker.py VOICE`), it imports numpy, hibari
and the protocol's loop (`_serve.py`), nothing else of the package. Why a process
(workerproc.py): loading hibari holds the GIL for up to ~150 ms at a time (its G2P
tables, the model), which starves the audio callback of a night already playing
its lead-in; and onnxruntime aborted the app when a signal ended it
mid-inference. Here it does neither.

Protocol (as `_worker.py`'s): the first line written is `{"ready": true,
"sample_rate": sr}` or `{"ready": false, "error": ...}`, after the voice has loaded
and said one short word (its G2P tables load on the first line: the first call
then costs what any call does). Then one JSON request per line on stdin:

- `{"op": "say", "id": n, "text", "speed"}` answers `{"id": n, "ok": true,
  "sample_rate": sr, "samples": base64}`: float32 at the voice's own rate, each
  sentence trimmed of the quiet hibari leaves at its ends (0.3-0.4 s: 0.7 s
  between two sentences, a long hole in a call) and joined by `SENTENCE_GAP`. In
  the answer, not in a file: a full disk (or a file-size limit) costs the cache,
  never the voice. A line it cannot say answers `{"ok": false, "error": ...}`.

Only a voice hibari's registry marks "bundled" is loaded: the others would download.
"""

from __future__ import annotations

import base64
import sys
from typing import Any

import numpy as np

from narrator.audio._serve import Handler, serve

SEED = 0  # the noise part of hibari's signal is random: a line sounds the same each time
SENTENCE_GAP = 0.3  # seconds between the sentences of one call (as Piper's, with its edges)


def trim(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """`samples` without the quiet at their ends (as `synth.postprocess` trims a call)."""
    x = np.abs(samples)
    loud = np.flatnonzero(x > 10 ** (-48 / 20) * float(np.max(x, initial=0.0)))
    if len(loud) == 0:
        return samples[:0]
    margin = sample_rate // 200
    return samples[max(0, loud[0] - margin) : loud[-1] + 1 + margin]


def say(tts: Any, text: str, speed: float) -> np.ndarray:
    """Samples at the voice's own rate, sentence by sentence, trimmed and joined."""
    rate = int(tts.sample_rate)
    gap = np.zeros(round(SENTENCE_GAP * rate), np.float32)
    parts: list[np.ndarray] = []
    for chunk in tts.stream(text, speed=speed, seed=SEED):
        sentence = trim(np.asarray(chunk, np.float32), rate)
        if len(sentence):
            parts.extend([gap, sentence] if parts else [sentence])
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


def load(voice: str) -> Any:
    # hibari takes scipy.fft where scipy is installed. A user's narrator has no scipy
    # (only the tests' extra brings it), so the worker uses numpy's FFT everywhere:
    # the tests and the benches hear what a user hears, and the worker is ready
    # ~0.3 s sooner on a machine with scipy (its import).
    sys.modules.setdefault("scipy", None)  # type: ignore[arg-type]
    from hibari import Hibari
    from hibari.voices import VOICES

    if not VOICES.get(voice, {}).get("bundled"):
        raise ValueError(f"hibari does not ship the voice {voice!r} in its package")
    tts = Hibari(voice=voice, threads=1)
    say(tts, "Ready.", 1.0)
    return tts


def main() -> int:
    def start() -> tuple[Handler, dict[str, Any]]:
        tts = load(sys.argv[1])
        rate = int(tts.sample_rate)

        def handle(req: dict[str, Any]) -> dict[str, Any]:
            try:
                if req.get("op") != "say":
                    raise ValueError(f"unknown op {req.get('op')!r}")
                samples = say(tts, str(req["text"]), float(req["speed"])).astype("<f4")
                encoded = base64.b64encode(samples.tobytes()).decode("ascii")
                return {"ok": True, "sample_rate": rate, "samples": encoded}
            except Exception as exc:  # one bad line must not end the worker
                return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}

        return handle, {"sample_rate": rate}

    return serve(start)


if __name__ == "__main__":
    sys.exit(main())
