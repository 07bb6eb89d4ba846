"""ExportDialog: ask where to write the night as a sound file (a `FormDialog`)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.widgets import Input, Label

from narrator.tui.screens.form import AnswerRefused, FormDialog
from narrator.tui.text import shape, t

SUFFIXES = (".wav", ".flac", ".ogg", ".mp3")


class ExportDialog(FormDialog[Path]):
    def __init__(self, default: Path) -> None:
        super().__init__(t("Export"))
        self.default = default

    def fields(self) -> ComposeResult:
        yield Label(shape(t("Export the night to a sound file (.wav, .flac, .ogg or .mp3):")))
        yield Input(str(self.default), id="path")

    def answer(self) -> Path:
        path = Path(self.query_one(Input).value.strip()).expanduser()
        if path.suffix.lower() not in SUFFIXES:
            wrong = t("The name must end in {suffixes}").format(suffixes=", ".join(SUFFIXES))
            raise AnswerRefused(wrong)
        return path
