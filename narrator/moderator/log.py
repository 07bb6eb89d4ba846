"""The game's log: append-only, one `Entry` per thing that happened.

Who acted, on whom, what they saw, what changed, why each player died. An entry
with `to` set is private: only that seat may be shown it (its journal); the others
are what the whole table may hear. Entries hold places and role ids, never words:
`words.py` says them in the game's language. A target is a typed place
(`board.Place`: a seat or centre card, 0-based); the entry's JSON (`to_dict`: the
saved game, `narrator replay --format json`) writes it in its text form, `seat:N`,
`centre:K` (1-based), as it always has.

The kinds are a closed set (`Kind`), and so are the reasons a player leaves the
game (`Cause`): a saved game holding anything else is refused as tampered.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, cast, get_args

from narrator.moderator.board import Place, parse_place, place_id

Kind = Literal[
    # a call of the night (private to the actor unless said otherwise)
    "chose",  # what the player answered (replayed by `to_scenario`; never said)
    "nothing",  # the player did nothing at the call
    "see",  # cards looked at: `targets`, `cards` (a card's face: a copy is not seen)
    "swap",  # two cards changed places
    "swap_own",  # the actor's card changed places with the target
    "copy",  # the actor looked at a card and became its role (`cards`)
    "know",  # who else acts as the role's kind (the pack, the Masons)
    "shield",  # the picked card can no longer move or be looked at
    "rotate",  # every other card moved one seat (`targets`: the direction)
    "reveal",  # public: a card lies face up at dawn
    "learn",  # whether the target matches the question (`why`: yes or no)
    "pick",  # a group member's pick, which may change until the call ends
    "agreed",  # the group's one target, told to each member
    "disagreed",  # the group agreed on nobody
    "struck",  # who a kill waiting for dawn has struck (the Healer learns it)
    "protect",  # the actor's choice, applied at dawn
    "kill",
    "arrest",
    "become",  # the actor's card is now the role seen (`cards`): the P.I.'s
    "ally",  # the actor's card sides with the team `why` (Nostradamus's)
    "artifact",  # the actor put an artifact, unseen, on the target's card
    "found",  # the holder looked at the artifact on their card (`cards`)
    "mark",  # the actor gave the mark `cards` to `targets`
    "aura",  # who raised a thumb: they looked at or moved a card (`targets`)
    "tap",  # the actor tapped the shoulder of `targets`, on their side `why`
    "tapped",  # `seat` felt a tap from `targets`, sitting on their side `why`
    "see_mark",  # marks looked at: `targets`, `cards` (mark ids; "" for none)
    "swap_mark",  # the marks in front of two players changed places
    "recruit",  # the actor made `targets` the role `cards` (the aliens' new alien)
    "recruited",  # to the player made the role `cards`, whatever their card
    "passed",  # the actor handed their card to `targets`, on their side `why`
    "reach",  # the players the card in front of `seat` reaches (the Blob's body)
    "fist",  # whether someone tapped the actor's fist (`why`: yes, no)
    "bumped",  # `seat` tapped the fist `targets` held out, on their side `why`
    "reply",  # the actor's answer to the call's question (`why`: the word)
    # the night, for the table
    "sides",  # public: a card of the step's role sides with the team `why`
    "replied",  # public: the answer given at the step's call (`why`), told at dawn
    # the dawn and the day (public)
    "arrested",  # a player arrested in the night: alive, out of play
    "death",  # `seat` died (`why`: a Cause; `targets`: who shot them)
    "nobody_dies",  # nobody died (`why`: a Cause, night or vote)
    "vote",  # One Night's vote: voter `seat`, target in `targets` (none: abstained)
    "accuse",  # an accusation, as a vote
    "suspects",  # who the accusation made suspects (`targets`)
    "ballot",  # a vote of the ballot
    "turned",  # the vote turned `seat` into the role `cards` (the Cursed)
    "spared",  # the vote could not put `seat` to death (`why`: uncounted or shielded)
    # rounds of turns (Secret Moon; `night` is the round)
    "turn",  # `seat` took the action `why` on `targets` (a role named: `cards`)
    "answer",  # `seat` answered aloud: the action's answer number `why`
    "accuse_role",  # the role named was right or not (`why`: true or false)
    "hide",
    "disturb",
    "captured",  # `seat` is out of the game, captured by `targets`
    "shown",  # a card shown to everyone (`cards`)
    "rounds_over",  # the last round has been played
]
KINDS: tuple[str, ...] = get_args(Kind)


class Cause(StrEnum):
    """Why a player left the game (a `death` entry's `why`), or what killed nobody
    (a `nobody_dies` entry's)."""

    NIGHT = "night"  # the night's kill, at dawn
    VOTE = "vote"  # the day's vote, accusation or ballot
    SHOT = "shot"  # taken down by a dying player (the Hunter's vote)
    REMOVED = "removed"  # taken out by the table's host: a player who left
    LAST_TWO = "last_two"  # two left and nobody killed: the lower in the ranking (Wherewolf)
    TOGETHER = "together"  # dies because `targets` died (the Lovers' `together` of the vote)


@dataclass(frozen=True, slots=True)
class Entry:
    night: int  # the night, or the day after it; a turn: its round
    step: str  # the call's id ("n1.3"), a turn's ("r1.2"), "day", or ""
    role: str  # the role acted as (a death: the card the player held)
    kind: Kind
    seat: int | None  # 0-based: who acted, voted or died
    targets: tuple[Place, ...] = ()  # seats and centre cards (0-based), or a word
    cards: tuple[str, ...] = ()  # role ids seen, copied, or held by the dead
    to: int | None = None  # private to this seat; None: the table's
    why: str = ""  # a death: a Cause; learn: yes/no; a turn: the action

    @property
    def cause(self) -> Cause | None:
        """A death's reason, or what killed nobody; None for other entries."""
        return Cause(self.why) if self.kind in ("death", "nobody_dies") else None

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON data (saved with every change of a game: kept cheap)."""
        return {
            "night": self.night,
            "step": self.step,
            "role": self.role,
            "kind": self.kind,
            "seat": self.seat,
            "targets": [place_id(t) for t in self.targets],
            "cards": list(self.cards),
            "to": self.to,
            "why": self.why,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entry:
        """The entry `to_dict` wrote; a saved game from before one log kind said
        "nobody died" (`nobody_died` at dawn, `nobody_dies` at the vote) reads as
        today's. An unknown kind or cause raises ValueError: a tampered save."""
        kind, why = str(data["kind"]), str(data.get("why", ""))
        if kind == "nobody_died":
            kind, why = "nobody_dies", Cause.NIGHT
        elif kind == "nobody_dies" and not why:
            why = Cause.VOTE
        if kind not in KINDS:
            raise ValueError(f"{kind!r} is not a kind of the log")
        if kind in ("death", "nobody_dies"):
            why = Cause(why)  # ValueError: a reason the engine never gives
        return cls(
            night=int(data["night"]),
            step=str(data["step"]),
            role=str(data["role"]),
            kind=cast(Kind, kind),
            seat=None if data["seat"] is None else int(data["seat"]),
            targets=tuple(parse_place(str(t)) for t in data["targets"]),
            cards=tuple(str(c) for c in data["cards"]),
            to=None if data["to"] is None else int(data["to"]),
            why=str(why),
        )
