"""Judging a ruleset's win conditions (`outcome.wins`) against the cards now.

A rule names a team; when its condition holds, the team wins and its players are
those whose card is of that team -- the whole faction, the dead and the captured
too. A rule marked `each` is a win of each player's own: the condition is judged on
that player's card alone, and only the players for whom it holds win (seed 004:
the Tanner wins only if he himself is killed; a Doppelganger who copied him and
died wins, the real Tanner alive beside her does not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.moderator.board import Place
from narrator.rules.powers import Predicate

if TYPE_CHECKING:
    from narrator.moderator.game import Game


def holds(game: Game, p: Predicate, seat: int | None = None) -> bool:
    """Whether `p` holds: cards are read as they are now (a copy counts as its role).
    With `seat`, the conditions on cards look at that player's card only (the
    conditions on the whole table -- parity, who is left -- stay the table's)."""
    seats = game.seats if seat is None else [game.seats[seat]]
    ids = [s.card.identity for s in seats]
    dead = [s.card.identity for s in seats if not s.alive]
    if p.dead is not None:
        return any(game.matches(r, p.dead) for r in dead)
    if p.held is not None:
        return any(game.matches(r, p.held) for r in ids)
    if p.alive is not None:
        living = [s.card.identity for s in seats if s.alive]
        return any(game.matches(r, p.alive) for r in living)
    if p.parity is not None:
        side, against = p.parity
        living = [s.card.identity for s in game.seats if s.alive]
        ours = sum(game.matches(r, side) for r in living)
        theirs = sum(game.matches(r, against) for r in living)
        return ours >= theirs
    if p.only_alive:
        living = [s.card.identity for s in game.seats if s.alive]
        return bool(living) and all(any(game.matches(r, m) for m in p.only_alive) for r in living)
    if p.captured is not None:
        out = [s.card.identity for s in seats if not s.free]
        return any(game.matches(r, p.captured) for r in out)
    if p.free is not None:
        playing = [s.card.identity for s in seats if s.alive and s.free]
        return any(game.matches(r, p.free) for r in playing)
    if p.revealed is not None:
        shown = [t for t in game.rounds.revealed if seat is None or t == Place.seat(seat)]
        return any(game.matches(game.card_at(t).identity, p.revealed) for t in shown)
    if p.nobody_alive:
        return not any(s.alive for s in game.seats)
    if p.dead_other is not None:
        return any(not game.matches(r, p.dead_other) for r in dead)
    if p.nobody_dead:
        return not any(not s.alive for s in game.seats)
    if p.all:
        return all(holds(game, q, seat) for q in p.all)
    if p.any:
        return any(holds(game, q, seat) for q in p.any)
    if p.not_ is not None:
        return not holds(game, p.not_, seat)
    raise ValueError("an empty win condition")  # the loader never makes one


def winners(game: Game) -> tuple[list[str], list[int]]:
    """The teams whose win rule holds, in the ruleset's order, and their winners in
    seat order; after the last round with no other end, the `rounds_out` team."""
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
    return list(dict.fromkeys(teams)), sorted(seats)
