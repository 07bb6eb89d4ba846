"""PackFileDialog: where a voice pack's zip is written, or read from (a `FormDialog`).

The path is only checked for its suffix here; whether the file can be written or is a
good pack is the worker's to find out (and to say, in one line).
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.widgets import Input, Label

from narrator.tui.screens.form import AnswerRefused, FormDialog
from narrator.tui.text import shape, t


class PackFileDialog(FormDialog[Path]):
    def __init__(self, question: str, default: Path | None, button: str) -> None:
        super().__init__(button)
        self.question = question
        self.default = default

    def fields(self) -> ComposeResult:
        yield Label(shape(self.question))
        yield Input(str(self.default or ""), placeholder="voice.zip", id="path")

    def answer(self) -> Path:
        text = self.query_one(Input).value.strip()
        path = Path(text).expanduser()
        if not text or path.suffix.lower() != ".zip":
            raise AnswerRefused(t("A voice pack is a .zip file."))
        return path
