"""GameOptionsScreen: the boxes the table owns and the ruleset's options.

A dialog over one ruleset: a switch per box (One Night's expansions) and per
on/off option, a field per option in seconds. It dismisses `GameChoices` or None;
the app applies them to the game and saves them in the settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, Switch

from narrator.i18n import N_
from narrator.rules import Ruleset
from narrator.tui.text import NarratorFooter, shape, t


@dataclass(frozen=True)
class GameChoices:
    boxes: tuple[str, ...]
    options: dict[str, float]


class GameOptionsScreen(ModalScreen[GameChoices | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("ctrl+s", "save", N_("Save")),
    ]

    def __init__(self, ruleset: Ruleset, current: GameChoices, lang: str) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.current = current
        self.lang = lang

    def _row(self, label: str, widget: Input | Switch) -> Horizontal:
        return Horizontal(Label(shape(label), classes="field-label"), widget, classes="field")

    def compose(self) -> ComposeResult:
        rs, current = self.ruleset, self.current
        with VerticalScroll(id="settings-form"):
            title = t("{game}: game options").format(game=rs.name.get(self.lang))
            yield Static(shape(title), id="settings-title")
            if rs.boxes:
                yield Static(shape(t("Boxes you own")), classes="field-group")
                for box, name in rs.boxes:
                    owned = not current.boxes or box in current.boxes
                    yield self._row(name.get(self.lang), Switch(value=owned, id=f"box-{box}"))
            for option in rs.options:
                value = current.options.get(option.id, option.default)
                label = option.label.get(self.lang)
                if option.kind == "flag":
                    yield self._row(label, Switch(value=bool(value), id=f"opt-{option.id}"))
                else:
                    field = Input(f"{value:g}", id=f"opt-{option.id}", type="number", compact=True)
                    yield self._row(f"{label} (s)", field)
            yield Static("", id="settings-error")
            with Horizontal(id="settings-buttons"):
                yield Button(shape(t("Save")), variant="primary", id="save")
                yield Button(shape(t("Cancel")), id="cancel")
        yield NarratorFooter()

    def read_form(self) -> GameChoices:
        """The form's choices; ValueError says what is wrong."""
        boxes = tuple(
            box for box, _ in self.ruleset.boxes if self.query_one(f"#box-{box}", Switch).value
        )
        if self.ruleset.boxes and not boxes:
            raise ValueError(t("choose at least one box"))
        options: dict[str, float] = {}
        for option in self.ruleset.options:
            if option.kind == "flag":
                options[option.id] = float(self.query_one(f"#opt-{option.id}", Switch).value)
                continue
            text = self.query_one(f"#opt-{option.id}", Input).value.strip() or "0"
            try:
                seconds = float(text)
            except ValueError:
                raise ValueError(
                    t("{option}: a number, please").format(option=option.label.get(self.lang))
                ) from None
            if not 0 <= seconds <= 600:
                raise ValueError(
                    t("{option}: from 0 to 600 seconds").format(option=option.label.get(self.lang))
                )
            options[option.id] = seconds
        return GameChoices(boxes, options)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def action_save(self) -> None:
        try:
            choices = self.read_form()
        except ValueError as exc:
            self.query_one("#settings-error", Static).update(f"[red]{exc}[/]")
            return
        self.dismiss(choices)

    def action_cancel(self) -> None:
        self.dismiss(None)
