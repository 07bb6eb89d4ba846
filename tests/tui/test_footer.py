"""The footer (narrator/tui/widgets/footer.py) is drawn again only when what it shows
changed, and its new keys mount already styled as Textual's own footer leaves them.

Textual's footer recomposed on every refresh of the bindings (each segment of a
night, each focus change) and restyled each new key twice as it mounted: a fifth of
the app's CPU in its tests."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.widgets import Footer as TextualFooter

from narrator.tui.textual_internals import FooterKey
from narrator.tui.widgets.footer import Footer
from tests.tui.conftest import sync

WORDS = {"lang": "en"}


class _Probe(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "bell", "Ring"),
        Binding("y", "toggle", "Toggle"),
    ]

    def __init__(self, footer: TextualFooter) -> None:
        super().__init__()
        self.footer = footer
        self.allowed = True

    def compose(self) -> ComposeResult:
        yield self.footer

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return (True if self.allowed else None) if action == "bell" else True  # None: dimmed

    def action_toggle(self) -> None:
        pass


def _keys(app: App[None]) -> list[FooterKey]:
    return list(app.query(FooterKey))


@sync
async def test_a_refresh_that_changes_nothing_leaves_the_keys_and_a_change_draws_them() -> None:
    app = _Probe(Footer(words=lambda: WORDS["lang"]))
    async with app.run_test() as pilot:
        await pilot.pause()
        first = _keys(app)
        assert [k.description for k in first if k.key in "xy"] == ["Ring", "Toggle"]
        for _ in range(3):
            app.refresh_bindings()
            await pilot.pause()
        assert _keys(app) == first  # the same widgets: nothing was drawn again
        app.allowed = False  # a key turns disabled: drawn again, dimmed
        app.refresh_bindings()
        await pilot.pause()
        ring = next(k for k in _keys(app) if k.key == "x")
        assert ring not in first and ring.has_class("-disabled")
        second = _keys(app)
        WORDS["lang"] = "it"  # the app's language changed: its words are drawn again
        try:
            app.refresh_bindings()
            await pilot.pause()
            assert not set(_keys(app)) & set(second)
        finally:
            WORDS["lang"] = "en"


@pytest.mark.parametrize("compact", [False, True])
@sync
async def test_new_keys_mount_styled_once_as_textual_s_own_footer_leaves_them(
    compact: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs = _Probe(TextualFooter(compact=compact))
    async with theirs.run_test() as pilot:
        await pilot.pause()
        expected = [(k.key, sorted(k.classes), k.compact) for k in _keys(theirs)]
    restyled: list[DOMNode] = []
    update = App.update_styles

    def counted(app: App[None], node: DOMNode, animate: bool = True) -> None:
        restyled.append(node)
        update(app, node, animate)

    monkeypatch.setattr(App, "update_styles", counted)
    ours = _Probe(Footer(compact=compact))
    async with ours.run_test() as pilot:
        await pilot.pause()
        assert [(k.key, sorted(k.classes), k.compact) for k in _keys(ours)] == expected
        restyled.clear()
        ours.allowed = False  # drawn again: its new keys find nothing to change
        ours.refresh_bindings()
        await pilot.pause()
        assert any(k.has_class("-disabled") for k in _keys(ours))
        # (the command palette's key is not bound to the footer: Textual styles it)
        keys = [n for n in restyled if isinstance(n, FooterKey)]
        assert not [k for k in keys if not k.has_class("-command-palette")]
