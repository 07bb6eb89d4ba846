"""The effects One Night's boxes brought, in the registry of `effects.py`.

The Alpha Wolf's spare card (`swap_spare`), a card that becomes what it looked at or
is made another role (`become`, `convert`), a card that sides with a team without
being one of them (`ally`, with the side drawn when nobody looked), the tokens beside
the cards (`artifact`, `mark`), the thumbs of those who acted (`aura`) and the tap on
a shoulder (`tap`). Each is one function registered with `@effect`, as every effect
is; its words are in `words.py`. Kept apart so that `effects.py` stays the registry
and the base game's own effects, and the Vampire and Alien boxes can join here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.moderator.board import Card, Place, Step
from narrator.moderator.effects import AT_CLOSE, READY, REFUSES, Act, beside, effect, exchange
from narrator.moderator.log import Entry
from narrator.rules.powers import NONE as _NONE
from narrator.rules.powers import Ability

if TYPE_CHECKING:
    from narrator.moderator.game import Game


# -- the spare card; a card that becomes another, or sides with a team --------------


@effect("swap_spare")
def swap_spare(game: Game, act: Act) -> None:
    """The picked card changes places with the card lying in the place of the
    actor's role's spare card (`spare:`; the Alpha Wolf's werewolf, centre card 4):
    whatever lies there now."""
    spare = spare_place(game, act.role)
    exchange(game, act.target, spare)
    game.record(act.step, act.seat, "swap", targets=[act.target, spare], private=True)


def spare_place(game: Game, role: str) -> Place:
    """Where `role`'s spare card was dealt: after the centre, one place per role that
    brings one, in the ruleset's order."""
    chosen = game.chosen()
    bringing = [r for r in game.ruleset.role_ids if r in chosen and (game.powers(r) or _NONE).spare]
    return Place.centre(len(game.centre) - len(bringing) + bringing.index(role))


@effect("become")
def become(game: Game, act: Act) -> None:
    """The actor becomes the role of the card just looked at, when it matches the
    power's `stop`: the card in front of them is that role from now on (the change
    moves with it, as a copy does); they do not wake for it."""
    seen = game.card_at(act.target).role
    if not any(game.matches(seen, m) for m in act.ability.stop):
        return
    game.seats[act.seat].card.copied = seen
    game.record(act.step, act.seat, "become", cards=[seen], private=True)


@effect("convert")
def convert(game: Game, act: Act) -> None:
    """The card now in front of the actor is the role `into` from now on, wherever it
    goes (a card conversion: it moves with the card, as a copy does)."""
    game.seats[act.seat].card.copied = act.ability.into
    game.record(act.step, act.seat, "become", cards=[act.ability.into], private=True)


@effect("ally")
def ally(game: Game, act: Act) -> None:
    """The actor's card sides with the team of the card just looked at (printed):
    its holder wins only beside that team, alive, without being one of them."""
    team = game.ruleset.role(game.card_at(act.target).role).team
    game.seats[act.seat].card.ally = team
    game.record(act.step, act.seat, "ally", targets=act.targets, private=True, why=team)


def _draw_allies(game: Game, step: Step, ability: Ability) -> None:
    """When the call ends, every card of the role that sides with nobody yet (its
    holder looked at nothing, or it lies in the centre) is given a side drawn among
    the teams of the cards in the game; the printed card's side is told to the
    whole table, as the app tells it, whoever holds it (a copy's is its holder's)."""
    teams = sorted({game.ruleset.role(r).team for r in game.chosen()})
    for place, card in _cards(game):
        if card.identity != step.role:
            continue
        if not card.ally:
            card.ally = game.chance(teams)
            if place.is_seat and card.role != step.role:
                game.record(step, place.index, "ally", private=True, why=card.ally)
        if card.role == step.role:
            game.log.append(Entry(step.night, step.id, step.role, "sides", None, why=card.ally))


AT_CLOSE["ally"] = _draw_allies


def _cards(game: Game) -> list[tuple[Place, Card]]:
    """Every card with its place: the players' in seat order, then the centre's."""
    seats = [(Place.seat(i), s.card) for i, s in enumerate(game.seats)]
    return seats + [(Place.centre(k), c) for k, c in enumerate(game.centre)]


# -- tokens: artifacts, marks --------------------------------------------------------


@effect("artifact")
def artifact(game: Game, act: Act) -> None:
    """The top artifact of the stack goes face down on the picked player's card,
    unseen by the actor; its holder looks at it (a private line), and the table sees
    that an artifact lies there (said at dawn)."""
    seat = act.target.index
    token = game.tokens.stack.pop(0)
    game.tokens.artifacts[seat] = token
    game.record(act.step, act.seat, "artifact", targets=act.targets, private=True)
    game.record(act.step, seat, "found", targets=act.targets, cards=[token], private=True)


REFUSES["artifact"] = lambda game, seat: seat in game.tokens.artifacts
READY["artifact"] = lambda game: bool(game.tokens.stack)


@effect("mark")
def mark(game: Game, act: Act) -> None:
    """The picked players (or, `target: self`, the actor; a side named, the player
    beside them: the Diseased's neighbour) get the mark `mark:`; the mark each had
    goes back, unseen. A group's mark is given by every member (the vampires)."""
    places = tuple(
        Place.seat(beside(act.seat, place.kind, len(game.seats)) if place.is_word else place.index)
        for place in act.targets or (Place.seat(act.seat),)
    )
    for place in places:
        game.tokens.marks[place.index] = act.ability.mark
    for seat in act.actors:
        game.record(act.step, seat, "mark", targets=places, cards=[act.ability.mark], private=True)


# -- what the actor learns of the others --------------------------------------------


@effect("aura")
def aura(game: Game, act: Act) -> None:
    """The actor learns who, earlier tonight, did one of the acts `thumbs` (looked at
    or moved a card, or a mark): they raise a thumb. A call answered with nothing is
    no act, nor is a call of the whole table (everyone looks at their own mark)."""
    did = sorted(
        {
            e.seat
            for e in game.log
            if e.night == game.night
            and e.kind in act.ability.thumbs
            and e.seat is not None
            and e.seat != act.seat
            and e.step != act.step.id
            and not game.is_call(e.role)  # the whole table's look at its own mark
        }
    )
    game.record(act.step, act.seat, "aura", targets=[Place.seat(i) for i in did], private=True)


@effect("tap")
def tap(game: Game, act: Act) -> None:
    """The player beside the actor on the named side (`left`: the next seat
    clockwise) feels a tap on the shoulder and knows who tapped them."""
    side = act.target.kind  # the word picked: left or right
    seat = (act.seat + (1 if side == "left" else -1)) % len(game.seats)
    game.record(act.step, act.seat, "tap", targets=[Place.seat(seat)], private=True, why=side)
    toward = "right" if side == "left" else "left"  # where the actor sits, for them
    game.record(act.step, seat, "tapped", targets=[Place.seat(act.seat)], private=True, why=toward)
