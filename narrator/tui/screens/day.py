"""DayScreen: wake-up, the discussion timer, the vote, then the next night.

The day's script comes from the core; this screen runs its timers (adjustable with
+/- while they run, warnings spoken at their moments) and waits for the table where
the script says so. The tie rule stays on screen for the whole vote.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Digits, Label, ProgressBar, Static

from narrator.i18n import N_
from narrator.script import Say, Timer, Wait
from narrator.session.events import PhaseState
from narrator.session.segments import branch_target, clock
from narrator.tui.playing import ScriptScreen
from narrator.tui.text import NarratorFooter, block, rtl, shape, t
from narrator.tui.widgets.call_view import CallView

ADJUST = 30.0  # seconds added or taken by + and -


class DayScreen(ScriptScreen):
    """The day after night `game.night`; dismisses "finished" or "stopped"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "go_on", N_("Go on")),
        Binding("b", "branch", N_("Take the shortcut")),
        Binding("plus,equals_sign", "adjust(1)", N_("+30 s"), key_display="+"),
        Binding("minus", "adjust(-1)", N_("-30 s"), key_display="-"),
        Binding("n", "next_night", N_("Next night")),
        Binding("g", "new_game", N_("New game")),
    ]

    class NextNightRequested(Message):
        """The day is over and the table wants the next night."""

    class NewGameRequested(Message):
        """The game is over; back to choosing a game."""

    def compose(self) -> ComposeResult:
        vote = self.game.ruleset.day.vote
        # The core names each step's stage, in the game's language.
        self.stage_names = list(self.script.stages) or [""] * len(self.script.steps)
        what = t("Rounds") if self.script.rounds else t("Day {day}").format(day=self.game.night)
        yield Static(shape(f"{what} · {self.game.title}"), id="title")
        yield Static("", id="stages")
        yield Digits("", id="timer")
        yield CallView(id="call")
        if vote is not None:
            tie = t("Tie: {rule}").format(rule=vote.tie_rule.get(self.game.lang))
            yield Static(block(tie, max(20, self.app.size.width - 4)), id="tie-rule")
        with Horizontal(id="progress-row"):
            yield ProgressBar(total=100, show_eta=False, show_percentage=True, id="progress")
            yield Label("", id="times")
        yield NarratorFooter()

    def script_finished(self) -> None:
        pass  # the table decides: next night or a new game

    def _stage_strip(self, state: PhaseState) -> str:
        order: list[str] = []
        for name in self.stage_names:
            short = name.split(" · ")[0]
            if short not in order:
                order.append(short)
        current = None
        if state.step is not None and state.started and not state.done:
            current = self.stage_names[state.step].split(" · ")[0]
        if rtl():  # read right to left: the first stage rightmost
            parts = [f"[reverse] {shape(n)} [/]" if n == current else shape(n) for n in order]
            return " ‹ ".join(reversed(parts))
        parts = [f"[reverse] {n} [/]" if n == current else n for n in order]
        return " › ".join(parts)

    def refresh_view(self) -> None:
        state = self.state()
        self.query_one("#stages", Static).update(self._stage_strip(state))
        call = self.query_one(CallView)
        digits = self.query_one("#timer", Digits)
        digits.display = state.countdown is not None
        if state.countdown is not None:
            digits.update(clock(state.countdown))
        paused = " · " + t("paused") if state.paused else ""
        if not state.started:
            call.show(t("Press space to start the day."), t("Ready"))
        elif state.status == "failed":
            call.show(self.failure_line(state), t("Stopped · r to retry"))
        elif state.done:
            if self.game.has_next_night:
                over = t("The day is over. Press n for night {night}.")
                call.show(over.format(night=self.game.night + 1), t("Done"))
            else:
                call.show(t("The game is over. Press g for a new game."), t("Done"))
        else:
            index = state.step or 0
            step = self.script.steps[index]
            stage = self.stage_names[index]
            if isinstance(step, Wait) and step.branch:
                go_on = t("enter: go on")
                call.show(step.text, f"{stage} · {go_on} · b: {step.branch}")
            elif isinstance(step, Wait):
                go_on = t("press enter to go on")
                call.show(step.text, f"{stage} · {go_on}")
            elif isinstance(step, Timer):
                call.show(step.label, stage + paused)
            else:
                text = next(
                    (
                        s.text
                        for s in reversed(self.script.steps[: index + 1])
                        if isinstance(s, Say)
                    ),
                    "…",
                )
                call.show(text, stage + paused)
        total = max(state.total, 0.001)
        self.query_one(ProgressBar).update(progress=100 * state.elapsed / total)
        self.query_one("#times", Label).update(
            shape(
                t("{elapsed} elapsed · {left} left").format(
                    elapsed=clock(state.elapsed), left=clock(total - state.elapsed)
                )
            )
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "export":
            return False  # a day has no sound file to make
        state = self.state()
        if action == "go_on":
            return state.waiting or not state.started
        if action == "adjust":
            return state.countdown is not None
        if action == "branch":
            return branch_target(self.runner.segments, self.runner.segment) is not None
        if action == "next_night":
            return state.done and self.game.has_next_night
        if action == "new_game":
            return state.done and not self.game.has_next_night
        return super().check_action(action, parameters)

    def action_go_on(self) -> None:
        self.runner.go_on()
        self.refresh_view()

    def action_branch(self) -> None:
        self.runner.branch()
        self.refresh_view()

    def action_adjust(self, sign: int) -> None:
        self.runner.adjust(sign * ADJUST)
        self.refresh_view()

    def action_next_night(self) -> None:
        self.post_message(self.NextNightRequested())

    def action_new_game(self) -> None:
        self.post_message(self.NewGameRequested())
