"""CallView: the current call, large enough to read from across the table.

Persian is drawn right-aligned and, on terminals that do not do bidi, wrapped in
reading order and then put in visual order line by line (see `narrator.tui.text`).
"""

from __future__ import annotations

from textual.widgets import Static

from narrator.tui.text import align, block, shape


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
        width = self.content_region.width or max(20, self.app.size.width - 12)
        align(self)
        self.update(block(text, width))
        self.border_title = shape(who)
