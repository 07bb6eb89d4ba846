"""Who sits where: the players, their tokens, the host's key and the lobby's moves.

`Seats` owns the seating and nothing of the game: joining, the host's lock, the
sitting order, removing a player, a phone asking to take a seat over (a lost token)
and the host's answer, and play again's fresh seating. No card is read here; the
deal writes each player's card, the game marks who is out.

**One seat numbering.** A seat is a `SeatIndex`: 0-based, in the order the players
sit (clockwise), everywhere in Python: the engine's own (`moderator.board`). A
seat's *display number* (index + 1) exists only in words and on the wire -- the JSON
the pages read and send (`"seat": 3`, `{"target": 3}`), the saved file, and the
option ids `"seat:3"` the phones are offered and answer with (the engine's places
in their text form). `number`, `index_of`, `option`, `option_id` and `place` below
are the one place the table converts.

Tokens are 256-bit `secrets` values; only their SHA-256 is kept (and saved), and
compared in constant time, so a saved game holds no key to any seat.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

from narrator.i18n.phrase import Phrase
from narrator.moderator.board import Place, parse_place, place_id
from narrator.moderator.board import SeatIndex as SeatIndex  # the engine's: one numbering
from narrator.table.errors import TableError
from narrator.table.names import clean_name, same_name

# Phones asking for a seat that are kept at once (one per address): beyond it the
# oldest request is forgotten, never the new one refused -- eight bogus requests
# once locked a real lost phone out (review 2, N9)
MAX_CLAIMS = 64


def number(seat: SeatIndex) -> int:
    """The seat's display number, as the pages and the saved file write it."""
    return seat + 1


def index_of(value: object) -> SeatIndex:
    """A seat named on the wire by its display number; whether it exists is asked of
    `Seats.at`. Anything but a whole number is no seat."""
    if isinstance(value, int) and not isinstance(value, bool):
        return SeatIndex(value - 1)
    raise TableError(f"there is no seat {value!r} at this table")


def option(seat: SeatIndex) -> str:
    """The option id the phones name a seat by (`seat:3`)."""
    return place_id(Place.seat(seat))


def option_id(where: Place) -> str:
    """The option id the phones are offered for an engine's place."""
    return place_id(where)


def place(text: str) -> Place:
    """A phone's option id read back as the engine's place (TableError: none)."""
    try:
        return parse_place(text)
    except ValueError:
        raise TableError(f"there is no option {text!r}") from None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A fresh token and its hash."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


@dataclass
class Player:
    """One seat's player: the phone that holds `token_hash`, and, once dealt, a card."""

    seat: SeatIndex
    name: str
    token_hash: str
    card: str | None = None
    alive: bool = True


@dataclass
class Claim:
    """A phone asking to take `player`'s seat over (its owner lost their token): the
    host sees `code` on the host page and on the asking phone, and confirms or refuses."""

    code: str
    player: Player
    token_hash: str
    source: str  # who asked (the server's client address): one waiting claim each


@dataclass(frozen=True, slots=True)
class ClaimStatus:
    """What became of a phone's request: still `waiting` (with its code), or given."""

    waiting: bool
    seat: SeatIndex
    code: str | None = None


@dataclass
class Seats:
    """The players in sitting order, the host's key, the lock and the waiting claims."""

    players: list[Player] = field(default_factory=list)
    host_hash: str = ""
    locked: bool = False
    claims: list[Claim] = field(default_factory=list, repr=False)  # not saved

    def __iter__(self) -> Iterator[Player]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def __getitem__(self, seat: int) -> Player:
        return self.players[seat]

    # -- who is who ---------------------------------------------------------------

    def at(self, seat: SeatIndex) -> Player:
        """The player at `seat`; a seat that does not exist is one line, in words."""
        if 0 <= seat < len(self.players):
            return self.players[seat]
        raise TableError(Phrase("there is no seat {n} at this table", n=number(seat)), "invalid")

    def holding(self, token: str) -> Player | None:
        """The player whose phone holds `token`, or None. Only a lookup: a sealed game
        opens by its own command (`sealed.open_with`), never as a side effect."""
        digest = token_hash(token)
        found = None
        for player in self.players:  # every seat compared: the time tells nothing
            if secrets.compare_digest(digest, player.token_hash):
                found = player
        return found

    def held_by(self, digest: str) -> Player | None:
        """The player whose token has this hash (a socket remembers its owner's)."""
        return next((p for p in self.players if p.token_hash == digest), None)

    def alive(self) -> list[SeatIndex]:
        return [p.seat for p in self.players if p.alive]

    def new_host_token(self) -> str:
        token, self.host_hash = new_token()
        return token

    def is_host(self, token: str) -> bool:
        return bool(self.host_hash) and secrets.compare_digest(token_hash(token), self.host_hash)

    # -- the lobby ------------------------------------------------------------------

    def join(self, name: object, max_players: int) -> tuple[Player, str]:
        """A new player at the next seat, with their phone's token."""
        if self.locked:
            raise TableError(
                Phrase("the host has locked the table; ask the host to unlock it"), "refused"
            )
        clean = clean_name(name)
        if any(same_name(clean, p.name) for p in self.players):
            raise TableError(
                Phrase("'{name}' is taken at this table; add an initial", name=clean), "refused"
            )
        if len(self.players) >= max_players:
            full = Phrase("the table is full ({n} players)", n=len(self.players))
            raise TableError(full, "refused")
        token, digest = new_token()
        player = Player(SeatIndex(len(self.players)), clean, digest)
        self.players.append(player)
        return player, token

    def named(self, seat: SeatIndex, name: object) -> Player:
        """The seat the host pressed on: its number and the name shown on it, so a
        tap on a list that has changed since (a double tap after a removal renumbered
        the seats) is refused instead of hitting the next player."""
        player = self.at(seat)
        if name != player.name:
            raise TableError(
                Phrase(
                    "seat {n} is now {name}; nothing was changed",
                    n=number(seat),
                    name=player.name,
                ),
                "refused",
            )
        return player

    def remove(self, seat: SeatIndex, name: object) -> None:
        """The player leaves the table: the seats after move up one, their phone's
        token stops working, a phone asking for their seat is forgotten."""
        gone = self.named(seat, name)
        self.players.remove(gone)
        self._number()
        self.claims = [c for c in self.claims if c.player is not gone]

    def lock(self, locked: object) -> None:
        """Lock the table (no more joins) or open it again."""
        if not isinstance(locked, bool):
            raise TableError('say {"locked": true} or {"locked": false}')
        self.locked = locked

    def reorder(self, names: object) -> None:
        """Put the seats in sitting order (clockwise: the tie rules count that way),
        given as the players' names: the same order sent twice is the same order."""
        by_name = {p.name: p for p in self.players}
        if (
            not isinstance(names, list)
            or len(names) != len(self.players)
            or not all(isinstance(n, str) and n in by_name for n in names)
            or len(set(names)) != len(names)
        ):
            raise TableError('"order" lists every player\'s name once, in sitting order')
        self.players = [by_name[n] for n in names]
        self._number()

    def _number(self) -> None:
        for seat, player in enumerate(self.players):
            player.seat = SeatIndex(seat)

    def again(self) -> None:
        """Play again: the same players in the same seats, no card, nobody out."""
        for player in self.players:
            player.card, player.alive = None, True

    # -- a seat to a new phone -------------------------------------------------------

    def claim(self, seat: SeatIndex, source: str, rng: random.Random) -> tuple[str, str]:
        """A phone asks to take `seat` over (its player lost their token: a private tab,
        another browser). It gets a new token that works only once the host has
        confirmed, and a code that both its screen and the host page show."""
        player = self.at(seat)
        self.claims = [c for c in self.claims if c.source != source]  # one each
        del self.claims[: max(0, len(self.claims) - MAX_CLAIMS + 1)]  # the oldest go
        taken = {c.code for c in self.claims}
        code = next(
            c for c in (f"{rng.randrange(1000, 10000)}" for _ in range(100)) if c not in taken
        )
        token, digest = new_token()
        self.claims.append(Claim(code, player, digest, source))
        return code, token

    def waiting(self, token: str) -> Claim | None:
        """The request a phone's new token made, while the host has not answered it."""
        digest = token_hash(token)
        return next((c for c in self.claims if secrets.compare_digest(digest, c.token_hash)), None)

    def settle(self, code: object, confirm: object) -> None:
        """The host confirms a request (the seat is the new phone's; the old token
        stops working) or refuses it."""
        if not isinstance(confirm, bool):
            raise TableError('say {"code": "1234", "confirm": true} (or false to refuse)')
        claim = next((c for c in self.claims if c.code == code), None)
        if claim is None:
            raise TableError(
                Phrase("that request is no longer waiting; nothing was changed"), "refused"
            )
        if confirm:
            claim.player.token_hash = claim.token_hash
            self.claims = [c for c in self.claims if c.player is not claim.player]
        else:
            self.claims.remove(claim)
