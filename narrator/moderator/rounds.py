"""Rounds of turns (Secret Moon): each player acts openly, once a round, in turn.

A turn is one of the ruleset's `actions:` (inspect, interrogate, accuse, hide,
disturb, capture, pass), checked here and applied through the effects' registry.
Seed 002: «ogni giocatore effettua una e una sola azione nel proprio turno» -- a
player who has acted this round, was disturbed, or is out of the game has no turn.
The turns played this round are read from the log, so a restored game knows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from narrator.i18n.phrase import Phrase
from narrator.moderator import effects
from narrator.moderator.board import MoveError, Place, Prompt, Step, Verb
from narrator.moderator.effects import Act
from narrator.moderator.log import Entry
from narrator.moderator.night import targets
from narrator.rules.powers import Ability

if TYPE_CHECKING:
    from narrator.moderator.game import Game


@dataclass
class RoundState:
    """Cards shown to everyone (a centre card too), cards hidden until the round
    ends, players who lost this round's turn, and whether the last round is over."""

    number: int = 0
    revealed: set[Place] = field(default_factory=set)
    hidden: set[Place] = field(default_factory=set)
    disturbed: set[int] = field(default_factory=set)
    over: bool = False


def begin(game: Game) -> int:
    """The next round: what was hidden shows again, every turn is back."""
    game.rounds.number += 1
    game.rounds.hidden.clear()
    game.rounds.disturbed.clear()
    return game.rounds.number


def end(game: Game) -> None:
    """The last round is over: a game with `rounds_out` is won by that team now."""
    game.rounds.over = True
    game.record(None, None, "rounds_over")


def played(game: Game) -> list[int]:
    """The seats that took a turn this round, in turn order."""
    return [
        e.seat
        for e in game.log
        if e.kind == "turn" and e.night == game.rounds.number and e.seat is not None
    ]


def has_turn(game: Game, seat: int) -> bool:
    """Whether `seat` may still take a turn this round, for the reasons everyone
    knows: in play, not disturbed, not played yet (what their card may not do is
    said only when they try)."""
    who = game.seats[seat]
    return who.alive and who.free and seat not in game.rounds.disturbed and seat not in played(game)


def action(game: Game, action_id: str) -> Ability:
    for ability in game.ruleset.actions:
        if ability.id == action_id:
            return ability
    known = ", ".join(a.id for a in game.ruleset.actions) or "none"
    raise MoveError(f"there is no action '{action_id}' (the actions: {known})")


def turn_prompt(game: Game, seat: int, action_id: str) -> Prompt:
    """What `seat` may pick for the action `action_id` on their turn."""
    ability = action(game, action_id)
    who = game.seats[seat]
    number = game.rounds.number
    if not (who.alive and who.free):
        raise MoveError(Phrase("{name} is out of the game and has no turn", name=who.name))
    if seat in game.rounds.disturbed:
        raise MoveError(Phrase("{name} was disturbed and has no turn this round", name=who.name))
    if seat in played(game):
        raise MoveError(
            Phrase(
                "{name} has already taken a turn in round {number}: one each",
                name=who.name,
                number=number,
            )
        )
    if ability.not_by is not None and game.matches(who.card.identity, ability.not_by):
        raise MoveError(
            Phrase("{name} holds a card that cannot {action}", name=who.name, action=Verb(ability))
        )
    if not ability.when.holds(game.chosen(), game.night, number, game.options):
        raise MoveError(
            Phrase(
                "{name} cannot {action}: nobody may {action} in round {number}",
                name=who.name,
                action=Verb(ability),
                number=number,
            )
        )
    needs_shown = "capture" in ability.effects
    own_too = any(p.players and not p.other for p in ability.picks)
    options: list[Place] = []
    if any(p.players for p in ability.picks):
        options += [
            Place.seat(i)
            for i, s in enumerate(game.seats)
            if (own_too or i != seat)
            and s.alive
            and s.free
            and Place.seat(i) not in game.rounds.hidden
            and (not needs_shown or Place.seat(i) in game.rounds.revealed)
        ]
    if any(p.centre for p in ability.picks):
        options += [
            Place.centre(k)
            for k in range(len(game.centre))
            if Place.centre(k) not in game.rounds.hidden
        ]
    sizes = [p.players + p.centre for p in ability.picks]
    return Prompt(
        step=f"r{number}",
        ability=ability.id,
        role="",
        min=min(sizes, default=0),
        max=max(sizes, default=0),
        options=tuple(options),
        picks=ability.picks,
        roles=game.ruleset.role_ids if any(p.role for p in ability.picks) else (),
    )


def turn(
    game: Game, seat: int, action_id: str, choice: Sequence[Place], role: str | None = None
) -> list[Entry]:
    """`seat` takes the action `action_id` on their turn, on the places `choice`,
    naming `role` (an accusation); returns what happened (what the actor alone learns
    is private to them; the rest the table sees)."""
    asked = turn_prompt(game, seat, action_id)
    ability = action(game, action_id)
    name = game.seats[seat].name
    if role is not None and role not in asked.roles:
        raise MoveError(
            Phrase(
                "{name} named {role}, which is not a role of this game", name=name, role=repr(role)
            )
        )
    if any(p.role for p in ability.picks) and role is None:
        raise MoveError(
            Phrase("{name} must name one role to {action}", name=name, action=Verb(ability))
        )
    if not choice and ability.picks:
        raise MoveError(
            Phrase("{name} must choose whom to {action}", name=name, action=Verb(ability))
        )
    places = targets(game, asked, seat, choice, ability, action=ability)
    step = Step(f"r{game.rounds.number}.{len(played(game)) + 1}", "", game.rounds.number)
    roles = () if role is None else (role,)
    before = len(game.log)
    game.record(step, seat, "turn", targets=places, cards=roles, why=action_id)
    effects.apply(game, Act(step, seat, "", ability, tuple(places), named=roles))
    return game.log[before:]
