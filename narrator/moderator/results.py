"""What a closed vote showed and who won: typed values on seat indices.

The referee (`referee.py`) keeps the last closed vote (`Result`: everyone's vote at
once, an accusation, a verdict) and, at the end, the winners, as frozen values on
`SeatIndex`es (0-based). The phones' table shows them and keeps them in its saved
game in their JSON form (`table.results`: display numbers, `"2": 3` is seat 2's vote
for seat 3), the one place that writes and reads that form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from narrator.moderator.board import SeatIndex

Votes = Mapping[SeatIndex, SeatIndex]  # voter -> target
Counts = Mapping[SeatIndex, int]  # a suspect -> how many votes


@dataclass(frozen=True, slots=True)
class Winners:
    """Who won: the team ids, and every seat that wins (the dead too: a whole side)."""

    teams: tuple[str, ...]
    seats: tuple[SeatIndex, ...]


@dataclass(frozen=True, slots=True)
class VoteResult:
    """Everyone's vote at once (One Night): who voted for whom is shown."""

    votes: Votes
    dead: tuple[SeatIndex, ...]
    shot: tuple[SeatIndex, ...] = ()  # taken along by a death's power (the Hunter)


@dataclass(frozen=True, slots=True)
class AccusationResult:
    """An accusation's counts; who accused whom when the ruleset's round is open
    (None: secret); the suspects once named (None: nobody is, the day goes to the
    verdict at once)."""

    counts: Counts
    votes: Votes | None = None
    suspects: tuple[SeatIndex, ...] | None = None


@dataclass(frozen=True, slots=True)
class VerdictResult:
    """Who leaves by the day's vote (None: nobody), the ballot's counts per suspect,
    and who voted for whom when the ballot is open (None: secret)."""

    counts: Counts
    condemned: SeatIndex | None
    suspects: tuple[SeatIndex, ...]
    votes: Votes | None = None


Result = VoteResult | AccusationResult | VerdictResult
