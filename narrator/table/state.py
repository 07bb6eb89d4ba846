"""The table: one room of players with phones, as pure state with no I/O and no web.

Commands come in (`join`, `start`, `advance`, `vote`, `eliminate`, `tick`) and the
table answers with views: `public()` for everyone (never a card or a vote before
the rules show it), `private(seat)` for one phone (its own card), `host()` for the
host. What the voice must say comes out as `events` (drained by the front end).
A web server, the terminal app or a test drive it the same way; the saved game
is `narrator.table.saved`.

Phases: lobby -> cards -> night -> day -> then, by game,
  One Night:             vote -> end (every card revealed, the winners)
  Lupus, Mafia, Wherewolf: accusation -> defence -> ballot -> verdict -> night ...
  Secret Moon (no vote):   the day is its rounds of turns: with dealt cards each
                           player takes their turn's action on their phone
                           (`turn`); the host moves to the next round; the engine
                           ends the game; with physical cards the host ends it.

Tokens are 256-bit `secrets` values; only their SHA-256 is kept (and saved), so a
saved game does not hold a key to any seat. Cards are dealt with
`secrets.SystemRandom`; the cards not dealt (One Night's centre, Lupus's discard
with 7 players, Secret Moon's set-aside card) are known to nobody until the end.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from narrator.base.errors import NarratorError
from narrator.moderator import Game as Engine
from narrator.moderator import MoveError, Words, unsupported_roles, votes
from narrator.moderator.support import stand_ins
from narrator.rules import Ruleset, check_selection, dealing, decks, recommended
from narrator.rules.powers import VoteRule
from narrator.script import Timer
from narrator.script.defaults import PACE, WAKE_GAP
from narrator.session.game import Game
from narrator.session.segments import Countdown
from narrator.table import outcome
from narrator.table.errors import TableError
from narrator.table.lines import describe
from narrator.table.names import clean_name, same_name
from narrator.table.night import NightDesk
from narrator.table.seal import SealError, Vault, seat_key
from narrator.table.votes import countdown_dead

VOTING = ("vote", "accusation", "ballot")


def need_saved(ok: bool, what: str) -> None:
    """A check of a saved game read back: what does not hold is one clear error."""
    if not ok:
        raise TableError(f"the saved game does not fit together ({what}); it was changed")


ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"
PHASES = frozenset(
    {"lobby", "cards", "night", "day", "vote", "accusation", "defence", "ballot", "verdict", "end"}
)  # no I or O: read aloud and typed on a phone


@dataclass(frozen=True, slots=True)
class Options:
    """This table's own vote windows, where it wants other than its ruleset's
    (`outcome.vote`: `seconds`, `accusation_seconds`, `ballot_seconds`): how long a
    vote stays open before a missing vote counts as abstaining. None: the ruleset's."""

    vote_seconds: float | None = None  # the simultaneous vote (One Night)
    accusation_seconds: float | None = None
    ballot_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """Something the voice announces: `kind` and the seats it names."""

    kind: str
    seats: tuple[int, ...] = ()
    night: int = 0
    # an open round's votes, told voter by voter: (voter seat, target seat)
    votes: tuple[tuple[int, int], ...] = ()
    since: int = 0  # a turn: the engine's log from here is what the table hears
    text: str = ""  # a line of the day script, said as it is ("One minute left.")


@dataclass
class Seat:
    seat: int
    name: str
    token_hash: str
    card: str | None = None
    alive: bool = True


@dataclass
class Claim:
    """A phone asking to take `seat` over (its owner lost their token): the host sees
    `code` on the host page and on the asking phone, and confirms or refuses."""

    code: str
    seat: Seat
    token_hash: str
    source: str  # who asked (the server's client address): one waiting claim each


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Table:
    ruleset: Ruleset
    lang: str
    room: str = ""
    host_hash: str = ""
    options: Options = field(default_factory=Options)
    clock: Callable[[], float] = time.time
    rng: random.Random = field(default_factory=secrets.SystemRandom)
    seats: list[Seat] = field(default_factory=list)
    phase: str = "lobby"
    night: int = 0
    deadline: float | None = None
    dealt: bool = False  # False: physical cards, the phones only vote
    roles: dict[str, int] = field(default_factory=dict)  # the deck: it shapes the calls
    unseen: list[str] = field(default_factory=list)  # aside: One Night's centre
    removed: list[str] = field(default_factory=list)  # out of the game, unseen
    ballot: dict[int, int] = field(default_factory=dict)  # voter -> target, secret until closed
    suspects: list[int] = field(default_factory=list)
    last_out: int | None = None  # Lupus's Tombstone: the last player eliminated
    last_arrested: int | None = None  # Mafia's reference for ties
    night_out: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None  # the last vote's result, once shown
    reveal: dict[str, Any] | None = None  # every card and the winners, at the end
    events: list[Event] = field(default_factory=list)
    version: int = 0
    # The night on the phones: the engine holds the cards as they move (a deck it can
    # run, dealt by the phones); `desk` is the night being played; journals by seat-1.
    engine: Engine | None = field(default=None, repr=False)
    desk: NightDesk | None = field(default=None, repr=False)
    journal: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    pace: float = PACE  # the user's pace (settings or --pace): the night's silences
    wake_gap: float = WAKE_GAP  # the user's pause after a wake call
    # The host's seats (issue 16): no more joins once locked; phones asking to take a
    # seat over (a lost token), waiting for the host to confirm (not saved)
    locked: bool = False
    claims: list[Claim] = field(default_factory=list, repr=False)
    # The saved game's secrets are sealed (seal.py): the keys live here, in memory;
    # after a restart the game stays closed until two players' phones are back
    vault: Vault = field(default_factory=Vault, repr=False)
    # The day script's timer the deadline counts down (the discussion, the defence),
    # by (phase, night), and its spoken warnings, by (phase, night, deadline): worked
    # out again, never saved
    _timer_of: tuple[object, Timer | None] = field(default=(None, None), repr=False)
    _warned: tuple[object, Countdown | None] = field(default=(None, None), repr=False)

    def __post_init__(self) -> None:
        if not self.room:
            self.room = "".join(self.rng.choice(ROOM_ALPHABET) for _ in range(4))

    # -- who is who ---------------------------------------------------------------

    def new_host_token(self) -> str:
        token = secrets.token_urlsafe(32)
        self.host_hash = token_hash(token)
        return token

    def is_host(self, token: str) -> bool:
        return bool(self.host_hash) and secrets.compare_digest(token_hash(token), self.host_hash)

    def seat_of(self, token: str) -> Seat:
        """The seat a phone's token holds. A phone back after a restart brings its
        seat's key: with the second one the sealed game opens (seal.py)."""
        digest = token_hash(token)
        for seat in self.seats:
            if secrets.compare_digest(digest, seat.token_hash):
                try:
                    secret = self.vault.back(seat.seat, seat.token_hash, token, self.context)
                except SealError as exc:
                    raise TableError(
                        f"the saved game cannot be opened ({exc}); start a new game", "refused"
                    ) from None
                if secret is not None:
                    self._unseal(secret)
                return seat
        raise TableError("unknown token", "not_found")

    def seat(self, number: object) -> Seat:
        if isinstance(number, int) and not isinstance(number, bool):
            for seat in self.seats:
                if seat.seat == number:
                    return seat
        raise TableError(f"there is no seat {number!r} at this table", "invalid")

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
        come from the one script the app plays."""
        game = Game(
            self.ruleset,
            max(len(self.seats), 1),
            dict(self.roles),
            self.lang,
            max(self.night if night is None else night, 1),
            pace=self.pace,
        )
        game.wake_gap = self.wake_gap
        return game

    def day_timers(self) -> list[float]:
        """The lengths of the day's timers in the order the app's day runs them
        (the discussion -- the first day's length on day 1 -- then the defence)."""
        return [t.seconds for t in self._day_timer_steps()]

    def _day_timer_steps(self) -> list[Timer]:
        steps = self.game().script("day").steps
        return [s for s in steps if isinstance(s, Timer) and s.turn is None]

    # -- commands -----------------------------------------------------------------

    def join(self, name: object, room: object) -> tuple[int, str]:
        if not isinstance(room, str) or room.strip().upper() != self.room:
            raise TableError("no room with that code; check the code on the host's screen")
        if self.phase != "lobby":
            raise TableError("the game has started; wait for the next one", "refused")
        if self.locked:
            raise TableError("the host has locked the table; ask the host to unlock it", "refused")
        clean = clean_name(name)
        if any(same_name(clean, s.name) for s in self.seats):
            raise TableError(f"'{clean}' is taken at this table; add an initial", "refused")
        if len(self.seats) >= self.ruleset.setup.max_players:
            raise TableError(f"the table is full ({len(self.seats)} players)", "refused")
        token = secrets.token_urlsafe(32)
        self.seats.append(Seat(len(self.seats) + 1, clean, token_hash(token)))
        self.vault.keys[self.seats[-1].token_hash] = seat_key(token)
        self._changed()
        return len(self.seats), token

    def start(self, roles: Mapping[str, int] | None, deal: bool = True) -> None:
        """Deal (or, with physical cards, just begin): empty roles = the recommended deck."""
        self.must_be_open()
        if self.phase != "lobby":
            raise TableError("the game has already started", "refused")
        players = len(self.seats)
        if roles:
            chosen = tuple(self._role_count(r, n) for r, n in roles.items())
            report = check_selection(self.ruleset, players, chosen)
            if report.errors:
                raise TableError("; ".join(report.errors))
        else:
            chosen = self._recommended(players, deal)
        if deal and self.ruleset.outcome is not None:
            # Cards nobody knows: the engine plays the night and judges the end, so it
            # must run every role of the deck. (A ruleset with no `outcome`, Secret
            # Moon, is dealt with no engine: its players act openly, the host ends it.)
            why = unsupported_roles(self.ruleset, [r for r, _ in chosen])
            if why:
                raise TableError(why, "refused")
        self.dealt = deal
        if deal:  # the rules deal (rules.decks.deal): removed, one each, the rest aside
            dealt = decks.deal(self.ruleset, players, chosen, self.rng)
            self.removed.extend(dealt.removed)
            for seat, card in zip(self.seats, dealt.cards, strict=False):
                seat.card = card
            self.unseen = list(dealt.unseen)
        if deal and self.ruleset.outcome is not None:
            self.engine = Engine.deal(
                self.ruleset,
                [s.name for s in self.seats],
                [s.card or "" for s in self.seats],
                list(self.unseen),
                rng=self.rng,
            )
        self.roles = dict(chosen)
        self.phase = "cards"
        self.events.append(Event("dealt"))
        self._changed()

    def _recommended(self, players: int, deal: bool) -> tuple[tuple[str, int], ...]:
        """The ruleset's deck for this many players; dealt by the phones, every role the
        engine cannot run stands in as a card of its team it can (a Villager)."""
        try:
            chosen, _ = recommended(self.ruleset, players)
        except NarratorError as exc:
            raise TableError(str(exc)) from None
        return tuple(stand_ins(self.ruleset, chosen)) if deal else chosen

    def _role_count(self, role_id: object, count: object) -> tuple[str, int]:
        if not isinstance(role_id, str) or role_id not in self.ruleset.role_ids:
            raise TableError(f"'{self.ruleset.id}' has no role {role_id!r}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise TableError(f"{role_id}: the count must be a whole number, 1 or more")
        return role_id, count

    def eliminate(self, number: object) -> None:
        """The host takes a player out of the game: with physical cards, who left in
        the night (the wolves' victim, the arrested player, as the tie rule counts
        them); with dealt cards, a player who leaves the table (the engine counts a
        death)."""
        self.must_be_open()
        if self.phase not in ("night", "day") or not self.trial:
            raise TableError(
                "players leave the game by night (or at the start of the day) "
                "in games of many nights only",
                "refused",
            )
        seat = self.seat(number)
        if not seat.alive:
            raise TableError(f"{seat.name} is already out of the game", "refused")
        self._out(seat.seat)
        self.night_out.append(seat.seat)
        if self.phase == "day":  # the night's are named at dawn; by day, said now (P10)
            self.events.append(Event("out", (seat.seat,)))
        self.last_arrested = seat.seat  # physical cards: the reference of `last_arrested_nearest`
        if self.engine is not None:
            self.engine.remove(seat.seat - 1)
        self._check_end("death")
        self._changed()

    def vote(self, voter: Seat, target: object) -> None:
        self.must_be_open()
        if self.phase not in VOTING:
            raise TableError("there is no vote now", "refused")
        if voter.seat not in self.voters():
            raise TableError("you have no vote in this round", "refused")
        seat = self.seat(target)
        if seat.seat not in self.targets(voter.seat):
            raise TableError(f"you cannot vote for {seat.name} in this round", "refused")
        self.ballot[voter.seat] = seat.seat
        if len(self.ballot) == len(self.voters()):
            self.advance()
        self._changed()

    def tick(self) -> bool:
        """Apply a deadline that has passed; True if the table changed. (A sealed
        game's clock stands still until it opens.)"""
        if self.vault.closed is not None:
            return False
        if self.deadline is not None and self.clock() >= self.deadline:
            timer = self._day_timer()
            if timer is not None and timer.end:  # run out, not ended by the host
                self.events.append(Event("said", text=timer.end))
            self.advance()
            return True
        if self._warn():
            self._changed()
            return True
        return False

    def advance(self) -> None:
        """The next phase: the host's "go on", a deadline, or the night's end."""
        self.must_be_open()
        self.deadline = None
        phase = self.phase
        if phase in ("lobby", "end"):
            raise TableError(f"nothing follows '{phase}' (start the game first)", "refused")
        if phase in ("cards", "verdict"):
            self.phase, self.night, self.night_out = "night", self.night + 1, []
            self.events.append(Event("night", night=self.night))
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
                self.events.append(Event("victims", tuple(self.night_out)))
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

    # -- the night on the phones ----------------------------------------------------

    def begin_night(self, script: Any) -> None:
        """The voice starts `script` (this night's): its windows, from the engine."""
        if self.engine is not None and self.phase == "night":
            self.desk = NightDesk.begin(self.engine, script, self.lang, self.journal)

    def night_at(self, index: int) -> bool:
        """The voice is on step `index` of the night: True if a window opened or closed."""
        return self.desk is not None and self.phase == "night" and self.desk.at(index)

    def act(self, seat: Seat, prompt: object, choose: object) -> dict[str, Any]:
        self.must_be_open()
        if self.desk is None or self.phase != "night":
            raise TableError("that prompt is not open now", "refused")
        return self.desk.act(seat.seat - 1, prompt, choose)

    def _dawn(self) -> None:
        """The night is over: every window closes, the dawn's effects apply."""
        desk, self.desk = self.desk, None
        if desk is None or self.engine is None:
            return
        desk.finish()
        if not self.trial:
            return
        for index in self.engine.dawn():  # killed, or arrested (a Prisoner: out of play)
            seat = self.seat(index + 1)
            if seat.alive:
                self._out(seat.seat)
                self.night_out.append(seat.seat)
        self._check_end("dawn")

    # -- rounds of turns (Secret Moon) -------------------------------------------------

    def _next_round(self) -> None:
        """The host's "go on" in the rounds: the next round, or after the last one the
        end the ruleset gives (the Princess's side)."""
        engine, rounds = self.engine, self.ruleset.rounds
        assert engine is not None and rounds is not None
        if engine.round >= rounds.count:
            engine.end_rounds()
            self.events.append(Event("turn_said", since=len(engine.log) - 1))
            self._check_end("death")
            return
        engine.begin_round()
        self.events.append(Event("round", night=engine.round))

    def turn(self, seat: Seat, action: object, choose: object) -> dict[str, Any]:
        """A player takes their turn's action (the turn cards are on the table: whoever
        holds the card called plays it). What everyone sees is announced; what the
        actor alone learns (a card inspected) comes back and goes in their journal."""
        self.must_be_open()
        if not (self.phase == "day" and self.rounds and self.engine is not None):
            raise TableError("there are no turns now", "refused")
        if not isinstance(action, str) or not isinstance(choose, list):
            raise TableError('a turn is {"action": "...", "choose": ["seat:2", ...]}')
        if not all(isinstance(c, str) for c in choose) or len(choose) > 4:
            raise TableError('"choose" is a list of a few option ids')
        engine = self.engine
        before = len(engine.log)
        try:
            entries = engine.turn(seat.seat - 1, action, list(choose))
        except MoveError as exc:
            raise TableError(str(exc), "refused") from None
        words = Words(engine, self.lang)
        learned = [
            {"night": e.night, "text": words.journal(e)}
            for e in entries
            if e.to == seat.seat - 1 and e.kind == "see"
        ]
        self.journal.setdefault(seat.seat - 1, []).extend(learned)
        for index, s in enumerate(engine.seats):  # captured: out of play, on every phone
            if not s.free and self.seats[index].alive:
                self._out(index + 1)
        self.events.append(Event("turn_said", since=before))
        self._check_end("death")
        self._changed()
        return {"learned": learned}

    def turn_options(self, seat: Seat) -> list[dict[str, Any]]:
        """Every action and what it may pick, the same list on every phone (which of
        them this card may not take is said only when tried)."""
        if not (self.phase == "day" and self.rounds and self.engine is not None):
            return []
        names = {r.id: r.name.get(self.lang) for r in self.ruleset.roles}
        out = []
        for ability in self.ruleset.actions:
            picks = ability.picks
            out.append(
                {
                    "id": ability.id,
                    "label": ability.label.get(self.lang) if ability.label else ability.id,
                    "players": max((p.players for p in picks), default=0),
                    "centre": max((p.centre for p in picks), default=0),
                    "self": any(p.players and not p.other for p in picks),
                    "role": any(p.role for p in picks),
                    "roles": names if any(p.role for p in picks) else {},
                }
            )
        return out

    # -- votes ------------------------------------------------------------------------

    def alive(self) -> list[int]:
        return [s.seat for s in self.seats if s.alive]

    def voters(self) -> list[int]:
        everyone = self.phase == "accusation" and self.rule.accusers == "everyone"
        if self.phase == "vote" or everyone:
            return [s.seat for s in self.seats]  # Lupus ghosts and Mafia prisoners accuse
        if self.phase == "accusation":
            return self.alive()
        if self.phase == "ballot":
            return [s for s in self.alive() if s not in self.suspects]
        return []

    def targets(self, voter: int) -> list[int]:
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
        self.deadline = self.clock() + seconds
        self.events.append(Event(phase, tuple(self.suspects) if phase == "ballot" else ()))

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
        now = self.clock()
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
        now, key = self.clock(), (self.phase, self.night, self.deadline)
        countdown = self._warned[1] if self._warned[0] == key else None
        if countdown is None:
            countdown = Countdown(max(0.0, self.deadline - now), timer.warnings, now)
            self._warned = (key, countdown)
        due = countdown.due(now)
        self.events += [Event("said", text=w.text) for w in due]
        return bool(due)

    def _close_countdown(self) -> None:
        win = None
        if self.dealt and self.ruleset.outcome is not None:
            cards, centre = self._cards_now()
            end = outcome.countdown(self.ruleset, cards, centre, self.ballot)
            dead, shot, win = list(end.dead), list(end.shot), end.outcome
        else:  # physical cards: nobody knows them, so nobody knows who the Hunter is
            vote = self.ruleset.outcome.vote if self.ruleset.outcome is not None else None
            rule = vote if vote is not None and vote.kind == "simultaneous" else None
            dead, shot = countdown_dead(self.ballot, rule), []
        for seat in dead + shot:
            self._out(seat)
        self.result = {
            "kind": "vote",
            "votes": {str(v): t for v, t in sorted(self.ballot.items())},
            "dead": dead,
            "shot": shot,
        }
        self.events.append(Event("dead", tuple(dead)))
        if shot:
            self.events.append(Event("shot", tuple(shot)))
        self._end(win)

    def _reference(self) -> int | None:
        """Physical cards: the seat (0-based) the tie rule measures from."""
        last = self.last_arrested if self.rule.tie == "last_arrested_nearest" else self.last_out
        return None if last is None else last - 1

    def _close_accusation(self) -> None:
        """Count the accusation by the ruleset's rule: with dealt cards the engine does
        (and keeps it in its log); with physical cards the same counting functions."""
        counts = votes.tally(self.ballot)
        self.result = {"kind": "accusation", "counts": {str(k): v for k, v in counts.items()}}
        told = self._told(self.rule.open_accusation)
        if told:
            self.events.append(Event("accused_by", votes=told))
        ballot: dict[int, int | None] = {v - 1: t - 1 for v, t in self.ballot.items()}
        if self.engine is not None:
            before = len(self.engine.dead_order)
            suspects = self.engine.accuse(ballot)
            dead = self.engine.dead_order[before:]
            dies = dead[0] if dead else None
        else:
            in_play = [s - 1 for s in self.alive()]
            accusers = [s - 1 for s in self.voters()]
            got = votes.accusation(
                self.rule, ballot, in_play, self._reference(), len(self.seats), accusers
            )
            suspects, dies = list(got.suspects), got.dies
        if not suspects:  # burned at once, or nobody accused: no defence, no ballot
            self._verdict(None if dies is None else dies + 1)
            return
        self.suspects = [s + 1 for s in suspects]
        self.result["suspects"] = list(self.suspects)
        self.phase, self.ballot = "defence", {}
        self.deadline = self._start_timer()
        self.events.append(Event("suspects", tuple(self.suspects)))

    def _told(self, open_: bool) -> tuple[tuple[int, int], ...]:
        """An open round's votes, voter by voter (audit 3, finding 3: the seeds count
        Lupus's and Mafia's accusation aloud); a secret round tells nothing."""
        if not open_:
            return ()
        votes_ = tuple(sorted(self.ballot.items()))
        assert self.result is not None
        self.result["votes"] = {str(v): t for v, t in votes_}
        return votes_

    def _close_ballot(self) -> None:
        counts = votes.tally(self.ballot)
        self.result = {"kind": "ballot"}
        told = self._told(self.rule.open_ballot)
        if told:
            self.events.append(Event("voted_by", votes=told))
        ballot: dict[int, int | None] = {v - 1: t - 1 for v, t in self.ballot.items()}
        if self.engine is not None:
            out = self.engine.ballot(ballot)
        else:
            suspects = [s - 1 for s in self.suspects]
            out = votes.verdict(self.rule, ballot, suspects, self._reference(), len(self.seats))
        condemned = None if out is None else out + 1
        self._verdict(condemned, {str(s): counts.get(s, 0) for s in self.suspects})

    def _verdict(self, condemned: int | None, counts: Mapping[str, int] | None = None) -> None:
        told = (self.result or {}).get("votes")
        self.result = {
            "kind": "verdict",
            "counts": dict(counts or {}),
            "condemned": condemned,
            "suspects": list(self.suspects),
        }
        if told and self.result["suspects"]:
            self.result["votes"] = told  # an open ballot: who voted for whom
        self.phase, self.ballot, self.suspects = "verdict", {}, []
        if condemned is not None:
            self._out(condemned)
        self.events.append(Event("verdict", () if condemned is None else (condemned,)))
        self._check_end("death")

    # -- the end --------------------------------------------------------------------

    def _out(self, number: int) -> None:
        """The table's view: the player is out of play (dead, or a Prisoner). With dealt
        cards the engine has already recorded why (`dawn`, `accuse`, `ballot`,
        `remove`); One Night's vote is judged apart, on the cards after the night."""
        self.seat(number).alive = False
        self.last_out = number

    def _cards_now(self) -> tuple[dict[int, str], list[str]]:
        """The cards in front of the players and in the centre after the night's moves."""
        if self.engine is None:
            return {s.seat: s.card or "" for s in self.seats}, list(self.unseen)
        return (
            {i + 1: s.card.identity for i, s in enumerate(self.engine.seats)},
            [c.identity for c in self.engine.centre],
        )

    def _check_end(self, moment: str) -> None:
        """After a death ("death") or at dawn ("dawn"): the engine judges the ruleset's
        end from the cards as they are; with physical cards nobody knows them, and the
        host ends the game."""
        if self.engine is None or not (self.trial or self.rounds):
            return
        over = self.engine.over(moment)
        if over is not None:
            teams, seats = over
            self._end(outcome.Outcome(tuple(sorted(teams)), tuple(sorted(s + 1 for s in seats))))

    def end(self) -> None:
        """The host ends the game (Secret Moon, or a game the table calls off)."""
        self.must_be_open()
        if self.phase in ("lobby", "end"):
            raise TableError("there is no game to end", "refused")
        self._end(None)
        self._changed()

    def _end(self, win: outcome.Outcome | None) -> None:
        self.phase, self.deadline, self.ballot = "end", None, {}
        if self.dealt:
            cards, centre = self._cards_now()
            self.reveal = {
                "cards": {str(seat): card for seat, card in cards.items()},  # after the night
                "dealt": {str(s.seat): s.card for s in self.seats},  # as dealt
                "unseen": centre,
                "unseen_dealt": list(self.unseen),
                "removed": list(self.removed),
                "winners": {
                    "teams": list(win.teams) if win else [],
                    "seats": list(win.seats) if win else [],
                },
                # False: nobody judged the end (the host ended it; Secret Moon's turns
                # are played at the table), so nobody is named the winner
                "judged": win is not None,
            }
        self.events.append(Event("end"))

    def _changed(self) -> None:
        self.version += 1

    def check(self) -> None:
        """A restored table's values fit together: every card a role of its game, every
        seat named once, every vote between seats that exist. A saved file edited by
        hand -- or by someone else -- is refused here, never answered with errors later.
        The secrets opened from a sealed game are checked again, the same way."""
        roles = set(self.ruleset.role_ids)
        numbers = [s.seat for s in self.seats]
        seats = set(numbers)

        need_saved(self.phase in PHASES, f"phase {self.phase!r}")
        need_saved(isinstance(self.night, int) and self.night >= 0, "night")
        need_saved(numbers == list(range(1, len(numbers) + 1)), "seat numbers")
        for seat in self.seats:
            need_saved(isinstance(seat.name, str) and bool(seat.name), "a name")
            need_saved(isinstance(seat.token_hash, str) and len(seat.token_hash) == 64, "a token")
            need_saved(seat.card is None or seat.card in roles, f"the card {seat.card!r}")
            need_saved(isinstance(seat.alive, bool), "alive")
        need_saved(all(r in roles and n > 0 for r, n in self.roles.items()), "the deck")
        need_saved(all(c in roles for c in (*self.unseen, *self.removed)), "the cards aside")
        need_saved(all(v in seats and t in seats for v, t in self.ballot.items()), "the ballot")
        need_saved(all(s in seats for s in (*self.suspects, *self.night_out)), "the suspects")
        for ref in (self.last_out, self.last_arrested):
            need_saved(ref is None or ref in seats, "the last one out")
        need_saved(self.deadline is None or isinstance(self.deadline, int | float), "the deadline")
        need_saved(isinstance(self.room, str) and isinstance(self.host_hash, str), "the room")
        need_saved(isinstance(self.locked, bool), "locked")
        engine = self.engine
        if engine is not None:
            need_saved(len(engine.seats) == len(self.seats), "the engine's seats")
            need_saved(
                all(e.name == s.name for e, s in zip(engine.seats, self.seats, strict=True)),
                "the engine's players",
            )
            need_saved(self.dealt, "an engine without dealt cards")
        for index, lines in self.journal.items():
            need_saved(index + 1 in seats and isinstance(lines, list), "a journal")

    # -- the sealed game (what the saved game holds of the secrets; seal.py) ---------

    @property
    def context(self) -> str:
        """What a sealed part belongs to: this room's game of this ruleset."""
        return f"narrator table: {self.ruleset.id} {self.room}"

    def secret(self) -> dict[str, Any]:
        """What only the engine may know: every card, the cards aside, the journals and
        a vote not yet counted. Sealed in the saved game, never written in the clear."""
        return {
            "cards": [s.card for s in self.seats],
            "unseen": list(self.unseen),
            "removed": list(self.removed),
            "ballot": {str(k): v for k, v in self.ballot.items()},
            "engine": self.engine.snapshot() if self.engine is not None else None,
            "journal": {str(k): v for k, v in self.journal.items()},
        }

    def sealed(self) -> dict[str, Any] | None:
        """The saved game's sealed part: this table's secrets under the game key and
        each seat's share of it; after a restart, until the game opens, the part the
        file had (the secrets are not in memory). None in the lobby: no secrets yet."""
        if self.vault.closed is not None:
            return self.vault.closed
        if self.phase == "lobby":
            return None
        seats = {s.seat: s.token_hash for s in self.seats}
        return self.vault.seal(self.secret(), self.context, seats)

    def must_be_open(self) -> None:
        waiting = self.vault.waiting
        if waiting:
            raise TableError(
                f"the game was saved sealed: it opens when {waiting} more player"
                f"{'s' if waiting > 1 else ''} open the table's page on their phone",
                "refused",
            )

    def _unseal(self, secret: Mapping[str, Any]) -> None:
        """Two phones are back: the secrets return, and the game goes on from where
        it was (a deadline moves on by the time the game stayed closed)."""
        try:
            for seat, card in zip(self.seats, secret["cards"], strict=True):
                seat.card = card
            self.unseen = list(secret["unseen"])
            self.removed = list(secret["removed"])
            self.ballot = {int(k): int(v) for k, v in secret["ballot"].items()}
            snapshot = secret["engine"]
            self.engine = Engine.from_snapshot(self.ruleset, snapshot) if snapshot else None
            self.journal = {int(k): list(v) for k, v in secret["journal"].items()}
        except (KeyError, TypeError, ValueError, AttributeError, NarratorError) as exc:
            raise TableError(
                f"the saved game's secrets do not fit this table ({type(exc).__name__}: {exc})"
            ) from None
        self.check()
        if self.deadline is not None:
            self.deadline += max(0.0, self.clock() - self.vault.since)
        self._changed()

    # -- views ----------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        """What anyone may see: never a card, never a vote before it is counted."""
        return {
            "room": self.room,
            "ruleset": self.ruleset.id,
            "game": self.ruleset.name.get(self.lang),
            "lang": self.lang,
            "phase": self.phase,
            "night": self.night,
            "deadline": self.deadline,
            "remaining": None if self.deadline is None else max(0.0, self.deadline - self.clock()),
            "players": [{"name": s.name, "seat": s.seat, "alive": s.alive} for s in self.seats],
            "suspects": list(self.suspects),
            "voting": self.phase in VOTING,  # the one list of voting phases, for every page
            "voters": len(self.voters()),
            "voted": len(self.ballot),
            "result": self.result,
            "reveal": self.reveal,
            # the box's roles and sides are public: what is in the game is not
            "role_names": {r.id: r.name.get(self.lang) for r in self.ruleset.roles},
            "team_names": {t: n.get(self.lang) for t, n in self.ruleset.teams},
            "version": self.version,
            # One Night: a card may change hands in the night; it is shown before only
            "card_only_before_night": self.countdown,
            # Secret Moon's rounds on the phones: which round, and how many cards lie
            # in the centre (the "non-playing players" a turn may pick)
            "round": self.engine.round if self.engine is not None and self.rounds else 0,
            "centre": len(self.unseen) if self.rounds and self.dealt else 0,
            # the roles in the game, not who holds them: public in every seed
            # (audit 3, finding 2); One Night's centre is among them
            "deck": dict(self.roles),
            # the host may take a player out by hand in a game of many nights
            "eliminate": self.trial,
            # after a restart: how many more phones must come back to open the game
            "sealed": self.vault.waiting,
        }

    def private(self, seat: Seat) -> dict[str, Any]:
        """One phone's view: `/api/me`. Its own card and its own vote, nothing else.
        In a game where the cards move in the night (One Night), the card is there
        only before the night: by day nobody may look at theirs again (review H8)."""
        card = None
        hidden = self.countdown and self.phase not in ("lobby", "cards")
        if seat.card is not None and not hidden:
            role = self.ruleset.role(seat.card)
            card = {
                "name": role.name.get(self.lang),
                "team": self.ruleset.team_name(role.team, self.lang),
                "text": describe(self.ruleset, seat.card, self.lang, frozenset(self.roles)),
            }
        can_vote = self.phase in VOTING and seat.seat in self.voters()
        return {
            "name": seat.name,
            "seat": seat.seat,
            "role": None if hidden else seat.card,
            "card": card,
            "alive": seat.alive,
            "phase": self.phase,
            "can_vote": can_vote,
            "targets": self.targets(seat.seat) if can_vote else [],
            "my_vote": self.ballot.get(seat.seat),
            # the night: the same prompt id on every phone (real or decoy), the group's
            # picks to its members only, and what this player learned, kept all game
            "prompt": self.desk.prompt(seat.seat - 1) if self.desk else None,
            "picks": self.desk.picks(seat.seat - 1) if self.desk else {},
            "journal": list(self.journal.get(seat.seat - 1, [])),
            "turns": self.turn_options(seat) if seat.alive else [],
        }

    def host(self) -> dict[str, Any]:
        roles = [
            {"id": r.id, "name": r.name.get(self.lang), "max": r.max_count}
            for r in self.ruleset.roles
        ]
        try:
            deck = self._recommended(len(self.seats), deal=True)
        except TableError:
            deck = ()
        return {
            "roles": roles,
            "recommended": dict(deck),
            "min_players": self.ruleset.setup.min_players,
            "max_players": self.ruleset.setup.max_players,
        }

    # -- the host's seats: remove, lock, sitting order, a seat to a new phone, again ---
    # (issue 16) Kept apart from the game's logic above: none of these sees a card.

    def _lobby_only(self, what: str) -> None:
        if self.phase != "lobby":
            raise TableError(
                f"{what} only before the deal; after the game, press Play again first",
                "refused",
            )

    def _named(self, number: object, name: object) -> Seat:
        """The seat the host pressed on: its number and the name shown on it, so a
        tap on a list that has changed since (a double tap after a removal renumbered
        the seats) is refused instead of hitting the next player."""
        seat = self.seat(number)
        if name != seat.name:
            raise TableError(f"seat {seat.seat} is now {seat.name}; nothing was changed", "refused")
        return seat

    def remove(self, number: object, name: object) -> None:
        """The host removes a player before the deal: the seat is freed, the seats
        after it move up one, their phone is told (its token no longer works). After
        the deal the cards are the game's, so a player cannot be taken away; in a game
        of many nights the host marks them out instead (`eliminate`)."""
        if self.phase != "lobby":
            raise TableError(
                "the cards are dealt: a player cannot be removed now"
                + (" (mark them as out instead)" if self.trial else "")
                + "; after the game, press Play again and remove them then",
                "refused",
            )
        gone = self._named(number, name)
        self.seats.remove(gone)
        for number_, seat in enumerate(self.seats, start=1):
            seat.seat = number_
        self.claims = [c for c in self.claims if c.seat is not gone]
        self._changed()

    def lock(self, locked: object) -> None:
        """Lock the table (no more joins) or open it again."""
        if not isinstance(locked, bool):
            raise TableError('say {"locked": true} or {"locked": false}')
        self.locked = locked
        self._changed()

    def reorder(self, names: object) -> None:
        """Put the seats in sitting order (clockwise: the tie rules count that way),
        given as the players' names: the same order sent twice is the same order."""
        self._lobby_only("the seats can be reordered")
        by_name = {s.name: s for s in self.seats}
        if (
            not isinstance(names, list)
            or len(names) != len(self.seats)
            or not all(isinstance(n, str) and n in by_name for n in names)
            or len(set(names)) != len(names)
        ):
            raise TableError('"order" lists every player\'s name once, in sitting order')
        self.seats = [by_name[n] for n in names]
        for number, seat in enumerate(self.seats, start=1):
            seat.seat = number
        self._changed()

    def claim(self, room: object, number: object, source: str) -> tuple[str, str]:
        """A phone asks to take a seat over (its player lost their token: a private
        tab, another browser). It gets a new token that works only once the host has
        confirmed, and a code that both its screen and the host page show."""
        if not isinstance(room, str) or room.strip().upper() != self.room:
            raise TableError("no room with that code; check the code on the host's screen")
        seat = self.seat(number)
        self.claims = [c for c in self.claims if c.source != source]  # one each
        if len(self.claims) >= 2 * max(len(self.seats), 4):
            raise TableError("too many phones are asking for a seat; ask the host", "refused")
        taken = {c.code for c in self.claims}
        code = next(
            c for c in (f"{self.rng.randrange(1000, 10000)}" for _ in range(100)) if c not in taken
        )
        token = secrets.token_urlsafe(32)
        self.claims.append(Claim(code, seat, token_hash(token), source))
        self.vault.keys[token_hash(token)] = seat_key(token)
        self._changed()
        return code, token

    def claim_status(self, token: str) -> dict[str, Any]:
        """What became of a phone's request: waiting, or its seat (confirmed)."""
        digest = token_hash(token)
        for claim in self.claims:
            if secrets.compare_digest(digest, claim.token_hash):
                return {"waiting": True, "code": claim.code, "seat": claim.seat.seat}
        return {"waiting": False, "seat": self.seat_of(token).seat}

    def settle_claim(self, code: object, confirm: object) -> None:
        """The host confirms a request (the seat is the new phone's; the old token
        stops working) or refuses it."""
        if not isinstance(confirm, bool):
            raise TableError('say {"code": "1234", "confirm": true} (or false to refuse)')
        claim = next((c for c in self.claims if c.code == code), None)
        if claim is None:
            raise TableError("that request is no longer waiting; nothing was changed", "refused")
        if confirm:
            claim.seat.token_hash = claim.token_hash
            self.claims = [c for c in self.claims if c.seat is not claim.seat]
        else:
            self.claims.remove(claim)
        self._changed()

    def play_again(self) -> None:
        """After the end: a new game with the same room, phones (tokens) and seats,
        back in the lobby, where the host may reorder, remove and deal again."""
        self.must_be_open()
        if self.phase != "end":
            raise TableError("play again after the end of the game", "refused")
        for seat in self.seats:
            seat.card, seat.alive = None, True
        self.phase, self.night, self.deadline, self.dealt = "lobby", 0, None, False
        self.roles, self.unseen, self.removed, self.ballot = {}, [], [], {}
        self.suspects, self.night_out, self.journal = [], [], {}
        self.last_out = self.last_arrested = None
        self.result = self.reveal = None
        self.engine = self.desk = None
        self._changed()

    def deck_count(self, roles: object) -> dict[str, Any]:
        """How a deck the host is choosing would be dealt at this table now: the cards,
        the dealt, those set aside (One Night's centre) and those removed unseen, or
        why it cannot be dealt -- the host page's running count, from the ruleset."""
        players = len(self.seats)
        if not isinstance(roles, dict):
            raise TableError('"roles" must be an object: {"werewolf": 2, "seer": 1}')
        chosen = tuple(self._role_count(r, n) for r, n in roles.items() if n != 0)
        if not chosen:
            try:
                chosen = self._recommended(players, deal=True)
            except TableError as exc:  # too few players yet: say so, count nothing
                return {"cards": 0, "dealt": 0, "aside": 0, "removed": 0, "errors": [str(exc)]}
        report = check_selection(self.ruleset, max(players, 1), chosen)
        plan = dealing(self.ruleset, players, chosen)
        return {
            "cards": plan.cards,
            "dealt": plan.dealt,
            "aside": max(0, plan.aside),
            "removed": plan.discard,
            "errors": list(report.errors) if players else [],
        }

    def seating(self) -> dict[str, Any]:
        """The host's part about the seats: locked or not, and the phones waiting."""
        return {
            "locked": self.locked,
            "claims": [
                {"code": c.code, "seat": c.seat.seat, "name": c.seat.name} for c in self.claims
            ],
            "teams": {r.id: r.team for r in self.ruleset.roles},
            "boxes": {r.id: r.box for r in self.ruleset.roles},
            "box_names": {b: n.get(self.lang) for b, n in self.ruleset.boxes},
        }
