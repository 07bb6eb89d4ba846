"""Where rulesets come from: the ones shipped with narrator and the user's own.

The user's YAML files live in `<user config dir>/narrator/rulesets/` (platformdirs;
`XDG_CONFIG_HOME` respected). A user's file with the id of a shipped ruleset
replaces it, so a group can change an order or a line without forking narrator. A
broken file is reported by name and never stops the others from loading -- nor any
command: even a failure the loader did not foresee makes that one file broken.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from narrator.base.errors import did_you_mean
from narrator.base.folders import catalog_folders, ruleset_files
from narrator.rules import index
from narrator.rules.errors import RulesetError, UnknownRuleset
from narrator.rules.loader import load_ruleset
from narrator.rules.model import Ruleset
from narrator.rules.read_common import ID


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


def load_catalog(*dirs: Path, only: str | None = None) -> Catalog:
    """Load every `*.yaml` of the shipped folder, then the user's (or `dirs`); a whole
    catalogue's games list is kept for the app's first frame (`narrator.rules.index`).

    With `only`, just the files that declare that id (found by a cheap look at their
    `id:` line; a file whose id cannot be seen that way is loaded to be sure): a
    command that plays one game does not parse the other four. If none declares it,
    everything is loaded, so the error names the closest id.
    """
    catalog = Catalog()
    folders = catalog_folders(*dirs)
    # the games list's stamp is taken before reading: a file changed meanwhile makes
    # the kept list stale, never a stale list look fresh
    at_stamp = index.stamp([folder for folder, _ in folders]) if only is None else None
    found = False
    for folder, is_user in folders:
        for path in ruleset_files(folder):
            if only is not None:
                declared = _declared_id(path)
                if declared is not None and declared != only:
                    continue
                found = found or declared == only
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
    if only is not None and not found and only not in catalog.rulesets:
        return load_catalog(*dirs)
    if at_stamp is not None:
        index.keep(index.GamesIndex.of(catalog), at_stamp)
    return catalog


_ID_LINE = re.compile(rb"^id:[ \t]*(%s)[ \t]*(?:#.*)?$" % ID.pattern.strip("^$").encode(), re.M)


def _declared_id(path: Path) -> str | None:
    """The id a ruleset file declares on a top-level `id:` line near its start, or
    None when that cannot be told without parsing it."""
    try:  # non-blocking and judged by the open file, as the loader does (a FIFO!)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = file.read(8192)
    match = _ID_LINE.search(head)
    return match.group(1).decode() if match else None


def get_ruleset(ruleset_id: str) -> Ruleset:
    """A shipped or user ruleset by id; UnknownRuleset names the closest id."""
    return load_catalog().get(ruleset_id)
