"""ScriptScreen: the part the night and the day share -- showing a phase being run.

The screen keeps no run state. A `PhaseRunner` from the session owns the segments,
the step, the countdown, pause and playback; the screen sends it commands from its
keys and renders `runner.state()`: at once for each `PhaseEvent` (posted into
Textual from the runner's thread as a `PhaseChanged` message) and at 10 Hz for the
clocks. The subclasses only lay out the screen and decide what comes after.

A phase that cannot play stays here: one plain line says why, `r` retries from
the call that failed and `e` exports the night to a sound file instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from narrator.i18n import N_
from narrator.session.events import PhaseEvent, PhaseState
from narrator.session.game import GameSetup
from narrator.session.phase import PhaseRunner
from narrator.tui.screens.confirm import ConfirmDialog
from narrator.tui.text import say_problem, t
from narrator.tui.textual_internals import clear_style_caches


class ScriptScreen(Screen[str]):
    """Shows `runner`'s phase; dismisses "finished" or "stopped"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "start_pause", N_("Start/Pause")),
        Binding("s", "skip", N_("Skip")),
        Binding("r", "retry", N_("Retry")),
        Binding("e", "export", N_("Export")),
        Binding("escape", "stop", N_("Stop")),
    ]

    class PhaseChanged(Message):
        """The runner reported `event` (posted from its own thread)."""

        def __init__(self, event: PhaseEvent) -> None:
            super().__init__()
            self.event = event

    class ExportRequested(Message):
        """The night could not be played: save it to a sound file instead."""

    def __init__(self, game: GameSetup, runner: PhaseRunner, autostart: bool) -> None:
        super().__init__()
        self.game = game
        self.runner = runner
        self.script = runner.script
        self.autostart = autostart
        self._unsubscribe: Callable[[], None] | None = None
        self._finish_pending = False

    # -- for subclasses -------------------------------------------------------------
    def refresh_view(self) -> None:
        """Show the current step, the progress and the times."""

    def script_finished(self) -> None:
        if self.app.screen is self:
            self.dismiss("finished")
        else:  # a dialog (help, settings, "stop?") is open: go on when it closes
            self._finish_pending = True

    def on_screen_resume(self) -> None:
        if self._finish_pending:
            self._finish_pending = False
            self.dismiss("finished")

    # -- state, read from the runner --------------------------------------------------
    def state(self) -> PhaseState:
        return self.runner.state()

    def failure_line(self, state: PhaseState) -> str:
        """The one line a failed phase shows, in plain words."""
        error = say_problem(state.error or "")
        if self.script.phase == "night":
            return t("The night could not be played: {error}").format(error=error)
        return t("The day could not be played: {error}").format(error=error)

    # -- lifecycle -------------------------------------------------------------------
    def on_mount(self) -> None:
        self._unsubscribe = self.runner.subscribe(self._heard)
        self.set_interval(0.1, self.refresh_view)
        self.refresh_view()
        if self.autostart:
            self.runner.start()

    def _heard(self, event: PhaseEvent) -> None:
        self.post_message(self.PhaseChanged(event))  # thread-safe in Textual

    def on_unmount(self) -> None:
        self.halt()
        # Textual keeps its widgets' style caches alive in an lru_cache(1024) keyed by
        # the cache object itself (`StylesCache.get_inner_outer`): every screen of the
        # evening stays in memory until 1024 pile up (~1 MB a night in the soak).
        # A phase screen is a good moment to let them go.
        clear_style_caches()

    def halt(self) -> None:
        """Silence at once and stop listening (the runner frees its playbacks)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.runner.close()

    def on_script_screen_phase_changed(self, message: PhaseChanged) -> None:
        event = message.event
        if event.kind == "notice" and event.text:
            self.notify(event.text, title=t("Sound"), severity="warning", timeout=8)
        self.refresh_view()
        self.refresh_bindings()
        if event.kind == "finished":
            self.script_finished()

    # -- actions ---------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.runner.state()
        if action == "skip":
            return state.status in ("running", "paused")
        if action == "start_pause":
            return state.status in ("ready", "running", "paused")
        if action in ("retry", "export"):
            return state.status == "failed"
        return True

    def action_start_pause(self) -> None:
        self.runner.toggle()
        self.refresh_view()

    def action_skip(self) -> None:
        self.runner.skip()
        self.refresh_view()

    def action_retry(self) -> None:
        self.runner.retry()
        self.refresh_view()
        self.refresh_bindings()

    def action_export(self) -> None:
        self.post_message(self.ExportRequested())

    def action_stop(self) -> None:
        state = self.runner.state()
        if not state.started or state.done or state.status == "failed":
            self.halt()
            self.dismiss("stopped")
            return

        def answered(stop: bool | None) -> None:
            if stop:
                self.halt()
                self.dismiss("stopped")

        # The night goes on while the question is asked: nobody has to open their eyes.
        if self.script.phase == "night":
            question = t("Stop the night? The calls end at once.")
        else:
            question = t("Stop the day? The calls end at once.")
        self.app.push_screen(ConfirmDialog(question), answered)
