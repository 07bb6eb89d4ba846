"""The three places narrator reaches into Textual's internals, kept here and nowhere
else, each with why and the upstream reference. Textual is pinned (pyproject); when
an upgrade moves one of them, `tests/tui/test_textual_internals.py` fails and names
it -- nothing here swallows an AttributeError in silence.

- `FooterKey` (textual.widgets._footer): the footer's key widget, not exported by
  `textual.widgets`; the help screen lists the keys the footer shows.
- the `__watchers` of a widget: Textual keeps the watchers a recomposed Footer's old
  keys left behind (Textualize/textual#6666); pruned after every recompose, or the
  soak grows ~2 MB a night.
- `StylesCache.get_inner_outer` (textual._styles_cache), an `lru_cache` keyed by each
  widget's cache: cleared when a phase screen goes, or it keeps ~1 MB a night.
"""

from __future__ import annotations

from typing import Any

from textual._styles_cache import StylesCache
from textual.widgets._footer import FooterKey

__all__ = ["FooterKey", "clear_style_caches", "missing", "prune_watchers"]

WATCHERS = "__watchers"


def prune_watchers(widget: Any) -> None:
    """Drop the watchers on `widget` whose owner is no longer attached (a widget
    nobody has watched yet has none: Textual creates the dict on the first watch)."""
    watchers: dict[str, list[tuple[Any, Any]]] = getattr(widget, WATCHERS, {})
    for entries in watchers.values():
        entries[:] = [(owner, call) for owner, call in entries if owner.is_attached]


def clear_style_caches() -> None:
    StylesCache.get_inner_outer.cache_clear()


def missing(widget: Any) -> list[str]:
    """The internals above that this Textual no longer has (for the test)."""
    gone = []
    if not hasattr(StylesCache, "get_inner_outer") or not hasattr(
        StylesCache.get_inner_outer, "cache_clear"
    ):
        gone.append("textual._styles_cache.StylesCache.get_inner_outer.cache_clear")
    if not isinstance(getattr(widget, WATCHERS, None), dict):
        gone.append("Widget.__watchers (a dict of watcher lists)")
    return gone
