"""FormDialog: the app's dialogs that ask for an answer and check it before closing.

The night's export, a voice pack's zip and a new voice are one layout: the question's
fields, one line saying what is wrong with the answer (empty until then), the button
that answers and Cancel, the footer. Enter in a field answers as the button does,
Escape and Cancel dismiss None. A dialog says what it asks (`fields`) and how its
answer is read (`answer`: the value, or `AnswerRefused` with the line to show); the
frame's and the line's ids name their styles in app.tcss. Files are the workers'
business: a dialog only checks the shape of what was typed.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from narrator.i18n import N_
from narrator.tui.text import NarratorFooter, shape, t

T = TypeVar("T")


class AnswerRefused(Exception):
    """The answer cannot be taken as typed: str() is the line shown (translated)."""


class FormDialog(ModalScreen[T | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]
    FRAME: ClassVar[str] = "export"  # the frame's id: its size and border (app.tcss)
    ERROR: ClassVar[str] = "export-error"  # the refusal's line

    def __init__(self, button: str) -> None:
        super().__init__()
        self.button = button  # the answering button's label, translated

    def fields(self) -> ComposeResult:
        """The question and its fields, above the refusal's line and the buttons."""
        raise NotImplementedError

    def answer(self) -> T:
        """The answer as typed, or `AnswerRefused` with what is wrong with it."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(id=self.FRAME):
            yield from self.fields()
            yield Static("", id=self.ERROR)
            with Horizontal(id="export-buttons"):
                yield Button(shape(self.button), variant="primary", id="ok")
                yield Button(shape(t("Cancel")), id="cancel")
        yield NarratorFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._finish()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._finish()
        else:
            self.dismiss(None)

    def _finish(self) -> None:
        try:
            value = self.answer()
        except AnswerRefused as why:
            self.query_one(f"#{self.ERROR}", Static).update(Text(shape(str(why)), style="red"))
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)
