"""The saved game: a table as JSON, written atomically after every change.

Only the tokens' SHA-256 is kept, so the file holds no key to any seat; a phone
rejoins a resumed table with the token it kept. The cards, the journals and a live
ballot are sealed (sealed.py, seal.py): the game opens when two players' phones are
back. A file that cannot be used is one line saying so, never a traceback. The file
names seats by their display numbers (the pages' form, `seats.number`), as it
always has: a game saved before is read as it was written.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any, cast

from narrator.base import files
from narrator.base.errors import WriteError
from narrator.moderator.judges import Judge, PhysicalJudge
from narrator.moderator.referee import Referee, Stage
from narrator.rules import Ruleset
from narrator.table.errors import TableError
from narrator.table.flow import PHASES, Options, Sealed
from narrator.table.results import result_from_json, result_json, reveal_from_json, reveal_json
from narrator.table.seal import SealError
from narrator.table.sealed import check, need_saved, sealed_part
from narrator.table.seats import Player, SeatIndex, Seats, index_of, number
from narrator.table.state import Table


def dump(table: Table) -> dict[str, Any]:
    """The table as JSON: what everyone may know in the clear, and what only the
    engine may know -- every card, the cards aside, the journals, a vote not yet
    counted -- in `sealed` (sealed.py), which no one player can open alone. Seats are
    written by their display numbers, as the pages read them."""
    return {
        "format": 2,
        "ruleset": table.ruleset.id,
        "lang": table.lang,
        "room": table.room,
        "host_hash": table.seats.host_hash,
        "options": asdict(table.options),
        "seats": [
            {
                "seat": number(p.seat),
                "name": p.name,
                "token_hash": p.token_hash,
                "card": None,
                "alive": p.alive,
            }
            for p in table.seats
        ],
        "phase": table.phase,
        "night": table.night,
        "seed": table.seed,
        "heard": table.heard,
        "deadline": table.deadline,
        "dealt": table.dealt,
        "roles": table.roles,
        "suspects": [number(s) for s in table.suspects],
        "last_out": _number(table.last_out),
        "last_arrested": _number(table.last_arrested),
        "night_out": [number(s) for s in table.night_out],
        "result": result_json(table.result),
        "reveal": reveal_json(table.reveal),
        "version": table.version,
        "locked": table.seats.locked,
        "sealed": sealed_part(table),
    }


def _number(seat: SeatIndex | None) -> int | None:
    return None if seat is None else number(seat)


def _index(value: object) -> SeatIndex | None:
    return None if value is None else index_of(value)


def _player(data: Mapping[str, Any]) -> Player:
    return Player(
        seat=index_of(data["seat"]),
        name=data["name"],
        token_hash=data["token_hash"],
        card=data["card"],
        alive=data["alive"],
    )


def restore(data: Mapping[str, Any], ruleset: Ruleset, **kw: Any) -> Table:
    if data.get("format") != 2 or data.get("ruleset") != ruleset.id:
        raise TableError(f"this saved game is not a '{ruleset.id}' table game")
    locked = data.get("locked", False)
    table = Table(
        ruleset,
        data["lang"],
        room=data["room"],
        options=Options(**data["options"]),
        seats=Seats([_player(s) for s in data["seats"]], data["host_hash"], locked),
        deadline=data["deadline"],
        dealt=data["dealt"],
        roles={str(k): int(v) for k, v in data["roles"].items()},
        reveal=reveal_from_json(data["reveal"]),
        version=data["version"],
        seed=int(data.get("seed", 0)),  # a game saved before the seed was: 0
        heard=int(data.get("heard", -1)),  # ... or before where the voice was
        **kw,
    )
    phase, night = data["phase"], data["night"]
    result = result_from_json(data["result"])
    need_saved(phase in PHASES, f"phase {phase!r}")
    need_saved(phase != "lobby" or result is None, "a result in the lobby")
    need_saved(isinstance(night, int) and not isinstance(night, bool) and night >= 0, "night")
    if phase != "lobby":
        sealed = data.get("sealed") is not None
        # the engine's judge waits for the secrets (`sealed.open_with`); the votes'
        # own judge keeps what the table saw, in the clear
        judge: Judge = PhysicalJudge(
            ruleset.flow, len(table.seats), _index(data["last_out"]), _index(data["last_arrested"])
        )
        if sealed and table.dealt and ruleset.outcome is not None:
            judge = cast(Judge, Sealed())
        reveal = table.reveal
        table.referee = Referee(
            ruleset.flow,
            judge,
            alive=[p.alive for p in table.seats],
            phase=cast(Stage, phase),
            night=night,
            suspects=[index_of(s) for s in data["suspects"]],
            night_out=[index_of(s) for s in data["night_out"]],
            result=result,
            winners=reveal.winners if reveal is not None and reveal.judged else None,
        )

    need_saved(all(p.card is None for p in table.seats), "a card in the clear")
    need_saved(table.phase == "lobby" or data.get("sealed") is not None, "no sealed part")
    if data.get("sealed") is not None:
        try:
            table.vault.load(data["sealed"])
        except SealError as exc:
            raise TableError(str(exc)) from None
        table.vault.since = table.clock.now()
    # A timer or a vote does not run on while the server is down (review, H19): the
    # deadline moves on by the time between the last save and now (a restart within a
    # couple of seconds changes nothing).
    saved_at = data.get("saved_at")
    if table.deadline is not None and isinstance(saved_at, int | float):
        down = table.clock.now() - float(saved_at)
        if 2 < down < 366 * 24 * 3600:
            table.deadline += down
    return table


MAX_SAVED = 1_000_000  # bytes: a table of 100 players saves in well under 100 kB


def load_saved(path: Path, ruleset: Ruleset, **kw: Any) -> Table:
    """A table from its saved game file, with one clear line if it cannot be used:
    not a regular file (a FIFO never hangs us), too big, not JSON, another game's,
    or a file whose values do not fit the table (a tampered save)."""
    try:
        data = json.loads(read_regular(path).decode("utf-8"))
        table = restore(data, ruleset, **kw)
        check(table)
        return table
    except TableError as exc:
        raise TableError(f"{path}: {exc}") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise TableError(
            f"{path}: not a saved table game ({type(exc).__name__}: {exc}); "
            "start a new game without --resume"
        ) from None


def read_regular(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise TableError("this is not a regular file; give the saved game's .json file")
        data = file.read(MAX_SAVED + 1)
    if len(data) > MAX_SAVED:
        raise TableError(f"the file is over {MAX_SAVED // 1000} kB: not a saved table game")
    return data


def save(table: Table, path: Path) -> None:
    """Write the saved game whole, privately and synced (`base.files.write_whole`): a
    fresh temporary file (O_EXCL, a name nobody can guess or plant a link at, 0600) in
    the 0700 folder, synced, renamed over the old one, the folder synced -- a crash
    mid-write leaves the last good file, a power cut just after keeps the new one, and
    a link planted at the path is replaced, never followed. A TableError ("unsaved")
    when it cannot be written: the file is then the game as last saved."""
    data = json.dumps({**dump(table), "saved_at": table.clock.now()}, ensure_ascii=False)
    try:
        files.write_whole(path, data.encode("utf-8"))
    except WriteError as exc:
        raise TableError(f"cannot save the game in {path} ({exc.strerror})", "unsaved") from None


def check_writable(path: Path) -> None:
    """Refuse, before the game starts, a saved-game path that cannot be written."""
    try:
        files.check_writable(path)
    except WriteError as exc:
        if path.is_dir():
            raise TableError(f"{path} is a folder; give a file name with --game") from None
        raise TableError(
            f"cannot write the saved game in {path.parent} ({exc.strerror}); "
            "choose another file with --game"
        ) from None


class GameLock:
    """One server per saved game: an exclusive lock on `<file>.lock`, held while the
    table is served. A second server on the same file is refused with one line
    instead of the two writing over each other."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + ".lock")
        self._fd: int | None = None

    def __enter__(self) -> GameLock:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise TableError(
                f"another table is already serving {self.path.with_suffix('')}; stop it "
                "first, or start this one with another --game FILE"
            ) from None
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # releases the lock
            self._fd = None
