"""CallView: the current call, large enough to read from across the table."""

from __future__ import annotations

from textual.widgets import Static


class CallView(Static):
    DEFAULT_CSS = """
    CallView {
        height: 1fr;
        min-height: 5;
        content-align: center middle;
        text-align: center;
        text-style: bold;
        padding: 1 4;
        border: round $primary;
        border-title-align: center;
    }
    """

    def show(self, text: str, who: str = "") -> None:
        self.update(text)
        self.border_title = who
