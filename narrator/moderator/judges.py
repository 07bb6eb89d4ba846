"""Who counts the votes and judges the end: the referee's `Judge`, in two kinds.

The referee (`referee.py`) walks the same flow whoever knows the cards; what it asks
of the cards goes through a `Judge`:

- `EngineJudge`: the cards are dealt by the phones (or written in a scenario) and
  the engine holds them (`Game`): it applies the dawn, counts the votes on the
  cards as they are (the Hunter's shot), takes the turns and judges the end;
- `PhysicalJudge`: the cards are on the table and nobody here knows them: it only
  counts the votes, by the same counting functions (`votes.py`), keeps the tie
  rule's reference (the Tombstone, the last one arrested) from what the table saw,
  and never judges the end (the host does).

Both are pure, like the referee: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from narrator.i18n.phrase import Phrase
from narrator.moderator import votes as counting
from narrator.moderator.board import MoveError, Place, SeatIndex
from narrator.moderator.game import Game
from narrator.moderator.log import Cause, Entry
from narrator.moderator.results import Winners
from narrator.moderator.votes import Accused
from narrator.rules.flow import Flow
from narrator.rules.powers import VoteRule

Ballot = Mapping[int, int | None]  # voter -> target (None: abstained)
Moment = Literal["death", "dawn"]
# Seed 004 (One Night): «if nobody has more than one vote, nobody dies» -- the count
# of a vote of everyone at once whose ruleset states none (`flow.vote.stated` False)
SEED_MIN_VOTES = 2


@dataclass(frozen=True, slots=True)
class Dawn:
    """What the dawn did: who left the game (killed, or arrested), and whether the
    night's "nobody" is said when nobody did (False: nothing could strike tonight)."""

    out: tuple[SeatIndex, ...]
    nobody_said: bool


@dataclass(frozen=True, slots=True)
class Voted:
    """A vote of everyone at once: who it kills, and who a death takes along."""

    dead: tuple[SeatIndex, ...]
    shot: tuple[SeatIndex, ...] = ()


class Judge(Protocol):
    """What the referee asks of the cards. Each method that takes a player out of the
    game says so in what it returns; the referee keeps who is in play."""

    def dawn(self) -> Dawn:
        """The night is over: apply what waits for dawn."""
        ...

    def vote(self, ballot: Ballot) -> Voted:
        """Everyone's vote at once: who dies."""
        ...

    def accuse(self, ballot: Ballot, accusers: Sequence[int], in_play: Sequence[int]) -> Accused:
        """The accusation: the suspects, or who dies without a ballot."""
        ...

    def ballot(self, ballot: Ballot, suspects: Sequence[int]) -> SeatIndex | None:
        """The ballot between the suspects: who is put to death, or nobody."""
        ...

    def remove(self, seat: SeatIndex) -> None:
        """A player left the game by the host's hand."""
        ...

    def over(self, moment: Moment) -> Winners | None:
        """After a death (or at dawn): the winners, if the game has ended now."""
        ...

    def final(self) -> Winners | None:
        """The flow has reached the end: who won (None: nobody judges)."""
        ...

    def begin_round(self) -> int | None:
        """The day's next round of turns, played here (None: at the table)."""
        ...

    def end_rounds(self) -> None:
        """The last round is over."""
        ...

    def turn(
        self, seat: SeatIndex, action: str, choice: Sequence[Place], role: str | None
    ) -> tuple[list[Entry], list[SeatIndex]]:
        """A turn of the round: what happened, and who it took out of the game."""
        ...


def _winners(found: tuple[list[str], list[int]]) -> Winners:
    teams, seats = found
    return Winners(tuple(sorted(teams)), tuple(sorted(SeatIndex(s) for s in seats)))


@dataclass
class EngineJudge:
    """The engine knows the cards: every count and every end is its (and in its log)."""

    game: Game

    def dawn(self) -> Dawn:
        before = len(self.game.log)
        out = tuple(SeatIndex(s) for s in self.game.dawn())
        said = any(
            e.kind == "nobody_dies" and e.cause == Cause.NIGHT for e in self.game.log[before:]
        )
        return Dawn(out, said)

    def vote(self, ballot: Ballot) -> Voted:
        before = len(self.game.log)
        self.game.vote(dict(ballot))
        deaths = [
            (SeatIndex(e.seat), e.cause)
            for e in self.game.log[before:]
            if e.kind == "death" and e.seat is not None
        ]
        return Voted(
            tuple(sorted(seat for seat, cause in deaths if cause == Cause.VOTE)),
            tuple(sorted(seat for seat, cause in deaths if cause != Cause.VOTE)),
        )

    def accuse(self, ballot: Ballot, accusers: Sequence[int], in_play: Sequence[int]) -> Accused:
        before = len(self.game.dead_order)
        suspects = self.game.accuse(dict(ballot))
        dead = self.game.dead_order[before:]
        return Accused(tuple(suspects), dead[0] if dead else None)

    def ballot(self, ballot: Ballot, suspects: Sequence[int]) -> SeatIndex | None:
        out = self.game.ballot(dict(ballot))
        return None if out is None else SeatIndex(out)

    def remove(self, seat: SeatIndex) -> None:
        self.game.remove(seat)

    def over(self, moment: Moment) -> Winners | None:
        found = self.game.over(moment)
        return None if found is None else _winners(found)

    def final(self) -> Winners | None:
        return _winners(self.game.winners())

    def begin_round(self) -> int | None:
        if not self.game.ruleset.actions:
            return None  # no actions: the turns are not played here
        return self.game.begin_round()

    def end_rounds(self) -> None:
        self.game.end_rounds()

    def turn(
        self, seat: SeatIndex, action: str, choice: Sequence[Place], role: str | None
    ) -> tuple[list[Entry], list[SeatIndex]]:
        free = [s.free for s in self.game.seats]
        entries = self.game.turn(seat, action, choice, role)
        out = [SeatIndex(i) for i, s in enumerate(self.game.seats) if free[i] and not s.free]
        return entries, out


@dataclass
class PhysicalJudge:
    """Nobody here knows the cards: the votes are counted by the ruleset's rule (for
    a vote of everyone at once that states none, by the seed's: nobody without two
    votes), the tie rule measures from what the table saw, the end is the host's."""

    flow: Flow
    seats: int
    last_out: SeatIndex | None = None  # Lupus's Tombstone: the last player out
    last_arrested: SeatIndex | None = None  # Mafia's reference: the last one marked out

    @property
    def rule(self) -> VoteRule:
        vote = self.flow.vote
        if vote is None:
            return VoteRule(kind="accusation_ballot")
        if not vote.stated and not vote.trial:
            return VoteRule(min_votes=SEED_MIN_VOTES)
        return vote.counted

    def _reference(self) -> SeatIndex | None:
        return self.last_arrested if self.rule.tie == "last_arrested_nearest" else self.last_out

    def dawn(self) -> Dawn:
        return Dawn((), True)  # the night's dead are marked out by the host

    def vote(self, ballot: Ballot) -> Voted:
        dead = counting.most_voted(ballot, self.rule.min_votes)
        return Voted(tuple(SeatIndex(s) for s in dead))

    def accuse(self, ballot: Ballot, accusers: Sequence[int], in_play: Sequence[int]) -> Accused:
        got = counting.accusation(
            self.rule, ballot, in_play, self._reference(), self.seats, accusers
        )
        if got.dies is not None:
            self.last_out = SeatIndex(got.dies)
        return got

    def ballot(self, ballot: Ballot, suspects: Sequence[int]) -> SeatIndex | None:
        out = counting.verdict(self.rule, ballot, suspects, self._reference(), self.seats)
        if out is not None:
            self.last_out = SeatIndex(out)
        return None if out is None else SeatIndex(out)

    def remove(self, seat: SeatIndex) -> None:
        self.last_out = self.last_arrested = seat

    def over(self, moment: Moment) -> Winners | None:
        return None

    def final(self) -> Winners | None:
        return None

    def begin_round(self) -> int | None:
        return None  # the turns are played at the table, with the cards

    def end_rounds(self) -> None:
        return None

    def turn(
        self, seat: SeatIndex, action: str, choice: Sequence[Place], role: str | None
    ) -> tuple[list[Entry], list[SeatIndex]]:
        raise MoveError(Phrase("the turns are played at the table, with the cards"))
