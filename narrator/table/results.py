"""What a closed vote showed, and what the end reveals: typed values, and their JSON.

The referee keeps the last closed vote (`Result`: One Night's vote, an accusation, a
verdict: `moderator.results`) and the winners; the table, at the end, every card
(`Reveal`), as frozen values on seat indices (`SeatIndex`, 0-based). The pages and
the saved file read them as JSON with display numbers (`"2": 3` is seat 2's vote
for seat 3): `to_json` and `from_json` are the one place that writes and reads that
form, so the page's JSON and the saved game's are the same and stay so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from narrator.moderator.results import (
    AccusationResult,
    Counts,
    Result,
    VerdictResult,
    VoteResult,
    Votes,
    Winners,
)
from narrator.table.seats import SeatIndex, index_of, number

__all__ = [
    "AccusationResult",
    "Result",
    "Reveal",
    "VerdictResult",
    "VoteResult",
    "Winners",
    "result_from_json",
    "result_json",
    "reveal_from_json",
    "reveal_json",
]


@dataclass(frozen=True, slots=True)
class Reveal:
    """The end: every card as it ends (`cards`) and as dealt (`dealt`), the cards aside
    after the night (`unseen`) and as dealt, those removed unseen, the winners, and
    whether anyone judged them (False: the host ended a game nobody could judge)."""

    cards: Mapping[SeatIndex, str]
    dealt: Mapping[SeatIndex, str | None]
    unseen: tuple[str, ...]
    unseen_dealt: tuple[str, ...]
    removed: tuple[str, ...]
    winners: Winners
    judged: bool
    # what lies beside a player's card at the end: its artifact, their mark (ids)
    tokens: Mapping[SeatIndex, tuple[str, ...]] = field(default_factory=dict)


# -- the JSON the pages read and the saved game keeps --------------------------------


def _votes(votes: Votes) -> dict[str, int]:
    return {str(number(v)): number(t) for v, t in votes.items()}


def _counts(counts: Counts) -> dict[str, int]:
    return {str(number(s)): n for s, n in counts.items()}


def _numbers(seats: Sequence[SeatIndex]) -> list[int]:
    return [number(s) for s in seats]


def result_json(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    if isinstance(result, VoteResult):
        return {
            "kind": "vote",
            "votes": _votes(result.votes),
            "dead": _numbers(result.dead),
            "shot": _numbers(result.shot),
        }
    if isinstance(result, AccusationResult):
        out: dict[str, Any] = {"kind": "accusation", "counts": _counts(result.counts)}
        if result.votes is not None:
            out["votes"] = _votes(result.votes)
        if result.suspects is not None:
            out["suspects"] = _numbers(result.suspects)
        return out
    out = {
        "kind": "verdict",
        "counts": _counts(result.counts),
        "condemned": None if result.condemned is None else number(result.condemned),
        "suspects": _numbers(result.suspects),
    }
    if result.votes is not None:
        out["votes"] = _votes(result.votes)
    return out


def reveal_json(reveal: Reveal | None) -> dict[str, Any] | None:
    if reveal is None:
        return None
    return {
        "cards": {str(number(s)): card for s, card in reveal.cards.items()},  # after the night
        "dealt": {str(number(s)): card for s, card in reveal.dealt.items()},  # as dealt
        "unseen": list(reveal.unseen),
        "unseen_dealt": list(reveal.unseen_dealt),
        "removed": list(reveal.removed),
        "winners": {"teams": list(reveal.winners.teams), "seats": _numbers(reveal.winners.seats)},
        "judged": reveal.judged,
        "tokens": {str(number(s)): list(t) for s, t in reveal.tokens.items()},
    }


# Read back from a saved game: a value of the wrong shape raises (KeyError, TypeError,
# ValueError), which the loader turns into its one line.


def _seat(value: object) -> SeatIndex:
    if isinstance(value, str):
        value = int(value)
    return index_of(value)


def _seats(values: object) -> tuple[SeatIndex, ...]:
    if not isinstance(values, list):
        raise TypeError("a list of seats")
    return tuple(_seat(v) for v in values)


def _pairs(data: object) -> dict[SeatIndex, SeatIndex]:
    if not isinstance(data, dict):
        raise TypeError("an object of votes")
    return {_seat(v): _seat(t) for v, t in data.items()}


def _tally(data: object) -> dict[SeatIndex, int]:
    if not isinstance(data, dict) or not all(isinstance(n, int) for n in data.values()):
        raise TypeError("an object of counts")
    return {_seat(s): n for s, n in data.items()}


def _strings(data: object) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
        raise TypeError("a list of cards")
    return tuple(data)


def result_from_json(data: object) -> Result | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise TypeError("a result")
    kind = data["kind"]
    if kind == "vote":
        return VoteResult(_pairs(data["votes"]), _seats(data["dead"]), _seats(data["shot"]))
    votes = _pairs(data["votes"]) if "votes" in data else None
    if kind == "accusation":
        suspects = _seats(data["suspects"]) if "suspects" in data else None
        return AccusationResult(_tally(data["counts"]), votes, suspects)
    if kind == "verdict":
        condemned = data["condemned"]
        return VerdictResult(
            _tally(data["counts"]),
            None if condemned is None else _seat(condemned),
            _seats(data["suspects"]),
            votes,
        )
    raise ValueError(f"a result of kind {kind!r}")


def reveal_from_json(data: object) -> Reveal | None:
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data["judged"], bool):
        raise TypeError("a reveal")
    cards, dealt, winners = data["cards"], data["dealt"], data["winners"]
    if not (isinstance(cards, dict) and isinstance(dealt, dict) and isinstance(winners, dict)):
        raise TypeError("a reveal")
    return Reveal(
        cards={_seat(s): str(c) for s, c in cards.items()},
        dealt={_seat(s): None if c is None else str(c) for s, c in dealt.items()},
        unseen=_strings(data["unseen"]),
        unseen_dealt=_strings(data["unseen_dealt"]),
        removed=_strings(data["removed"]),
        winners=Winners(_strings(winners["teams"]), _seats(winners["seats"])),
        judged=data["judged"],
        tokens={_seat(s): _strings(t) for s, t in dict(data.get("tokens", {})).items()},
    )
