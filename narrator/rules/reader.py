"""Typed access to one YAML mapping, with file:line errors and did-you-mean for typos.

The loader reads every mapping through a `Fields` object: it hands out values of
the expected type and, when the loader is done with a mapping, `done()` reports any
key it never asked for -- so a typo in a ruleset is an error, never a silent no-op.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from narrator.base.errors import did_you_mean
from narrator.rules.errors import RulesetError
from narrator.rules.yamlio import Located

T = TypeVar("T")

# Upper bounds no real game comes near; they keep a typo (or a hostile file) from
# asking for a night of a million seconds or a loop over a billion players.
MAX_SECONDS = 3600.0
MAX_WHOLE = 1000

_TYPE_NAMES = {
    str: "text",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a mapping",
}


def type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, kind):
            return name
    return type(value).__name__


class Fields:
    """The keys of one mapping, read once each."""

    def __init__(self, data: Any, path: Path, what: str, line: int = 0):
        if not isinstance(data, dict):
            raise RulesetError(
                f"{what} must be a mapping, not {type_name(data)}", path, line or None
            )
        self.data = data
        self.path = path
        self.what = what
        self.line = data.line if isinstance(data, Located) else line
        self.seen: set[str] = set()

    def line_of(self, key: str) -> int:
        if isinstance(self.data, Located):
            return self.data.line_of(key)
        return self.line

    def error(self, key: str | None, message: str) -> RulesetError:
        line = self.line_of(key) if key is not None else self.line
        return RulesetError(message, self.path, line or None)

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = None) -> Any:
        self.seen.add(key)
        return self.data.get(key, default)

    def required(self, key: str) -> Any:
        self.seen.add(key)
        if key not in self.data:
            # A typo of the missing key is the likeliest cause: point at it.
            strays = [str(k) for k in self.data if k not in self.seen]
            close = difflib.get_close_matches(key, strays, n=1, cutoff=0.6)
            if close:
                raise self.error(
                    close[0], f"unknown key '{close[0]}' in {self.what}; did you mean '{key}'?"
                )
            raise RulesetError(f"{self.what} needs the key '{key}'", self.path, self.line or None)
        return self.data[key]

    def get(self, key: str, kind: type[T], default: T | None = None, *, need: bool = False) -> T:
        value = self.required(key) if need else self.raw(key, default)
        return self.check(key, value, kind)

    def check(self, key: str, value: Any, kind: type[T]) -> T:
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise self.error(
                key,
                f"'{key}' in {self.what} must be {_TYPE_NAMES.get(kind, kind.__name__)}, "
                f"not {type_name(value)}",
            )
        if kind is float and not math.isfinite(value):
            # YAML's .nan and .inf are floats, and pass every comparison below.
            spelled = ".nan" if math.isnan(value) else ("-.inf" if value < 0 else ".inf")
            raise self.error(key, f"'{key}' in {self.what} must be a number, not {spelled}")
        return value  # type: ignore[no-any-return]

    def number(
        self,
        key: str,
        default: float | None = None,
        *,
        low: float = 0.0,
        high: float = MAX_SECONDS,
    ) -> float:
        value = self.get(key, float, default, need=default is None)
        if value < low:
            raise self.error(key, f"'{key}' in {self.what} must be at least {low:g}, not {value:g}")
        if value > high:
            raise self.error(key, f"'{key}' in {self.what} must be at most {high:g}, not {value:g}")
        return value

    def whole(
        self, key: str, default: int | None = None, *, low: int = 0, high: int = MAX_WHOLE
    ) -> int:
        value = self.get(key, int, default, need=default is None)
        if value < low:
            raise self.error(key, f"'{key}' in {self.what} must be at least {low}, not {value}")
        if value > high:
            raise self.error(key, f"'{key}' in {self.what} must be at most {high}, not {value}")
        return value

    def ids(self, key: str) -> tuple[str, ...]:
        """A role id or a list of them."""
        value = self.raw(key, [])
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, f"'{key}' in {self.what} must be a role id or a list of ids")
        return tuple(value)

    def listed(self, key: str, item: Callable[[Any, int], T]) -> tuple[T, ...]:
        """A list whose items are read by `item(value, line)`."""
        value = self.raw(key, [])
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.error(key, f"'{key}' in {self.what} must be a list, not {type_name(value)}")
        line = self.line_of(key)
        return tuple(item(v, line_of_value(v, line)) for v in value)

    def done(self, allowed_extra: tuple[str, ...] = ()) -> None:
        """Fail on the first key nobody asked for, suggesting the closest known key."""
        known = self.seen | set(allowed_extra)
        for key in self.data:
            if key not in known:
                raise self.error(
                    key, f"unknown key '{key}' in {self.what}{did_you_mean(str(key), known)}"
                )


def line_of_value(value: Any, fallback: int) -> int:
    """The line a YAML mapping starts on, else `fallback` (a scalar knows none)."""
    return value.line if isinstance(value, Located) else fallback
