"""A random deck drawn only from the boxes a table owns, and the tokens a deck needs.

Pure: the randomness comes in as a `random.Random`, so the same seed draws the same
deck. The draw keeps every rule `check_selection` knows (counts, pairs, roles that
need another), and it holds one of every `must_contain` rule's roles, warning or
not (a random game always has someone to hunt).
"""

from __future__ import annotations

import random

from narrator.rules.errors import SelectionError
from narrator.rules.model import Ruleset
from narrator.rules.selection import Roles, check_known, check_players, check_selection

_TRIES = 400


def check_boxes(ruleset: Ruleset, boxes: tuple[str, ...]) -> None:
    for box in boxes:
        check_known(ruleset.id, "box", box, tuple(b for b, _ in ruleset.boxes))


def random_deck(
    ruleset: Ruleset, players: int, boxes: tuple[str, ...], rng: random.Random
) -> Roles:
    """A valid deck for `players` from the roles of `boxes` (all boxes if empty).

    Cards are drawn one role at a time (a pair role as its pair) until the deck
    holds players + the extra cards; a draw that breaks a rule is thrown away and
    drawn again. A deck with no warnings is preferred to one with warnings.
    """
    check_players(ruleset, players)
    check_boxes(ruleset, boxes)
    setup = ruleset.setup
    size = players + setup.extra_min
    units: list[tuple[str, int]] = []
    for role in ruleset.roles:
        if boxes and role.box not in boxes:
            continue
        if role.id in setup.pairs:
            units.append((role.id, 2))
        else:
            units += [(role.id, 1)] * role.max_count
    if sum(n for _, n in units) < size:
        raise SelectionError(
            f"the boxes {', '.join(boxes) or 'owned'} hold {sum(n for _, n in units)} cards; "
            f"{players} players need {size}: add a box or choose fewer players"
        )
    fallback: Roles | None = None
    for _ in range(_TRIES):
        rng.shuffle(units)
        counts: dict[str, int] = {}
        total = 0
        for role_id, n in units:
            if total + n <= size:
                counts[role_id] = counts.get(role_id, 0) + n
                total += n
        if total != size:
            continue
        if not all(any(r in counts for r in req.any_of) for req in setup.must_contain):
            continue
        deck = tuple((r, counts[r]) for r in ruleset.role_ids if r in counts)
        report = check_selection(ruleset, players, deck)
        if report.errors:
            continue
        if not report.warnings:
            return deck
        fallback = fallback or deck
    if fallback is not None:
        return fallback
    raise SelectionError(
        f"no valid deck for {players} players from the boxes {', '.join(boxes) or 'owned'}; "
        "add a box (one with werewolves, vampires or aliens) or choose the roles yourself"
    )


def tokens_needed(ruleset: Ruleset, roles: Roles) -> tuple[tuple[str, int], ...]:
    """The tokens to put on the table for this deck: (token id, how many)."""
    chosen = {r for r, n in roles if n > 0}
    return tuple((t.id, t.count) for t in ruleset.tokens if chosen.intersection(t.roles))
