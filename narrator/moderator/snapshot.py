"""A game saved as plain JSON data between two calls, and read back.

What the table keeps of the engine in its sealed save. The format is the one saved
games already hold (the keys below); a game saved before the log had one kind for
"nobody died" reads as today's (`Entry.from_dict`). The night being played is kept
too (`tonight`: which powers each seat has used, a copy acting at once, the call's
last pick, a group's picks and prompts, what waits for dawn), so a night cut off by
a restart goes on where it was; a game saved before it was kept reads with an empty
one. The turns of a round are read back from the log.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from narrator.moderator.board import Card, Place, Prompt, Seat, parse_place, place_id
from narrator.moderator.dawn import DAWN_EFFECTS, Pending
from narrator.moderator.day import DayMemory
from narrator.moderator.log import Entry
from narrator.moderator.night import Tonight
from narrator.moderator.rounds import RoundState
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
        "revealed": [[p.kind, p.index] for p in sorted(rounds.revealed)],
        "hidden": [[p.kind, p.index] for p in sorted(rounds.hidden)],
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
        "tonight": _tonight(game.tonight),
    }


def _prompt(prompt: Prompt) -> dict[str, Any]:
    return {
        "step": prompt.step,
        "ability": prompt.ability,
        "role": prompt.role,
        "min": prompt.min,
        "max": prompt.max,
        "options": [place_id(o) for o in prompt.options],
    }


def _tonight(t: Tonight) -> dict[str, Any]:
    return {
        "used": sorted([seat, sorted(keys)] for seat, keys in t.used.items()),
        "copying": sorted([seat, role] for seat, role in t.copying.items()),
        "last_pick": sorted([step, seat, place_id(p)] for (step, seat), p in t.last_pick.items()),
        "groups": sorted(
            [step, key, sorted([m, p] for m, p in picks.items())]
            for (step, key), picks in t.groups.items()
        ),
        "group_prompts": [
            [step, seat, _prompt(p)] for (step, seat), p in sorted(t.group_prompts.items())
        ],
        "dawn": [[p.effect, p.target, p.priority, p.by] for p in t.dawn],
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
        return Place(str(kind), int(index))

    def maybe(value: Any) -> int | None:
        return None if value is None else seat_no(value)

    def prompt(d: dict[str, Any]) -> Prompt:
        ability = next((a for a in abilities(role(d["role"])) if a.id == str(d["ability"])), None)
        if ability is None:
            raise KeyError(f"{d['role']!r} has no power {d['ability']!r}")
        return Prompt(
            step=str(d["step"]),
            ability=ability.id,
            role=str(d["role"]),
            min=int(d["min"]),
            max=int(d["max"]),
            options=tuple(parse_place(str(o)) for o in d["options"]),
            picks=ability.picks,
        )

    def abilities(role_id: str) -> tuple[Any, ...]:
        powers = ruleset.role(role_id).powers
        return powers.abilities if powers else ()

    def pending(effect: Any, target: Any, priority: Any, by: Any) -> Pending:
        if effect not in DAWN_EFFECTS:
            raise ValueError(f"{effect!r} does not wait for dawn")
        return Pending(effect, seat_no(target), int(priority), maybe(by))

    t = data.get("tonight") or {}  # a game saved before the night was kept: empty
    tonight = Tonight(
        used={seat_no(i): {str(k) for k in keys} for i, keys in t.get("used", [])},
        copying={seat_no(i): role(r) for i, r in t.get("copying", [])},
        last_pick={
            (str(st), seat_no(i)): parse_place(str(p)) for st, i, p in t.get("last_pick", [])
        },
        groups={
            (str(st), str(key)): {seat_no(m): seat_no(p) for m, p in picks}
            for st, key, picks in t.get("groups", [])
        },
        group_prompts={(str(st), seat_no(i)): prompt(p) for st, i, p in t.get("group_prompts", [])},
        dawn=[pending(*p) for p in t.get("dawn", [])],
    )
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
        tonight=tonight,
        day=DayMemory(
            tombstone=maybe(data["tombstone"]),
            executed=maybe(data["executed"]),
            last_arrested=maybe(data["last_arrested"]),
            suspects=[seat_no(i) for i in data["suspects"]],
        ),
        rounds=RoundState(
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
