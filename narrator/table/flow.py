"""How the game at the table moves on after the deal: phases, votes, deadlines, the end.

`Flow` holds the table's game state and the rules of its flow: `advance` (the host's
"go on", a deadline, the night heard to the end), the dawn, the votes and how each
closes, the verdict, the day's timers and their spoken warnings, the rounds of turns,
and the end judged by the engine. `Table` (state.py) adds the lobby, the deal and the
night on the phones on top of it. The next step replaces this module with a referee
in the engine that walks a flow read from the ruleset: its logic is kept as it was,
only moved here.

Phases: lobby -> cards -> night -> day -> then, by game,
  One Night:             vote -> end (every card revealed, the winners)
  Lupus, Mafia, Wherewolf: accusation -> defence -> ballot -> verdict -> night ...
  Secret Moon (no vote):   the day is its rounds of turns: with dealt cards each
                           player takes their turn's action on their phone
                           (`Table.turn`); the host moves to the next round; the
                           engine ends the game; with physical cards the host ends it.

Seats are `SeatIndex`es (0-based), as the engine's are: no conversion here.

The clock is the session's `Clock` protocol on the wall's time base (`WallClock`):
the deadlines are saved and must mean the same after a restart, which the session's
monotonic clock, restarted with the process, would not.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from narrator.moderator import Game as Engine
from narrator.moderator import votes
from narrator.rules import Ruleset
from narrator.rules.powers import VoteRule
from narrator.script import Timer
from narrator.script.defaults import PACE, WAKE_GAP
from narrator.session.clock import Clock
from narrator.session.game import Game
from narrator.session.segments import Countdown
from narrator.table import outcome
from narrator.table.errors import TableError
from narrator.table.night import NightDesk
from narrator.table.results import (
    AccusationResult,
    Result,
    Reveal,
    VerdictResult,
    VoteResult,
    Votes,
    Winners,
)
from narrator.table.seal import Vault
from narrator.table.seats import Player, SeatIndex, Seats
from narrator.table.votes import countdown_dead

VOTING = ("vote", "accusation", "ballot")
PHASES = frozenset(
    {"lobby", "cards", "night", "day", "vote", "accusation", "defence", "ballot", "verdict", "end"}
)
Journal = dict[SeatIndex, list[dict[str, Any]]]  # what each player did and learned


class WallClock:
    """The session's `Clock` on the wall's time base: what the table saves."""

    def now(self) -> float:
        return time.time()


@dataclass(frozen=True, slots=True)
class Options:
    """This table's own vote windows, where it wants other than its ruleset's
    (`outcome.vote`: `seconds`, `accusation_seconds`, `ballot_seconds`): how long a
    vote stays open before a missing vote counts as abstaining. None: the ruleset's."""

    vote_seconds: float | None = None  # the simultaneous vote (One Night)
    accusation_seconds: float | None = None
    ballot_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Announcement:
    """Something the voice announces: `kind` and the seats it names."""

    kind: str
    seats: tuple[SeatIndex, ...] = ()
    night: int = 0
    # an open round's votes, told voter by voter: (voter, target)
    votes: tuple[tuple[SeatIndex, SeatIndex], ...] = ()
    since: int = 0  # a turn: the engine's log from here is what the table hears
    text: str = ""  # a line of the day script, said as it is ("One minute left.")


@dataclass
class Flow:
    ruleset: Ruleset
    lang: str
    options: Options = field(default_factory=Options)
    clock: Clock = field(default_factory=WallClock)
    rng: random.Random = field(default_factory=secrets.SystemRandom)
    seats: Seats = field(default_factory=Seats)
    phase: str = "lobby"
    night: int = 0
    deadline: float | None = None
    dealt: bool = False  # False: physical cards, the phones only vote
    roles: dict[str, int] = field(default_factory=dict)  # the deck: it shapes the calls
    unseen: list[str] = field(default_factory=list)  # aside: One Night's centre
    removed: list[str] = field(default_factory=list)  # out of the game, unseen
    ballot: dict[SeatIndex, SeatIndex] = field(default_factory=dict)  # secret until closed
    suspects: list[SeatIndex] = field(default_factory=list)
    last_out: SeatIndex | None = None  # Lupus's Tombstone: the last player eliminated
    last_arrested: SeatIndex | None = None  # Mafia's reference for ties
    night_out: list[SeatIndex] = field(default_factory=list)
    result: Result | None = None  # the last vote's result, once shown
    reveal: Reveal | None = None  # every card and the winners, at the end
    events: list[Announcement] = field(default_factory=list)
    version: int = 0
    # The night on the phones: the engine holds the cards as they move (a deck it can
    # run, dealt by the phones); `desk` is the night being played
    engine: Engine | None = field(default=None, repr=False)
    desk: NightDesk | None = field(default=None, repr=False)
    journal: Journal = field(default_factory=dict)
    pace: float = PACE  # the user's pace (settings or --pace): the night's silences
    wake_gap: float = WAKE_GAP  # the user's pause after a wake call
    # The saved game's secrets are sealed (seal.py, sealed.py): the keys live here, in
    # memory; after a restart the game stays closed until two players' phones are back
    vault: Vault = field(default_factory=Vault, repr=False)
    # The day script's timer the deadline counts down (the discussion, the defence),
    # by (phase, night), and its spoken warnings, by (phase, night, deadline): worked
    # out again, never saved
    _timer_of: tuple[object, Timer | None] = field(default=(None, None), repr=False)
    _warned: tuple[object, Countdown | None] = field(default=(None, None), repr=False)

    def seat(self, seat: SeatIndex) -> Player:
        return self.seats.at(seat)

    def alive(self) -> list[SeatIndex]:
        return self.seats.alive()

    # -- what kind of day, from the ruleset -----------------------------------------

    @property
    def countdown(self) -> bool:
        """One Night's day: everyone points at once, and the game ends."""
        vote = self.ruleset.day.vote
        return vote is not None and vote.style == "countdown"

    @property
    def trial(self) -> bool:
        """A day of accusation and ballot, then the next night (Lupus, Mafia, Wherewolf)."""
        vote = self.ruleset.day.vote
        return vote is not None and vote.style == "accusation_ballot"

    @property
    def rounds(self) -> bool:
        """Rounds of turns, played on the phones (Secret Moon with dealt cards)."""
        return bool(self.ruleset.actions) and self.ruleset.rounds is not None

    @property
    def rule(self) -> VoteRule:
        """How the accusation and the ballot are counted: the ruleset's `outcome.vote`,
        or, for a ruleset that says nothing, two suspects and ties to the Tombstone."""
        end = self.ruleset.outcome
        if end is not None and end.vote.kind == "accusation_ballot":
            return end.vote
        return VoteRule(kind="accusation_ballot")

    def game(self, night: int | None = None) -> Game:
        """This table's game as the session plays it (the app's `Game`): the same
        deck, language, pace and night, so the voice's night and the day's timers
        come from the one script the app plays -- and, with the cards dealt, the
        engine's seed, so the voice says the instructions the engine applies (an
        Alien's, the Oracle's question)."""
        game = Game(
            self.ruleset,
            max(len(self.seats), 1),
            dict(self.roles),
            self.lang,
            max(self.night if night is None else night, 1),
            pace=self.pace,
        )
        game.wake_gap = self.wake_gap
        if self.engine is not None and self.engine.seed is not None:
            game.seed = self.engine.seed  # the instructions drawn: the engine's, spoken
        game.phones = self.engine is not None  # the night on the phones: their words
        return game

    def day_timers(self) -> list[float]:
        """The lengths of the day's timers in the order the app's day runs them
        (the discussion -- the first day's length on day 1 -- then the defence)."""
        return [t.seconds for t in self._day_timer_steps()]

    def _day_timer_steps(self) -> list[Timer]:
        steps = self.game().script("day").steps
        return [s for s in steps if isinstance(s, Timer) and s.turn is None]

    def _changed(self) -> None:
        self.version += 1

    # -- the commands that move the game ---------------------------------------------

    def eliminate(self, seat: SeatIndex) -> None:
        """The host takes a player out of the game: with physical cards, who left in
        the night (the wolves' victim, the arrested player, as the tie rule counts
        them); with dealt cards, a player who leaves the table (the engine counts a
        death)."""
        self.vault.must_be_open()
        if self.phase not in ("night", "day") or not self.trial:
            raise TableError(
                "players leave the game by night (or at the start of the day) "
                "in games of many nights only",
                "refused",
            )
        player = self.seat(seat)
        if not player.alive:
            raise TableError(f"{player.name} is already out of the game", "refused")
        self._out(player.seat)
        self.night_out.append(player.seat)
        if self.phase == "day":  # the night's are named at dawn; by day, said now (P10)
            self.events.append(Announcement("out", (player.seat,)))
        self.last_arrested = player.seat  # physical cards: the reference of `last_arrested_nearest`
        if self.engine is not None:
            self.engine.remove(player.seat)
        self._check_end("death")
        self._changed()

    def vote(self, voter: Player, target: SeatIndex) -> None:
        self.vault.must_be_open()
        if self.phase not in VOTING:
            raise TableError("there is no vote now", "refused")
        if voter.seat not in self.voters():
            raise TableError("you have no vote in this round", "refused")
        player = self.seat(target)
        if player.seat not in self.targets(voter.seat):
            raise TableError(f"you cannot vote for {player.name} in this round", "refused")
        self.ballot[voter.seat] = player.seat
        if len(self.ballot) == len(self.voters()):
            self.advance()
        self._changed()

    def tick(self) -> bool:
        """Apply a deadline that has passed; True if the table changed. (A sealed
        game's clock stands still until it opens.)"""
        if self.vault.closed is not None:
            return False
        if self.deadline is not None and self.clock.now() >= self.deadline:
            timer = self._day_timer()
            if timer is not None and timer.end:  # run out, not ended by the host
                self.events.append(Announcement("said", text=timer.end))
            self.advance()
            return True
        if self._warn():
            self._changed()
            return True
        return False

    def advance(self) -> None:
        """The next phase: the host's "go on", a deadline, or the night's end."""
        self.vault.must_be_open()
        self.deadline = None
        phase = self.phase
        if phase in ("lobby", "end"):
            raise TableError(f"nothing follows '{phase}' (start the game first)", "refused")
        if phase in ("cards", "verdict"):
            self.phase, self.night, self.night_out = "night", self.night + 1, []
            self.events.append(Announcement("night", night=self.night))
        elif phase == "night":
            self._dawn()
            if self.phase == "end":  # the dawn's dead ended the game
                self._changed()
                return
            self.phase = "day"
            if self.rounds and self.engine is not None:
                self._next_round()
            self.deadline = self._start_timer()
            if self.trial:
                self.events.append(Announcement("victims", tuple(self.night_out)))
            elif self.countdown and self.engine is not None:  # what lies face up, tokens
                self.events.append(Announcement("found", night=self.night))
        elif phase == "day":
            if self.rounds and self.engine is not None:
                self._next_round()
            elif not (self.countdown or self.trial):
                self._end(None)
            else:
                self._open("vote" if self.countdown else "accusation")
        elif phase == "vote":
            self._close_countdown()
        elif phase == "accusation":
            self._close_accusation()
        elif phase == "defence":
            self._open("ballot")
        elif phase == "ballot":
            self._close_ballot()
        self._changed()

    def end(self) -> None:
        """The host ends the game (Secret Moon, or a game the table calls off)."""
        self.vault.must_be_open()
        if self.phase in ("lobby", "end"):
            raise TableError("there is no game to end", "refused")
        self._end(None)
        self._changed()

    def _dawn(self) -> None:
        """The night is over: every window closes, the dawn's effects apply."""
        desk, self.desk = self.desk, None
        if desk is None or self.engine is None:
            return
        desk.finish()
        if not self.trial:
            return
        for index in self.engine.dawn():  # killed, or arrested (a Prisoner: out of play)
            player = self.seat(SeatIndex(index))
            if player.alive:
                self._out(player.seat)
                self.night_out.append(player.seat)
        self._check_end("dawn")

    def _next_round(self) -> None:
        """The host's "go on" in the rounds: the next round, or after the last one the
        end the ruleset gives (the Princess's side)."""
        engine, rounds = self.engine, self.ruleset.rounds
        assert engine is not None and rounds is not None
        if engine.round >= rounds.count:
            engine.end_rounds()
            self.events.append(Announcement("turn_said", since=len(engine.log) - 1))
            self._check_end("death")
            return
        engine.begin_round()
        self.events.append(Announcement("round", night=engine.round))

    # -- votes ------------------------------------------------------------------------

    def voters(self) -> list[SeatIndex]:
        everyone = self.phase == "accusation" and self.rule.accusers == "everyone"
        if self.phase == "vote" or everyone:
            return [p.seat for p in self.seats]  # Lupus ghosts and Mafia prisoners accuse
        if self.phase == "accusation":
            return self.alive()
        if self.phase == "ballot":
            return [s for s in self.alive() if s not in self.suspects]
        return []

    def targets(self, voter: SeatIndex) -> list[SeatIndex]:
        if self.phase == "ballot":
            return list(self.suspects)
        return [s for s in self.alive() if s != voter]

    def _open(self, phase: str) -> None:
        self.phase, self.ballot = phase, {}
        own, rule = self.options, self.rule
        if phase == "vote":
            end = self.ruleset.outcome
            simultaneous = end.vote if end is not None else VoteRule()
            seconds = own.vote_seconds or simultaneous.seconds
        elif phase == "accusation":
            seconds = own.accusation_seconds or rule.accusation_seconds
        else:
            seconds = own.ballot_seconds or rule.ballot_seconds
        self.deadline = self.clock.now() + seconds
        self.events.append(Announcement(phase, tuple(self.suspects) if phase == "ballot" else ()))

    def _day_timer(self) -> Timer | None:
        """The day script's timer of this phase (the discussion by day, the defence),
        as the app's day runs it (first-day length, warnings and all); None in a vote
        or when the ruleset has none."""
        day = self.ruleset.day
        if self.phase == "day":
            timed, index = day.discussion, 0
        elif self.phase == "defence":
            timed = day.vote.defence if day.vote else None
            index = 1 if day.discussion else 0
        else:
            return None
        key = (self.phase, self.night)
        if self._timer_of[0] != key:
            timers = self._day_timer_steps() if timed is not None else []
            self._timer_of = (key, timers[index] if index < len(timers) else None)
        return self._timer_of[1]

    def _start_timer(self) -> float | None:
        """The deadline of this phase's day timer, starting now; None without one."""
        timer = self._day_timer()
        if timer is None:
            return None
        now = self.clock.now()
        deadline = now + timer.seconds
        self._warned = (
            (self.phase, self.night, deadline),
            Countdown(timer.seconds, timer.warnings, now),
        )
        return deadline

    def _warn(self) -> bool:
        """The running day timer's warnings, said as the app's day says them ("One
        minute left."): each once, the latest only if several came together. A game
        resumed mid-timer (or whose deadline moved on while it was sealed) does not
        say late what passed while it was closed: a countdown from what is left marks
        those as said."""
        if self.deadline is None or (timer := self._day_timer()) is None:
            return False
        now, key = self.clock.now(), (self.phase, self.night, self.deadline)
        countdown = self._warned[1] if self._warned[0] == key else None
        if countdown is None:
            countdown = Countdown(max(0.0, self.deadline - now), timer.warnings, now)
            self._warned = (key, countdown)
        due = countdown.due(now)
        self.events += [Announcement("said", text=w.text) for w in due]
        return bool(due)

    def _close_countdown(self) -> None:
        win = None
        if self.dealt and self.ruleset.outcome is not None:
            if self.engine is not None:  # the night's engine: its tokens count too
                end = outcome.judge(self.engine, self.ballot)
            else:
                cards, centre = self._cards_now()
                end = outcome.countdown(self.ruleset, cards, centre, self.ballot)
            dead, shot, win = list(end.dead), list(end.shot), end.winners
        else:  # physical cards: nobody knows them, so nobody knows who the Hunter is
            vote = self.ruleset.outcome.vote if self.ruleset.outcome is not None else None
            rule = vote if vote is not None and vote.kind == "simultaneous" else None
            dead, shot = countdown_dead(self.ballot, rule), []
        for seat in dead + shot:
            self._out(seat)
        self.result = VoteResult(dict(sorted(self.ballot.items())), tuple(dead), tuple(shot))
        self.events.append(Announcement("dead", tuple(dead)))
        if shot:
            self.events.append(Announcement("shot", tuple(shot)))
        self._end(win)

    def _reference(self) -> SeatIndex | None:
        """Physical cards: the seat the tie rule measures from."""
        return self.last_arrested if self.rule.tie == "last_arrested_nearest" else self.last_out

    def _close_accusation(self) -> None:
        """Count the accusation by the ruleset's rule: with dealt cards the engine does
        (and keeps it in its log); with physical cards the same counting functions."""
        counts = self._tally()
        told = self._told(self.rule.open_accusation)
        self.result = AccusationResult(counts, told)
        if told:
            self.events.append(Announcement("accused_by", votes=tuple(told.items())))
        ballot = self._counted()
        if self.engine is not None:
            before = len(self.engine.dead_order)
            suspects = self.engine.accuse(ballot)
            dead = self.engine.dead_order[before:]
            dies = dead[0] if dead else None
        else:
            in_play, accusers = self.alive(), self.voters()
            got = votes.accusation(
                self.rule, ballot, in_play, self._reference(), len(self.seats), accusers
            )
            suspects, dies = list(got.suspects), got.dies
        if not suspects:  # burned at once, or nobody accused: no defence, no ballot
            self._verdict(None if dies is None else SeatIndex(dies), told=told)
            return
        self.suspects = [SeatIndex(s) for s in suspects]
        self.result = AccusationResult(counts, told, tuple(self.suspects))
        self.phase, self.ballot = "defence", {}
        self.deadline = self._start_timer()
        self.events.append(Announcement("suspects", tuple(self.suspects)))

    def _counted(self) -> dict[int, int | None]:
        """The ballot as the engine's counting functions take it."""
        return {voter: target for voter, target in self.ballot.items()}

    def _tally(self) -> dict[SeatIndex, int]:
        return {SeatIndex(s): n for s, n in votes.tally(self._counted()).items()}

    def _told(self, open_: bool) -> Votes | None:
        """An open round's votes, voter by voter (audit 3, finding 3: the seeds count
        Lupus's and Mafia's accusation aloud); a secret round tells nothing (None)."""
        return dict(sorted(self.ballot.items())) if open_ else None

    def _close_ballot(self) -> None:
        counts = self._tally()
        told = self._told(self.rule.open_ballot)
        if told:
            self.events.append(Announcement("voted_by", votes=tuple(told.items())))
        ballot = self._counted()
        if self.engine is not None:
            out = self.engine.ballot(ballot)
        else:
            out = votes.verdict(
                self.rule, ballot, list(self.suspects), self._reference(), len(self.seats)
            )
        condemned = None if out is None else SeatIndex(out)
        self._verdict(condemned, {s: counts.get(s, 0) for s in self.suspects}, told)

    def _verdict(
        self,
        condemned: SeatIndex | None,
        counts: Mapping[SeatIndex, int] | None = None,
        told: Votes | None = None,
    ) -> None:
        suspects = tuple(self.suspects)
        # an open ballot: who voted for whom (only when there were suspects to vote on)
        self.result = VerdictResult(
            dict(counts or {}), condemned, suspects, told if told and suspects else None
        )
        self.phase, self.ballot, self.suspects = "verdict", {}, []
        if condemned is not None:
            self._out(condemned)
        self.events.append(Announcement("verdict", () if condemned is None else (condemned,)))
        self._check_end("death")

    # -- the end --------------------------------------------------------------------

    def _out(self, seat: SeatIndex) -> None:
        """The table's view: the player is out of play (dead, or a Prisoner). With dealt
        cards the engine has already recorded why (`dawn`, `accuse`, `ballot`,
        `remove`); One Night's vote is judged apart, on the cards after the night."""
        self.seat(seat).alive = False
        self.last_out = seat

    def _cards_now(self) -> tuple[dict[SeatIndex, str], list[str]]:
        """The cards in front of the players and in the centre after the night's moves."""
        if self.engine is None:
            return {p.seat: p.card or "" for p in self.seats}, list(self.unseen)
        return (
            {SeatIndex(i): s.card.identity for i, s in enumerate(self.engine.seats)},
            [c.identity for c in self.engine.centre],
        )

    def _tokens_now(self) -> dict[SeatIndex, tuple[str, ...]]:
        """What lies beside each player's card at the end: its artifact, their mark."""
        if self.engine is None:
            return {}
        tokens = self.engine.tokens
        out = {}
        for i in range(len(self.engine.seats)):
            held = tuple(t for t in (tokens.artifacts.get(i), tokens.marks.get(i)) if t)
            if held:
                out[SeatIndex(i)] = held
        return out

    def _check_end(self, moment: str) -> None:
        """After a death ("death") or at dawn ("dawn"): the engine judges the ruleset's
        end from the cards as they are; with physical cards nobody knows them, and the
        host ends the game."""
        if self.engine is None or not (self.trial or self.rounds):
            return
        over = self.engine.over(moment)
        if over is not None:
            teams, seats = over
            self._end(Winners(tuple(sorted(teams)), tuple(sorted(SeatIndex(s) for s in seats))))

    def _end(self, win: Winners | None) -> None:
        self.phase, self.deadline, self.ballot = "end", None, {}
        if self.dealt:
            cards, centre = self._cards_now()
            self.reveal = Reveal(
                cards=cards,
                dealt={p.seat: p.card for p in self.seats},
                unseen=tuple(centre),
                unseen_dealt=tuple(self.unseen),
                removed=tuple(self.removed),
                winners=win or Winners((), ()),
                # False: nobody judged the end (the host ended it; Secret Moon's turns
                # are played at the table), so nobody is named the winner
                judged=win is not None,
                tokens=self._tokens_now(),
            )
        self.events.append(Announcement("end"))
