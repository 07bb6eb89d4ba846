"""The phones' own counting of a vote: One Night's countdown with physical cards.

Seats are `SeatIndex`es, going clockwise round the table (the order players joined
in, unless the host changes it). A vote maps the voter's seat to the target's seat;
a player who did not vote by the deadline is simply absent (abstains).

One Night (`countdown`, seed 004): everyone points at the same moment; the most
votes die, every player tied for the most dies, and if nobody has more than one
vote nobody dies. With dealt cards the engine judges that vote, the Hunter's shot
included (`outcome.countdown`). The days of accusation and ballot (Lupus, Mafia,
Wherewolf) are counted by the ruleset's `outcome.vote` in one place,
`narrator.moderator.votes`, for dealt and physical cards alike.
"""

from __future__ import annotations

from collections.abc import Mapping

from narrator.moderator.votes import most_voted
from narrator.rules.powers import VoteRule
from narrator.table.seats import SeatIndex

Votes = Mapping[SeatIndex, SeatIndex]  # voter -> target
SEED_MIN_VOTES = 2  # seed 004: nobody dies unless someone has more than one vote


def countdown_dead(votes: Votes, rule: VoteRule | None = None) -> list[SeatIndex]:
    """One Night with physical cards: who the vote kills (the most votes, every one
    tied), counted by the ruleset's simultaneous `rule` as the engine counts it with
    dealt cards; by the seed's (nobody without two) for a ruleset that states none."""
    min_votes = rule.min_votes if rule is not None else SEED_MIN_VOTES
    counted: dict[int, int | None] = {v: t for v, t in votes.items()}
    return [SeatIndex(s) for s in most_voted(counted, min_votes)]
