"""The game's log: append-only, one `Entry` per thing that happened.

Who acted, on whom, what they saw, what changed, why each player died. An entry
with `to` set is private: only that seat may be shown it (its journal); the others
are what the whole table may hear. Entries hold ids (`seat:N`, `centre:K`, role
ids), never words: `words.py` says them in the game's language.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Entry:
    night: int
    step: str  # the call's id ("n1.3"), or "day"
    role: str  # the role acted as (a death: the card the player held)
    # chose (what the player answered), see, swap, swap_own, copy, know, nothing,
    # vote, death, nobody_dies
    kind: str
    seat: int | None  # 0-based: who acted, voted or died
    targets: tuple[str, ...] = ()  # option ids: seat:N, centre:K (1-based)
    cards: tuple[str, ...] = ()  # role ids seen, copied, or held by the dead
    to: int | None = None  # private to this seat; None: the table's
    why: str = ""  # a death: vote, shot

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["targets"] = list(self.targets)
        data["cards"] = list(self.cards)
        return data
