"""The game systems as data: the ruleset model, its YAML loader and selection checks.

Pure: imports neither Textual nor any audio library (a test checks `sys.modules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.base.lazy import lazy_exports

if TYPE_CHECKING:
    from narrator.rules.catalog import Catalog as Catalog
    from narrator.rules.catalog import get_ruleset as get_ruleset
    from narrator.rules.catalog import load_catalog as load_catalog
    from narrator.rules.decks import Dealing as Dealing
    from narrator.rules.decks import Dealt as Dealt
    from narrator.rules.decks import build_deck as build_deck
    from narrator.rules.decks import deal as deal
    from narrator.rules.decks import dealing as dealing
    from narrator.rules.decks import describe_dealing as describe_dealing
    from narrator.rules.errors import RulesetError as RulesetError
    from narrator.rules.errors import SelectionError as SelectionError
    from narrator.rules.errors import UnknownRuleset as UnknownRuleset
    from narrator.rules.loader import load_ruleset as load_ruleset
    from narrator.rules.loader import parse_ruleset as parse_ruleset
    from narrator.rules.model import Role as Role
    from narrator.rules.model import Ruleset as Ruleset
    from narrator.rules.model import Text as Text
    from narrator.rules.selection import Problems as Problems
    from narrator.rules.selection import Report as Report
    from narrator.rules.selection import check_selection as check_selection
    from narrator.rules.selection import parse_roles as parse_roles
    from narrator.rules.selection import recommended as recommended

# Loaded when first asked for: the app draws its games list from a kept index
# (`narrator.rules.index`) before any ruleset is parsed, and `narrator.rules.errors`
# comes without the loader and the model's forty classes (issue 18).
__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "catalog": ("Catalog", "get_ruleset", "load_catalog"),
        "errors": ("RulesetError", "SelectionError", "UnknownRuleset"),
        "decks": ("Dealing", "Dealt", "build_deck", "deal", "dealing", "describe_dealing"),
        "loader": ("load_ruleset", "parse_ruleset"),
        "model": ("Role", "Ruleset", "Text"),
        "selection": ("Problems", "Report", "check_selection", "parse_roles", "recommended"),
    },
)
