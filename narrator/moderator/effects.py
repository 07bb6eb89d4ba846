"""What each power does: one small function per effect word, in a registry.

A ruleset's power lists its effects (`effect: [swap_own, see_own]`); the engine
applies them one after the other **in the order listed** (`apply`): the Robber who
swaps and then looks sees his new card; a copy of the ruleset that lists `see_own`
first has him see his old one. Each function takes the game and an `Act` (who acts,
as which role, with which power, on which places) and changes the game and its log;
nothing else decides what an effect does.

Adding an effect is adding its word to `rules.powers.Effect`, one function here
(`@effect("word")`), and its words in `words.py` (a journal line, a story line).
A test holds the registry and the vocabulary equal. An effect may also say which
players it can never pick (`REFUSES`: a card that already has an artifact), whether
it can be used at all now (`READY`: an artifact left in the stack), and what it does
when its call ends, whoever answered it (`AT_CLOSE`: a side drawn for a Nostradamus
card nobody looked with). The effects One Night's boxes brought are in
`box_effects.py`, registered here the same way.

A card's face is what a look shows (`Card.role`): whoever looks at or takes the
Doppelganger's card sees the Doppelganger (seed 004: she checks she "still has the
Doppelganger card"); what it was copied into counts only for waking and winning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from narrator.moderator import calls, marks
from narrator.moderator.board import Place, Step
from narrator.moderator.dawn import DawnEffect, Pending
from narrator.rules.powers import Ability

if TYPE_CHECKING:
    from narrator.moderator.game import Game


@dataclass(frozen=True, slots=True)
class Act:
    """One use of a power: the context every effect function reads."""

    step: Step  # the night's call, or the turn
    seat: int  # who acts, 0-based
    role: str  # the role acted as (a copy: the role copied)
    ability: Ability
    targets: tuple[Place, ...] = ()  # what was picked, in the order picked
    previous: Place | None = None  # what the call's previous power picked (swap_last)
    named: tuple[str, ...] = ()  # role ids named with the pick (an accusation)
    group: tuple[int, ...] = ()  # a group's agreed pick: every member acts (the vampires)

    @property
    def target(self) -> Place:
        """The one place picked, for the effects that take one."""
        (place,) = self.targets
        return place

    @property
    def actors(self) -> tuple[int, ...]:
        """Who did it: the group's members, or the actor."""
        return self.group or (self.seat,)


def beside(seat: int, word: str, players: int) -> int:
    """The player beside `seat` on the side named (`left`: the next seat clockwise)."""
    return (seat + (1 if word == "left" else -1)) % players


Effect = Callable[["Game", Act], None]
Refuses = Callable[["Game", int], bool]
Ready = Callable[["Game"], bool]
AtClose = Callable[["Game", Step, Ability], None]
REGISTRY: dict[str, Effect] = {}
REFUSES: dict[str, Refuses] = {}
READY: dict[str, Ready] = {}
AT_CLOSE: dict[str, AtClose] = {}


def effect(word: str) -> Callable[[Effect], Effect]:
    """Register `function` as what the effect `word` does."""

    def register(function: Effect) -> Effect:
        REGISTRY[word] = function
        return function

    return register


def ready(game: Game, ability: Ability) -> bool:
    """Whether every effect of the power can be used now."""
    return all(READY[w](game) for w in ability.effects if w in READY)


def refused(game: Game, ability: Ability, seat: int) -> bool:
    """Whether some effect of the power can never pick the player at `seat`."""
    return any(REFUSES[w](game, seat) for w in ability.effects if w in REFUSES)


def close(game: Game, step: Step, abilities: list[Ability]) -> None:
    """What the call's powers' effects do when it ends, whoever answered it: once
    per effect word (the first power that has it)."""
    done: set[str] = set()
    for ability in abilities:
        for word in ability.effects:
            if word in AT_CLOSE and word not in done:
                done.add(word)
                AT_CLOSE[word](game, step, ability)


def apply(game: Game, act: Act) -> None:
    """The power's effects, in the order the ruleset lists them. (A group's agreed
    pick has no one actor: `night.close_step` queues its dawn effects itself.)"""
    for word in act.ability.effects:
        REGISTRY[word](game, act)


# -- looking -------------------------------------------------------------------------


def _look(game: Game, act: Act, places: tuple[Place, ...]) -> None:
    cards = [game.card_at(p).role for p in places]
    for seat in act.actors:
        game.record(act.step, seat, "see", targets=places, cards=cards, private=True)


@effect("see")
def see(game: Game, act: Act) -> None:
    """The actor learns the cards picked (a player's, or centre cards) -- or, `of:
    mark`, the marks in front of the players picked."""
    if act.ability.of == "mark":
        marks.look(game, act, act.targets)
    else:
        _look(game, act, act.targets)


@effect("see_own")
def see_own(game: Game, act: Act) -> None:
    """The actor learns the card now in front of them (`of: mark`: their mark)."""
    if act.ability.of == "mark":
        marks.look(game, act, (Place.seat(act.seat),))
    else:
        _look(game, act, (Place.seat(act.seat),))


@effect("know")
def know(game: Game, act: Act) -> None:
    """The actor learns who else acts tonight as a role matching `know` (the pack
    sees each other, the Minion sees the pack), as they answer the night's calls."""
    match = act.ability.know
    assert match is not None  # the loader refuses a `know` without one
    if match.mark or match.artifact:  # who holds it now (the Lovers, Renfield)
        seen = [i for i, s in enumerate(game.seats) if s.alive and game.counts(i, match)]
        others = [Place.seat(i) for i in seen if i != act.seat]
        token = [match.mark or match.artifact]
        game.record(act.step, act.seat, "know", targets=others, cards=token, private=True)
        return
    asleep = [i for i in game.tokens.asleep if calls.answers(game, act.step, game.seats[i].acts_as)]
    others = [
        Place.seat(i)
        for i, s in enumerate(game.seats)
        if i != act.seat
        and s.alive
        and s.acts_as is not None
        and i not in asleep  # kept asleep at this very call: his eyes stay closed
        and game.matches(s.acts_as, match)
    ]
    game.record(act.step, act.seat, "know", targets=others, private=True)
    if act.ability.mutual:  # those seen see the actor too (the Assassin, eyes open)
        for seen_ in others:
            game.record(act.step, seen_.index, "know", targets=[Place.seat(act.seat)], private=True)


@effect("learn")
def learn(game: Game, act: Act) -> None:
    """The actor learns whether the picked player's card (or the ability's `target`:
    the player the day put to death) matches the question: a nod or a shake."""
    ability = act.ability
    if act.targets:
        target: int | None = act.targets[0].index
    else:
        target = game.day.executed if ability.target == "executed" else None
    if target is None or ability.learn is None:
        game.record(act.step, act.seat, "learn", private=True)  # nobody to ask about
        return
    yes = game.matches(game.seats[target].card.identity, ability.learn)
    game.record(
        act.step,
        act.seat,
        "learn",
        targets=[Place.seat(target)],
        private=True,
        why="yes" if yes else "no",
    )


@effect("reveal")
def reveal(game: Game, act: Act) -> None:
    """The picked cards are turned face up for the table, each unless it matches one
    of `hidden` (the Revealer turns a werewolf or the Tanner back down; the Exposer
    turns centre cards up)."""
    for place in act.targets:
        card = game.card_at(place).role
        game.record(act.step, act.seat, "see", targets=[place], cards=[card], private=True)
        if not any(game.matches(card, m) for m in act.ability.hidden):
            game.record(act.step, act.seat, "reveal", targets=[place], cards=[card])


# -- moving cards --------------------------------------------------------------------


def exchange(game: Game, a: Place, b: Place) -> None:
    """The cards at two places change places (what every swap does)."""
    ca, cb = game.card_at(a), game.card_at(b)
    game.put(a, cb)
    game.put(b, ca)


@effect("swap")
def swap(game: Game, act: Act) -> None:
    """The two picked cards change places (`of: mark`: the two players' marks)."""
    a, b = act.targets
    if act.ability.of == "mark":
        marks.swap(game, act, a, b)
        return
    exchange(game, a, b)
    game.record(act.step, act.seat, "swap", targets=act.targets, private=True)


@effect("swap_own")
def swap_own(game: Game, act: Act) -> None:
    """The actor's card and the picked one change places (`of: mark`: their marks)."""
    if act.ability.of == "mark":
        marks.swap(game, act, Place.seat(act.seat), act.target)
        return
    exchange(game, Place.seat(act.seat), act.target)
    game.record(act.step, act.seat, "swap_own", targets=act.targets, private=True)


@effect("swap_last")
def swap_last(game: Game, act: Act) -> None:
    """The picked card changes places with the one the call's previous power picked
    (the Witch's centre card); offered only when that power picked one. Onto the
    actor's own card it is a swap of their own (said as such)."""
    if act.previous is None:
        return
    exchange(game, act.previous, act.target)
    if act.target == Place.seat(act.seat):
        game.record(act.step, act.seat, "swap_own", targets=[act.previous], private=True)
    else:
        game.record(act.step, act.seat, "swap", targets=[act.previous, act.target], private=True)


@effect("rotate")
def rotate(game: Game, act: Act) -> None:
    """Every other unshielded card moves one seat: `left` is the next seat clockwise."""
    direction = act.target.kind
    ring = [i for i in range(len(game.seats)) if i != act.seat and i not in game.shielded]
    cards = [game.seats[i].card for i in ring]
    shift = 1 if direction == "left" else -1
    for j in range(len(ring)):
        game.seats[ring[(j + shift) % len(ring)]].card = cards[j]
    game.record(act.step, act.seat, "rotate", targets=[Place.word(direction)], private=True)


@effect("shield")
def shield(game: Game, act: Act) -> None:
    """Nobody may move or look at the picked player's card from now on."""
    game.shielded.add(act.target.index)
    game.record(act.step, act.seat, "shield", targets=act.targets, private=True)


@effect("copy")
def copy(game: Game, act: Act) -> None:
    """The actor looks at the picked card and is its role from now on (the card keeps
    the copy when it moves). She answers that role's calls; a role not in the power's
    `later` also acts at once, in her own call (`night.act` gives its prompts)."""
    role = game.card_at(act.target).identity
    seat = game.seats[act.seat]
    seat.card.copied = role
    seat.acts_as = game.acts_as(role)
    game.record(act.step, act.seat, "copy", targets=act.targets, cards=[role], private=True)
    game.tonight.copying.pop(act.seat, None)
    if role not in act.ability.later and game.abilities_of(role):
        game.tonight.copying[act.seat] = role


# -- what waits for dawn -------------------------------------------------------------


def _at_dawn(game: Game, act: Act, word: DawnEffect) -> None:
    game.tonight.dawn.append(Pending(word, act.target.index, act.ability.priority, act.seat))
    game.record(act.step, act.seat, word, targets=act.targets, private=True)


@effect("kill")
def kill(game: Game, act: Act) -> None:
    """The picked player dies at dawn, unless protected (by `priority`)."""
    _at_dawn(game, act, "kill")


@effect("protect")
def protect(game: Game, act: Act) -> None:
    """The picked player is neither killed nor arrested tonight."""
    _at_dawn(game, act, "protect")


@effect("arrest")
def arrest(game: Game, act: Act) -> None:
    """The picked player is arrested at dawn: alive, out of play (a Prisoner)."""
    _at_dawn(game, act, "arrest")


# -- a turn of the rounds (Secret Moon) ----------------------------------------------


@effect("answer")
def answer(game: Game, act: Act) -> None:
    """The picked player answers aloud by their card, in the action's `answers`; an
    answer may show the card."""
    card = game.card_at(act.target).identity
    answers = act.ability.answers
    said = next((a for a in answers if game.matches(card, a.match)), None)
    index = answers.index(said) if said is not None else -1
    game.record(act.step, act.target.index, "answer", targets=act.targets, why=str(index))
    if said is not None and said.reveal:
        game.show(act.step, act.target)


@effect("accuse")
def accuse(game: Game, act: Act) -> None:
    """The actor names the picked card's role: right, that card is shown to
    everyone; wrong, the actor's own card is."""
    (guess,) = act.named
    right = game.card_at(act.target).identity == guess
    game.record(
        act.step,
        act.seat,
        "accuse_role",
        targets=act.targets,
        cards=[guess],
        why=str(right).lower(),
    )
    game.show(act.step, act.target if right else Place.seat(act.seat))


@effect("hide")
def hide(game: Game, act: Act) -> None:
    """Nobody may pick the card until the round ends."""
    game.rounds.hidden.update(act.targets)
    game.record(act.step, act.seat, "hide", targets=act.targets)


@effect("disturb")
def disturb(game: Game, act: Act) -> None:
    """The picked player loses this round's turn."""
    game.rounds.disturbed.update(p.index for p in act.targets if p.is_seat)
    game.record(act.step, act.seat, "disturb", targets=act.targets)


@effect("capture")
def capture(game: Game, act: Act) -> None:
    """The picked player (whose card was shown) is out of the game."""
    for place in act.targets:
        game.capture(act.step, place.index, by=act.seat)


@effect("self_capture")
def self_capture(game: Game, act: Act) -> None:
    """The actor is out of the game (the price of disturbing)."""
    game.capture(act.step, act.seat, by=act.seat)


@effect("pass")
def pass_(game: Game, act: Act) -> None:
    """Nothing the engine holds: the turn cards are on the table."""


# One Night's boxes brought more effects: they register from their own module.
from narrator.moderator import alien_effects as _alien_effects  # noqa: E402, F401
from narrator.moderator import box_effects as _box_effects  # noqa: E402, F401
