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
  Secret Moon (no vote):   the host ends the game from the day.

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

from narrator.rules import NarratorError, Ruleset, check_selection, dealing, recommended
from narrator.table import outcome, votes
from narrator.table.errors import TableError
from narrator.table.lines import describe
from narrator.table.names import clean_name, same_name

VOTING = ("vote", "accusation", "ballot")
ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: read aloud and typed on a phone


@dataclass(frozen=True, slots=True)
class Options:
    """How long each vote stays open before a missing vote counts as abstaining."""

    vote_seconds: float = 30.0  # One Night: the countdown
    accusation_seconds: float = 60.0
    ballot_seconds: float = 30.0


@dataclass(frozen=True, slots=True)
class Event:
    """Something the voice announces: `kind` and the seats it names."""

    kind: str
    seats: tuple[int, ...] = ()
    night: int = 0


@dataclass
class Seat:
    seat: int
    name: str
    token_hash: str
    card: str | None = None
    alive: bool = True


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def system_of(ruleset: Ruleset) -> votes.System | None:
    vote = ruleset.day.vote
    if vote is None:
        return None
    if vote.style == "countdown":
        return "countdown"
    if ruleset.id == "mafia_infiltrators":
        return "mafia"
    return "wherewolf" if ruleset.id == "wherewolf" else "lupus"


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
        digest = token_hash(token)
        for seat in self.seats:
            if secrets.compare_digest(digest, seat.token_hash):
                return seat
        raise TableError("unknown token", "not_found")

    def seat(self, number: object) -> Seat:
        if isinstance(number, int) and not isinstance(number, bool):
            for seat in self.seats:
                if seat.seat == number:
                    return seat
        raise TableError(f"there is no seat {number!r} at this table", "invalid")

    @property
    def system(self) -> votes.System | None:
        return system_of(self.ruleset)

    # -- commands -----------------------------------------------------------------

    def join(self, name: object, room: object) -> tuple[int, str]:
        if not isinstance(room, str) or room.strip().upper() != self.room:
            raise TableError("no room with that code; check the code on the host's screen")
        if self.phase != "lobby":
            raise TableError("the game has started; wait for the next one", "refused")
        clean = clean_name(name)
        if any(same_name(clean, s.name) for s in self.seats):
            raise TableError(f"'{clean}' is taken at this table; add an initial", "refused")
        if len(self.seats) >= self.ruleset.setup.max_players:
            raise TableError(f"the table is full ({len(self.seats)} players)", "refused")
        token = secrets.token_urlsafe(32)
        self.seats.append(Seat(len(self.seats) + 1, clean, token_hash(token)))
        self._changed()
        return len(self.seats), token

    def start(self, roles: Mapping[str, int] | None, deal: bool = True) -> None:
        """Deal (or, with physical cards, just begin): empty roles = the recommended deck."""
        if self.phase != "lobby":
            raise TableError("the game has already started", "refused")
        players = len(self.seats)
        if roles:
            chosen = tuple(self._role_count(r, n) for r, n in roles.items())
            report = check_selection(self.ruleset, players, chosen)
            if report.errors:
                raise TableError("; ".join(report.errors))
        else:
            try:
                chosen, _ = recommended(self.ruleset, players)
            except NarratorError as exc:
                raise TableError(str(exc)) from None
        self.dealt = deal
        if deal:
            deck = [r for r, n in chosen for _ in range(n)]
            self.rng.shuffle(deck)
            # The ruleset's unseen removal first (Lupus with 7: any card; Secret Moon
            # with 5: the Priestess or a Guard), then one card each; the rest aside.
            plan = dealing(self.ruleset, players, chosen)
            for _ in range(plan.discard):
                pool = [
                    i for i, c in enumerate(deck) if c in plan.discard_from or not plan.discard_from
                ]
                self.removed.append(deck.pop(self.rng.choice(pool)))
            for seat, card in zip(self.seats, deck, strict=False):
                seat.card = card
            self.unseen = deck[players:]
        self.roles = dict(chosen)
        self.phase = "cards"
        self.events.append(Event("dealt"))
        self._changed()

    def _role_count(self, role_id: object, count: object) -> tuple[str, int]:
        if not isinstance(role_id, str) or role_id not in self.ruleset.role_ids:
            raise TableError(f"'{self.ruleset.id}' has no role {role_id!r}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise TableError(f"{role_id}: the count must be a whole number, 1 or more")
        return role_id, count

    def eliminate(self, number: object) -> None:
        """The host records who left the game in the night (until night actions are
        on the phones): the victim of Lupus's wolves, Mafia's arrested player."""
        if self.phase not in ("night", "day") or self.system in (None, "countdown"):
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
        if self.system == "mafia":
            self.last_arrested = seat.seat
        self._check_end()
        self._changed()

    def vote(self, voter: Seat, target: object) -> None:
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
        """Apply a deadline that has passed; True if the table changed."""
        if self.deadline is not None and self.clock() >= self.deadline:
            self.advance()
            return True
        return False

    def advance(self) -> None:
        """The next phase: the host's "go on", a deadline, or the night's end."""
        self.deadline = None
        phase, system = self.phase, self.system
        if phase in ("lobby", "end"):
            raise TableError(f"nothing follows '{phase}' (start the game first)", "refused")
        if phase in ("cards", "verdict"):
            self.phase, self.night, self.night_out = "night", self.night + 1, []
            self.events.append(Event("night", night=self.night))
        elif phase == "night":
            self.phase = "day"
            self.deadline = self._timer(self.ruleset.day.discussion)
            if system not in (None, "countdown"):
                self.events.append(Event("victims", tuple(self.night_out)))
        elif phase == "day":
            if system is None:
                self._end(None)
            else:
                self._open("vote" if system == "countdown" else "accusation")
        elif phase == "vote":
            self._close_countdown()
        elif phase == "accusation":
            self._close_accusation()
        elif phase == "defence":
            self._open("ballot")
        elif phase == "ballot":
            self._close_ballot()
        self._changed()

    # -- votes ------------------------------------------------------------------------

    def alive(self) -> list[int]:
        return [s.seat for s in self.seats if s.alive]

    def voters(self) -> list[int]:
        if self.phase == "vote" or (self.phase == "accusation" and self.system != "wherewolf"):
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
        seconds = {
            "vote": self.options.vote_seconds,
            "accusation": self.options.accusation_seconds,
            "ballot": self.options.ballot_seconds,
        }[phase]
        self.deadline = self.clock() + seconds
        self.events.append(Event(phase, tuple(self.suspects) if phase == "ballot" else ()))

    def _timer(self, timed: Any) -> float | None:
        return None if timed is None else self.clock() + float(timed.seconds)

    def _close_countdown(self) -> None:
        hunters = [s.seat for s in self.seats if s.card == "hunter"]
        dead, shot = votes.countdown_dead(self.ballot, hunters)
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
        win = None
        if self.dealt:
            cards = {s.seat: s.card or "" for s in self.seats}
            win = outcome.one_night(cards, self._teams(), dead + shot)
        self._end(win)

    def _reference(self) -> tuple[int | None, bool]:
        if self.system == "mafia":
            return self.last_arrested, True
        return self.last_out, False

    def _close_accusation(self) -> None:
        counts = votes.tally(self.ballot)
        self.result = {"kind": "accusation", "counts": {str(k): v for k, v in counts.items()}}
        if self.system == "wherewolf":
            acc = votes.wherewolf_accused(self.ballot, len(self.alive()))
            if acc.burned is not None or not acc.accused:
                self._verdict(acc.burned)
                return
            self.suspects = list(acc.accused)
        else:
            reference, both = self._reference()
            candidates = self.alive()
            self.suspects = votes.suspects(
                self.ballot, candidates, reference, len(self.seats), both
            )
        self.result["suspects"] = list(self.suspects)
        self.phase, self.ballot = "defence", {}
        defence = self.ruleset.day.vote.defence if self.ruleset.day.vote else None
        self.deadline = self._timer(defence)
        self.events.append(Event("suspects", tuple(self.suspects)))

    def _close_ballot(self) -> None:
        counts = votes.tally(self.ballot)
        if self.system == "wherewolf":
            condemned = votes.wherewolf_burned(self.ballot, self.suspects)
        else:
            reference, both = self._reference()
            condemned = votes.condemned(
                self.ballot, self.suspects, reference, len(self.seats), both
            )
        self._verdict(condemned, {str(s): counts.get(s, 0) for s in self.suspects})

    def _verdict(self, condemned: int | None, counts: Mapping[str, int] | None = None) -> None:
        self.result = {
            "kind": "verdict",
            "counts": dict(counts or {}),
            "condemned": condemned,
            "suspects": list(self.suspects),
        }
        self.phase, self.ballot, self.suspects = "verdict", {}, []
        if condemned is not None:
            self._out(condemned)
        self.events.append(Event("verdict", () if condemned is None else (condemned,)))
        self._check_end()

    # -- the end --------------------------------------------------------------------

    def _out(self, number: int) -> None:
        self.seat(number).alive = False
        self.last_out = number

    def _teams(self) -> dict[str, str]:
        return {r.id: r.team for r in self.ruleset.roles}

    def _check_end(self) -> None:
        system = self.system
        if not self.dealt or system in (None, "countdown"):
            return
        cards = {s.seat: s.card or "" for s in self.seats}
        win = outcome.many_nights(system, cards, self._teams(), self.alive())
        if win is not None:
            self._end(win)

    def end(self) -> None:
        """The host ends the game (Secret Moon, or a game the table calls off)."""
        if self.phase in ("lobby", "end"):
            raise TableError("there is no game to end", "refused")
        self._end(None)
        self._changed()

    def _end(self, win: outcome.Outcome | None) -> None:
        self.phase, self.deadline, self.ballot = "end", None, {}
        if self.dealt:
            self.reveal = {
                "cards": {str(s.seat): s.card for s in self.seats},
                "unseen": list(self.unseen),
                "removed": list(self.removed),
                "winners": {
                    "teams": list(win.teams) if win else [],
                    "seats": list(win.seats) if win else [],
                },
            }
        self.events.append(Event("end"))

    def _changed(self) -> None:
        self.version += 1

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
            "voters": len(self.voters()),
            "voted": len(self.ballot),
            "result": self.result,
            "reveal": self.reveal,
            # the box's roles and sides are public: what is in the game is not
            "role_names": {r.id: r.name.get(self.lang) for r in self.ruleset.roles},
            "team_names": {t: n.get(self.lang) for t, n in self.ruleset.teams},
            "version": self.version,
        }

    def private(self, seat: Seat) -> dict[str, Any]:
        """One phone's view: `/api/me`. Its own card and its own vote, nothing else."""
        card = None
        if seat.card is not None:
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
            "role": seat.card,
            "card": card,
            "alive": seat.alive,
            "phase": self.phase,
            "can_vote": can_vote,
            "targets": self.targets(seat.seat) if can_vote else [],
            "my_vote": self.ballot.get(seat.seat),
        }

    def host(self) -> dict[str, Any]:
        roles = [
            {"id": r.id, "name": r.name.get(self.lang), "max": r.max_count}
            for r in self.ruleset.roles
        ]
        try:
            deck, _ = recommended(self.ruleset, len(self.seats))
        except NarratorError:
            deck = ()
        return {
            "roles": roles,
            "recommended": dict(deck),
            "min_players": self.ruleset.setup.min_players,
            "max_players": self.ruleset.setup.max_players,
        }
