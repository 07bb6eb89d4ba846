"""A package's names loaded when first asked for (PEP 562), written once.

A package that re-exports its modules' names (`narrator.rules.Ruleset`) would import
every module the moment it is imported; the app's first frame and `narrator.rules.errors`
must come without the loader, the model or numpy (issue 18). So a package lists where
each name lives, and the name is imported from there when first asked for:

    if TYPE_CHECKING:  # what type checkers and readers see
        from narrator.rules.model import Role as Role, Ruleset as Ruleset

    __getattr__, __all__ = lazy_exports(__name__, {"model": ("Role", "Ruleset")})

(`X as X` marks the name as the package's own for mypy's strict re-export rule.)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Mapping
from typing import Any


class LazyNames:
    """A package's `__getattr__`: each name imported from its module on first use, then
    kept in the package like an ordinary attribute."""

    def __init__(self, package: str, homes: Mapping[str, Iterable[str]]) -> None:
        self.package = package
        self._home = {name: module for module, names in homes.items() for name in names}

    @property
    def names(self) -> list[str]:
        return sorted(self._home)

    def home(self, name: str) -> str:
        """The full name of the module `name` is defined in."""
        return f"{self.package}.{self._home[name]}"

    def __call__(self, name: str) -> Any:
        if name not in self._home:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(self.home(name)), name)
        setattr(sys.modules[self.package], name, value)  # asked once, then a plain name
        return value


def lazy_exports(package: str, homes: Mapping[str, Iterable[str]]) -> tuple[LazyNames, list[str]]:
    """The `__getattr__` and `__all__` of `package`, whose names live in its modules:
    `homes` maps each module (its name inside the package) to the names it offers."""
    names = LazyNames(package, homes)
    return names, names.names
