"""A game saved as plain JSON data between two calls, and read back.

What the table keeps of the engine in its sealed save. The format is the one saved
games already hold (the keys below); a game saved before the log had one kind for
"nobody died" reads as today's (`Entry.from_dict`). What a night's open call holds
-- its picks, its pending dawn -- is not kept: a night cut off by a restart is lost,
and the table plays the next one. The turns of a round are read back from the log.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from narrator.moderator.board import Card, Place, Seat
from narrator.moderator.day import Day
from narrator.moderator.log import Entry
from narrator.moderator.rounds import Rounds
from narrator.moderator.sides import Tokens
from narrator.rules.model import Ruleset

if TYPE_CHECKING:
    from narrator.moderator.game import Game


def snapshot(game: Game) -> dict[str, Any]:
    """The game as plain JSON data."""
    day, rounds = game.day, game.rounds
    return {
        "seats": [
            {
                "name": s.name,
                **_card(s.card),
                "dealt": s.dealt,
                "acts_as": s.acts_as,
                "alive": s.alive,
                "free": s.free,
            }
            for s in game.seats
        ],
        "centre": [_card(c) for c in game.centre],
        "options": sorted(game.options),
        "night": game.night,
        "dead_order": list(game.dead_order),
        "shielded": sorted(game.shielded),
        "tombstone": day.tombstone,
        "executed": day.executed,
        "last_arrested": day.last_arrested,
        "suspects": list(day.suspects),
        "round": rounds.number,
        "revealed": sorted(rounds.revealed),
        "hidden": sorted(rounds.hidden),
        "disturbed": sorted(rounds.disturbed),
        "rounds_over": rounds.over,
        "spent": sorted([seat, key] for seat, key in game.spent),
        "marks": {str(i): m for i, m in game.tokens.marks.items()},
        "artifacts": {str(i): a for i, a in game.tokens.artifacts.items()},
        "stack": list(game.tokens.stack),
        "turned": {str(i): r for i, r in game.tokens.turned.items()},
        "asleep": sorted(game.tokens.asleep),
        "drawn": list(game.drawn),
        "seed": game.seed,
        "log": [e.to_dict() for e in game.log],
    }


def _card(card: Card) -> dict[str, Any]:
    """A card's fields; the spare card's, an ally's and a reach only when set (older
    saves)."""
    out: dict[str, Any] = {"role": card.role, "copied": card.copied}
    if card.spare:
        out["spare"] = True
    if card.ally:
        out["ally"] = card.ally
    if card.reach != (0, 0):
        out["reach"] = list(card.reach)
    return out


def restore(
    cls: type[Game], ruleset: Ruleset, data: dict[str, Any], rng: random.Random | None = None
) -> Game:
    """The game `snapshot` wrote. A value of the wrong kind, or a role this ruleset
    does not have, raises (ValueError, TypeError, KeyError): a tampered save."""

    def role(value: Any) -> str:
        ruleset.role(str(value))  # KeyError: not a role of this game
        return str(value)

    def card(d: dict[str, Any]) -> Card:
        ally = str(d.get("ally", ""))
        if ally and ally not in [t for t, _ in ruleset.teams]:
            raise ValueError(f"{ally!r} is not a team of this game")
        left, right = (int(n) for n in d.get("reach", (0, 0)))
        return Card(
            role(d["role"]),
            None if d["copied"] is None else role(d["copied"]),
            spare=bool(d.get("spare", False)),
            ally=ally,
            reach=(left, right),
        )

    def token(value: Any, kind: str) -> str:
        if not any(t.id == value and t.kind == kind for t in ruleset.tokens):
            raise ValueError(f"{value!r} is not a {kind} of this game")
        return str(value)

    def seat_no(value: Any) -> int:
        n = int(value)
        if not 0 <= n < len(data["seats"]):
            raise ValueError(f"seat {n} is not at this table")
        return n

    def place(value: Any) -> Place:
        kind, index = value
        if kind not in ("seat", "centre"):
            raise ValueError(f"{kind!r} is not a place")
        return (str(kind), int(index))

    def maybe(value: Any) -> int | None:
        return None if value is None else seat_no(value)

    seats = [
        Seat(
            str(d["name"]),
            card(d),
            role(d["dealt"]),
            None if d["acts_as"] is None else role(d["acts_as"]),
            bool(d["alive"]),
            bool(d["free"]),
        )
        for d in data["seats"]
    ]
    return cls(
        ruleset,
        seats,
        [card(d) for d in data["centre"]],
        options=frozenset(str(o) for o in data["options"]),
        rng=rng or random.Random(0),
        log=[Entry.from_dict(e) for e in data["log"]],
        night=int(data["night"]),
        dead_order=[seat_no(i) for i in data["dead_order"]],
        shielded={seat_no(i) for i in data["shielded"]},
        spent={(seat_no(i), str(key)) for i, key in data.get("spent", [])},
        day=Day(
            tombstone=maybe(data["tombstone"]),
            executed=maybe(data["executed"]),
            last_arrested=maybe(data["last_arrested"]),
            suspects=[seat_no(i) for i in data["suspects"]],
        ),
        rounds=Rounds(
            number=int(data["round"]),
            revealed={place(p) for p in data["revealed"]},
            hidden={place(p) for p in data["hidden"]},
            disturbed={seat_no(i) for i in data["disturbed"]},
            over=bool(data["rounds_over"]),
        ),
        drawn=[str(d) for d in data.get("drawn", [])],
        seed=None if data.get("seed") is None else int(data["seed"]),
        tokens=Tokens(
            marks={seat_no(i): token(m, "mark") for i, m in data.get("marks", {}).items()},
            artifacts={
                seat_no(i): token(a, "artifact") for i, a in data.get("artifacts", {}).items()
            },
            stack=[token(a, "artifact") for a in data.get("stack", [])],
            turned={seat_no(i): role(r) for i, r in data.get("turned", {}).items()},
            asleep={seat_no(i) for i in data.get("asleep", [])},
        ),
    )
