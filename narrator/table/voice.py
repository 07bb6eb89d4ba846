"""The table's voice: announcements and the night's script, one after the other.

`Voice` is the contract the server relies on: `say()` and `night()` never block
the caller (the web server's event loop); what they queue is spoken in order on
one worker thread; `night()` calls `done` once the night's script has finished
(or failed: a night the table cannot hear must not pass as played, so `done`
gets the error). `SilentVoice` keeps the same contract with no sound (the
`--no-audio` table, and tests): it writes down what it would say, and a night
ends only when the host goes on. `EngineVoice` speaks through the audio engine.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol

from narrator.script import Script

Done = Callable[[str | None], None]  # called with None, or the error that stopped the night


class Voice(Protocol):
    said: list[str]  # every line asked for, in order
    errors: list[str]  # why a line or a night could not be heard (shown to the host)

    def say(self, text: str, lang: str) -> None: ...
    def night(self, script: Script, done: Done) -> None: ...
    def stop_night(self) -> None: ...
    def close(self) -> None: ...


class SilentVoice:
    """No sound: the lines are written down; a night never ends on its own."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.errors: list[str] = []
        self.nights: list[Script] = []

    def say(self, text: str, lang: str) -> None:
        self.said.append(text)

    def night(self, script: Script, done: Done) -> None:
        self.nights.append(script)

    def stop_night(self) -> None:
        pass

    def close(self) -> None:
        pass


class EngineVoice:
    """Speaks through an audio engine (`narrator.audio.AudioEngine` or the like:
    `speak(text, lang)` and `play(script)` return a playback with `wait()`,
    `error` and `stop()`), on one worker thread so lines never overlap."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.said: list[str] = []
        self.errors: list[str] = []
        self._jobs: queue.Queue[tuple[str, Any, Done | None] | None] = queue.Queue()
        self._night: Any = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="table-voice", daemon=True)
        self._thread.start()

    def say(self, text: str, lang: str) -> None:
        self.said.append(text)
        self._jobs.put(("say", (text, lang), None))

    def night(self, script: Script, done: Done) -> None:
        self._jobs.put(("night", script, done))

    def stop_night(self) -> None:
        with self._lock:
            playing = self._night
        if playing is not None:
            playing.stop()

    def close(self) -> None:
        self.stop_night()
        self._jobs.put(None)
        self._thread.join(timeout=10)
        self.engine.close()

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            kind, what, done = job
            error: str | None = None
            try:
                if kind == "say":
                    playing = self.engine.speak(*what)
                    playing.wait()
                    error = playing.error
                else:
                    playing = self.engine.play(what)
                    with self._lock:
                        self._night = playing
                    playing.wait()
                    error = playing.error
            except Exception as exc:  # reported to whoever waits on the night
                error = f"{type(exc).__name__}: {exc}"
            finally:
                with self._lock:
                    self._night = None
            if error is not None:
                self.errors.append(error)
            if done is not None:
                done(error)
