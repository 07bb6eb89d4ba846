"""What lies on the table: cards, seats, the night's calls, a player's choice.

Plain values, shared by every part of the engine (`night`, `day`, `rounds`,
`effects`): no rule is applied here. Seats are 0-based in the engine; a prompt's
options name them `seat:N` and the centre's cards `centre:K`, 1-based, as the
phones and the log do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from narrator.rules.powers import Pick

# A place a card lies: ("seat", i) or ("centre", k), 0-based; a word picked by name
# (the Village Idiot's "left") is (word, -1).
Place = tuple[str, int]


class MoveError(ValueError):
    """A command the rules do not allow (a choice the role cannot make, a dead voter)."""


@dataclass(slots=True)
class Card:
    """One physical card. A copy (the Doppelganger's) stays with the card when it moves:
    whoever looks at the card sees its `role`; for waking and winning it counts as its
    `identity`, the role copied."""

    role: str
    copied: str | None = None
    spare: bool = False  # a role's spare card (the Alpha Wolf's), not of the deck
    ally: str = ""  # the team its holder wins beside, not as one of them (Nostradamus)
    # how many players it reaches to its left and its right, from wherever it lies (the
    # Blob's body, the Mortician's neighbours: a seat rule's `reach_dead`)
    reach: tuple[int, int] = (0, 0)

    @property
    def identity(self) -> str:
        return self.copied or self.role


@dataclass(slots=True)
class Seat:
    name: str
    card: Card
    dealt: str
    acts_as: str | None  # whose calls this seat answers tonight
    alive: bool = True
    free: bool = True  # False: arrested or captured (alive, out of play)


@dataclass(frozen=True, slots=True)
class Step:
    """One call of the night that lets someone act: `id` is the same on every phone.
    A turn of Secret Moon's rounds is a step too ("r2.3": round 2, its third turn)."""

    id: str
    role: str
    night: int
    turn: int = 0  # which of the role's calls (0 its own, 1.. its extra turns)


@dataclass(frozen=True, slots=True)
class Prompt:
    """What one seat may choose now: option ids `seat:N` and `centre:K` (1-based)."""

    step: str
    ability: str
    role: str
    min: int
    max: int
    options: tuple[str, ...]
    picks: tuple[Pick, ...]

    def fits(self, choice: Sequence[str]) -> bool:
        """`choice` is one of the ways to answer: a pick's number of players and of
        centre cards, or one of a pick's words. The table checks every phone's answer
        with this, the engine every real one: the same answer is refused alike."""
        seats = sum(o.startswith("seat:") for o in choice)
        centre = sum(o.startswith("centre:") for o in choice)
        named = [o for o in choice if not o.startswith(("seat:", "centre:"))]
        for p in self.picks:
            if p.named:
                if (seats, centre, len(named)) == (0, 0, 1) and named[0] in p.named:
                    return True
            elif not named and (seats, centre) == (p.players, p.centre):
                return True
        return False


def option_id(place: Place) -> str:
    """A place as the log and the phones name it: `seat:2`, `centre:1`, or the word."""
    return place[0] if place[1] < 0 else f"{place[0]}:{place[1] + 1}"


def place_of(option: str) -> Place:
    """An option id back as a place (`seat:2` -> ("seat", 1)); a word is (word, -1)."""
    kind, _, number = option.partition(":")
    return (kind, int(number) - 1) if number else (option, -1)


def pick_words(pick: Pick) -> str:
    """A way to answer in words, for a refusal: "1 other player(s)"."""
    if pick.named:
        return " or ".join(pick.named)
    if pick.players:
        return f"{pick.players} other player(s)" if pick.other else f"{pick.players} player(s)"
    return f"{pick.centre} centre card(s)"
