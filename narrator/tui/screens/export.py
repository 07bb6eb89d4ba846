"""ExportDialog: ask where to write the night as a sound file."""

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

SUFFIXES = (".wav", ".flac", ".ogg", ".mp3")


class ExportDialog(ModalScreen[Path | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="export"):
            yield Label(shape(t("Export the night to a sound file (.wav, .flac, .ogg or .mp3):")))
            yield Input(str(self.default), id="path")
            yield Static("", id="export-error")
            with Horizontal(id="export-buttons"):
                yield Button(shape(t("Export")), variant="primary", id="ok")
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
        path = Path(self.query_one(Input).value.strip()).expanduser()
        if path.suffix.lower() not in SUFFIXES:
            self.query_one("#export-error", Static).update(
                f"[red]The name must end in {', '.join(SUFFIXES)}[/]"
            )
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
