"""A player's side at the end, and the tokens that lie beside the cards.

One Night's boxes add layers to the seed's "your side is the card in front of you"
(«نقش هر بازیکن را کارتی که اکنون جلوی خود دارد تعیین می‌کند»). `side(seat)` is the
one place that reads them, for every win rule and every vote rule; the first layer
that applies decides:

1. an artifact on the player's card that `becomes` a role (the Claw of the
   Werewolf): the player is that role -- for winning, and for the vote: the card's
   own powers are lost (a Bodyguard with the Brand of the Villager shields nobody);
2. a mark in front of the player that `becomes` a role (the Mark of the Vampire):
   the player counts as that role for winning, and keeps the card's own powers;
3. a role the rules turned the player into (the Cursed a werewolf voted for): it
   stays with the player;
4. the card: the role it was copied into (the Doppelganger's, or what the Paranormal
   Investigator became: it moves with the card), else the role printed on it.

What a look shows is never this: it is the printed card (`Card.role`) -- whoever
looks at the Doppelganger's card sees the Doppelganger. What a player's vote and
death powers are (`power_role`) is the card's role unless an artifact changed it.

The tokens (`Tokens`) are the engine's state: each player's mark, the artifacts on
the cards and the stack of artifacts still face down, drawn at the deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from narrator.moderator.board import Card, MoveError
from narrator.rules.model import Token
from narrator.rules.powers import Match

if TYPE_CHECKING:
    from narrator.moderator.game import Game


@dataclass
class Tokens:
    """What lies beside the cards (seats 0-based)."""

    marks: dict[int, str] = field(default_factory=dict)  # the mark in front of a player
    artifacts: dict[int, str] = field(default_factory=dict)  # the artifact on a card
    stack: list[str] = field(default_factory=list)  # artifacts still face down, top first
    turned: dict[int, str] = field(default_factory=dict)  # a role the rules turned it into
    # players who looked at a mark that keeps them asleep (the Mark of Fear): they do
    # not wake for their role's calls from then on
    asleep: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Side:
    """Whom a player counts as at the end: a role (its tags), and its team."""

    role: str
    team: str


def token(game: Game, token_id: str) -> Token:
    for t in game.ruleset.tokens:
        if t.id == token_id:
            return t
    raise KeyError(token_id)


def _becomes(game: Game, token_id: str | None) -> str:
    return token(game, token_id).becomes if token_id else ""


def power_role(game: Game, seat: int) -> str:
    """The role whose vote and death powers the player has at the end: the card's,
    unless an artifact on it made them another role."""
    return _becomes(game, game.tokens.artifacts.get(seat)) or game.seats[seat].card.identity


def side(game: Game, seat: int) -> Side:
    """Whom the player counts as for winning: artifact, mark, turned, then the card."""
    tokens = game.tokens
    role = (
        _becomes(game, tokens.artifacts.get(seat))
        or _becomes(game, tokens.marks.get(seat))
        or tokens.turned.get(seat)
        or game.seats[seat].card.identity
    )
    return Side(role, game.ruleset.role(role).team)


def counts(game: Game, seat: int, match: Match) -> bool:
    """Whether the player matches: a mark or an artifact they hold, or their side."""
    if match.mark:
        return game.tokens.marks.get(seat) == match.mark
    if match.artifact:
        return game.tokens.artifacts.get(seat) == match.artifact
    now = side(game, seat)
    if match.team:
        return now.team == match.team
    return game.matches(now.role, match)


def reached(game: Game, seat: int) -> list[int]:
    """The other players within the reach of the card in front of `seat` (`reach`:
    the Blob's body, the Mortician's neighbours), in seat order."""
    left, right = game.seats[seat].card.reach
    n = len(game.seats)
    near = {(seat + k) % n for k in range(1, left + 1)}
    near |= {(seat - k) % n for k in range(1, right + 1)}
    return sorted(near - {seat})


def epic(game: Game) -> bool:
    """Whether the vote's epic battle is on: players of three or more of the groups
    `outcome: vote: epic` names are at the table at the end (dead or alive, by side)."""
    outcome = game.ruleset.outcome
    groups = outcome.vote.epic if outcome is not None else ()
    seats = range(len(game.seats))
    return sum(any(counts(game, i, g) for i in seats) for g in groups) >= 3


def has_power(game: Game, seat: int, match: Match) -> bool:
    """Whether the player's vote and death powers are those of a role matching (a
    mark or an artifact is matched as held)."""
    if match.mark or match.artifact:
        return counts(game, seat, match)
    return game.matches(power_role(game, seat), match)


def deal(game: Game, artifacts: Sequence[str] | None, rng: random.Random) -> None:
    """What the deal puts beside the cards: each role's spare card (after the
    centre), every player's starting mark, and the artifacts' stack -- `artifacts`
    in that order (a replay), else those the game uses, shuffled."""
    chosen = game.chosen()
    for role_id in sorted(chosen, key=game.ruleset.role_ids.index):
        powers = game.powers(role_id)
        if powers is not None and powers.spare:
            game.centre.append(Card(powers.spare, spare=True))
    brought = [t for t in game.ruleset.tokens if chosen & set(t.roles)]
    for t in brought:
        if t.kind == "mark" and t.everyone:
            game.tokens.marks = dict.fromkeys(range(len(game.seats)), t.id)
    used = [
        t.id
        for t in brought
        if t.kind == "artifact" and t.when.holds(chosen, 1, None, game.options)
    ]
    if artifacts is None:
        stack = list(used)
        rng.shuffle(stack)
    else:
        stack = list(artifacts)
        kinds = [t.id for t in game.ruleset.tokens if t.kind == "artifact"]
        for name in stack:
            if name not in kinds:
                raise MoveError(f"'{name}' is not an artifact of {game.ruleset.id}")
    game.tokens.stack = stack
