"""Who dies in One Night's vote and who wins, from the cards (seeds 000, 001, 003, 004).

One Night is judged by the engine (`narrator.moderator`) from the ruleset's
`outcome:` rules, on the cards as they are after the night: with the phones' deal,
on the table's own engine (`judge`), so what lies beside the cards counts too. The
many-night games are judged by the table's own engine (`Flow._check_end`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from narrator.moderator import Game
from narrator.rules import Ruleset
from narrator.table.results import Winners
from narrator.table.seats import SeatIndex


@dataclass(frozen=True, slots=True)
class VoteEnd:
    """A vote of everyone at once, judged by the ruleset's `outcome` (the engine)."""

    dead: tuple[SeatIndex, ...]  # killed by the vote
    shot: tuple[SeatIndex, ...]  # killed by a death's power (the Hunter's shot)
    winners: Winners


def countdown(
    ruleset: Ruleset,
    cards: Mapping[SeatIndex, str],
    centre: Sequence[str],
    ballot: Mapping[SeatIndex, SeatIndex],
) -> VoteEnd:
    """One Night after the vote: who dies and who wins, by the ruleset's own rules.

    `cards` are the cards in front of the players now (seat -> role), `centre` the
    cards not dealt, `ballot` voter seat -> target seat. The engine applies the vote
    rule, what a death does (the Hunter) and the ordered win rules of `outcome:`.
    """
    seats = sorted(cards)
    index = {seat: i for i, seat in enumerate(seats)}
    game = Game.deal(ruleset, [str(s) for s in seats], [cards[s] for s in seats], list(centre))
    return judge(
        game,
        {
            SeatIndex(index[v]): SeatIndex(index[t])
            for v, t in ballot.items()
            if v in index and t in index
        },
        seats,
    )


def judge(
    game: Game, ballot: Mapping[SeatIndex, SeatIndex], seats: Sequence[SeatIndex] | None = None
) -> VoteEnd:
    """One Night's vote on the table's own engine, as the night left it: the cards and
    what lies beside them (an artifact, a mark, a side) count, not only the cards'
    names. `seats` names the engine's seats (by default, as they are)."""
    named = list(seats) if seats is not None else [SeatIndex(i) for i in range(len(game.seats))]
    game.vote({int(v): int(t) for v, t in ballot.items()})
    deaths = [(named[e.seat], e.why) for e in game.log if e.kind == "death" and e.seat is not None]
    dead = tuple(sorted(seat for seat, why in deaths if why == "vote"))
    shot = tuple(sorted(seat for seat, why in deaths if why != "vote"))
    teams, winners = game.winners()
    return VoteEnd(
        dead, shot, Winners(tuple(sorted(teams)), tuple(sorted(named[i] for i in winners)))
    )
