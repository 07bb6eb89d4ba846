"""The effects the Alien box brought, in the registry of `effects.py`.

A player the aliens make one of them (`recruit`), the aliens who show each other their
cards (`see_known`) or pass them round (`rotate_group`), a card that reaches its
neighbours (`reach`: the Blob's body, the Mortician's), the Cow's fist (`fist`) and
the Oracle's answer told to the table (`reply`). Each is one function registered with
`@effect`, as every effect is (a group's, at its call's end: `AT_CLOSE`); its words
are in `box_words.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.moderator import calls
from narrator.moderator.board import Place, Step
from narrator.moderator.effects import AT_CLOSE, Act, beside, effect
from narrator.moderator.log import Entry
from narrator.moderator.sides import reached
from narrator.rules.powers import Ability

if TYPE_CHECKING:
    from narrator.moderator.game import Game


@effect("recruit")
def recruit(game: Game, act: Act) -> None:
    """The picked player is the role `into:` from now on, whatever card they hold: a
    player's conversion, which stays with them (the aliens' new alien). They learn it."""
    seat = act.target.index
    game.tokens.turned[seat] = act.ability.into
    into = [act.ability.into]
    for member in act.actors:
        game.record(act.step, member, "recruit", targets=act.targets, cards=into, private=True)
    game.record(act.step, seat, "recruited", cards=[act.ability.into], private=True)


@effect("see_known")
def see_known(game: Game, act: Act) -> None:
    """The actor looks at the cards of those they met at this call (the aliens show
    each other their cards)."""
    met = [
        target
        for e in game.log
        if e.step == act.step.id and e.to == act.seat and e.kind == "know"
        for target in e.targets
    ]
    places = tuple(t for t in dict.fromkeys(met) if t.is_seat)
    cards = [game.card_at(p).role for p in places]
    game.record(act.step, act.seat, "see", targets=places, cards=cards, private=True)


@effect("rotate_group")
def rotate_group(game: Game, act: Act) -> None:
    """Nothing for one player alone: the whole group's cards move when the call ends
    (`_pass_round`)."""


def _pass_round(game: Game, step: Step, ability: Ability) -> None:
    """Each player who answered the call hands their card to the next of them in the
    `direction` (`left`: clockwise), all at once; a shielded card stays."""
    ring = sorted(i for i in calls.actors(game, step) if i not in game.shielded)
    if len(ring) < 2:
        return
    shift = 1 if ability.direction == "left" else -1
    cards = [game.seats[i].card for i in ring]
    for j, seat in enumerate(ring):
        receiver = ring[(j + shift) % len(ring)]
        game.seats[receiver].card = cards[j]
        to = [Place.seat(receiver)]
        game.record(step, seat, "passed", targets=to, private=True, why=ability.direction)


AT_CLOSE["rotate_group"] = _pass_round


@effect("reach")
def reach(game: Game, act: Act) -> None:
    """Nothing at once: when the call ends every card of the role reaches its
    neighbours, wherever it lies (`_reach`)."""


def _reach(game: Game, step: Step, ability: Ability) -> None:
    """Every card of the step's role (a copy's too) reaches `left` players to its
    left and `right` to its right, counted from wherever it lies at the end; each
    player holding one now is told whom it reaches."""
    for card in [*(s.card for s in game.seats), *game.centre]:
        if card.identity == step.role:
            card.reach = ability.reach
    for seat, s in enumerate(game.seats):
        if s.card.identity == step.role:
            near = reached(game, seat)
            game.record(step, seat, "reach", targets=[Place.seat(i) for i in near], private=True)


AT_CLOSE["reach"] = _reach


@effect("fist")
def fist(game: Game, act: Act) -> None:
    """The actor holds out a fist, eyes closed: each player beside them who answers a
    call as `learn` (an alien) taps it and learns whose fist it was; the actor learns
    whether anyone tapped. The engine taps: nobody touches anyone on the phones."""
    match = act.ability.learn
    n = len(game.seats)
    tapped = False
    for side in ("left", "right"):
        seat = beside(act.seat, side, n)
        acts_as = game.seats[seat].acts_as
        if seat == act.seat or acts_as is None or match is None:
            continue
        if game.seats[seat].alive and game.matches(acts_as, match):
            tapped = True
            toward = "right" if side == "left" else "left"  # where the fist is, for them
            fist_at = [Place.seat(act.seat)]
            game.record(act.step, seat, "bumped", targets=fist_at, private=True, why=toward)
    game.record(act.step, act.seat, "fist", private=True, why="yes" if tapped else "no")


@effect("choose")
def choose(game: Game, act: Act) -> None:
    """The word picked decides what follows (the powers offered `if_picked` it): the
    pick itself is all (the log's `chose`)."""


@effect("reply")
def reply(game: Game, act: Act) -> None:
    """The word the actor picked is the table's to hear, in the power's `replies`
    (told at dawn: the voice cannot say what a phone answered)."""
    word = act.target.kind
    game.record(act.step, act.seat, "reply", private=True, why=word)
    game.log.append(Entry(act.step.night, act.step.id, act.role, "replied", None, why=word))


def _reply_for_nobody(game: Game, step: Step, ability: Ability) -> None:
    """When nobody answered (the card lies in the centre, or its holder sleeps), an
    answer is drawn and told the same way -- the silence would tell where the card
    is -- and what it makes of the role's card is done to the card wherever it lies
    (the Oracle card is a Werewolf's), so what the table hears is true."""
    if any(e.step == step.id and e.kind == "replied" for e in game.log):
        return
    words = [w for w, _ in ability.replies]
    word = game.chance(words)
    game.log.append(Entry(step.night, step.id, step.role, "replied", None, why=word))
    converts = [
        power
        for power in game.abilities_of(step.role)  # what the answer does to the card
        if power.if_picked == word
        and "convert" in power.effects
        and power.turn == step.turn
        and calls.in_play(game, step.role, power)
    ]
    for power in converts:
        for card in [*(s.card for s in game.seats), *game.centre]:
            if card.identity == step.role:
                card.copied = power.into


AT_CLOSE["reply"] = _reply_for_nobody
