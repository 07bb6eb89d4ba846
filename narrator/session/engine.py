"""What the session needs from the audio layer, as Protocols, plus a silent engine.

The session never imports `narrator.audio` at module level: it receives an engine
that satisfies `NightEngine` (the real `narrator.audio.AudioEngine` does,
structurally), so tests and `NARRATOR_AUDIO=fake` can run the whole game without a
sound device.

`SilentEngine` is that stand-in: it "plays" a script on an injected `Clock`, step by
step, with the preview's estimated speech lengths, and remembers which steps were
heard. Time only moves when the clock does, so a test can run a five-minute
discussion in a millisecond by advancing a manual clock. It keeps the real
playback's contract (tests/session/test_playing_contract.py runs one suite against
both): the last step stays current after the end, a stop is not an error, a step
that cannot be made fails `play()` if it is the first call and sets `error` after.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from narrator.script import Cue, Say, Script, Timer
from narrator.script.render_text import WORDS_PER_MINUTE, timed_steps, total_seconds
from narrator.session.clock import Clock, SystemClock

if TYPE_CHECKING:
    from narrator.audio.settings import AudioSettings


class Playing(Protocol):
    """A script being heard (`narrator.audio.Playback` satisfies it).

    Thread-safe. `current_step` is the index of the step being heard (the last one
    once the script ended, or where a stop left it); `finished` turns true once,
    at the end, on `stop()` or on an error; `error` is one line, never set by a
    stop. `close()` frees the output (idempotent, stops first if still playing):
    whoever got the playback from `play()` or `speak()` closes it.
    """

    @property
    def position(self) -> float: ...
    @property
    def duration(self) -> float | None: ...
    @property
    def current_step(self) -> int | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def error(self) -> str | None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def skip(self) -> None: ...
    def stop(self) -> None: ...
    def wait(self, timeout: float | None = None) -> bool: ...
    def close(self) -> None: ...


class NightEngine(Protocol):
    """The subset of `narrator.audio.AudioEngine` the app uses."""

    @property
    def settings(self) -> AudioSettings: ...
    @settings.setter
    def settings(self, value: AudioSettings) -> None: ...
    def check_output(self) -> str | None: ...
    def play(self, script: Script) -> Playing: ...
    def speak(self, text: str, lang: str) -> Playing: ...
    def preview(self, lang: str) -> Playing: ...
    def export(self, script: Script, path: Path) -> None: ...
    def close(self) -> None: ...


class SilentPlayback:
    """Plays a script on a clock: estimated speech, exact pauses, no sound."""

    def __init__(
        self,
        script: Script,
        clock: Clock,
        wpm: int = WORDS_PER_MINUTE,
        fail_at: tuple[int, str] | None = None,
    ) -> None:
        self.script = script
        self._clock = clock
        self._starts = [start for start, _ in timed_steps(script, wpm)]
        self._total = total_seconds(script, wpm)
        self._lock = threading.Lock()
        self._t0 = clock.now()
        self._offset = 0.0  # seconds jumped by skip()
        self._paused_at: float | None = None
        self._stopped = False
        self._next = 0  # first step not yet heard or skipped
        self._fail_at = fail_at  # (step, error): that step cannot be made
        self._error: str | None = None
        self.closed = False
        self.heard: list[int] = []

    def _pos(self) -> float:
        now = self._paused_at if self._paused_at is not None else self._clock.now()
        return min(self._total, now - self._t0 + self._offset)

    def _advance(self) -> float:
        pos = self._pos()
        while (
            not self._stopped
            and self._next < len(self._starts)
            and (self._starts[self._next] <= pos or pos >= self._total)
        ):
            if self._fail_at is not None and self._next == self._fail_at[0]:
                # As the real render-ahead does: the error ends the playback.
                self._error = self._fail_at[1]
                self._stopped = True
                self._paused_at = self._clock.now()
                break
            self.heard.append(self._next)
            self._next += 1
        return pos

    @property
    def position(self) -> float:
        with self._lock:
            return self._advance()

    @property
    def duration(self) -> float | None:
        return self._total

    @property
    def current_step(self) -> int | None:
        with self._lock:
            self._advance()
            return None if self._next == 0 else self._next - 1

    @property
    def finished(self) -> bool:
        with self._lock:
            pos = self._advance()
            return self._stopped or pos >= self._total

    @property
    def error(self) -> str | None:
        with self._lock:
            self._advance()
            return self._error

    def pause(self) -> None:
        with self._lock:
            if self._paused_at is None:
                self._advance()
                self._paused_at = self._clock.now()

    def resume(self) -> None:
        with self._lock:
            if self._paused_at is not None and not self._stopped:
                self._t0 += self._clock.now() - self._paused_at
                self._paused_at = None

    def skip(self) -> None:
        """Jump to the next call: the steps in between are never heard."""
        with self._lock:
            pos = self._advance()
            steps = self.script.steps
            target = next(
                (i for i in range(self._next, len(steps)) if isinstance(steps[i], Say)),
                len(steps),
            )
            new_pos = self._starts[target] if target < len(steps) else self._total
            self._offset += max(0.0, new_pos - pos)
            self._next = target

    def stop(self) -> None:
        with self._lock:
            if self._paused_at is None:  # the position stays where the stop left it
                self._paused_at = self._clock.now()
            self._stopped = True

    def close(self) -> None:
        self.stop()
        self.closed = True

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.finished:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True


class SilentEngine:
    """A `NightEngine` that makes no sound: `NARRATOR_AUDIO=fake`, and the tests."""

    def __init__(
        self,
        settings: AudioSettings | None = None,
        clock: Clock | None = None,
        *,
        sounds: Collection[str] | None = None,
    ) -> None:
        self._settings = settings
        self.clock: Clock = clock or SystemClock()
        # The cue sounds it knows, as the real engine knows its assets; None: any.
        self.sounds = None if sounds is None else frozenset(sounds)
        self.playbacks: list[SilentPlayback] = []
        self.exported: list[tuple[Script, Path]] = []

    @property
    def settings(self) -> AudioSettings:
        assert self._settings is not None, "SilentEngine was given no settings"
        return self._settings

    @settings.setter
    def settings(self, value: AudioSettings) -> None:
        self._settings = value

    def _wpm(self, lang: str) -> int:
        return WORDS_PER_MINUTE if self._settings is None else self._settings.rate_for(lang)

    def check_output(self) -> str | None:
        return None

    def play(self, script: Script) -> SilentPlayback:
        fail_at = None
        for index, step in enumerate(script.steps):
            if isinstance(step, Cue) and self.sounds is not None and step.sound not in self.sounds:
                fail_at = (index, f"unknown sound {step.sound!r}")
                break
        if fail_at is not None and fail_at[0] <= _first_call(script):
            raise ValueError(fail_at[1])  # the real engine makes its first call before playing
        playback = SilentPlayback(script, self.clock, self._wpm(script.lang), fail_at)
        self.playbacks.append(playback)
        return playback

    def speak(self, text: str, lang: str) -> SilentPlayback:
        line = Script("", "day", 0, lang, 0, (), (Say(text),))
        return self.play(line)

    def preview(self, lang: str) -> SilentPlayback:
        """The settings' sample call (a wake call, its gap, the instruction, the close)."""
        from narrator.script.preview import preview_script

        return self.play(preview_script(lang))

    def export(self, script: Script, path: Path) -> None:
        self.exported.append((script, path))
        path.write_text(f"narrator silent export: {len(script.steps)} steps\n")

    def close(self) -> None:
        for playback in self.playbacks:
            playback.close()


def _first_call(script: Script) -> int:
    """The step `play()` makes before it starts: the first call, timer or cue."""
    return next(
        (i for i, s in enumerate(script.steps) if isinstance(s, Say | Timer | Cue)),
        len(script.steps),
    )


class AudioChoices(Protocol):
    """The voices, output devices, microphones and beds offered in the settings, as
    (id, label) pairs."""

    def voices(self, lang: str) -> list[tuple[str, str]]: ...
    def devices(self) -> list[tuple[str, str]]: ...
    def microphones(self) -> list[tuple[str, str]]: ...
    def beds(self) -> list[tuple[str, str]]: ...


class NoChoices:
    """No speech engine to ask: only the defaults are offered."""

    def voices(self, lang: str) -> list[tuple[str, str]]:
        return []

    def devices(self) -> list[tuple[str, str]]:
        return []

    def microphones(self) -> list[tuple[str, str]]:
        return []

    def beds(self) -> list[tuple[str, str]]:
        return []
