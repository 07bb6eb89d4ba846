"""Footer: Textual's footer, drawn again only when what it shows changed, and without
its leak over a long evening.

Textual's Footer recomposes its keys each time a screen's bindings are refreshed --
every segment of a night, every focus change -- whether or not a key changed, and each
new key is styled three times as it mounts (`FooterKey.compact` starts True, its watcher
adds the `-compact` class, the footer's binding sets it False and the watcher takes the
class off: each a restyle of the key and its two parts). In the app's tests that was a
fifth of the CPU. This footer:

- recomposes only when what it would show differs from what it shows (the keys, their
  words in the app's language, enabled or not, the footer's own settings);
- gives each new key the footer's `compact` value and class before it mounts, so its
  watcher and the binding find nothing to change (the command palette's key, which
  is not bound to the footer, is styled as Textual styles it).

And every old `FooterKey` stayed referenced by the `compact` watcher it left on the
footer (Textualize/textual#6666: watchers are only pruned when the watched value
changes, and `compact` never does): over an evening, thousands of dead widgets -- the
soak saw RSS grow ~2 MB a night. The watchers of keys no longer attached are pruned
after each recompose.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from narrator.tui.textual_internals import FooterKey, prune_watchers


class Footer(TextualFooter):
    def __init__(
        self, *children: Widget, words: Callable[[], Hashable] = lambda: None, **options: Any
    ) -> None:
        """`words`: what, besides the bindings, changes the keys' text (the app's
        language): the footer is drawn again when it changes too."""
        super().__init__(*children, **options)
        self._words = words
        self._shown: Hashable = None  # what the keys on screen show; None: nothing yet

    def _showing(self) -> Hashable:
        """What a compose would show now; None while the bindings are not ready."""
        if not self._bindings_ready or not self.is_attached:
            return None
        return (
            self._words(),
            self.compact,
            self.show_command_palette,
            tuple(
                (binding.key, binding.description, binding.action, binding.group, enabled, tip)
                for _node, binding, enabled, tip in self.screen.active_bindings.values()
                if binding.show
            ),
        )

    def compose(self) -> ComposeResult:
        keys: Iterable[Widget] = super().compose()
        for widget in keys:
            # Already what the footer's binding and the key's watcher would make it
            # (the command palette's key is not bound to the footer: left as it is).
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    async def recompose(self) -> None:
        showing = self._showing()
        if showing is not None and showing == self._shown:
            return
        await super().recompose()
        self._shown = showing
        prune_watchers(self)
