"""PackFileDialog: where a voice pack's zip is written, or read from; dismisses a path.

The path is only checked for its suffix here; whether the file can be written or is a
good pack is the worker's to find out (and to say, in one line).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from narrator.i18n import N_
from narrator.tui.text import NarratorFooter, shape, t


class PackFileDialog(ModalScreen[Path | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, question: str, default: Path | None, button: str) -> None:
        super().__init__()
        self.question = question
        self.default = default
        self.button = button

    def compose(self) -> ComposeResult:
        with Vertical(id="export"):
            yield Label(shape(self.question))
            yield Input(str(self.default or ""), placeholder="voice.zip", id="path")
            yield Static("", id="export-error")
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
        text = self.query_one(Input).value.strip()
        path = Path(text).expanduser()
        if not text or path.suffix.lower() != ".zip":
            wrong = t("A voice pack is a .zip file.")
            self.query_one("#export-error", Static).update(f"[red]{shape(wrong)}[/]")
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
