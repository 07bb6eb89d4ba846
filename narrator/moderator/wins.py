"""Judging a ruleset's win conditions (`outcome.wins`, then `outcome.seats`).

A team rule names a team; when its condition holds, the team wins and its players
are those whose side is of that team -- the whole faction, the dead and the
captured too. A rule marked `each` is a win of each player's own: the condition is
judged on that player alone, and only the players for whom it holds win (seed 004:
the Tanner wins only if he himself is killed; a Doppelganger who copied him and
died wins, the real Tanner alive beside her does not).

Then the seat rules, in order, for every player they are about (`who`): `only` --
the player wins exactly when the rule holds, whatever their team did (Nostradamus
wins only alive and beside the side he saw); `also` -- the player wins when it
holds, besides their team; `never` -- the player loses when it holds. A seat rule
may ask about its own player (`self_dead`, `self_alive`) and about what the team
rules decided (`won`, `ally_won`), whom they voted for (`voted`: the Diseased's
voters cannot win), or whether a player within their card's reach died
(`reach_dead`: the Blob, the Mortician). A seat rule with no `who` is every player's.
The vote's epic battle (`epic`) and a vote where every player of a side voted for
one player (`all_voted`: the aliens on their Leader) are the table's.

Every condition reads the players' sides at the end (`sides.py`: an artifact, a
mark, a player the rules turned, then the card), never what a look would show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.moderator import sides
from narrator.moderator.board import Place
from narrator.moderator.sides import reached
from narrator.rules.powers import Match, Predicate

if TYPE_CHECKING:
    from narrator.moderator.game import Game


def holds(
    game: Game,
    p: Predicate,
    seat: int | None = None,
    *,
    me: int | None = None,
    won: frozenset[str] = frozenset(),
) -> bool:
    """Whether `p` holds now. With `seat`, the conditions on players look at that
    player only (the conditions on the whole table -- parity, who is left -- stay
    the table's); `me` is a seat rule's own player, `won` the teams the team rules
    made win."""
    everyone = range(len(game.seats))
    seats = list(everyone) if seat is None else [seat]
    dead = [i for i in seats if not game.seats[i].alive]
    living = [i for i in everyone if game.seats[i].alive]

    def any_of(group: list[int], match: Match) -> bool:
        return any(game.counts(i, match) for i in group)

    if p.dead is not None:
        return any_of(dead, p.dead)
    if p.held is not None:
        return any_of(seats, p.held)
    if p.alive is not None:
        return any_of([i for i in seats if game.seats[i].alive], p.alive)
    if p.parity is not None:
        side, against = p.parity
        ours = sum(game.counts(i, side) for i in living)
        return ours >= sum(game.counts(i, against) for i in living)
    if p.only_alive:
        return bool(living) and all(any(game.counts(i, m) for m in p.only_alive) for i in living)
    if p.captured is not None:
        return any_of([i for i in seats if not game.seats[i].free], p.captured)
    if p.free is not None:
        return any_of([i for i in seats if game.seats[i].alive and game.seats[i].free], p.free)
    if p.revealed is not None:
        shown = [t for t in game.rounds.revealed if seat is None or t == Place.seat(seat)]
        return any(game.matches(game.card_at(t).identity, p.revealed) for t in shown)
    if p.nobody_alive:
        return not living
    if p.dead_other is not None:
        return any(not game.counts(i, p.dead_other) for i in dead)
    if p.nobody_dead:
        return len(living) == len(game.seats)
    if p.self_dead or p.self_alive:
        return me is not None and game.seats[me].alive == p.self_alive
    if p.self_mates or p.mate_dead:
        if me is None:
            return False
        team = game.team_of(me)
        mates = [i for i in everyone if i != me and game.team_of(i) == team]
        return any(not game.seats[i].alive for i in mates) if p.mate_dead else bool(mates)
    if p.epic:
        return sides.epic(game)
    if p.voted is not None:
        target = _votes(game).get(me) if me is not None else None
        return target is not None and game.counts(target, p.voted)
    if p.all_voted is not None:
        voters, target_ = p.all_voted
        cast = _votes(game)
        who = [i for i in everyone if game.counts(i, voters)]
        return bool(who) and all(
            cast.get(i) is not None and game.counts(cast[i], target_) for i in who
        )
    if p.reach_dead:
        return me is not None and any(not game.seats[i].alive for i in reached(game, me))
    if p.won:
        return p.won in won
    if p.ally_won:
        return me is not None and game.seats[me].card.ally in won
    if p.all:
        return all(holds(game, q, seat, me=me, won=won) for q in p.all)
    if p.any:
        return any(holds(game, q, seat, me=me, won=won) for q in p.any)
    if p.not_ is not None:
        return not holds(game, p.not_, seat, me=me, won=won)
    raise ValueError("an empty win condition")  # the loader never makes one


def _votes(game: Game) -> dict[int, int]:
    """Who voted for whom in the last vote (One Night's: the log's `vote` entries)."""
    cast: dict[int, int] = {}
    for e in game.log:
        if e.kind == "vote" and e.seat is not None:
            cast.pop(e.seat, None)
            if e.targets:
                cast[e.seat] = e.targets[0].index
    return cast


def winners(game: Game) -> tuple[list[str], list[int]]:
    """The teams whose win rule holds, in the ruleset's order, and their winners in
    seat order; after the last round with no other end, the `rounds_out` team; then
    each seat rule, for the players it is about."""
    outcome = game.ruleset.outcome
    if outcome is None:
        return [], []
    everyone = range(len(game.seats))
    teams: list[str] = []
    seats: set[int] = set()
    for rule in outcome.wins:
        team = [i for i in everyone if game.team_of(i) == rule.team]
        if rule.each:
            team = [i for i in team if holds(game, rule.when, i)]
            if not team:
                continue
        elif not holds(game, rule.when):
            continue
        teams.append(rule.team)
        seats.update(team)
    if not teams and game.rounds.over and outcome.rounds_out:
        teams = [outcome.rounds_out]
        seats = {i for i in everyone if game.team_of(i) == outcome.rounds_out}
    won = frozenset(teams)
    for seat_rule in outcome.seats:
        for i in everyone:
            if seat_rule.who is not None and not game.counts(i, seat_rule.who):
                continue
            ok = holds(game, seat_rule.when, me=i, won=won)
            if seat_rule.kind == "never":
                if ok:
                    seats.discard(i)
                continue
            if ok:
                seats.add(i)
                if seat_rule.team:
                    teams.append(seat_rule.team)
            elif seat_rule.kind == "only":
                seats.discard(i)
    return list(dict.fromkeys(teams)), sorted(seats)
