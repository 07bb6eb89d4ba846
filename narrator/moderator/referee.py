"""One referee: the game after the deal, walked from the ruleset's flow.

The phones' table (`table/flow.py`) and `narrator replay` (`scenario.py`) drive this
one referee; the app's spoken day walks the same flow (`script/builder.py`). It reads
what happens next from `ruleset.flow` (`rules/flow.py`: the phases, what ends each,
what follows, the branches) and asks the cards through a `Judge` (`judges.py`): the
engine's when the cards are dealt, or one that only counts the votes when they are
on the table. There is no other copy of the flow, and no branch on who knows the
cards.

Pure, as the engine is: no clock, no I/O, no words. A command moves the game on and
leaves `Announcement`s in `events` (what the voice says: the table words them); the
driver owns the clock (a phase's deadline, from its `window` or `timer`) and the
night's calls (the engine's steps, on the voice's clock or from a scenario).

    referee = Referee(ruleset.flow, judge, alive=[True] * players)  # phase "cards"
    referee.go_on()                       # the host's "go on", a deadline, the night
                                          # heard to the end: the phase closes (its
                                          # count, the dawn) and the next one opens
    referee.vote(voter, target)           # a vote; the round closes once all are in
    referee.cast(ballot)                  # a whole round at once (a scenario)
    referee.eliminate(seat)               # a player leaves by the host's hand
    referee.turn(seat, action, places, role)   # a turn of the day's rounds
    referee.end()                         # the host ends the game

Seats are `SeatIndex`es (0-based). Who is in play (`alive`: not dead, not arrested,
not captured) is the referee's to keep: each judge call that takes someone out says
so. After every death, when the ruleset judges its end (`flow.judged`), the judge is
asked whether the game is over.

The seeds' rules of a day's vote are the counting's (`votes.py`): a ballot puts to
death only a suspect who took votes; a ballot nobody may vote in is not held.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from narrator.i18n.phrase import Phrase
from narrator.moderator.board import MoveError, Place, SeatIndex
from narrator.moderator.judges import Judge, Moment
from narrator.moderator.log import Entry
from narrator.moderator.results import (
    AccusationResult,
    Result,
    VerdictResult,
    VoteResult,
    Winners,
)
from narrator.moderator.votes import tally
from narrator.rules.flow import Flow, PhaseName
from narrator.rules.powers import VoteRule

Stage = Literal["cards", PhaseName]  # "cards": dealt and looked at, before the first night
VOTING = ("vote", "accusation", "ballot")
STAGES: tuple[str, ...] = ("cards", "night", "day", *VOTING, "defence", "verdict", "end")


class Refused(MoveError):
    """A command the flow does not take now (no vote is open, nothing follows the end)."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """Something the voice announces: `kind` and the seats it names. The referee's
    kinds: night, victims, found, out, vote, accusation, accused_by, suspects, ballot,
    voted_by, dead, shot, verdict, round, rounds_over, end; a driver adds its own
    (the table: dealt, said, turn_said)."""

    kind: str
    seats: tuple[SeatIndex, ...] = ()
    night: int = 0  # the night begun; a round's number
    # an open round's votes, told voter by voter: (voter, target)
    votes: tuple[tuple[SeatIndex, SeatIndex], ...] = ()
    since: int = 0  # a turn: the engine's log from here is what the table hears
    text: str = ""  # a line of the day script, said as it is ("One minute left.")


@dataclass
class Referee:
    flow: Flow
    judge: Judge
    alive: list[bool]  # in play, seat by seat: not dead, arrested or captured
    phase: Stage = "cards"
    night: int = 0
    ballot: dict[SeatIndex, SeatIndex | None] = field(default_factory=dict)  # secret
    suspects: list[SeatIndex] = field(default_factory=list)
    night_out: list[SeatIndex] = field(default_factory=list)  # out since the night fell
    result: Result | None = None  # the last vote's, once counted
    winners: Winners | None = None  # at the end, when the rules judged it
    round: int = 0  # the day's round of turns, played here (0: none)
    events: list[Announcement] = field(default_factory=list)

    # -- who is who ---------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return len(self.alive)

    def in_play(self) -> list[SeatIndex]:
        return [SeatIndex(i) for i, here in enumerate(self.alive) if here]

    def at(self, *phases: str) -> bool:
        """Whether the game is in one of `phases` now (read again after every command)."""
        return self.phase in phases

    @property
    def voting(self) -> bool:
        return self.phase in VOTING

    def voters(self) -> list[SeatIndex]:
        """Who votes in the round open now (none when no round is)."""
        vote = self.flow.vote
        if self.phase == "vote":
            return self.in_play()
        if self.phase == "accusation":
            if vote is not None and vote.counted.accusers == "everyone":
                return [SeatIndex(i) for i in range(self.seats)]  # the Ghosts accuse too
            return self.in_play()
        if self.phase == "ballot":
            return [s for s in self.in_play() if s not in self.suspects]
        return []

    def targets(self, voter: SeatIndex) -> list[SeatIndex]:
        """Whom `voter` may vote for in the round open now."""
        if self.phase == "ballot":
            return list(self.suspects)
        return [s for s in self.in_play() if s != voter]

    # -- the commands ---------------------------------------------------------------------

    def go_on(self) -> None:
        """The phase ends (the host goes on, its time ran out, the votes are in, the
        night was heard to the end) and what the flow says follows begins."""
        phase = self.phase
        if phase == "end":
            raise Refused(Phrase("nothing follows the end of the game"))
        if phase == "cards":
            self._enter("night")
            return
        if phase == "day" and self._next_round():
            return
        self._close(phase)
        if self.phase == "end":  # the rules ended the game as the phase closed
            return
        after = self.flow.next(phase, night=self.night, suspects=bool(self.suspects))
        self._enter(after or "end")

    def vote(self, voter: SeatIndex, target: SeatIndex) -> None:
        """One vote in the round open now; the round is counted once every voter's is in."""
        if not self.voting:
            raise Refused(Phrase("there is no vote now"))
        voters = self.voters()
        if voter not in voters:
            raise Refused(Phrase("you have no vote in this round"))
        if target not in self.targets(voter):
            raise Refused(Phrase("you cannot vote for that player in this round"))
        self.ballot[voter] = target
        if all(v in self.ballot for v in voters):
            self.go_on()

    def cast(self, ballot: Mapping[SeatIndex, SeatIndex | None]) -> None:
        """A whole round at once, as written (a scenario: None abstains aloud), and
        counted; the judge refuses what the rules forbid."""
        if not self.voting:
            raise Refused(Phrase("there is no vote now"))
        self.ballot = dict(ballot)
        self.go_on()

    def eliminate(self, seat: SeatIndex) -> None:
        """A player leaves the game by the host's hand: by night (with the cards on
        the table, who the night took), or by day; in games of many nights only."""
        if self.phase not in ("night", "day") or self.flow.nights == 1:
            raise Refused(
                Phrase(
                    "players leave the game by night (or at the start of the day) "
                    "in games of many nights only"
                )
            )
        if not self.alive[seat]:
            raise Refused(Phrase("that player is already out of the game"))
        self._out(seat)
        if self.phase == "night":
            self.night_out.append(seat)  # named at dawn
        else:
            self.events.append(Announcement("out", (seat,)))
        self.judge.remove(seat)
        self._ends("death")

    def turn(
        self, seat: SeatIndex, action: str, choice: Sequence[Place], role: str | None = None
    ) -> list[Entry]:
        """`seat` takes a turn of the day's round (Secret Moon): what happened, as the
        judge logged it. Whoever it takes out of the game is out; the end is judged."""
        if not (self.phase == "day" and self.round):
            raise Refused(Phrase("there are no turns now"))
        entries, out = self.judge.turn(seat, action, choice, role)
        for s in out:
            self._out(s)
        self._ends("death")
        return entries

    def end(self) -> None:
        """The host ends the game: nobody judges it."""
        if self.phase == "end":
            raise Refused(Phrase("there is no game to end"))
        self._finish(None)

    # -- closing a phase ------------------------------------------------------------------

    def _close(self, phase: Stage) -> None:
        if phase == "night":
            self._dawn()
        elif phase == "day" and self.round:
            self.judge.end_rounds()  # the last round is over (Secret Moon's end)
            self.events.append(Announcement("rounds_over"))
            self._ends("death")
        elif phase == "vote":
            self._count_vote()
        elif phase == "accusation":
            self._count_accusation()
        elif phase == "ballot":
            self._count_ballot()

    def _dawn(self) -> None:
        """The night is over: with powers timed at dawn, the judge applies them, and
        the night's dead (and those marked out by hand) are named. Without them (One
        Night), what the night left in the open is seen (`found`: a card face up, a
        shield, an artifact on a card; the driver words it from the cards it knows)."""
        if not self.flow.dawn:
            self.events.append(Announcement("found", night=self.night))
            return
        dawn = self.judge.dawn()
        for seat in dawn.out:
            if self.alive[seat]:
                self._out(seat)
                self.night_out.append(seat)
        if self.night_out or dawn.nobody_said:
            self.events.append(Announcement("victims", tuple(self.night_out)))
        self._ends("dawn")

    def _count_vote(self) -> None:
        counted = {v: t for v, t in self.ballot.items() if t is not None}
        voted = self.judge.vote(self._plain())
        for seat in (*voted.dead, *voted.shot):
            self._out(seat)
        self.result = VoteResult(dict(sorted(counted.items())), voted.dead, voted.shot)
        self.events.append(Announcement("dead", voted.dead))
        if voted.shot:
            self.events.append(Announcement("shot", voted.shot))

    def _told(self, open_: bool) -> dict[SeatIndex, SeatIndex] | None:
        """An open round's votes, voter by voter (audit 3, finding 3: the seeds count
        Lupus's and Mafia's accusation aloud); a secret round tells nothing (None)."""
        if not open_:
            return None
        return {v: t for v, t in sorted(self.ballot.items()) if t is not None}

    def _plain(self) -> dict[int, int | None]:
        """The ballot as the counting takes it."""
        return {int(v): t for v, t in self.ballot.items()}

    def _counts(self) -> dict[SeatIndex, int]:
        return {SeatIndex(s): n for s, n in tally(self._plain()).items()}

    def _count_accusation(self) -> None:
        rule = self._rule()
        counts, told = self._counts(), self._told(rule.open_accusation)
        self.result = AccusationResult(counts, told)
        if told:
            self.events.append(Announcement("accused_by", votes=tuple(told.items())))
        got = self.judge.accuse(self._plain(), self.voters(), self.in_play())
        self.ballot = {}
        if not got.suspects:  # burned at once, or nobody accused: no defence, no ballot
            self.suspects = []
            dies = None if got.dies is None else SeatIndex(got.dies)
            self._verdict(dies, {}, told)
            return
        self.suspects = [SeatIndex(s) for s in got.suspects]
        self.result = AccusationResult(counts, told, tuple(self.suspects))
        self.events.append(Announcement("suspects", tuple(self.suspects)))

    def _count_ballot(self) -> None:
        rule = self._rule()
        counts, told = self._counts(), self._told(rule.open_ballot)
        if told:
            self.events.append(Announcement("voted_by", votes=tuple(told.items())))
        condemned = self.judge.ballot(self._plain(), self.suspects)
        self._verdict(condemned, {s: counts.get(s, 0) for s in self.suspects}, told)

    def _verdict(
        self,
        condemned: SeatIndex | None,
        counts: Mapping[SeatIndex, int],
        told: Mapping[SeatIndex, SeatIndex] | None,
    ) -> None:
        suspects = tuple(self.suspects)
        # an open ballot: who voted for whom (only when there were suspects to vote on)
        self.result = VerdictResult(
            dict(counts), condemned, suspects, dict(told) if told and suspects else None
        )
        self.phase, self.ballot, self.suspects = "verdict", {}, []
        if condemned is not None:
            self._out(condemned)
        self.events.append(Announcement("verdict", () if condemned is None else (condemned,)))
        self._ends("death")

    def _rule(self) -> VoteRule:
        vote = self.flow.vote
        assert vote is not None, "a vote phase without a vote"
        return vote.counted

    # -- opening a phase ------------------------------------------------------------------

    def _enter(self, name: PhaseName) -> None:
        self.phase, self.ballot = name, {}
        if name == "night":
            self.night += 1
            self.night_out, self.suspects = [], []
            self.events.append(Announcement("night", night=self.night))
        elif name == "day":
            self.round = 0
            if self.flow.phase("day").rounds is not None:
                self._next_round()
        elif name in ("vote", "accusation"):
            self.events.append(Announcement(name))
        elif name == "ballot":
            if not self.voters():  # nobody may vote on the suspects: no vote is opened,
                self._count_ballot()  # and a ballot with no vote kills nobody
                return
            self.events.append(Announcement("ballot", tuple(self.suspects)))
        elif name == "end":
            self._finish(self.judge.final())

    def _next_round(self) -> bool:
        """The day's next round of turns, if the judge plays them and one is left."""
        rounds = self.flow.phase("day").rounds
        if rounds is None or (self.round and self.round >= rounds.count):
            return False
        number = self.judge.begin_round()
        if number is None:
            return False  # the turns are played at the table: the host ends the day
        self.round = number
        self.events.append(Announcement("round", night=number))
        return True

    # -- the end --------------------------------------------------------------------------

    def _out(self, seat: SeatIndex) -> None:
        self.alive[seat] = False

    def _ends(self, moment: Moment) -> None:
        """After a death (or at dawn): the end, if the rules judge it so now."""
        if self.phase == "end" or self.flow.judged is None:
            return
        winners = self.judge.over(moment)
        if winners is not None:
            self._finish(winners)

    def _finish(self, winners: Winners | None) -> None:
        self.phase, self.ballot, self.suspects = "end", {}, []
        self.winners = winners
        self.events.append(Announcement("end"))
