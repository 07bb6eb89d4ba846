"""How a day's votes are counted, from the ruleset's `VoteRule`.

Pure functions over seat indices (0-based, clockwise), shared by the engine
(`Game.accuse`, `Game.ballot`) and the phones' table, which counts the votes of a
game played with physical cards the same way: one place for the rules of the day.
A vote maps the voter's seat to the target's; a voter who did not vote is absent
(or maps to None).

- The accusation: the candidates are the players still in play who were accused at
  least once. `suspects_by: count` takes the `suspects` most accused, a tie broken by
  the rule's `tie` (Lupus, Mafia); `ranks` takes the most accused -- every one of
  them when several tie, else with every runner-up (Wherewolf). With
  `sole_accused_dies` a player accused by every other player who may accuse dies
  with no ballot (their own vote, and nobody's silence, cannot save them); with
  `final_two_one_vote` and two players left the accusation is the only vote (more
  votes dies, a tie nobody).
- The ballot: the suspect with the most votes dies; a tie goes to the one nearer the
  reference (the Tombstone clockwise, or the last player arrested either way), or to
  nobody when the rule's `tie` is `nobody`. Only a suspect who took votes can die:
  the seeds put to death «chi ha preso più voti» (Lupus, seed 003; Mafia, seed 001:
  «Chi dei due ha preso più voti viene assassinato»), so a ballot where nobody voted
  -- nobody may (Mafia's Prisoners and Ghosts «non possono votare chi deve essere
  assassinato»), or the phones' window closed on no vote -- kills nobody, and a sole
  suspect is put to death only by a vote against them.
- One Night's simultaneous vote (`count`): the most votes die, every one tied,
  nobody under `min_votes` -- with the `Modifiers` the cards bring, which the engine
  reads on the players' cards and tokens (a table of physical cards knows none, and
  counts `most_voted`): the votes on some players do not count (the Prince); some
  voters' points are shields, not votes (the Bodyguard); some players are spared by
  some voters (the Master, whom a vampire votes for). When the most voted cannot
  die, the most voted of the others do, with `min_votes` still needed. In an epic
  battle (three groups or more at the table: the Vampire and Alien rulebooks) a
  single most voted dies with the second most voted, however few their votes; a tie
  for the most kills only the tied.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from narrator.rules.powers import VoteRule

Votes = Mapping[int, int | None]


@dataclass(frozen=True, slots=True)
class Accused:
    """The accusation's result: the suspects for the ballot, or who dies without one."""

    suspects: tuple[int, ...]
    dies: int | None = None  # every accusation on one player, or the final two's vote


def tally(votes: Votes) -> Counter[int]:
    return Counter(t for t in votes.values() if t is not None)


def most_voted(votes: Votes, min_votes: int) -> list[int]:
    """A simultaneous vote (One Night's countdown): the seats with the most votes,
    every one tied, in seat order; nobody if the most is under `min_votes`."""
    counts = tally(votes)
    top = max(counts.values(), default=0)
    return sorted(s for s, n in counts.items() if n == top) if top >= min_votes else []


@dataclass(frozen=True, slots=True)
class Modifiers:
    """What the players' cards change in a simultaneous vote (seats 0-based)."""

    uncounted: frozenset[int] = frozenset()  # the votes on these players do not count
    shields: frozenset[int] = frozenset()  # these players' points shield, not vote
    # a player -> the voters whose vote for them spares them
    spared: Mapping[int, frozenset[int]] = field(default_factory=dict)
    epic: bool = False  # an epic battle: the second most voted die too


@dataclass(frozen=True, slots=True)
class Counted:
    """A simultaneous vote's result: who dies, and who the vote could not kill --
    with the most votes as they were cast, but uncounted (`uncounted`) or shielded
    (`shielded`)."""

    dead: tuple[int, ...]
    spared: tuple[tuple[int, str], ...] = ()


def count(votes: Votes, min_votes: int, modifiers: Modifiers = Modifiers()) -> Counted:
    """The simultaneous vote with the cards' modifiers (see the module's docstring)."""
    cast = {v: t for v, t in votes.items() if v not in modifiers.shields}
    shielded = {t for v, t in votes.items() if v in modifiers.shields and t is not None}
    shielded |= {
        seat for seat, by in modifiers.spared.items() if any(cast.get(v) == seat for v in by)
    }
    why = {s: "uncounted" for s in modifiers.uncounted} | dict.fromkeys(shielded, "shielded")
    top = most_voted(cast, min_votes)
    spared = tuple((s, why[s]) for s in top if s in why)
    counted = {v: t for v, t in cast.items() if t is not None and t not in why}
    dead = most_voted(counted, min_votes)
    if modifiers.epic and len(dead) == 1:  # the second most voted, one vote is enough
        dead += most_voted({v: t for v, t in counted.items() if t not in dead}, 1)
    return Counted(tuple(dead), spared)


def distance(rule: VoteRule, seat: int, reference: int | None, seats: int) -> tuple[int, int]:
    """How far `seat` is from the reference, for the tie rule: going clockwise
    (Tombstone), or the nearer way, clockwise first on equal distance (last arrested).
    Before there is a reference, the first seat stands in for it."""
    ref = 0 if reference is None else reference
    clockwise = (seat - ref) % seats
    if rule.tie == "last_arrested_nearest":
        return (min(clockwise, (ref - seat) % seats), clockwise)
    return (clockwise, 0)


def accusation(
    rule: VoteRule,
    votes: Votes,
    in_play: Sequence[int],
    reference: int | None,
    seats: int,
    accusers: Sequence[int] | None = None,
) -> Accused:
    """Who the accusation makes suspects (or puts to death) among `in_play`;
    `accusers` are the seats that may accuse (by default, `in_play`)."""
    counts = tally(votes)
    accused = [s for s in in_play if counts.get(s)]
    if not accused:
        return Accused(())
    top = max(counts[s] for s in accused)
    leaders = [s for s in accused if counts[s] == top]
    if rule.final_two_one_vote and len(in_play) <= 2:
        return Accused((), leaders[0] if len(leaders) == 1 else None)
    if rule.sole_accused_dies and len(leaders) == 1:
        (leader,) = leaders
        others = [a for a in (in_play if accusers is None else accusers) if a != leader]
        if others and all(votes.get(a) == leader for a in others):
            return Accused((), leader)
    if rule.suspects_by == "ranks":
        if len(leaders) > 1:
            return Accused(tuple(leaders))
        second = max((counts[s] for s in accused if counts[s] < top), default=top)
        return Accused(tuple(s for s in accused if counts[s] in (top, second)))
    ranked = sorted(accused, key=lambda s: (-counts[s], distance(rule, s, reference, seats)))
    return Accused(tuple(ranked[: rule.suspects]))


def verdict(
    rule: VoteRule, votes: Votes, suspects: Iterable[int], reference: int | None, seats: int
) -> int | None:
    """The suspect the ballot puts to death, or None (no suspects, or a tie under
    `tie: nobody`)."""
    counts = tally(votes)

    def order(s: int) -> tuple[int, tuple[int, int]]:
        return (-counts.get(s, 0), distance(rule, s, reference, seats))

    ranked = sorted(suspects, key=order)
    if not ranked or not counts.get(ranked[0]):
        return None  # nobody took a vote (nobody voted, or nobody could): nobody dies
    if (
        rule.tie == "nobody"
        and len(ranked) > 1
        and counts.get(ranked[0], 0) == counts.get(ranked[1], 0)
    ):
        return None
    return ranked[0]
