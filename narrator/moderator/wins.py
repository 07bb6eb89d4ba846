"""Judging a ruleset's win conditions (`outcome.wins`) against the cards at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.rules.powers import Predicate

if TYPE_CHECKING:
    from narrator.moderator.game import Game


def holds(game: Game, p: Predicate) -> bool:
    """Whether `p` holds: cards are read as they are now (a copy counts as its role)."""
    ids = [s.card.identity for s in game.seats]
    dead = [s.card.identity for s in game.seats if not s.alive]
    if p.dead is not None:
        return any(game.matches(r, p.dead) for r in dead)
    if p.held is not None:
        return any(game.matches(r, p.held) for r in ids)
    if p.alive is not None:
        living = [s.card.identity for s in game.seats if s.alive]
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
        out = [s.card.identity for s in game.seats if not s.free]
        return any(game.matches(r, p.captured) for r in out)
    if p.revealed is not None:
        return any(game.matches(game.card_at(t).identity, p.revealed) for t in game.revealed)
    if p.nobody_alive:
        return not any(s.alive for s in game.seats)
    if p.dead_other is not None:
        return any(not game.matches(r, p.dead_other) for r in dead)
    if p.nobody_dead:
        return not dead
    if p.all:
        return all(holds(game, q) for q in p.all)
    if p.any:
        return any(holds(game, q) for q in p.any)
    if p.not_ is not None:
        return not holds(game, p.not_)
    raise ValueError("an empty win condition")  # the loader never makes one
