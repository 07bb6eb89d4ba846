"""The game systems as data: the ruleset model, its YAML loader and selection checks.

Pure: imports neither Textual nor any audio library (a test checks `sys.modules`).
"""

from __future__ import annotations

from narrator.rules.catalog import Catalog, get_ruleset, load_catalog, shipped_dir, user_dir
from narrator.rules.errors import (
    MissingPart,
    NarratorError,
    RulesetError,
    SelectionError,
    UnknownRuleset,
)
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
