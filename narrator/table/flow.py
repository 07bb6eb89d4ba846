"""The game at the table after the deal: the referee's flow, on the table's clock.

What happens next is not written here: the engine's one referee
(`moderator.referee.Referee`) walks the ruleset's flow and counts the votes through
its judge -- the engine's when the phones were dealt the cards, one that only counts
when the cards are on the table (`moderator.judges`). `TableFlow` holds the table's side
of it: the referee and what it is fed (the host's "go on", a deadline, the night
heard to the end, a vote), and what the referee leaves to its driver:

- **the clock**: each phase's deadline, from the flow (`phase.window`: how long a
  vote stays open, the table's `Options` first; `phase.timer`: the day's
  discussion or the defence, as the app's day script runs it, found by the phase's
  name, `script.day_timer`) and its spoken warnings ("One minute left.");
- **the night on the phones**: begun as the referee opens it, in the same command,
  so that the night saved is the night being played (`NightDesk`, `night.py`);
- **what the table shows**: who is out (the seats), the reveal at the end.

Phases: lobby -> cards -> the flow's (night, day, then by game: vote -> end (One
Night); accusation -> defence -> ballot -> verdict -> night ... (Lupus, Mafia,
Wherewolf); the day's rounds of turns (Secret Moon)) -> end.

Seats are `SeatIndex`es (0-based), as the engine's are: no conversion here. The
clock is the `Clock` protocol on the wall's time base (`session.clock.WallClock`):
the deadlines are saved and must mean the same after a restart, which the session's
monotonic clock, restarted with the process, would not.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from narrator.i18n.phrase import Phrase
from narrator.moderator import Game as Engine
from narrator.moderator import MoveError
from narrator.moderator.judges import EngineJudge, Judge, PhysicalJudge
from narrator.moderator.referee import STAGES, VOTING, Announcement, Referee
from narrator.moderator.results import Result, Winners
from narrator.rules import Ruleset
from narrator.rules.powers import VoteRule
from narrator.script import Script, Timer, day_timer
from narrator.script.defaults import PACE, WAKE_GAP
from narrator.session.clock import Clock, WallClock
from narrator.session.game import GameSetup
from narrator.session.segments import RunningTimer
from narrator.table.errors import TableError
from narrator.table.night import NightDesk
from narrator.table.results import Reveal
from narrator.table.seal import Vault
from narrator.table.seats import Player, SeatIndex, Seats

__all__ = ["PHASES", "VOTING", "Announcement", "Options", "Sealed", "TableFlow"]

PHASES = frozenset({"lobby", *STAGES})
T = TypeVar("T")
Journal = dict[SeatIndex, list[dict[str, Any]]]  # what each player did and learned


@dataclass(frozen=True, slots=True)
class Options:
    """This table's own vote windows, where it wants other than its ruleset's
    (`outcome.vote`: `seconds`, `accusation_seconds`, `ballot_seconds`): how long a
    vote stays open before a missing vote counts as abstaining. None: the ruleset's."""

    vote_seconds: float | None = None  # the simultaneous vote (One Night)
    accusation_seconds: float | None = None
    ballot_seconds: float | None = None


class Sealed:
    """The judge of a saved game not yet opened: every move is refused before it
    asks (`Vault.must_be_open`), so nothing reaches here."""

    def __getattr__(self, name: str) -> Any:
        raise TableError(Phrase("the game is sealed until two phones are back"), "refused")


@dataclass
class TableFlow:
    ruleset: Ruleset
    lang: str
    options: Options = field(default_factory=Options)
    clock: Clock = field(default_factory=WallClock)
    rng: random.Random = field(default_factory=secrets.SystemRandom)
    seats: Seats = field(default_factory=Seats)
    referee: Referee | None = None  # the game after the deal; None: the lobby
    deadline: float | None = None
    dealt: bool = False  # False: physical cards, the phones only vote
    roles: dict[str, int] = field(default_factory=dict)  # the deck: it shapes the calls
    unseen: list[str] = field(default_factory=list)  # aside: One Night's centre
    removed: list[str] = field(default_factory=list)  # out of the game, unseen
    reveal: Reveal | None = None  # every card and the winners, at the end
    events: list[Announcement] = field(default_factory=list)
    version: int = 0
    # The engine holds the cards as they move (dealt by the phones); `desk` is the
    # night being played on the phones, begun as the referee opens the night
    engine: Engine | None = field(default=None, repr=False)
    desk: NightDesk | None = field(default=None, repr=False)
    # where the voice is in the night: the first script step of the call it is saying
    # (public: everyone hears it), saved, so a restarted night goes on from that call
    heard: int = -1
    journal: Journal = field(default_factory=dict)
    seed: int = 0  # the script's random choices (an Alien's words): one per game, saved
    pace: float = PACE  # the user's pace (settings or --pace): the night's silences
    wake_gap: float = WAKE_GAP  # the user's pause after a wake call
    # The saved game's secrets are sealed (seal.py, sealed.py): the keys live here, in
    # memory; after a restart the game stays closed until two players' phones are back
    vault: Vault = field(default_factory=Vault, repr=False)
    # The day script's timer the deadline counts down (the discussion, the defence),
    # by (phase, night), and its spoken warnings, by (phase, night, deadline): worked
    # out again, never saved
    _timer_of: tuple[object, Timer | None] = field(default=(None, None), repr=False)
    _warned: tuple[object, RunningTimer | None] = field(default=(None, None), repr=False)
    _script_of: tuple[object, Script | None] = field(default=(None, None), repr=False)

    def seat(self, seat: SeatIndex) -> Player:
        return self.seats.at(seat)

    def alive(self) -> list[SeatIndex]:
        return self.seats.alive()

    # -- the referee's state, as the table shows it ------------------------------------

    @property
    def phase(self) -> str:
        return "lobby" if self.referee is None else self.referee.phase

    @property
    def night(self) -> int:
        return 0 if self.referee is None else self.referee.night

    @property
    def ballot(self) -> dict[SeatIndex, SeatIndex]:
        """The open round's votes (secret until counted)."""
        if self.referee is None:
            return {}
        return {v: t for v, t in self.referee.ballot.items() if t is not None}

    @property
    def suspects(self) -> list[SeatIndex]:
        return [] if self.referee is None else list(self.referee.suspects)

    @property
    def result(self) -> Result | None:
        return None if self.referee is None else self.referee.result

    @property
    def night_out(self) -> list[SeatIndex]:
        return [] if self.referee is None else list(self.referee.night_out)

    @property
    def round(self) -> int:
        """The day's round of turns played on the phones (0: none)."""
        return 0 if self.referee is None else self.referee.round

    @property
    def last_out(self) -> SeatIndex | None:
        """The Tombstone: the last player out, as the judge counts ties from it."""
        judge = self.referee.judge if self.referee is not None else None
        if isinstance(judge, PhysicalJudge):
            return judge.last_out
        engine = self.engine
        return None if engine is None or engine.tombstone is None else SeatIndex(engine.tombstone)

    @property
    def last_arrested(self) -> SeatIndex | None:
        """The last player arrested (Mafia's ties): by the night, or marked by hand."""
        judge = self.referee.judge if self.referee is not None else None
        if isinstance(judge, PhysicalJudge):
            return judge.last_arrested
        arrested = self.engine.day.last_arrested if self.engine is not None else None
        return None if arrested is None else SeatIndex(arrested)

    # -- what kind of day, from the ruleset's flow ----------------------------------------

    @property
    def countdown(self) -> bool:
        """One Night's day: everyone points at once, and the game ends."""
        return self.ruleset.flow.has("vote")

    @property
    def trial(self) -> bool:
        """A day of accusation and ballot (Lupus, Mafia, Wherewolf)."""
        return self.ruleset.flow.has("accusation")

    @property
    def rounds(self) -> bool:
        """Rounds of turns, played on the phones (Secret Moon with dealt cards)."""
        return self.ruleset.flow.turns

    @property
    def rule(self) -> VoteRule:
        """How the day's vote is counted (the flow's one record of it)."""
        vote = self.ruleset.flow.vote
        return vote.counted if vote is not None else VoteRule(kind="accusation_ballot")

    def game(self, night: int | None = None) -> GameSetup:
        """This table's game as the session plays it (the app's `GameSetup`): the same
        deck, language, pace and night, so the voice's night and the day's timers
        come from the one script the app plays -- and, with the cards dealt, the
        engine's seed, so the voice says the instructions the engine applies (an
        Alien's, the Oracle's question)."""
        game = GameSetup(
            self.ruleset,
            max(len(self.seats), 1),
            dict(self.roles),
            self.lang,
            max(self.night if night is None else night, 1),
            pace=self.pace,
            seed=self.seed,
        )
        game.wake_gap = self.wake_gap
        if self.engine is not None and self.engine.seed is not None:
            game.seed = self.engine.seed  # the instructions drawn: the engine's, spoken
        game.phones = self.engine is not None  # the night on the phones: their words
        return game

    def _changed(self) -> None:
        self.version += 1

    # -- the referee, fed ---------------------------------------------------------------

    def judge(self) -> Judge:
        """Who counts and judges: the engine, when it holds the cards; else the
        votes only (physical cards, or a ruleset with no `outcome`)."""
        if self.engine is not None:
            return EngineJudge(self.engine)
        return PhysicalJudge(self.ruleset.flow, len(self.seats))

    def _referee(self) -> Referee:
        if self.referee is None:
            raise TableError(Phrase("nothing follows 'lobby' (start the game first)"), "refused")
        return self.referee

    def _move(self, command: Callable[[Referee], T]) -> T:
        """One referee command, then what the table does after it: the seats out,
        the night begun, the deadline of a new phase, the reveal at the end."""
        referee = self._referee()
        judge, engine = referee.judge, self.engine
        if engine is not None and not (isinstance(judge, EngineJudge) and judge.game is engine):
            referee.judge = EngineJudge(engine)  # the engine holds the cards (dealt again)
        before = (referee.phase, referee.night)
        try:
            answer = command(referee)
        except MoveError as exc:
            raise TableError(exc.said, "refused") from None
        for player in self.seats:
            player.alive = referee.alive[player.seat]
        new, referee.events = referee.events, []
        self.events += new
        if (referee.phase, referee.night) != before:
            self.deadline = self._start_deadline()
        for event in new:
            if event.kind == "night":
                self._begin_night()
            elif event.kind == "end":
                self._reveal(referee.winners)
        return answer

    # -- the commands that move the game ---------------------------------------------

    def eliminate(self, seat: SeatIndex) -> None:
        """The host takes a player out of the game: with physical cards, who left in
        the night (the wolves' victim, the arrested player, as the tie rule counts
        them); with dealt cards, a player who leaves the table (the engine counts a
        death)."""
        self.vault.must_be_open()
        player = self.seat(seat)
        if self.phase in ("night", "day") and not player.alive:
            out = Phrase("{name} is already out of the game", name=player.name)
            raise TableError(out, "refused")
        self._move(lambda r: r.eliminate(player.seat))
        self._changed()

    def vote(self, voter: Player, target: SeatIndex) -> None:
        self.vault.must_be_open()
        referee = self._referee()
        if not referee.voting:
            raise TableError(Phrase("there is no vote now"), "refused")
        if voter.seat not in referee.voters():
            raise TableError(Phrase("you have no vote in this round"), "refused")
        player = self.seat(target)
        if player.seat not in referee.targets(voter.seat):
            refused = Phrase("you cannot vote for {name} in this round", name=player.name)
            raise TableError(refused, "refused")
        self._move(lambda r: r.vote(voter.seat, player.seat))
        self._changed()

    def voters(self) -> list[SeatIndex]:
        return [] if self.referee is None else self.referee.voters()

    def targets(self, voter: SeatIndex) -> list[SeatIndex]:
        return [] if self.referee is None else self.referee.targets(voter)

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
        if self.phase == "night":
            self._end_night()
        self.deadline = None
        self._move(Referee.go_on)
        self._changed()

    def end(self) -> None:
        """The host ends the game (Secret Moon, or a game the table calls off)."""
        self.vault.must_be_open()
        if self.phase == "lobby":
            raise TableError(Phrase("there is no game to end"), "refused")
        self._end_night()
        self._move(Referee.end)
        self._changed()

    # -- the night on the phones ----------------------------------------------------

    def _begin_night(self) -> None:
        """The referee opened a night: with dealt cards the engine begins it, and its
        calls are matched to the script the voice will play -- in this command, so
        the night saved is the night being played."""
        self.heard = -1
        if self.engine is not None:
            script = self.night_script()
            self.desk = NightDesk.begin(self.engine, script, self.lang, self.journal)

    def night_script(self) -> Script:
        """The script the voice plays tonight (this table's deck, pace and seed)."""
        key = (self.night, self.seed, self.pace, self.wake_gap, tuple(self.roles.items()))
        if self._script_of[0] != key:
            self._script_of = (key, self.game().script("night"))
        script = self._script_of[1]
        assert script is not None
        return script

    def night_at(self, index: int) -> bool:
        """The voice is on step `index` of the night: True if a window opened or
        closed (every phone is told). Where the voice is -- the first step of the call
        it is saying -- is kept in `heard`."""
        if self.phase != "night":
            return False
        steps = self.night_script().steps
        role = getattr(steps[index], "role", None) if 0 <= index < len(steps) else None
        start = index
        while 0 < start <= len(steps) - 1 and getattr(steps[start - 1], "role", None) == role:
            start -= 1
        self.heard = start
        return self.desk is not None and self.desk.at(index)

    def night_from(self) -> int | None:
        """The script step the voice plays tonight's night from: its start, or -- a
        night resumed after a restart -- the call it was at (the call open on the
        phones is said again; its answers are kept). None: no night is to be played
        (a night saved by an older narrator, with dealt cards and no night kept:
        the host's "go on" ends it)."""
        if self.phase != "night" or (self.engine is not None and self.desk is None):
            return None
        if self.desk is not None and self.desk.open is not None:
            return self.desk.open.first
        return max(self.heard, 0)

    def _end_night(self) -> None:
        """The night is over (heard to the end, or the host went on): every window
        still open closes, and what waits for dawn is the referee's."""
        desk, self.desk = self.desk, None
        if desk is not None:
            desk.finish()

    # -- the clock ----------------------------------------------------------------------

    def _start_deadline(self) -> float | None:
        """The deadline of the phase just opened: a vote's window, or its day timer."""
        phase = self.phase
        flow = self.ruleset.flow
        if phase in VOTING:
            window = flow.phase(phase).window
            own = {
                "seconds": self.options.vote_seconds,
                "accusation_seconds": self.options.accusation_seconds,
                "ballot_seconds": self.options.ballot_seconds,
            }
            seconds = (own[window.key] if window else None) or (window.seconds if window else 0)
            return self.clock.now() + seconds
        return self._start_timer()

    def _day_timer(self) -> Timer | None:
        """The day script's timer of this phase (the discussion by day, the defence),
        found by the phase's name, as the app's day runs it (first-day length,
        warnings and all); None in a vote or when the ruleset has none."""
        if self.phase not in ("day", "defence"):
            return None
        key = (self.phase, self.night)
        if self._timer_of[0] != key:
            plan = self.game().plan("day")
            self._timer_of = (key, day_timer(self.ruleset, plan, self.phase))
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
            RunningTimer(timer.seconds, timer.warnings, now),
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
            countdown = RunningTimer(max(0.0, self.deadline - now), timer.warnings, now)
            self._warned = (key, countdown)
        due = countdown.due(now)
        self.events += [Announcement("said", text=w.text) for w in due]
        return bool(due)

    # -- the end --------------------------------------------------------------------

    def _cards_now(self) -> tuple[dict[SeatIndex, str], list[str]]:
        """The cards in front of the players and in the centre after the night's moves."""
        if self.engine is None:
            return {p.seat: p.card or "" for p in self.seats}, list(self.unseen)
        return (
            {SeatIndex(i): s.card.identity for i, s in enumerate(self.engine.seats)},
            [c.identity for c in self.engine.centre],
        )

    def _reveal(self, win: Winners | None) -> None:
        """The end: every card dealt and as it ends, and the winners -- when anyone
        judged them (False: the host ended a game nobody could judge)."""
        self.deadline = None
        if not self.dealt:
            return
        cards, centre = self._cards_now()
        self.reveal = Reveal(
            cards=cards,
            dealt={p.seat: p.card for p in self.seats},
            unseen=tuple(centre),
            unseen_dealt=tuple(self.unseen),
            removed=tuple(self.removed),
            winners=win or Winners((), ()),
            judged=win is not None,
            tokens=self._tokens_now(),
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
