"""The app prepares the chosen night's calls while the table sets up.

A neural voice can be slower than a night needs (Kokoro, Italian's voice, makes a call
in about 0.6 of its length and loads for a second), so while the group chooses the
players and the roles, the night's calls and its day's are made into the speech cache
in the background (`narrator.audio.AudioEngine.prepare`), and the set-up and preview
screens say how far it is. Play stays possible all along: what is not ready then is
made ahead of the playhead, a late call waited for under the bed.

Each change of the game (players, roles, language, a saved setting) prepares again:
the lines already made are found in the cache, the ones no longer wanted are left.
An engine that cannot prepare (the silent one) shows nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from narrator.tui.text import shape, t

if TYPE_CHECKING:  # the app's first frame imports nothing of the script
    from narrator.script import Script

Report = Callable[[str], None]  # the line to show (empty: nothing), from any thread


class Preparing(Protocol):
    """A preparation under way (`narrator.audio.prepare.Preparation` is one)."""

    @property
    def finished(self) -> bool: ...
    @property
    def error(self) -> str | None: ...
    def cancel(self) -> None: ...


@runtime_checkable
class Prepares(Protocol):
    """An engine that can make a night's calls ahead (the real one; `LateEngine`)."""

    def prepare(
        self, scripts: Sequence[Script], on_progress: Callable[[int, int], None] | None = None
    ) -> Preparing: ...


def progress_text(done: int, total: int) -> str:
    """What the screens say of a preparation."""
    if done >= total:
        return shape(t("Voice: every call is ready."))
    return shape(
        t("Voice: preparing the calls, {done} of {total} ready (Play works already).").format(
            done=done, total=total
        )
    )


class NightPreparer:
    """Keeps one preparation going for the game as it is now chosen."""

    def __init__(self, engine: object, report: Report) -> None:
        self.engine = engine
        self.report = report
        self._lock = threading.Lock()
        self._current: Preparing | None = None
        self._key: object = None
        self._generation = object()

    def prepare(self, scripts: Sequence[Script], settings: object) -> None:
        """Prepare `scripts` with the engine's `settings` (what the key is made of), unless
        that is what is being or was prepared already. Call from a worker thread:
        finding what is cached reads the disk."""
        engine = self.engine
        if not isinstance(engine, Prepares):
            return
        texts = tuple((s.lang, s.steps) for s in scripts)
        key = (texts, settings)
        with self._lock:
            current = self._current
            if key == self._key and current is not None and current.error is None:
                return
            self._key = key
            if current is not None:
                current.cancel()
            generation = object()
            self._generation = generation

        def progress(done: int, total: int) -> None:
            if self._generation is not generation:  # an older preparation says nothing
                return
            error = self.failed()
            if error is not None:
                self.report(f"[yellow]{shape(t('Voice: {error}').format(error=error))}[/]")
            else:
                self.report(progress_text(done, total))

        try:
            preparation = engine.prepare(scripts, progress)
        except Exception as exc:  # no voice for this language, the model missing...
            self.report(f"[yellow]{shape(t('Voice: {error}').format(error=exc))}[/]")
            with self._lock:
                self._key = None
            return
        with self._lock:
            if self._generation is generation:
                self._current = preparation
            else:  # a newer one started meanwhile
                preparation.cancel()

    def failed(self) -> str | None:
        current = self._current
        return None if current is None else current.error

    def cancel(self) -> None:
        with self._lock:
            current, self._current, self._key = self._current, None, None
            self._generation = object()
        if current is not None:
            current.cancel()
