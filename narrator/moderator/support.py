"""Which decks the engine can run: a role whose powers the ruleset does not give (or
gives in a form the engine does not apply yet) is still called by the voice, but a
game that needs the engine -- a phone-dealt table, a replay -- refuses it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from narrator.rules.model import Ruleset
from narrator.rules.powers import NONE as _NONE


def unsupported_roles(ruleset: Ruleset, roles: Iterable[str]) -> str:
    """One line saying why the engine cannot run a deck of `roles`, or ""."""
    name = ruleset.name.get("en")
    if ruleset.outcome is None:
        return (
            f"the engine cannot judge {name} yet (its ruleset has no 'outcome'); "
            "play it with physical cards and the voice"
        )
    missing = []
    for role_id in dict.fromkeys(roles):
        powers = ruleset.role(role_id).powers
        if powers is None or not powers.given:
            missing.append(ruleset.role(role_id).name.get("en"))
    if not missing:
        return ""
    return (
        f"the engine cannot run {', '.join(missing)} of {name} yet (no 'does' in the "
        "ruleset); take them out of the deck, or play with physical cards and the voice"
    )


def flags(ruleset: Ruleset, chosen: Mapping[str, object] | None = None) -> frozenset[str]:
    """The ruleset's on/off options that are on: those `chosen` on (a scenario's
    `options`), else by their default -- as the voice's script says them (One Night's
    lone wolf peeks at a centre card unless the table turned it off)."""
    chosen = chosen or {}
    on = set()
    for option in ruleset.options:
        if option.kind != "flag":
            continue
        value = chosen.get(option.id, option.default)
        if value is True or (not isinstance(value, bool) and value):
            on.add(option.id)
    return frozenset(on)


def runnable_roles(ruleset: Ruleset) -> list[str]:
    """The roles of `ruleset` the engine runs (for docs and the set-up screens)."""
    if ruleset.outcome is None:
        return []
    return [r.id for r in ruleset.roles if not unsupported_roles(ruleset, [r.id])]


def stand_ins(ruleset: Ruleset, deck: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """The deck with every role the engine cannot run replaced by a card of the same
    team it can -- a powerless one first (a Villager, a Gangster), else the team's
    first; a team with none (Wherewolf's Traitor) takes the ruleset's first powerless
    card -- for a table whose phones deal the recommended deck. When a count would go
    over a card's maximum the deck stays as it was, and `unsupported_roles` refuses it
    with one line."""
    deck = list(deck)  # read twice: a generator would come back empty
    runnable = runnable_roles(ruleset)
    plain = [r for r in runnable if _plain(ruleset, r)]
    counts: dict[str, int] = {}
    for role_id, n in deck:
        if role_id not in runnable:
            team = ruleset.role(role_id).team
            mates = [r for r in runnable if ruleset.role(r).team == team]
            role_id = ([r for r in mates if r in plain] or mates or plain or [role_id])[0]
        counts[role_id] = counts.get(role_id, 0) + n
    if any(n > ruleset.role(r).max_count for r, n in counts.items()):
        return deck
    return [(r, counts[r]) for r in ruleset.role_ids if r in counts]


def _plain(ruleset: Ruleset, role_id: str) -> bool:
    """A card that does nothing at all: no power, no death's power, nobody else's."""
    powers = ruleset.role(role_id).powers or _NONE
    return not (powers.abilities or powers.does_as or powers.on_death)
