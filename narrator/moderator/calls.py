"""The night's calls: which there are, in order, who answers each, and with which powers.

A night is a list of `Step`s, one per call that lets someone act, in the call order:
a role's own call and its extra turns (the Alpha Wolf's at 2b), and a call of the
whole table that lets everyone do something (`night: calls:` with `does:`: everyone
looks at their own mark), whose step is named by the call's id.

Who answers a role's call is decided by the cards *at the start of the night* (a
Doppelganger answers the calls of the role she copied), whatever the cards are now:
a Robber who took a werewolf still wakes as the Robber. A role that wakes with
another (`wakes_with`: the Alpha Wolf with the werewolves) answers that role's call
with its own first powers -- or, with `group_powers`, with the lead's (the Master
bites with the vampires, Groob does what the aliens were told). A power with `who`
is answered by the players matching instead (the Lovers: whoever holds a Mark of
Love); a call of the whole table by everyone. A player who has looked at a mark that
keeps them asleep (`wakes: false`: the Mark of Fear) answers no role's call after.

Which powers a player may still use at a call: those of its turn, as the options,
the nights and the drawn choice allow (`choices` with `does:`: the same draw the
voice speaks, `Game.drawn_choice`), not yet used, and offered after the word the
call's previous power picked when they say so (`if_picked`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.moderator.board import Step
from narrator.rules.model import Order
from narrator.rules.powers import Ability, Match

if TYPE_CHECKING:
    from narrator.moderator.game import Game


def steps(game: Game) -> list[Step]:
    """Every call that lets someone act, in the ruleset's order, for the chosen roles
    (a role that wakes with another answers that role's call at its first turn: a
    Master alone calls the vampires)."""
    chosen = game.chosen()
    answered = {game.acts_as(r) for r in chosen}  # a Pack Leader answers the pack's call
    calls: set[tuple[Order, str, int]] = set()
    for role in game.ruleset.roles:
        powers = role.powers
        if role.id not in answered or powers is None:
            continue
        turns = {a.turn for a in powers.abilities} | ({0} if powers.group_powers else set())
        own = game.ruleset.role(role.wakes_with) if role.wakes_with else role
        main = [t for t in own.turns if t.main]
        extra = [t for t in role.turns if not t.main]
        for k in sorted(turns):
            for turn in main if k == 0 else extra[k - 1 : k]:
                if turn.when.holds(chosen, game.night, None, game.options):
                    calls.add((turn.order, own.id if k == 0 else role.id, k))
                    break
    for call_id, turn in game.ruleset.night.calls:
        if game.is_call(call_id) and turn.when.holds(chosen, game.night, None, game.options):
            calls.add((turn.order, call_id, 0))
    night = game.night
    return [
        Step(f"n{night}.{i + 1}", role, night, turn)
        for i, (_, role, turn) in enumerate(sorted(calls))
    ]


def actors(game: Game, step: Step) -> list[int]:
    """The living seats answering `step`: everyone at a call of the whole table; the
    players a `who` names; else the card's holders (and, at its first turn, those of
    the roles that wake with it), then those who copied the role (the 5.0 sheet's
    `*`: a copy acts right after the real one) -- none kept asleep by a mark."""
    playing = [i for i, s in enumerate(game.seats) if s.alive and s.free]
    if game.is_call(step.role):
        return playing
    who = called_by(game, step)
    if who is not None:
        return [i for i in playing if holds(game, i, who)]
    seats = [
        i
        for i, s in enumerate(game.seats)
        if s.alive and i not in game.tokens.asleep and answers(game, step, s.acts_as)
    ]
    return sorted(
        seats, key=lambda i: (not answers(game, step, game.acts_as(game.seats[i].dealt)), i)
    )


def called_by(game: Game, step: Step) -> Match | None:
    """Whom the step's powers call instead of the role's holders (`who`), if anyone."""
    for ability in game.abilities_of(step.role):
        if ability.turn == step.turn and ability.who is not None:
            return ability.who
    return None


def holds(game: Game, seat: int, match: Match) -> bool:
    """Whether a player answers a `who`: the mark (artifact) they hold, or the role
    they act as tonight."""
    if match.mark or match.artifact:
        return game.counts(seat, match)
    acts_as = game.seats[seat].acts_as
    return acts_as is not None and game.matches(acts_as, match)


def answers(game: Game, step: Step, role_id: str | None) -> bool:
    """Whether a seat acting as `role_id` answers `step` as a holder of its role."""
    if role_id is None:
        return False
    if role_id == step.role:
        return True
    return step.turn == 0 and game.ruleset.role(role_id).wakes_with == step.role


def role_of(game: Game, step: Step, seat: int) -> str:
    """The role whose powers `seat` uses at `step`: the one copied at once, the one
    that wakes with the step's (unless it uses the lead's powers), or the step's own."""
    copied = game.tonight.copying.get(seat)
    if copied is not None:
        return copied
    acts_as = game.seats[seat].acts_as
    if game.is_call(step.role) or acts_as is None or acts_as == step.role:
        return step.role
    if answers(game, step, acts_as):
        powers = game.powers(acts_as)
        return step.role if powers is not None and powers.group_powers else acts_as
    return step.role


def abilities(game: Game, step: Step, seat: int, *, picks: bool) -> list[Ability]:
    """The powers `seat` may still use at `step` (those that pick, or not)."""
    tonight = game.tonight
    copying = seat in tonight.copying
    role = role_of(game, step, seat)
    used = tonight.used.get(seat, set())
    alone = _alone(game, step, seat, role)
    word = _word(game, step, seat)
    out = []
    for a in game.abilities_of(role):
        if f"{role}.{a.id}" in used or bool(a.picks) != picks:
            continue
        if a.once and (seat, f"{role}.{a.id}") in game.spent:
            continue
        if copying and ("know" in a.effects or a.alone):
            continue  # a copy meets the others (and looks alone) at the role's call
        if not copying and a.turn != step.turn:
            continue
        if "swap_last" in a.effects and (step.id, seat) not in tonight.last_pick:
            continue
        if a.if_picked and (not picks or a.if_picked != word):
            continue  # after a word only (one that picks nothing: applied with it)
        if not in_play(game, role, a):
            continue
        if a.alone and not alone:
            continue
        out.append(a)
    return out


def in_play(game: Game, role: str, ability: Ability) -> bool:
    """Whether a power of `role` is this game's tonight: its options and nights, and
    for a choice's power, the choice the game drew."""
    if not ability.when.holds(game.chosen(), game.night, None, game.options):
        return False
    return ability.choice < 0 or ability.choice == game.drawn_choice(role, ability.turn)


def following(game: Game, step: Step, seat: int, role: str, word: str) -> list[Ability]:
    """The powers that pick nothing offered after `word` (`if_picked`), applied right
    after the power that picked it: the Oracle's yes makes her card a Werewolf."""
    used = game.tonight.used.get(seat, set())
    return [
        a
        for a in game.abilities_of(role)
        if a.if_picked == word
        and not a.picks
        and a.turn == step.turn
        and f"{role}.{a.id}" not in used
        and in_play(game, role, a)
    ]


def _word(game: Game, step: Step, seat: int) -> str:
    """The word the call's previous power picked (the Gremlin's "marks"), or ""."""
    last = game.tonight.last_pick.get((step.id, seat))
    return last.kind if last is not None and last.is_word else ""


def _alone(game: Game, step: Step, seat: int, role: str) -> bool:
    """Nobody else acts as a role sharing this role's tags (the lone wolf), or, for a
    role without tags, nobody else answers this call. A player kept asleep at this
    call is not seen: he does not open his eyes."""
    powers = game.powers(role)
    tags = set(powers.tags) if powers else set()
    if not tags:
        return actors(game, step) == [seat]
    for i, s in enumerate(game.seats):
        if i == seat or not s.alive or s.acts_as is None:
            continue
        if i in game.tokens.asleep and answers(game, step, s.acts_as):
            continue
        other = game.powers(s.acts_as)
        if other is not None and tags & set(other.tags):
            return False
    return True


def use(game: Game, seat: int, role: str, ability: Ability) -> None:
    game.tonight.used.setdefault(seat, set()).add(f"{role}.{ability.id}")
