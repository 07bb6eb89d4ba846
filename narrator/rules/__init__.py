"""The game systems as data: the ruleset model, its YAML loader and selection checks.

Pure: imports neither Textual nor any audio library (a test checks `sys.modules`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from narrator.rules.catalog import Catalog, get_ruleset, load_catalog
    from narrator.rules.errors import (
        MissingPart,
        NarratorError,
        RulesetError,
        SelectionError,
        UnknownRuleset,
    )
    from narrator.rules.folders import shipped_dir, user_dir
    from narrator.rules.loader import build_deck, load_ruleset, parse_ruleset
    from narrator.rules.model import Role, Ruleset, Text
    from narrator.rules.selection import (
        Dealing,
        Report,
        check_selection,
        dealing,
        describe_dealing,
        parse_roles,
        recommended,
    )

# Loaded when first asked for (PEP 562): the app draws its games list from a kept
# index (`narrator.rules.index`) before any ruleset is parsed, and `narrator.rules.errors`
# comes without the loader and the model's forty classes (issue 18).
_HOME = {
    "Catalog": "catalog",
    "Dealing": "selection",
    "MissingPart": "errors",
    "NarratorError": "errors",
    "Report": "selection",
    "Role": "model",
    "Ruleset": "model",
    "RulesetError": "errors",
    "SelectionError": "errors",
    "Text": "model",
    "UnknownRuleset": "errors",
    "build_deck": "loader",
    "check_selection": "selection",
    "dealing": "selection",
    "describe_dealing": "selection",
    "get_ruleset": "catalog",
    "load_catalog": "catalog",
    "load_ruleset": "loader",
    "parse_roles": "selection",
    "parse_ruleset": "loader",
    "recommended": "selection",
    "shipped_dir": "folders",
    "user_dir": "folders",
}
__all__ = [
    "Catalog",
    "Dealing",
    "MissingPart",
    "NarratorError",
    "Report",
    "Role",
    "Ruleset",
    "RulesetError",
    "SelectionError",
    "Text",
    "UnknownRuleset",
    "build_deck",
    "check_selection",
    "dealing",
    "describe_dealing",
    "get_ruleset",
    "load_catalog",
    "load_ruleset",
    "parse_roles",
    "parse_ruleset",
    "recommended",
    "shipped_dir",
    "user_dir",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'narrator.rules' has no attribute {name!r}")
    return getattr(importlib.import_module(f"narrator.rules.{_HOME[name]}"), name)
