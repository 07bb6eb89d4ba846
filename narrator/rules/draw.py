"""A random deck drawn only from the boxes a table owns, and the tokens a deck needs.

Pure: the randomness comes in as a `random.Random`, so the same seed draws the same
deck. The draw keeps every rule `check_selection` knows (counts, pairs, roles that
need another), and it holds one of every `must_contain` rule's roles, warning or
not (a random game always has someone to hunt).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from narrator.rules.decks import Roles
from narrator.rules.errors import SelectionError
from narrator.rules.model import Ruleset
from narrator.rules.selection import (
    check_known,
    check_players,
    check_selection,
    recommended,
)

_TRIES = 400


def check_boxes(ruleset: Ruleset, boxes: tuple[str, ...]) -> None:
    for box in boxes:
        check_known(ruleset.id, "box", box, tuple(b for b, _ in ruleset.boxes))


def random_deck(
    ruleset: Ruleset, players: int, boxes: tuple[str, ...], rng: random.Random
) -> Roles:
    """A valid deck for `players` from the roles of `boxes` (all boxes if empty).

    The one random-deck drawer (the command line's `setup --random` and the app's
    `x`). A ruleset with boxes (One Night): cards are drawn one role at a time (a pair
    role as its pair) until the deck holds players + the extra cards; a draw that
    breaks a rule is thrown away and drawn again. A ruleset without boxes keeps its
    recommended deck's team sizes (as many werewolves as the recommended deck), its
    required roles in. A deck with no warnings is preferred to one with warnings.
    """
    check_players(ruleset, players)
    if not ruleset.boxes:
        return _keeping_team_sizes(ruleset, players, rng)
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

    def draws() -> Iterator[Roles]:
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
            yield tuple((r, counts[r]) for r in ruleset.role_ids if r in counts)

    deck = _best(ruleset, players, draws())
    if deck is not None:
        return deck
    raise SelectionError(
        f"no valid deck for {players} players from the boxes {', '.join(boxes) or 'owned'}; "
        "add a box (one with werewolves, vampires or aliens) or choose the roles yourself"
    )


def _keeping_team_sizes(ruleset: Ruleset, players: int, rng: random.Random) -> Roles:
    setup = ruleset.setup
    try:
        base, _ = recommended(ruleset, players)
    except SelectionError:
        base = ()
    sizes: dict[str, int] = {}
    for role_id, count in base:
        team = ruleset.role(role_id).team
        sizes[team] = sizes.get(team, 0) + count
    if not sizes:
        sizes = {"": players + rng.randint(setup.extra_min, setup.extra_max)}

    def draws() -> Iterator[Roles]:
        for _ in range(_TRIES):
            counts = _draw_teams(ruleset, rng, sizes)
            yield tuple((r, counts[r]) for r in ruleset.role_ids if counts.get(r))

    deck = _best(ruleset, players, draws())
    if deck is not None:
        return deck
    raise SelectionError(f"no valid random deck for {players} players; choose the roles yourself")


def _best(ruleset: Ruleset, players: int, decks: Iterable[Roles]) -> Roles | None:
    """The first of `decks` with no errors and no warnings, else the first with
    warnings only, else None. Stops at the first clean deck (the draws behind
    `decks` are taken only as far as that)."""
    fallback: Roles | None = None
    for deck in decks:
        report = check_selection(ruleset, players, deck)
        if report.errors:
            continue
        if not report.warnings:
            return deck
        fallback = fallback or deck
    return fallback


def _draw_teams(ruleset: Ruleset, rng: random.Random, sizes: dict[str, int]) -> dict[str, int]:
    counts = {r: 1 for r in ruleset.setup.required}
    for team, size in sizes.items():
        pool = [r for r in ruleset.roles if not team or r.team == team]
        left = size - sum(n for r, n in counts.items() if ruleset.role(r).team == team)
        while left > 0 and pool:
            role = rng.choice(pool)
            step = 2 if role.id in ruleset.setup.pairs else 1
            if counts.get(role.id, 0) + step > role.max_count or step > left:
                pool.remove(role)
                continue
            counts[role.id] = counts.get(role.id, 0) + step
            left -= step
    return counts


def tokens_needed(ruleset: Ruleset, roles: Roles) -> tuple[tuple[str, int], ...]:
    """The tokens to put on the table for this deck: (token id, how many) -- those a
    chosen role brings whose `when` holds with the options as they start (the bonus
    packs' artifacts only with their option)."""
    chosen = frozenset(r for r, n in roles if n > 0)
    options = frozenset(o.id for o in ruleset.options if o.kind == "flag" and o.default)
    return tuple(
        (t.id, t.count)
        for t in ruleset.tokens
        if chosen.intersection(t.roles) and t.when.holds(chosen, 1, None, options)
    )
