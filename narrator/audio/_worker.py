"""The speech worker: a separate process that owns pyttsx3 and libespeak-ng.

It runs by file path (`python .../_worker.py`), so it imports nothing but the
standard library, pyttsx3, espeakng_loader and the protocol's loop (`_serve.py`):
it starts in about 0.1 s. It lives in its own process because pyttsx3 prints
"Audio saved to ..." on stdout and a process that has used it hangs when it forks;
the app and the TUI never load the speech engine themselves.

Protocol: one JSON object per line on stdin; one JSON object per line on the file
descriptor that was stdout at start (stdout itself is pointed at stderr, so every
stray print goes to a log and never into the protocol). The first line the worker
writes is `{"ready": true, ...}` or `{"ready": false, "error": ...}`.

- `{"op": "say", "id": n, "text", "voice", "rate", "path"}` writes a WAV to `path`
  and answers `{"id": n, "ok": true, "sample_rate": sr}` (the true rate: MBROLA
  voices render at 16 kHz while pyttsx3 labels every file 22050 Hz).
- `{"op": "voices", "id": n}` answers `{"id": n, "voices": [...]}`.
- `{"op": "phonemes", "id": n, "text", "voice"}` answers `{"id": n, "ok": true,
  "phonemes": "..."}`: the IPA espeak-ng reads the text as (the lexicon's test).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import sys
import threading
import time
import wave
from array import array
from typing import Any

from narrator.audio._serve import Handler, serve


def load_espeak() -> str:
    """Make libespeak-ng loadable by pyttsx3: the system's first, else the wheel's.

    NARRATOR_ESPEAK=wheel forces the wheel (the tests prove speech needs no apt).
    """
    if os.environ.get("NARRATOR_ESPEAK") != "wheel" and ctypes.util.find_library("espeak-ng"):
        return "system"
    import espeakng_loader

    # pyttsx3 opens "libespeak-ng.so.1" by name; a library with that soname
    # already loaded globally is what the dynamic loader hands back.
    os.environ["ESPEAK_DATA_PATH"] = espeakng_loader.get_data_path()
    ctypes.CDLL(espeakng_loader.get_library_path(), mode=ctypes.RTLD_GLOBAL)
    return "wheel"


_ATTEMPTS = 3
_TIMEOUT = 30.0  # seconds for one line, far above the ~20 ms it takes


def _has_sound(path: str) -> bool:
    """Whether the WAV at `path` holds anything above -48 dBFS."""
    try:
        with wave.open(path, "rb") as f:
            frames = f.readframes(f.getnframes())
    except (OSError, EOFError, wave.Error):
        return False
    samples = array("h", frames[: len(frames) // 2 * 2])
    return bool(samples) and max(max(samples), -min(samples)) > 130


def _voice_rate(voice: str) -> int:
    # MBROLA voices ("mb-en1", "mb/mb-en1") synthesise at 16 kHz.
    name = voice.rsplit("/", 1)[-1]
    return 16000 if name.startswith("mb-") else 22050


def _loaded_lib() -> str | None:
    """The libespeak-ng file really mapped into this process (Linux), for the tests."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            for row in maps:
                if "libespeak-ng" in row:
                    return row.split()[-1]
    except OSError:
        pass
    return None


class Worker:
    def __init__(self) -> None:
        import pyttsx3

        self.engine = pyttsx3.init("espeak")
        self.voice: str | None = None
        self.known: set[str] | None = None
        self.finished = threading.Event()
        self.completed = False
        self.engine.connect("finished-utterance", self._on_finished)

    def check_voice(self, voice: str) -> None:
        # espeak-ng falls back to its default voice on an unknown name without
        # an error; a typo in --voice must not pass silently.
        if self.known is None:
            self.known = set()
            for v in self.voices()["voices"]:
                self.known.update({v["id"].lower(), v["id"].rsplit("/", 1)[-1].lower()})
                self.known.update(lang.lower() for lang in v["languages"])
                self.known.add(str(v["name"]).lower())
        if voice.split("+", 1)[0].lower() not in self.known:
            raise ValueError(f"unknown voice {voice!r}: see `narrator voices`")

    def say(self, req: dict[str, Any]) -> dict[str, Any]:
        voice = str(req["voice"])
        if voice != self.voice:
            self.check_voice(voice)
            self.engine.setProperty("voice", voice)
            self.voice = voice
        # The espeak driver resets the rate on a voice change: set it every time.
        self.engine.setProperty("rate", int(req["rate"]))
        text, path = str(req["text"]), str(req["path"])
        for _attempt in range(_ATTEMPTS):
            self._say_once(text, path)
            if self.completed and (_has_sound(path) or not any(c.isalnum() for c in text)):
                return {"ok": True, "sample_rate": _voice_rate(voice)}
            print(f"narrator speech worker: no sound for {text!r}, again", file=sys.stderr)
        return {"ok": False, "error": f"the speech engine gave no sound for {text!r}"}

    def _say_once(self, text: str, path: str) -> None:
        # pyttsx3's espeak driver runs libespeak-ng asynchronously, and its
        # runAndWait() first cancels whatever espeak is still doing -- including the
        # rate change just queued, which then cancels this very line (an empty
        # file; it happened to one line in five). So: wait for espeak to be idle,
        # clear a stale "stop" flag, and take the file only once
        # "finished-utterance" says it is complete.
        self._wait_idle()
        # pyttsx3's internals (pyttsx3 2.99, pinned in pyproject): engine.proxy._driver
        # ._stopping. tests/audio/test_speech.py renders lines through this path and
        # fails (an empty clip) if an upgrade takes it away.
        driver = getattr(getattr(self.engine, "proxy", None), "_driver", None)
        if driver is not None and hasattr(driver, "_stopping"):
            driver._stopping = False
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        self.finished.clear()
        self.completed = False
        self.engine.save_to_file(text, path)
        self.engine.runAndWait()
        if not self.finished.wait(timeout=_TIMEOUT):
            raise RuntimeError(f"the speech engine did not finish {text!r}")

    def _wait_idle(self) -> None:
        """Wait until libespeak-ng's own thread has nothing queued."""
        from pyttsx3.drivers import _espeak

        deadline = time.monotonic() + _TIMEOUT
        while _espeak.IsPlaying() and time.monotonic() < deadline:
            time.sleep(0.0005)

    def _on_finished(self, name: str | None = None, completed: bool = True) -> None:
        self.completed = completed
        self.finished.set()

    def voices(self) -> dict[str, Any]:
        found = []
        for v in self.engine.getProperty("voices"):
            langs = [
                lang.decode("utf-8", "replace") if isinstance(lang, bytes) else str(lang)
                for lang in (v.languages or [])
            ]
            found.append({"id": v.id, "name": v.name, "languages": langs, "gender": v.gender})
        return {"voices": found}

    def phonemes(self, req: dict[str, Any]) -> dict[str, Any]:
        """The IPA espeak-ng reads `text` as, with `voice` (its own text-to-phoneme
        rules, the very ones `say` uses)."""
        from pyttsx3.drivers import _espeak

        voice = str(req["voice"])
        self.check_voice(voice)
        self._wait_idle()
        _espeak.SetVoiceByName(voice.encode("utf-8"))
        self.voice = None  # `say` sets its voice again
        lib = _espeak.dll
        lib.espeak_TextToPhonemes.restype = ctypes.c_char_p
        lib.espeak_TextToPhonemes.argtypes = [
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_int,
            ctypes.c_int,
        ]
        buffer = ctypes.c_char_p(str(req["text"]).encode("utf-8"))
        pointer = ctypes.pointer(buffer)
        clauses = []
        while pointer.contents.value:
            # textmode 1: UTF-8; phonememode 2: IPA.
            clauses.append(lib.espeak_TextToPhonemes(pointer, 1, 2).decode("utf-8").strip())
        return {"ok": True, "phonemes": " ".join(c for c in clauses if c)}

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        try:
            if req.get("op") == "say":
                return self.say(req)
            if req.get("op") == "phonemes":
                return self.phonemes(req)
            if req.get("op") == "voices":
                return self.voices()
            return {"ok": False, "error": f"unknown op {req.get('op')!r}"}
        except ValueError as exc:  # a voice espeak-ng does not have
            self.voice = None
            return {"ok": False, "error": str(exc)}
        except Exception as exc:  # one bad line must not end the worker
            self.voice = None
            return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


def main() -> int:
    def start() -> tuple[Handler, dict[str, Any]]:
        source = load_espeak()
        worker = Worker()
        return worker.handle, {"espeak": source, "library": _loaded_lib()}

    return serve(start)


if __name__ == "__main__":
    sys.exit(main())
