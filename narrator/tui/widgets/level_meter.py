"""LevelMeter: how loud the microphone hears the speaker, while a take is recorded.

A bar from -60 dBFS to 0, green where speech should sit, yellow when loud, red at
the top where a take clips; the number beside it. It is told the level (`show`);
it never reads a device.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.widgets import Static

FLOOR = -60.0  # dBFS at the bar's left end
LOUD = -12.0  # from here the bar turns yellow
HOT = -3.0  # ... and red: a take this loud may clip


class LevelMeter(Static):
    DEFAULT_CSS = """
    LevelMeter {
        height: 1;
        padding: 0 1;
    }
    """

    def __init__(self, label: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label
        self.level = -math.inf

    def on_mount(self) -> None:
        self.show(self.level)

    def on_resize(self) -> None:
        self.show(self.level)  # the bar fills the width it has

    def show(self, level: float, label: str | None = None) -> None:
        """Draw `level` (dBFS; -inf for silence)."""
        self.level = level
        if label is not None:
            self.label = label
        width = max(10, (self.content_region.width or 60) - len(self.label) - 12)
        fill = 0.0 if not math.isfinite(level) else min(1.0, max(0.0, 1 - level / FLOOR))
        full = round(fill * width)
        bar = Text(f"{self.label} ▕" if self.label else "▕")
        for cell in range(width):
            at = FLOOR * (1 - (cell + 0.5) / width)
            style = "red" if at >= HOT else "yellow" if at >= LOUD else "green"
            bar.append("█" if cell < full else "░", style=style if cell < full else "dim")
        shown = f"{level:5.0f} dB" if math.isfinite(level) else "   -∞ dB"
        bar.append(f"▏{shown}")
        self.update(bar)
