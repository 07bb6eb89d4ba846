"""Where rulesets come from: the ones shipped with narrator and the user's own.

The user's YAML files live in `<user config dir>/narrator/rulesets/` (platformdirs;
`XDG_CONFIG_HOME` respected). A user's file with the id of a shipped ruleset
replaces it, so a group can change an order or a line without forking narrator. A
broken file is reported by name and never stops the others from loading -- nor any
command: even a failure the loader did not foresee makes that one file broken.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import platformdirs

from narrator.rules.errors import RulesetError, UnknownRuleset, did_you_mean
from narrator.rules.loader import load_ruleset
from narrator.rules.model import Ruleset


def shipped_dir() -> Path:
    """The rulesets inside an installed wheel, or the checkout's top-level rulesets/."""
    packaged = Path(str(resources.files("narrator"))) / "rulesets"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rulesets"


def user_dir() -> Path:
    return Path(platformdirs.user_config_dir("narrator")) / "rulesets"


@dataclass
class Catalog:
    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    broken: list[RulesetError] = field(default_factory=list)
    user_ids: set[str] = field(default_factory=set)

    def get(self, ruleset_id: str) -> Ruleset:
        if ruleset_id in self.rulesets:
            return self.rulesets[ruleset_id]
        for error in self.broken:
            if error.path is not None and error.path.stem == ruleset_id:
                raise error
        known = sorted(self.rulesets)
        raise UnknownRuleset(
            f"no ruleset '{ruleset_id}' (installed: {', '.join(known) or 'none'})"
            f"{did_you_mean(ruleset_id, known)}"
        )


def load_catalog(*dirs: Path) -> Catalog:
    """Load every `*.yaml` of the shipped folder, then the user's (or `dirs`)."""
    catalog = Catalog()
    for folder, is_user in ((shipped_dir(), False), *((d, True) for d in dirs or (user_dir(),))):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.y*ml")):
            try:
                ruleset = load_ruleset(path)
            except RulesetError as exc:
                catalog.broken.append(exc)
                continue
            except Exception as exc:  # a loader bug must not stop every command
                catalog.broken.append(
                    RulesetError(f"cannot be loaded ({type(exc).__name__}); please report it", path)
                )
                continue
            catalog.rulesets[ruleset.id] = ruleset
            if is_user:
                catalog.user_ids.add(ruleset.id)
    return catalog


def get_ruleset(ruleset_id: str) -> Ruleset:
    """A shipped or user ruleset by id; UnknownRuleset names the closest id."""
    return load_catalog().get(ruleset_id)
