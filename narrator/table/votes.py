"""How each game counts its day vote, from the seeds: pure functions over seat numbers.

Seats are numbered 1..n going clockwise round the table (the order players joined
in, unless the host changes it). A vote maps the voter's seat to the target's seat;
a player who did not vote by the deadline is simply absent (abstains).

- One Night (`countdown`, seed 004): everyone points at the same moment; the most
  votes die, every player tied for the most dies, and if nobody has more than one
  vote nobody dies. If the Hunter dies, the player he points at dies too.
- Lupus in Tabula (seed 003): every player, Ghosts too, accuses; the two most
  accused are the suspects, a tie going to the player closer, clockwise, to the
  Ghost holding the Tombstone (the last one eliminated). The living who are not
  suspects vote in secret; most votes is executed, a tie again to the one closer to
  the Tombstone.
- Mafia with Infiltrators (seed 001): the same two rounds, but ties go to the
  players "closest to the last player arrested" (no direction given: the nearer
  either way, clockwise first on equal distance), and the arrested vote in the
  public round too.
- Wherewolf (seed 000): the living accuse. Several tied for the most: all of them,
  and only they, are accused; else the most voted and every runner-up. One player
  with every vote is burned with no ballot. The ballot's tie burns nobody. With two
  players left there is one vote: more votes burns, a tie burns nobody.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

System = Literal["countdown", "lupus", "mafia", "wherewolf"]

Votes = Mapping[int, int]  # voter seat -> target seat


def tally(votes: Votes) -> dict[int, int]:
    """Target seat -> votes received."""
    return dict(Counter(votes.values()))


def countdown_dead(votes: Votes, hunters: Iterable[int] = ()) -> tuple[list[int], list[int]]:
    """One Night: (who the vote kills, who the Hunter's shot kills besides)."""
    counts = tally(votes)
    top = max(counts.values(), default=0)
    dead = sorted(seat for seat, n in counts.items() if n == top) if top > 1 else []
    shot: list[int] = []
    for hunter in hunters:
        target = votes.get(hunter)
        if hunter in dead and target is not None and target not in dead and target not in shot:
            shot.append(target)
    return dead, sorted(shot)


def distance(seat: int, reference: int | None, seats: int, both_ways: bool) -> tuple[int, int]:
    """How far `seat` is from the reference seat, for the "closer to" tie rules.

    Clockwise is the direction of rising seat numbers. Without a reference (nobody
    eliminated yet) seat 1 stands in for it.
    """
    ref = 1 if reference is None else reference
    clockwise = (seat - ref) % seats
    if not both_ways:
        return (clockwise, 0)
    return (min(clockwise, (ref - seat) % seats), clockwise)


@dataclass(frozen=True, slots=True)
class Ranking:
    """Candidates ranked by votes (most first), ties broken by the system's rule."""

    order: tuple[int, ...]
    counts: Mapping[int, int]


def rank(
    votes: Votes, candidates: Iterable[int], reference: int | None, seats: int, both_ways: bool
) -> Ranking:
    counts = tally(votes)
    order = sorted(
        candidates, key=lambda s: (-counts.get(s, 0), distance(s, reference, seats, both_ways))
    )
    return Ranking(tuple(order), {s: counts.get(s, 0) for s in order})


def suspects(
    votes: Votes, candidates: Iterable[int], reference: int | None, seats: int, both_ways: bool
) -> list[int]:
    """Lupus and Mafia: the two most accused (ties to the closer one)."""
    return list(rank(votes, candidates, reference, seats, both_ways).order[:2])


def condemned(
    votes: Votes, suspects_: Iterable[int], reference: int | None, seats: int, both_ways: bool
) -> int:
    """Lupus and Mafia: the suspect with most votes (a tie to the closer one)."""
    return rank(votes, suspects_, reference, seats, both_ways).order[0]


@dataclass(frozen=True, slots=True)
class Accusation:
    """Wherewolf's accusation: who is accused, or who burns at once."""

    accused: tuple[int, ...]
    burned: int | None = None  # one player with every vote: no ballot


def wherewolf_accused(votes: Votes, alive: int) -> Accusation:
    counts = tally(votes)
    if not counts:
        return Accusation(())
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    top = ranked[0][1]
    leaders = [s for s, n in ranked if n == top]
    if alive <= 2:  # one vote only: more votes burns, a tie burns nobody
        return Accusation((), leaders[0] if len(leaders) == 1 else None)
    if len(leaders) > 1:
        return Accusation(tuple(sorted(leaders)))
    if top == len(votes):  # every vote cast went to one player
        return Accusation((), leaders[0])
    second = max(n for s, n in ranked if n < top)
    return Accusation(tuple(sorted([leaders[0]] + [s for s, n in ranked if n == second])))


def wherewolf_burned(votes: Votes, accused: Iterable[int]) -> int | None:
    """Wherewolf's ballot: the accused with most votes, or nobody on a tie."""
    counts = tally(votes)
    ranked = sorted(((counts.get(s, 0), s) for s in accused), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
        return None
    return ranked[0][1]
