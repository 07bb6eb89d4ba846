"""ConfirmDialog: a yes/no question; dismisses True or False."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from narrator.i18n import N_
from narrator.tui.text import NarratorFooter, shape, t


class ConfirmDialog(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(shape(self.question))
            with Horizontal(id="confirm-buttons"):
                yield Button(shape(t("Yes (y)")), variant="error", id="yes")
                yield Button(shape(t("No (n)")), variant="primary", id="no")
        yield NarratorFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
