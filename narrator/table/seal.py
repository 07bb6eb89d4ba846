"""The saved game's secrets, sealed so that nobody on the host's machine can read them
(issue 16, item 4; review H5).

The saved game lives on the host's machine, and the host is a player. What only the
engine may know -- every card, the centre, the journals, a live secret ballot -- is
written encrypted (AES-256-GCM) under a game key the table holds in memory only. That
key is split two-of-n (Shamir's scheme with a line over a prime field): each seat's
share is encrypted under a key derived from that seat's token, and the server never
stores a token (only its SHA-256). After a restart the game opens as soon as two
players' phones are back: one player alone -- the host included -- cannot open it with
what they hold, and nothing here needs a password.

Pure: no web, no table; `Vault` is what a table keeps. A seat's share is the line at
its point `x`: the seat's display number (1..n, `seats.number`), never 0 -- the line
at 0 is the game key itself.
"""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from narrator.i18n.phrase import Phrase
from narrator.table.errors import TableError

PRIME = 2**521 - 1  # a Mersenne prime: the field the shares live in
SHARE_BYTES = 66  # a number below PRIME
NEEDED = 2  # phones back before the game opens


class SealError(Exception):
    """A sealed part that does not open: changed, cut short, or another game's."""


def seat_key(token: str) -> bytes:
    """The key a seat's share is sealed with: derived from its phone's token, which
    only the phone keeps (tokens are 256 random bits, so one HKDF step suffices)."""
    hkdf = HKDF(algorithm=SHA256(), length=32, salt=None, info=b"narrator: a seat's share")
    return hkdf.derive(token.encode())


@dataclass(frozen=True)
class GameKey:
    """The game key (`value`) and the slope of the line that splits it: a seat's share
    is the line at its seat number, and any two shares give back both."""

    value: int
    slope: int

    @classmethod
    def new(cls) -> GameKey:
        return cls(secrets.randbits(256), secrets.randbelow(PRIME))

    def share(self, x: int) -> int:
        if x < 1:  # the line at 0 is the key: no seat's share
            raise ValueError(f"a share at {x}")
        return (self.value + self.slope * x) % PRIME

    @classmethod
    def from_shares(cls, shares: Mapping[int, int]) -> GameKey:
        (x1, y1), (x2, y2) = sorted(shares.items())[:NEEDED]
        slope = (y2 - y1) * pow(x2 - x1, -1, PRIME) % PRIME
        return cls((y1 - slope * x1) % PRIME, slope)

    def aes(self) -> AESGCM:
        if self.value >= 2**256:
            raise SealError("the shares do not fit together")
        return AESGCM(self.value.to_bytes(32, "big"))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def lock(aes: AESGCM, payload: bytes, context: str) -> dict[str, str]:
    nonce = secrets.token_bytes(12)
    return {"nonce": _b64(nonce), "data": _b64(aes.encrypt(nonce, payload, context.encode()))}


def unlock(aes: AESGCM, locked: object, context: str) -> bytes:
    try:
        assert isinstance(locked, dict)
        nonce = base64.b64decode(locked["nonce"], validate=True)
        data = base64.b64decode(locked["data"], validate=True)
        return aes.decrypt(nonce, data, context.encode())
    except (AssertionError, KeyError, TypeError, ValueError, InvalidTag):
        raise SealError("a sealed part was changed, cut short or is another game's") from None


@dataclass
class Vault:
    """What a table keeps to seal its secrets: the game key, the keys of the phones
    seen since the server started (by token hash; memory only), and, after a restart,
    the sealed part read from the file until two phones have opened it."""

    key: GameKey = field(default_factory=GameKey.new)
    keys: dict[str, bytes] = field(default_factory=dict)  # token hash -> seat key
    closed: dict[str, Any] | None = None  # the file's sealed part, not yet opened
    opened: dict[int, int] = field(default_factory=dict)  # seat -> share, while closed
    kept: dict[str, Any] = field(default_factory=dict)  # the file's shares, by seat
    since: float = 0.0  # when the closed part was read (the table's clock)
    broken: str = ""  # why the closed part cannot open: the game stays shut (review 2)

    def seal(
        self, secret: Mapping[str, Any], context: str, seats: Mapping[int, str]
    ) -> dict[str, Any]:
        """The secrets encrypted under the game key, and each seat's share under its
        phone's key (`seats`: a seat's point, its display number -> token hash). A
        seat whose phone has not come back since a restart keeps the share the file
        had."""
        shares: dict[str, Any] = {}
        for x, digest in seats.items():
            phone = self.keys.get(digest)
            if phone is not None:
                y = self.key.share(x).to_bytes(SHARE_BYTES, "big")
                shares[str(x)] = lock(AESGCM(phone), y, f"{context}:{x}")
            elif str(x) in self.kept:
                shares[str(x)] = self.kept[str(x)]
        payload = json.dumps(secret, ensure_ascii=False).encode("utf-8")
        return {"shares": shares, "game": lock(self.key.aes(), payload, context)}

    def load(self, sealed: object) -> None:
        """The sealed part of a saved game: kept closed until two phones are back."""
        if not (
            isinstance(sealed, dict)
            and isinstance(sealed.get("shares"), dict)
            and isinstance(sealed.get("game"), dict)
        ):
            raise SealError("the sealed part is not one this table wrote")
        self.closed = sealed
        self.kept = dict(sealed["shares"])
        self.opened = {}

    def back(self, seat: int, digest: str, token: str, context: str) -> dict[str, Any] | None:
        """A phone is back with its token: its key is kept for the next saves and,
        while the game is closed, its share opened; with the second share the game
        key comes back and the secrets are returned (once)."""
        phone = self.keys.get(digest)
        if phone is None:
            phone = self.keys[digest] = seat_key(token)
        if self.closed is None or seat in self.opened:
            return None
        locked = self.kept.get(str(seat))
        if locked is None:
            return None
        y = unlock(AESGCM(phone), locked, f"{context}:{seat}")
        opened = {**self.opened, seat: int.from_bytes(y, "big")}
        if len(opened) < NEEDED:
            self.opened = opened
            return None
        # Both shares open, but the game may not: then it stays shut, and says so --
        # never open with no secrets (review 2: the host's Go on was then a 500)
        key = GameKey.from_shares(opened)
        try:
            secret = json.loads(unlock(key.aes(), self.closed["game"], context).decode("utf-8"))
        except SealError as exc:
            self.broken = str(exc)
            raise
        if not isinstance(secret, dict):
            self.broken = "the sealed part is not one this table wrote"
            raise SealError(self.broken)
        self.key, self.closed, self.opened = key, None, {}
        return secret

    @property
    def waiting(self) -> int:
        """Phones still to come back before the game opens (0: it is open)."""
        return 0 if self.closed is None else NEEDED - len(self.opened)

    def must_be_open(self) -> None:
        """Every move of a game is refused while it is sealed, with one line saying
        how it opens."""
        if self.broken and self.closed is not None:
            raise TableError(
                Phrase(
                    "the saved game cannot be opened ({why}); start a new game without --resume",
                    why=self.broken,
                ),
                "refused",
            )
        waiting = self.waiting
        if waiting:
            raise TableError(
                Phrase.counted(
                    "the game was saved sealed: it opens when {n} more player open the "
                    "table's page on their phone",
                    "the game was saved sealed: it opens when {n} more players open the "
                    "table's page on their phone",
                    waiting,
                ),
                "refused",
            )
