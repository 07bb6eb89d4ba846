"""What lies on the table: cards, seats, the night's calls, a player's choice.

Plain values, shared by every part of the engine (`night`, `day`, `rounds`,
`effects`): no rule is applied here.

**One numbering: typed places.** A seat is a `SeatIndex` (0-based, clockwise), a
card's place a `Place` -- `Place.seat(i)`, `Place.centre(k)` (0-based too) or
`Place.word(w)`, a word picked by name (the Village Idiot's "left") -- everywhere
in the engine: its prompts' options, the choices it is given, its log's targets.
The text form the players' pages, the saved games and the scenario files use
(`seat:N`, `centre:K`, 1-based, or the word) is made by `place_id` and read by
`parse_place`, here, for those boundaries only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NewType

from narrator.i18n.phrase import Phrase, say
from narrator.rules.powers import Ability, Pick

SeatIndex = NewType("SeatIndex", int)  # 0-based: the first player to sit is 0


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Where a card lies: ("seat", i) or ("centre", k), 0-based; a word picked by
    name is (word, -1). Made with `Place.seat(i)`, `Place.centre(k)`, `Place.word(w)`."""

    kind: str
    index: int

    @classmethod
    def seat(cls, index: int) -> Place:
        """Seat `index` (0-based)."""
        return cls("seat", index)

    @classmethod
    def centre(cls, index: int) -> Place:
        """Centre card `index` (0-based)."""
        return cls("centre", index)

    @classmethod
    def word(cls, text: str) -> Place:
        """A word picked by name (`left`, `right`)."""
        return cls(text, -1)

    @property
    def is_seat(self) -> bool:
        return self.kind == "seat"

    @property
    def is_centre(self) -> bool:
        return self.kind == "centre"

    @property
    def is_word(self) -> bool:
        return self.index < 0


@dataclass(frozen=True, slots=True)
class Verb:
    """A day's action named in a refusal ("cannot capture"): in English its id, a
    verb; in another language its label, as the phone's button says it."""

    action: Ability

    def get(self, lang: str) -> str:
        label = self.action.label
        return self.action.id if lang == "en" or label is None else label.get(lang)


class MoveError(ValueError):
    """A command the rules do not allow (a choice the role cannot make, a dead voter).
    str() is the English (the command line, `narrator replay`); a phone shows
    `say(lang)`, the same refusal in its table's language."""

    def __init__(self, said: Phrase | str) -> None:
        super().__init__(str(said))
        self.said = said

    def say(self, lang: str) -> str:
        return say(self.said, lang)


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
    """What one seat may choose now: places (seats, centre cards, words), and
    for a turn that names a role (an accusation) the roles it may name."""

    step: str
    ability: str
    role: str
    min: int
    max: int
    options: tuple[Place, ...]
    picks: tuple[Pick, ...]
    roles: tuple[str, ...] = ()  # role ids a turn may name (Secret Moon's accusation)

    def fits(self, choice: Sequence[Place]) -> bool:
        """`choice` is one of the ways to answer: a pick's number of players and of
        centre cards, or one of a pick's words. The table checks every phone's answer
        with this, the engine every real one: the same answer is refused alike."""
        seats = sum(p.is_seat for p in choice)
        centres = sum(p.is_centre for p in choice)
        named = [p.kind for p in choice if p.is_word]
        for p in self.picks:
            if p.named:
                if (seats, centres, len(named)) == (0, 0, 1) and named[0] in p.named:
                    return True
            elif not named and (seats, centres) == (p.players, p.centre):
                return True
        return False


def place_id(place: Place) -> str:
    """A place in its text form (the pages, the saved log, the scenario files):
    `seat:2`, `centre:1` (1-based), or the word."""
    return place.kind if place.is_word else f"{place.kind}:{place.index + 1}"


def parse_place(text: str) -> Place:
    """The place `place_id` wrote (`seat:2` -> Place.seat(1)); any other text is a word.
    ValueError: a seat or centre card that is no number, or not above 0."""
    kind, colon, number = text.partition(":")
    if not colon:
        return Place.word(text)
    if kind not in ("seat", "centre") or not number.isdigit() or int(number) < 1:
        raise ValueError(f"{text!r} is not a place")
    return Place(kind, int(number) - 1)


def pick_words(pick: Pick) -> Phrase | str:
    """A way to answer in words, for a refusal: "1 other player(s)" (the English
    says both numbers alike; a language with its own plurals, each)."""
    if pick.named:
        return either(list(pick.named))
    if pick.players and pick.other:
        return Phrase.counted("{n} other player(s)", "{n} other player(s)", pick.players)
    if pick.players:
        return Phrase.counted("{n} player(s)", "{n} player(s)", pick.players)
    return Phrase.counted("{n} centre card(s)", "{n} centre card(s)", pick.centre)


def either(ways: Sequence[Phrase | str]) -> Phrase | str:
    """The ways to answer as one, "a or b or c", in a refusal's language."""
    said, *rest = ways
    for way in rest:
        said = Phrase("{a} or {b}", a=said, b=way)
    return said
