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
from textual.widgets import Digits, Footer, Label, ProgressBar, Static

from narrator.script import Say, Script, Timer, Wait
from narrator.session.segments import branch_target, clock, stages
from narrator.tui.playing import ScriptScreen
from narrator.tui.widgets.call_view import CallView

ADJUST = 30.0  # seconds added or taken by + and -


class DayScreen(ScriptScreen):
    """The day after night `game.night`; dismisses "finished" or "stopped"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "go_on", "Go on"),
        Binding("b", "branch", "Take the shortcut"),
        Binding("plus,equals_sign", "adjust(1)", "+30 s", key_display="+"),
        Binding("minus", "adjust(-1)", "-30 s", key_display="-"),
        Binding("n", "next_night", "Next night"),
        Binding("g", "new_game", "New game"),
    ]

    class NextNightRequested(Message):
        """The day is over and the table wants the next night."""

    class NewGameRequested(Message):
        """The game is over; back to choosing a game."""

    def build_script(self) -> Script:
        return self.game.script("day")

    def compose(self) -> ComposeResult:
        vote = self.game.ruleset.day.vote
        self.stage_names = stages(self.script, vote.style if vote else None)
        what = "Rounds" if self.script.rounds else f"Day {self.game.night}"
        yield Static(f"{what} · {self.game.title}", id="title")
        yield Static("", id="stages")
        yield Digits("", id="timer")
        yield CallView(id="call")
        if vote is not None:
            yield Static(f"Tie: {vote.tie_rule.get(self.game.lang)}", id="tie-rule")
        with Horizontal(id="progress-row"):
            yield ProgressBar(total=100, show_eta=False, show_percentage=True, id="progress")
            yield Label("", id="times")
        yield Footer()

    def script_finished(self) -> None:
        pass  # the table decides: next night or a new game

    def _stage_strip(self) -> str:
        order: list[str] = []
        for name in self.stage_names:
            short = name.split(" · ")[0]
            if short not in order:
                order.append(short)
        current = None
        if self.step_index is not None and self.started and not self.done:
            current = self.stage_names[self.step_index].split(" · ")[0]
        parts = [f"[reverse] {n} [/]" if n == current else n for n in order]
        return " › ".join(parts)

    def refresh_view(self) -> None:
        self.query_one("#stages", Static).update(self._stage_strip())
        call = self.query_one(CallView)
        digits = self.query_one("#timer", Digits)
        now = self.clock.now()
        digits.display = self.countdown is not None
        if self.countdown is not None:
            digits.update(clock(self.countdown.remaining(now)))
        if not self.started:
            call.show("Press space to start the day.", "Ready")
        elif self.done:
            if self.game.has_next_night:
                call.show(f"The day is over. Press n for night {self.game.night + 1}.", "Done")
            else:
                call.show("The game is over. Press g for a new game.", "Done")
        else:
            index = self.step_index or 0
            step = self.script.steps[index]
            stage = self.stage_names[index]
            if isinstance(step, Wait) and step.branch:
                call.show(step.text, f"{stage} · enter: go on · b: {step.branch}")
            elif isinstance(step, Wait):
                call.show(step.text, f"{stage} · press enter to go on")
            elif isinstance(step, Timer):
                call.show(step.label, stage + (" · paused" if self.paused else ""))
            else:
                text = next(
                    (
                        s.text
                        for s in reversed(self.script.steps[: index + 1])
                        if isinstance(s, Say)
                    ),
                    "…",
                )
                call.show(text, stage + (" · paused" if self.paused else ""))
        total = max(self.total(), 0.001)
        elapsed = total if self.done else self.elapsed()
        self.query_one(ProgressBar).update(progress=100 * elapsed / total)
        self.query_one("#times", Label).update(
            f"{clock(elapsed)} elapsed · {clock(total - elapsed)} left"
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "go_on":
            segment = self.segment
            return (segment is not None and segment.kind == "wait") or not self.started
        if action == "adjust":
            return self.countdown is not None
        if action == "branch":
            return branch_target(self.segments, self.segment) is not None
        if action == "next_night":
            return self.done and self.game.has_next_night
        if action == "new_game":
            return self.done and not self.game.has_next_night
        return super().check_action(action, parameters)

    def action_go_on(self) -> None:
        if not self.started:
            self.begin()
        elif self.segment is not None and self.segment.kind == "wait":
            self.next_segment()

    def action_branch(self) -> None:
        target = branch_target(self.segments, self.segment)
        if target is not None:
            for skipped in range(self.seg_index + 1, target):
                self.lengths[skipped] = 0.0  # not played
            self.seg_index = target - 1
            self.next_segment()

    def action_adjust(self, sign: int) -> None:
        if self.countdown is not None:
            self.countdown.adjust(sign * ADJUST, self.clock.now())
            self.refresh_view()

    def action_next_night(self) -> None:
        self.post_message(self.NextNightRequested())

    def action_new_game(self) -> None:
        self.post_message(self.NewGameRequested())
