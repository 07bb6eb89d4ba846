"""The table's voice: the session's night, and announcements with the players' names.

`SessionVoice` is the one implementation of the contract the service relies on
(`service.TableVoice`: lines in order on a worker thread, never blocking the loop;
`done` once a night has been heard to the end, never for a night that failed). The
night is the headless session's night phase (`narrator.session`: a `PhaseRunner`,
every playback closed, failure a state), the lines go through the session's engine.
With the real audio engine it speaks; with the session's `SilentEngine`
(`--no-audio`, and the tests) it keeps the same timing in silence, so a silent night
also ends by itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from narrator.script import Script
from narrator.script.model import Phase
from narrator.session import (
    Clock,
    GameSetup,
    PhaseEvent,
    Playing,
    Session,
    Settings,
    SilentEngine,
    SystemClock,
    audio_settings,
)

if TYPE_CHECKING:
    from narrator.table.service import Done, OnStep


@dataclass
class NightFrom(GameSetup):
    """The game whose night script begins at step `first`: a night resumed after a
    restart goes on from the call it was at, not from its start."""

    first: int = 0

    @classmethod
    def of(cls, game: GameSetup, first: int) -> NightFrom:
        fields = {f.name: getattr(game, f.name) for f in dataclasses.fields(game)}
        return cls(**fields, first=first)

    def script(self, phase: Phase) -> Script:
        script = super().script(phase)
        if phase != "night" or not self.first:
            return script
        stages = script.stages[self.first :] if script.stages else ()
        return dataclasses.replace(script, steps=script.steps[self.first :], stages=stages)


class SessionVoice:
    def __init__(self, session: Session, *, own_engine: bool = True) -> None:
        self.session = session
        self.own_engine = own_engine
        self._game_before = session.game  # the app's game, given back when the table ends
        self.said: list[str] = []
        self.errors: list[str] = []
        self.heard: list[str] = []  # lines whose playback ended without an error
        self._done: Done | None = None
        self._on_step: OnStep | None = None
        self._first = 0  # the night's first script step played (a resumed night)
        self._playing: Playing | None = None
        self._closing = False
        self._lock = threading.Lock()
        # ("say", text, lang) or ("night", game, generation), handled in order: a night
        # never starts over the last line of the day.
        self._lines: queue.Queue[tuple[str, object, object] | None] = queue.Queue()
        self._night_gen = 0
        self._prepared: object = None  # what was last given to the engine to prepare
        self._preparation: Any = None
        self._unsubscribe = session.subscribe(self._event)
        self._thread = threading.Thread(target=self._speak, name="table-voice", daemon=True)
        self._thread.start()

    @property
    def first(self) -> int:
        """The script step the night being played began at (0, or for a night resumed
        after a restart the call it was at): the voice's steps count from there."""
        return self._first

    def say(self, text: str, lang: str) -> None:
        self.said.append(text)
        self._lines.put(("say", text, lang))

    def night(
        self, game: GameSetup, done: Done, on_step: OnStep | None = None, first: int = 0
    ) -> None:
        """Play `game`'s night, from its script's step `first` (a night resumed after
        a restart); `on_step` is told the script's own step numbers."""
        with self._lock:
            self._done = done
            self._on_step = on_step
            self._first = first
            self._night_gen += 1
            night = game if not first else NightFrom.of(game, first)
            self._lines.put(("night", night, self._night_gen))

    def prepare(self, games: Sequence[GameSetup], lines: Sequence[str]) -> None:
        """Make the calls of `games`' nights and days and the announcements `lines`
        ahead, when the engine can (a neural voice that is slower than the table must
        never be late); never blocks: the scripts are built on a thread of their own.
        The same request twice prepares once."""
        prepare = getattr(self.session.engine, "prepare", None)
        if prepare is None or not games:
            return
        key = (
            [(g.ruleset.id, g.lang, g.night, g.players, sorted(g.counts.items())) for g in games],
            list(lines),
        )
        with self._lock:
            if key == self._prepared or self._closing:
                return
            self._prepared = key
            before = self._preparation
        if before is not None:
            before.cancel()
        lang = games[0].lang

        def start() -> None:
            with contextlib.suppress(Exception):  # the night will say what is wrong
                scripts = [g.script(phase) for g in games for phase in ("night", "day")]
                preparation = prepare(scripts, lines=[(text, lang) for text in lines])
                with self._lock:
                    self._preparation = preparation
                    if self._closing:
                        preparation.cancel()

        threading.Thread(target=start, name="table-prepare", daemon=True).start()

    def stop_night(self) -> None:
        with self._lock:
            self._done = None
            self._on_step = None
            self._night_gen += 1  # a night still waiting in the queue will not start
        self.session.close_phase()

    def close(self) -> None:
        """Stop talking now (lines not yet spoken are dropped) and end the session."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            playing = self._playing
        if playing is not None:
            playing.stop()
        if self._preparation is not None:
            self._preparation.cancel()
        self._lines.put(None)
        self._thread.join(timeout=10)
        self._unsubscribe()
        if self.own_engine:
            self.session.close()
        else:  # the app's session lives on after the table, with its own game
            self.session.close_phase()
            self.session.game = self._game_before

    def _event(self, event: PhaseEvent) -> None:
        if event.state.phase != "night":
            return
        if event.kind in ("segment", "step") and event.state.step is not None:
            on_step = self._on_step
            if on_step is not None:
                on_step(event.state.step + self._first)
        if event.kind == "failed" and event.state.error:
            self.errors.append(f"night {event.state.night}: {event.state.error}")
        elif event.kind == "finished":
            with self._lock:
                done, self._done = self._done, None
                self._on_step = None
            if done is not None:
                done(None)

    def _speak(self) -> None:
        while (item := self._lines.get()) is not None:
            kind, what, extra = item
            if kind == "night":
                with self._lock:
                    current = not self._closing and extra == self._night_gen
                if current and isinstance(what, GameSetup):  # listeners may run in open_phase
                    self.session.game = what
                    self.session.open_phase("night")
                continue
            text, lang = str(what), str(extra)
            try:
                with self._lock:
                    if self._closing:
                        continue
                    playing = self._playing = self.session.engine.speak(text, lang)
                playing.wait()
                error = playing.error
                with self._lock:
                    self._playing = None
                    if self._closing:
                        error = error or "stopped: the table closed"
                playing.close()
            except Exception as exc:  # a line the table cannot hear is reported, not lost
                error = f"{type(exc).__name__}: {exc}"
            if error is None:
                self.heard.append(text)
            else:
                self.errors.append(f"'{text[:40]}': {error}")


def silent_voice(clock: Clock | None = None, settings: Settings | None = None) -> SessionVoice:
    """The `--no-audio` voice: the session's silent engine, the same timing unheard."""
    clock = clock or SystemClock()
    settings = settings or Settings()
    engine = SilentEngine(audio_settings(settings), clock=clock)  # its words at the rate set
    return SessionVoice(Session(engine, clock, settings))
