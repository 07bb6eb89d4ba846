"""The Vampire box's marks: a look at a mark, a swap of marks, and the fear they keep.

A mark lies face down in front of a player (`Tokens.marks`); a Mark of Clarity for
everyone at the deal when a mark's role is in the game, then the marks the dusk's
roles give. A power `of: mark` looks at or swaps the marks instead of the cards
(`effects.see`, `swap`... hand over to these): the Marksman's look at a mark, the
Pickpocket's swap and look, the Gremlin's swap, the whole table's look at its own
mark at the end of dusk. A mark is no card: the Sentinel's shield does not guard it.

A player who looks at their own mark and finds one that keeps them asleep (a token
with `wakes: false`: the Mark of Fear) does no night action from then on -- fixed by
what they saw (the Vampire rulebook ties the ban to the look): a mark moved onto
them later, unseen, binds nobody, and one moved away frees nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.moderator import sides
from narrator.moderator.board import Place

if TYPE_CHECKING:
    from narrator.moderator.effects import Act
    from narrator.moderator.game import Game


def look(game: Game, act: Act, places: tuple[Place, ...]) -> None:
    """The actor learns the marks in front of the players at `places` (none: "")."""
    marks = [game.tokens.marks.get(place.index, "") for place in places]
    for seat in act.actors:
        game.record(act.step, seat, "see_mark", targets=places, cards=marks, private=True)
    own = places == (Place.seat(act.seat),)
    if own and marks[0] and not sides.token(game, marks[0]).wakes:
        game.tokens.asleep.add(act.seat)


def swap(game: Game, act: Act, a: Place, b: Place) -> None:
    """The marks in front of two players change places (a player with none gets none)."""
    marks = game.tokens.marks
    first, second = marks.pop(a.index, None), marks.pop(b.index, None)
    if second is not None:
        marks[a.index] = second
    if first is not None:
        marks[b.index] = first
    game.record(act.step, act.seat, "swap_mark", targets=[a, b], private=True)
