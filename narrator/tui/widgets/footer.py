"""Footer: Textual's footer without its leak over a long evening.

Each time a screen's bindings change (every segment of a night or a day) Textual's
Footer recomposes its keys, and every old `FooterKey` stays referenced by the
`compact` watcher it left on the footer (Textualize/textual#6666: watchers are only
pruned when the watched value changes, and `compact` never does). Over an evening
that is thousands of dead widgets -- the soak saw RSS grow ~2 MB a night. This
footer prunes the watchers of keys no longer attached after each recompose.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    async def recompose(self) -> None:
        await super().recompose()
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        for entries in watchers.values():
            entries[:] = [(owner, call) for owner, call in entries if owner.is_attached]
