"""The Textual internals narrator relies on are still there (narrator/tui/
textual_internals.py): a Textual upgrade that moves one fails here, by name, instead
of bringing back the 2 MB-a-night leak in silence."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType

from narrator.tui.textual_internals import FooterKey, missing, prune_watchers
from narrator.tui.widgets.footer import Footer
from tests.tui.conftest import sync


class _Probe(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "bell", "A key the footer shows")]

    def compose(self) -> ComposeResult:
        yield Footer()


@sync
async def test_every_internal_is_still_there() -> None:
    app = _Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        footer = app.query_one(Footer)
        assert footer.query(FooterKey)  # the footer drew its key, and watches it
        assert missing(footer) == []
        assert FooterKey.__name__ == "FooterKey"
        prune_watchers(footer)  # runs on a live widget without error
        await pilot.pause()
