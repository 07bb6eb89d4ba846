"""The saved game's sealed part: what it holds, how it opens, and the check that a
table read back fits together.

What only the engine may know -- every card, the cards aside, the journals, a vote
not yet counted -- is `secret(table)`, written only under the game key
(`sealed_part`, seal.py's `Vault`). After a restart the table serves the public
state and refuses every move until two players' phones are back: **opening is a
command**, `open_with(table, player, token)`, that the service sends for every phone
that shows its token; it says whether this phone's share opened the game, so the
service knows to go on (a night plays on, a vote keeps the seconds it had left) and
to tell every phone. Looking a token up (`Seats.holding`) never opens anything.

`check(table)` refuses a table whose values do not fit together -- a saved file
edited by hand, or secrets that open but do not fit this table -- with one line,
never errors later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from narrator.base.errors import NarratorError
from narrator.i18n.phrase import Phrase
from narrator.moderator import Game as Engine
from narrator.table.errors import TableError
from narrator.table.flow import PHASES
from narrator.table.night import NightDesk
from narrator.table.seal import SealError
from narrator.table.seats import Player, SeatIndex, index_of, number
from narrator.table.state import Table


def need_saved(ok: bool, what: str) -> None:
    """A check of a saved game read back: what does not hold is one clear error."""
    if not ok:
        raise TableError(f"the saved game does not fit together ({what}); it was changed")


def context(table: Table) -> str:
    """What a sealed part belongs to: this room's game of this ruleset."""
    return f"narrator table: {table.ruleset.id} {table.room}"


def secret(table: Table) -> dict[str, Any]:
    """What only the engine may know: every card, the cards aside, the journals and
    a vote not yet counted. Sealed in the saved game, never written in the clear.
    (Its form is the saved file's: the ballot by display number, the journals by
    seat index, as the file has always written them.)"""
    return {
        "cards": [p.card for p in table.seats],
        "unseen": list(table.unseen),
        "removed": list(table.removed),
        "ballot": {str(number(v)): number(t) for v, t in table.ballot.items()},
        "engine": table.engine.snapshot() if table.engine is not None else None,
        "journal": {str(k): v for k, v in table.journal.items()},
        # the night being played: which calls are done, each phone's answers, where
        # the voice was (what each chose and learned, and what waits for dawn, are
        # the engine's, above): a restarted night goes on from there
        "night": table.desk.state() if table.desk is not None else None,
    }


def sealed_part(table: Table) -> dict[str, Any] | None:
    """The saved game's sealed part: the table's secrets under the game key and each
    seat's share of it; after a restart, until the game opens, the part the file had
    (the secrets are not in memory). None in the lobby: no secrets yet."""
    vault = table.vault
    if vault.closed is not None:
        return vault.closed
    if table.phase == "lobby":
        return None
    shares = {number(p.seat): p.token_hash for p in table.seats}  # a seat's point: never 0
    return vault.seal(secret(table), context(table), shares)


def open_with(table: Table, player: Player, token: str) -> bool:
    """A phone is back with its token: its key is kept for the next saves, and while
    the game is sealed its share opens; True when this phone's was the share that
    opened it (the secrets are back and the game goes on). A sealed part that does
    not open is the table's one-line refusal."""
    try:
        found = table.vault.back(number(player.seat), player.token_hash, token, context(table))
    except SealError as exc:
        why = str(exc)
        raise TableError(
            Phrase("the saved game cannot be opened ({why}); start a new game", why=why), "refused"
        ) from None
    if found is None:
        return False
    _unseal(table, found)
    return True


def _unseal(table: Table, secret: Mapping[str, Any]) -> None:
    """Two phones are back: the secrets return, and the game goes on from where it
    was (a deadline moves on by the time the game stayed closed)."""
    try:
        for player, card in zip(table.seats, secret["cards"], strict=True):
            player.card = card
        table.unseen = list(secret["unseen"])
        table.removed = list(secret["removed"])
        ballot = {index_of(int(k)): index_of(int(v)) for k, v in secret["ballot"].items()}
        snapshot = secret["engine"]
        # the engine draws an idle phone's mandatory choice from the table's chance,
        # never from a seed a restart would make known
        engine = Engine.from_snapshot(table.ruleset, snapshot, table.rng) if snapshot else None
        table.engine = engine
        table.journal = {SeatIndex(int(k)): list(v) for k, v in secret["journal"].items()}
        resume(table, ballot, secret.get("night"))
    except (KeyError, TypeError, ValueError, AttributeError, NarratorError) as exc:
        raise TableError(
            f"the saved game's secrets do not fit this table ({type(exc).__name__}: {exc})"
        ) from None
    check(table)
    if table.deadline is not None:
        table.deadline += max(0.0, table.clock.now() - table.vault.since)
    table._changed()


def resume(table: Table, ballot: dict[SeatIndex, SeatIndex], night: Any) -> None:
    """The game opened: the referee gets its judge (the engine, now that it holds the
    cards again), the open vote and the day's round back, and a night cut off by the
    restart goes on from the call it was at (`NightDesk.resume`); a night saved by
    an older narrator, which kept no night, cannot: the host's "go on" ends it."""
    referee = table.referee
    if referee is None:
        return
    referee.judge = table.judge() if table.engine is not None else referee.judge
    referee.ballot = dict(ballot)
    engine = table.engine
    if engine is not None and table.phase == "day" and table.rounds:
        referee.round = engine.round
    if engine is not None and table.phase == "night" and isinstance(night, dict):
        script = table.night_script()
        table.desk = NightDesk.resume(engine, script, table.lang, table.journal, night)


def check(table: Table) -> None:
    """A restored table's values fit together: every card a role of its game, every
    seat numbered in order and named once, every vote between seats that exist. A
    saved file edited by hand -- or by someone else -- is refused here, never answered
    with errors later. The secrets opened from a sealed game are checked again, the
    same way."""
    roles = set(table.ruleset.role_ids)
    indices = [p.seat for p in table.seats]
    seats = set(indices)

    need_saved(table.phase in PHASES, f"phase {table.phase!r}")
    need_saved(table.lang in table.ruleset.languages, f"language {table.lang!r}")
    need_saved(isinstance(table.night, int) and table.night >= 0, "night")
    need_saved(indices == list(range(len(indices))), "seat numbers")
    for player in table.seats:
        need_saved(isinstance(player.name, str) and bool(player.name), "a name")
        need_saved(isinstance(player.token_hash, str) and len(player.token_hash) == 64, "a token")
        need_saved(player.card is None or player.card in roles, f"the card {player.card!r}")
        need_saved(isinstance(player.alive, bool), "alive")
    need_saved(all(r in roles and n > 0 for r, n in table.roles.items()), "the deck")
    need_saved(all(c in roles for c in (*table.unseen, *table.removed)), "the cards aside")
    need_saved(all(v in seats and t in seats for v, t in table.ballot.items()), "the ballot")
    need_saved(all(s in seats for s in (*table.suspects, *table.night_out)), "the suspects")
    for ref in (table.last_out, table.last_arrested):
        need_saved(ref is None or ref in seats, "the last one out")
    need_saved(table.deadline is None or isinstance(table.deadline, int | float), "the deadline")
    need_saved(isinstance(table.room, str) and isinstance(table.seats.host_hash, str), "the room")
    need_saved(isinstance(table.seats.locked, bool), "locked")
    engine = table.engine
    if engine is not None:
        need_saved(len(engine.seats) == len(table.seats), "the engine's seats")
        need_saved(
            all(e.name == p.name for e, p in zip(engine.seats, table.seats, strict=True)),
            "the engine's players",
        )
        need_saved(table.dealt, "an engine without dealt cards")
    for seat, lines in table.journal.items():
        need_saved(seat in seats and isinstance(lines, list), "a journal")
