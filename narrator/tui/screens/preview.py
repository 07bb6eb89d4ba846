"""PreviewScreen: the night as a list of calls with times and its total length.

Times are estimates for speech (from the words and the speaking rate) and exact for
silences. A role's action time is edited right here: put the cursor on its row and
press + or -. Where there is no sound device, Play is off and Export is offered.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from narrator.i18n import N_
from narrator.script import Pause, Say, Script
from narrator.script.render_text import describe, timed_steps, total_seconds
from narrator.session.game import GameSetup
from narrator.session.segments import clock
from narrator.tui.text import NarratorFooter, follow, say_problem, shape, t, tn

STEP = 5.0  # seconds per + or - on an action time


class PreviewScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign", "time(1)", N_("+5 s"), key_display="+"),
        Binding("minus", "time(-1)", N_("-5 s"), key_display="-"),
        Binding("l", "language", N_("Language")),
        Binding("t", "turn_time", N_("Turn time")),
        Binding("e", "export", N_("Export")),
        Binding("space", "play", N_("Play")),
        Binding("escape", "back", N_("Back")),
    ]

    class PlayRequested(Message):
        pass

    class ExportRequested(Message):
        pass

    class NightChanged(Message):
        """The night shown changed (its language, a time): the app prepares its calls."""

    class ActionTimeChanged(Message):
        def __init__(self, role_id: str, seconds: float) -> None:
            super().__init__()
            self.role_id = role_id
            self.seconds = seconds

    def __init__(self, game: GameSetup, wpm: int, audio_problem: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.wpm = wpm
        self.audio_problem = audio_problem
        self.script: Script = game.script("night")

    def compose(self) -> ComposeResult:
        yield Static("", id="title")
        table: DataTable[str | Text] = DataTable(id="calls", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", id="summary")
        yield Static("", id="voice-ready")
        yield NarratorFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(t("at"), t("who"), t("call"))
        self.show()
        table.focus()

    def show(self) -> None:
        game = self.game
        self.script = game.script("night")
        players = tn("{n} player", "{n} players", game.players).format(n=game.players)
        night = t("Preview · night {night}").format(night=game.night)
        language = t("language {code}").format(code=game.lang)
        self.query_one("#title", Static).update(
            shape(f"{night} · {game.title} · {players} · {language}")
        )
        table: DataTable[str | Text] = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for index, (start, step) in enumerate(timed_steps(self.script, self.wpm)):
            who = shape(game.name(step.role) if step.role else t("everyone"))
            if isinstance(step, Pause) and step.role:
                act = t("{seconds} s to act  (+/- to change)").format(seconds=f"{step.seconds:g}")
                what: str | Text = Text(shape(act), "bold")
            elif isinstance(step, Say):
                what = shape(step.text, game.lang)
            else:
                what = Text(describe(step), "dim")
            table.add_row(clock(start), who, what, key=str(index))
        if self.script.steps:
            table.move_cursor(row=min(row, len(self.script.steps) - 1))
        total = total_seconds(self.script, self.wpm)
        steps = tn("{n} step", "{n} steps", len(self.script.steps))
        lines = [
            shape(
                t("Total ≈ {time}").format(time=clock(total))
                + " · "
                + steps.format(n=len(self.script.steps))
            )
        ]
        if game.ruleset.rounds is not None:
            limit = game.turn_seconds
            limit_text = (
                t("the ruleset's")
                if limit is None
                else (t("none") if not limit else f"{limit:g} s")
            )
            lines.append(
                shape(t("Turn time limit (day): {limit} · t to change").format(limit=limit_text))
            )
        lines += [f"[yellow]! {w}[/]" for w in self.script.warnings]
        if self.audio_problem:
            problem = t("No sound: {problem}. Press e to export instead.")
            lines.append(
                f"[red]{shape(problem.format(problem=say_problem(self.audio_problem)))}[/]"
            )
        self.query_one("#summary", Static).update("\n".join(lines))
        self.refresh_bindings()
        self.post_message(self.NightChanged())

    def set_voice_ready(self, line: str) -> None:
        """How far the night's calls are prepared (empty: nothing to say)."""
        ready = self.query_one("#voice-ready", Static)
        ready.update(line)
        ready.display = bool(line)

    def set_audio_problem(self, problem: str | None) -> None:
        self.audio_problem = problem
        self.show()

    def _cursor_turn(self) -> str | None:
        """The turn key of the highlighted row if it is a role's action time, else None.

        The n-th role-timed pause of the script is the n-th of `game.timed_turns()`:
        a role's own turn ("seer") or a follow-up ("doppelganger:1b")."""
        table: DataTable[str | Text] = self.query_one(DataTable)
        if not self.script.steps:
            return None
        row = min(table.cursor_row, len(self.script.steps) - 1)
        step = self.script.steps[row]
        if not (isinstance(step, Pause) and step.role):
            return None
        before = sum(isinstance(s, Pause) and bool(s.role) for s in self.script.steps[:row])
        keys = self.game.timed_turns()
        return keys[before] if before < len(keys) else step.role

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play":
            return True if self.audio_problem is None else None
        if action == "turn_time":
            return self.game.ruleset.rounds is not None
        if action == "language":
            return len(self.game.ruleset.languages) > 1
        return True

    def action_time(self, sign: int) -> None:
        key = self._cursor_turn()
        if key is None:
            self.notify(t("Put the cursor on a role's action time (a bold row)."))
            return
        table: DataTable[str | Text] = self.query_one(DataTable)
        step = self.script.steps[table.cursor_row]
        written = step.seconds / self.game.pace if isinstance(step, Pause) else 0.0
        current = self.game.action_times.get(key, written)
        self.game.set_action_time(key, current + sign * STEP)
        self.post_message(self.ActionTimeChanged(key, self.game.action_times[key]))
        self.show()

    def action_language(self) -> None:
        langs = self.game.ruleset.languages
        self.game.lang = langs[(langs.index(self.game.lang) + 1) % len(langs)]
        follow(self.game.lang)
        self.show()

    def action_turn_time(self) -> None:
        choices: list[float | None] = [None, 0.0, 30.0, 60.0, 90.0, 120.0]
        index = choices.index(self.game.turn_seconds) if self.game.turn_seconds in choices else 0
        self.game.turn_seconds = choices[(index + 1) % len(choices)]
        self.show()

    def action_export(self) -> None:
        self.post_message(self.ExportRequested())

    def action_play(self) -> None:
        self.post_message(self.PlayRequested())

    def action_back(self) -> None:
        self.dismiss()
