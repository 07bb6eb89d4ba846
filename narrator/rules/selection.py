"""Checks on a chosen set of players and roles, and the recommended decks.

Each check says, in plain words, what is wrong and how to fix it; the same messages
appear on the command line and in the app as the user edits the selection.
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.rules.errors import SelectionError, did_you_mean
from narrator.rules.loader import build_deck
from narrator.rules.model import Ruleset

Roles = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Report:
    errors: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


def parse_roles(spec: str, ruleset: Ruleset) -> Roles:
    """`doppelganger,werewolf:2` -> (("doppelganger", 1), ("werewolf", 2))."""
    counts: dict[str, int] = {}
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        role_id, _, count_text = item.partition(":")
        role_id = role_id.strip().lower().replace("-", "_").replace(" ", "_")
        if role_id not in ruleset.role_ids:
            raise SelectionError(
                f"'{ruleset.id}' has no role '{role_id}'{did_you_mean(role_id, ruleset.role_ids)}"
                f" (see: narrator roles {ruleset.id})"
            )
        try:
            count = int(count_text) if count_text else 1
        except ValueError:
            raise SelectionError(
                f"'{item}': the count after ':' must be a whole number, as in werewolf:2"
            ) from None
        if count < 1:
            raise SelectionError(f"'{item}': the count must be 1 or more")
        counts[role_id] = counts.get(role_id, 0) + count
    if not counts:
        raise SelectionError("--roles is empty; name roles as in werewolf:2,seer")
    return tuple(counts.items())


def recommended(ruleset: Ruleset, players: int) -> tuple[Roles, int]:
    """The recommended deck for `players` and how many cards to discard unseen."""
    check_players(ruleset, players)
    for deck in ruleset.setup.decks:
        if deck.min_players <= players <= deck.max_players:
            counts = build_deck(ruleset, deck, players)
            ordered = tuple((r, counts[r]) for r in ruleset.role_ids if r in counts)
            return ordered, deck.discard
    raise SelectionError(
        f"'{ruleset.id}' recommends no deck for {players} players; choose the roles with --roles"
    )


def check_players(ruleset: Ruleset, players: int) -> None:
    low, high = ruleset.setup.min_players, ruleset.setup.max_players
    if not low <= players <= high:
        raise SelectionError(
            f"'{ruleset.id}' is for {low} to {high} players, not {players}; "
            f"choose --players between {low} and {high}"
        )


def check_selection(ruleset: Ruleset, players: int, roles: Roles) -> Report:
    """Every problem with this choice of players and roles (errors) or worth a look."""
    errors: list[str] = []
    warnings: list[str] = []
    setup = ruleset.setup
    counts = dict(roles)
    names = {r.id: r.name.get("en") for r in ruleset.roles}
    try:
        check_players(ruleset, players)
    except SelectionError as exc:
        errors.append(str(exc))
    for role_id, count in counts.items():
        if role_id not in names:
            errors.append(f"'{ruleset.id}' has no role '{role_id}'{did_you_mean(role_id, names)}")
            continue
        most = ruleset.role(role_id).max_count
        if count > most:
            errors.append(f"{names[role_id]}: {count} chosen, but the game has at most {most}")
    cards = sum(counts.values())
    # A recommended deck may hold `discard` more cards, removed unseen before dealing
    # (Lupus with 7 players: the 8-card deck, one card set aside).
    discard = max(
        (d.discard for d in setup.decks if d.min_players <= players <= d.max_players), default=0
    )
    low, high = players + setup.extra_min, players + setup.extra_max + discard
    if not low <= cards <= high:
        want = f"{low}" if low == high else f"{low} to {high}"
        extra = f" (players + {setup.extra_min})" if low == high and setup.extra_min else ""
        errors.append(f"{players} players need {want} cards{extra}; {cards} chosen")
    if setup.warn_over_factor and cards > players * setup.warn_over_factor:
        warnings.append(
            f"{cards} possible roles for {players} players is more than "
            f"{setup.warn_over_factor:g} times the players; the game may drag"
        )
    for role_id in setup.pairs:
        count = counts.get(role_id, 0)
        if count % 2:
            errors.append(f"{names[role_id]} cards come in pairs; choose 2 or none, not {count}")
    for need in setup.needs:
        if need.role in counts and not any(r in counts for r in need.any_of):
            listed = [names[r] for r in need.any_of]
            others = " or ".join(filter(None, (", ".join(listed[:-1]), listed[-1])))
            text = f"{names[need.role]} is only useful with {others}; add one or drop it"
            (errors if need.level == "error" else warnings).append(text)
    for role_id in setup.required:
        if role_id not in counts:
            errors.append(f"{names[role_id]} is required in every game; add it")
    return Report(tuple(errors), tuple(warnings))
