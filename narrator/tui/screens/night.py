"""NightScreen: one key starts the night; then it runs to the end on its own.

Nobody watches the screen during the night, but whoever peeks sees the current call
in large type, whose turn it is, a progress bar and the time elapsed and left.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar, Static

from narrator.script import Say
from narrator.session.segments import clock
from narrator.tui.playing import ScriptScreen
from narrator.tui.text import NarratorFooter, shape, t, tn
from narrator.tui.widgets.call_view import CallView


class NightScreen(ScriptScreen):
    """The night of `game.night`: calls, silences and the tapping bed."""

    def compose(self) -> ComposeResult:
        game = self.game
        what = t("Opening call") if self.script.rounds else t("Night {night}")
        players = tn("{n} player", "{n} players", game.players).format(n=game.players)
        title = f"{what.format(night=game.night)} · {game.title} · {players}"
        yield Static(shape(title), id="title")
        roles = ", ".join(
            f"{game.name(r)}" + (f" ×{n}" if n > 1 else "") for r, n in self.script.roles
        )
        prefix = (
            t("Possible roles (each is called, dealt or not)") if game.many_nights else t("Roles")
        )
        yield Static(shape(f"{prefix}: {roles}"), id="roles")
        yield CallView(id="call")
        with Horizontal(id="progress-row"):
            yield ProgressBar(total=100, show_eta=False, show_percentage=True, id="progress")
            yield Label("", id="times")
        yield NarratorFooter()

    def refresh_view(self) -> None:
        state = self.state()
        call = self.query_one(CallView)
        if not state.started:
            call.show(
                t("Press space to start night {night}, then close your eyes.").format(
                    night=self.game.night
                ),
                t("Ready"),
            )
        elif state.status == "failed":
            call.show(self.failure_line(state), t("Stopped · r to retry · e to export"))
        elif state.done:
            call.show(t("The night is over."), t("Done"))
        else:
            index = state.step or 0
            text, role = "", None
            for step in self.script.steps[: index + 1]:
                if isinstance(step, Say):
                    text, role = step.text, step.role
            who = self.game.name(role) if role else t("Everyone")
            if state.paused:
                who += " · " + t("paused")
            call.show(text or "…", who)
        total = max(state.total, 0.001)
        elapsed = state.elapsed if state.started else 0.0
        self.query_one(ProgressBar).update(progress=100 * elapsed / total)
        self.query_one("#times", Label).update(
            shape(
                t("{elapsed} elapsed · {left} left").format(
                    elapsed=clock(elapsed), left=clock(total - elapsed)
                )
            )
        )
