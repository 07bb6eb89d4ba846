"""Session: one evening at one table -- the settings, the game, the phase playing.

Every front end (the terminal app, the players' phones) holds the same `Session`
and drives it with commands; none of them keeps game or run state of its own. The
session owns at most one `PhaseRunner` at a time: opening a night or a day closes
the one before, so two phases never talk over each other and nothing is left open.
Listeners given to `subscribe()` hear the events of every phase the session opens
(see `narrator.session.phase` for the events and the threads they come from).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from narrator.rules import Ruleset
from narrator.script.model import Phase
from narrator.session.clock import Clock
from narrator.session.config import Settings, SettingsStore, audio_settings
from narrator.session.engine import NightEngine
from narrator.session.events import Listener, Listeners
from narrator.session.game import GameSetup
from narrator.session.phase import PhaseRunner


class Session:
    """The evening's state and its commands; thread-safe."""

    def __init__(
        self,
        engine: NightEngine,
        clock: Clock,
        settings: Settings,
        store: SettingsStore | None = None,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.settings = settings
        self.store = store
        self.game: GameSetup | None = None
        self._runner: PhaseRunner | None = None
        self._lock = threading.Lock()
        self._listeners = Listeners()

    # -- settings --------------------------------------------------------------------
    def apply_settings(self) -> None:
        """Hand the settings' audio part to the engine (the next phase plays with it)."""
        self.engine.settings = audio_settings(self.settings)

    def save_settings(self, settings: Settings) -> str | None:
        """Use `settings` from now on and save them; a sentence if saving failed."""
        self.settings = settings
        self.apply_settings()
        if self.game is not None:  # the next script of this game pauses as now set
            self.game.wake_gap = settings.wake_gap
        if self.store is None:
            return None
        try:
            self.store.save(settings)
        except OSError as exc:
            return f"Could not save the settings: {exc.strerror or exc}"
        return None

    # -- the game --------------------------------------------------------------------
    def new_game(self, ruleset: Ruleset) -> GameSetup:
        """Start setting up `ruleset` with the user's language, pace and saved times."""
        self.close_phase()
        game = GameSetup.start(ruleset, self.settings.language, self.settings.pace)
        game.wake_gap = self.settings.wake_gap
        saved = self.settings.action_times.get(ruleset.id, {})
        game.action_times = {
            k: t for k, t in saved.items() if k.split(":", 1)[0] in ruleset.role_ids
        }
        boxes = self.settings.boxes.get(ruleset.id)
        game.apply_choices(
            None if boxes is None else tuple(boxes), self.settings.game_options.get(ruleset.id, {})
        )
        self.game = game
        return game

    # -- phases ----------------------------------------------------------------------
    @property
    def runner(self) -> PhaseRunner | None:
        return self._runner

    def open_phase(self, phase: Phase, *, start: bool = True) -> PhaseRunner:
        """The game's night or day, ready to run (running, if `start`)."""
        assert self.game is not None, "no game chosen"
        self.close_phase()
        runner = PhaseRunner(
            self.game.script(phase), self.engine, self.clock, listener=self._listeners
        )
        with self._lock:
            self._runner = runner
        if start:
            runner.start()
        return runner

    def next_night(self) -> PhaseRunner:
        assert self.game is not None, "no game chosen"
        self.game.next_night()
        return self.open_phase("night")

    def close_phase(self) -> None:
        """Silence and free whatever phase is open."""
        with self._lock:
            runner, self._runner = self._runner, None
        if runner is not None:
            runner.close()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Hear every event of every phase this session opens; returns an unsubscribe."""
        return self._listeners.add(listener)

    def close(self) -> None:
        """The evening is over: stop the sound and end the engine -- at once, even
        while a line is being synthesised (the runner's thread then ends too)."""
        runner = self._runner
        if runner is not None:
            runner.stop()
        self.engine.close()
        self.close_phase()
