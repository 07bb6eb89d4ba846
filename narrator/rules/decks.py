"""The deck of a game and how it reaches the players: the plan and its execution.

`build_deck` makes a recommended deck for a number of players; `dealing` says how a
chosen deck is dealt (how many removed unseen, from which roles, how many dealt and
set aside), `deal` deals it (pure: the randomness is passed in), and
`describe_dealing` says it in one sentence for a table dealing by hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from narrator.i18n import gettext, ngettext
from narrator.rules.model import Deck, Ruleset

Roles = tuple[tuple[str, int], ...]


def build_deck(ruleset: Ruleset, deck: Deck, players: int) -> dict[str, int]:
    """The deck of `deck` for `players` players, before the discard.

    Roles from `add_in_order` are added until the deck holds players + extra_min
    (+ discard) cards; a base that already holds more is fine up to players +
    extra_max (+ discard): Secret Moon's one deck of 8 serves 5 to 8 players.
    """
    target = players + ruleset.setup.extra_min + deck.discard
    most = players + ruleset.setup.extra_max + deck.discard
    counts = dict(deck.base)
    adds = iter(deck.add_in_order)
    while sum(counts.values()) < target:
        role_id = next(adds, None)
        if role_id is None:
            raise ValueError(
                f"the deck for {players} players needs {target} cards but "
                f"'add_in_order' runs out at {sum(counts.values())}; add roles to it"
            )
        counts[role_id] = counts.get(role_id, 0) + 1
    if not target <= sum(counts.values()) <= most:
        want = f"{target}" if target == most else f"{target} to {most}"
        raise ValueError(
            f"the deck for {players} players has {sum(counts.values())} cards; it needs {want}"
        )
    for role_id, count in counts.items():
        if count > ruleset.role(role_id).max_count:
            raise ValueError(
                f"the deck for {players} players holds {count} x '{role_id}', more "
                f"than its max of {ruleset.role(role_id).max_count}"
            )
    return counts


@dataclass(frozen=True, slots=True)
class Dealing:
    """How the chosen cards reach the players.

    `discard` cards are first removed at random, unseen -- only from among
    `discard_from` when that is set (empty: any card may go) -- then one card goes
    to each player and the `aside` others stay face down in the centre.
    """

    cards: int
    discard: int
    discard_from: tuple[str, ...]
    dealt: int
    aside: int


def dealing(ruleset: Ruleset, players: int, roles: Roles) -> Dealing:
    """The dealing of a valid choice of `roles` for `players`."""
    cards = sum(n for _, n in roles)
    deck = next((d for d in ruleset.setup.decks if d.min_players <= players <= d.max_players), None)
    discard = 0
    if deck is not None and deck.discard:
        # The deck's removal applies to a deck as full as the recommended one
        # (Secret Moon with 5 players: all 8 cards, then one goes); a table that
        # already left cards out removes only what is over the limit.
        full = sum(build_deck(ruleset, deck, players).values())
        most = players + ruleset.setup.extra_max
        discard = deck.discard if cards >= full else min(deck.discard, max(0, cards - most))
    chosen = dict(roles)
    pool = tuple(r for r in deck.discard_from if chosen.get(r)) if deck and discard else ()
    return Dealing(cards, discard, pool, players, cards - discard - players)


@dataclass(frozen=True, slots=True)
class Dealt:
    """The cards as dealt: one to each player, in seat order; the ones set aside face
    down (One Night's centre), in order; the ones removed unseen before the deal."""

    cards: tuple[str, ...]
    unseen: tuple[str, ...]
    removed: tuple[str, ...]


def deal(ruleset: Ruleset, players: int, chosen: Roles, rng: random.Random) -> Dealt:
    """Deal a valid choice of `chosen` roles to `players`, as `dealing` plans it: the
    deck shuffled, the ruleset's unseen removal first (Lupus with 7: any card; Secret
    Moon with 5: the Priestess or a Guard, each role as likely, finding 29), the roles
    required in every game put among the cards dealt, then one card each and the rest
    aside. Every draw is from `rng` (the table's `secrets.SystemRandom`; a test's
    seeded `random.Random`)."""
    deck = [role for role, count in chosen for _ in range(count)]
    rng.shuffle(deck)
    plan = dealing(ruleset, players, chosen)
    removed = []
    for _ in range(plan.discard):
        if plan.discard_from:  # one of these roles, each as likely
            role = rng.choice([r for r in plan.discard_from if r in deck])
            pool = [i for i, card in enumerate(deck) if card == role]
        else:
            pool = list(range(len(deck)))
        removed.append(deck.pop(rng.choice(pool)))
    _deal_required(deck, players, ruleset.setup.required, rng)
    return Dealt(tuple(deck[:players]), tuple(deck[players:]), tuple(removed))


def _deal_required(
    deck: list[str], players: int, required: tuple[str, ...], rng: random.Random
) -> None:
    """Put one card of each `required` role among the first `players` of a shuffled
    deck (the cards dealt), swapping it with a dealt card that is not required: the
    ruleset's roles that are in every game (Wherewolf: the Seer and the Pack Leader)
    are dealt, never left aside with the Possible roles nobody holds."""
    for role in required:
        if role in deck[:players] or role not in deck:
            continue
        free = [i for i in range(players) if deck[i] not in required]
        if not free:
            return
        here, there = rng.choice(free), deck.index(role, players)
        deck[here], deck[there] = deck[there], deck[here]


def describe_dealing(ruleset: Ruleset, deal: Dealing, roles: Roles, lang: str = "en") -> str:
    """The dealing in one sentence, as `narrator setup` and the app say it."""
    names_lang = lang if lang in ruleset.languages else "en"
    parts = []
    if deal.discard:
        if deal.discard_from:
            # One of these roles, each as likely (Secret Moon with 5: the Priestess or
            # a Guard, a choice between two; audit 3, finding 29).
            names = ", ".join(ruleset.role(r).name.get(names_lang) for r in deal.discard_from)
            text = ngettext(
                lang,
                "Shuffle one card of each, face down: {names}; remove {n} of them, unseen.",
                "Shuffle one card of each, face down: {names}; remove {n} of them, unseen.",
                deal.discard,
            )
            parts.append(text.format(n=deal.discard, names=names))
        else:
            text = ngettext(
                lang,
                "Remove {n} card at random, unseen, from all {cards} cards.",
                "Remove {n} cards at random, unseen, from all {cards} cards.",
                deal.discard,
            )
            parts.append(text.format(n=deal.discard, cards=deal.cards))
    if deal.aside:
        text = gettext(
            lang, "Deal {dealt}, one to each player, and set {aside} aside face down in the centre."
        )
    else:
        text = gettext(lang, "Deal {dealt}, one to each player.")
    parts.append(text.format(dealt=deal.dealt, aside=deal.aside))
    return " ".join(parts)
