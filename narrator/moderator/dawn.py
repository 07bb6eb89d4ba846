"""The night's choices that wait for dawn, and the dawn that applies them.

A kill, a protection or an arrest chosen in the night is a `Pending` effect; at dawn
`resolve` decides, as a pure function of the pending effects and who is in play,
who dies and who is arrested: by priority, lowest first (the Bodyguard's protect at
10 before the wolves' kill at 20), a protected player neither killed nor arrested
that night. `dawn` applies the result to the game and logs it; with nobody killed it
applies the ruleset's `last_two` ranking (Wherewolf's two-player game) or says that
nobody died -- only on a night when a kill or an arrest was possible at all (the
first night of Wherewolf nothing happens, and nothing is said).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from narrator.moderator.log import Cause

if TYPE_CHECKING:
    from narrator.moderator.game import Game

DawnEffect = Literal["protect", "kill", "arrest"]
DAWN_EFFECTS: tuple[DawnEffect, ...] = ("protect", "kill", "arrest")


@dataclass(frozen=True, slots=True)
class Pending:
    """A choice of the night that takes effect at dawn."""

    effect: DawnEffect
    target: int  # the seat, 0-based
    priority: int  # lower first
    by: int | None = None  # the seat that chose it; None: a group's agreed pick


@dataclass(frozen=True, slots=True)
class Fate:
    """What dawn does to one player: killed, or arrested (alive, out of play)."""

    seat: int
    effect: Literal["kill", "arrest"]


def resolve(
    pending: Iterable[Pending], alive: Collection[int], free: Collection[int]
) -> list[Fate]:
    """Who dawn kills and arrests, in order: by priority, lowest first (equal ones in
    the order they were chosen); a protected player is spared; nobody is killed or
    arrested twice, and only the living die, only the free are arrested."""
    protected: set[int] = set()
    killed: set[int] = set()
    arrested: set[int] = set()
    out: list[Fate] = []
    for p in sorted(pending, key=lambda p: p.priority):
        if p.effect == "protect":
            protected.add(p.target)
        elif p.target in protected:
            continue
        elif p.effect == "kill" and p.target in alive and p.target not in killed:
            killed.add(p.target)
            out.append(Fate(p.target, "kill"))
        elif p.effect == "arrest" and p.target in free and p.target not in arrested:
            arrested.add(p.target)
            out.append(Fate(p.target, "arrest"))
    return out


def dawn(game: Game) -> list[int]:
    """Apply the night's pending effects: returns who died or was arrested, in order."""
    fates = resolve(
        game.tonight.dawn,
        alive={i for i, s in enumerate(game.seats) if s.alive},
        free={i for i, s in enumerate(game.seats) if s.free},
    )
    game.tonight.dawn.clear()
    out = []
    for fate in fates:
        if fate.effect == "kill":
            game.die(fate.seat, Cause.NIGHT)
        else:
            game.seats[fate.seat].free = False
            game.day.last_arrested = fate.seat
            game.record(None, fate.seat, "arrested")
        out.append(fate.seat)
    if out:
        return out
    if (lower := last_two(game)) is not None:
        game.die(lower, Cause.LAST_TWO)
        return [lower]
    if could_strike(game):
        game.record(None, None, "nobody_dies", why=Cause.NIGHT)
    return []


def could_strike(game: Game) -> bool:
    """Whether a power of the chosen roles could kill or arrest someone tonight (a
    fact of the deck and the night's number, never of who holds which card)."""
    chosen = game.chosen()
    for role_id in sorted({game.acts_as(r) for r in chosen}):  # the Pack Leader hunts as a wolf
        for ability in game.abilities_of(role_id):
            if {"kill", "arrest"} & set(ability.effects) and ability.when.holds(
                chosen, game.night, None, game.options
            ):
                return True
    return False


def last_two(game: Game) -> int | None:
    """Wherewolf's two-player game (seed 000, "Il gioco a due giocatori"): with only
    two players in play, the game not over and nobody killed in the night, the one
    lower in the ruleset's `last_two` list leaves. None otherwise, or when the two
    rank alike (the seed does not say; nobody leaves)."""
    outcome = game.ruleset.outcome
    if outcome is None or not outcome.last_two:
        return None
    in_play = [i for i, s in enumerate(game.seats) if s.alive and s.free]
    if len(in_play) != 2 or game.ended():
        return None

    def rank(seat: int) -> int:
        card = game.seats[seat].card.identity
        matches = [k for k, m in enumerate(outcome.last_two) if game.matches(card, m)]
        return matches[0] if matches else len(outcome.last_two)

    a, b = in_play
    if rank(a) == rank(b):
        return None
    return a if rank(a) > rank(b) else b
