"""Footer: Textual's footer without its leak over a long evening.

Each time a screen's bindings change (every segment of a night or a day) Textual's
Footer recomposes its keys, and every old `FooterKey` stays referenced by the
`compact` watcher it left on the footer (Textualize/textual#6666: watchers are only
pruned when the watched value changes, and `compact` never does). Over an evening
that is thousands of dead widgets -- the soak saw RSS grow ~2 MB a night. This
footer prunes the watchers of keys no longer attached after each recompose.
"""

from __future__ import annotations

from textual.widgets import Footer as TextualFooter

from narrator.tui.textual_internals import prune_watchers


class Footer(TextualFooter):
    async def recompose(self) -> None:
        await super().recompose()
        prune_watchers(self)
