"""The night on the engine: what the players at a call learn, may choose, and do --
their choices applied through the effects' registry (`effects.py`). Which calls there
are and who answers each is `calls.py`. What a player learns is written in the log,
addressed to that seat only.

A copy that acts at once (the Doppelganger who copied the Seer, the Robber, the
Mystic Wolf) does in her own call every power of the copied role that picks or looks
at her own card -- whichever of the role's calls it belongs to -- and answers the
role's calls from then on only for what she has not done: meeting the others
(`know`: the Mystic Wolf's pack) and the lone wolf's look (`alone`) wait for the call
where they are awake. A role in the copy power's `later` she plays at its own call,
after its holders.

A power may `stop` the actor's night as that role: a look at a card matching it
spends the role's other powers that pick (the Paranormal Investigator's second look;
a Doppelganger who copied him and stopped at once is not asked again at his call). A pick
may ask for the players the actor met tonight (`known: true`) or for none of them
(`known: false`): what they know, never what the cards are; or for the players in a
relation to the actor's seat (`among`: odd, the left neighbour...), which the whole
table knows, as it knows the player the call's previous power picked (`apart`).

A group's power (`agree`) is decided when its call ends: its dawn effects wait for
dawn, its others (`GROUP_NOW`: the vampires' mark, the aliens' look) are applied then,
by every member; a group that must choose and did not agree gets one of its most
picked players by chance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from narrator.i18n.phrase import Phrase, Value
from narrator.moderator import effects
from narrator.moderator.board import MoveError, Place, Prompt, Step, Verb, either, pick_words
from narrator.moderator.calls import abilities, actors, following, in_play, role_of, steps, use
from narrator.moderator.dawn import DAWN_EFFECTS, Pending
from narrator.moderator.effects import Act
from narrator.moderator.log import Entry
from narrator.rules.powers import GROUP_NOW, TOUCHES, Ability, Match

if TYPE_CHECKING:
    from narrator.moderator.game import Game


@dataclass
class Tonight:
    """What one night holds between its calls (saved with the game, `snapshot.py`:
    a night cut off by a restart goes on where it was)."""

    used: dict[int, set[str]] = field(default_factory=dict)  # seat -> "role.power" done
    copying: dict[int, str] = field(default_factory=dict)  # a copy acting at once: its role
    last_pick: dict[tuple[str, int], Place] = field(default_factory=dict)  # (step, seat)
    # a group's picks this call: (step id, "role.power") -> seat -> picked seat
    groups: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)
    group_prompts: dict[tuple[str, int], Prompt] = field(default_factory=dict)
    dawn: list[Pending] = field(default_factory=list)  # applied by `dawn.dawn`


def begin(game: Game) -> list[Step]:
    """Start the next night; its steps in call order."""
    game.night += 1
    tonight = game.tonight
    tonight.used.clear()
    tonight.last_pick.clear()
    tonight.group_prompts.clear()
    for seat in game.seats:
        playing = seat.alive and seat.free
        seat.acts_as = game.acts_as(seat.card.identity) if playing else None
    return steps(game)


def open_step(game: Game, step: Step) -> None:
    """Apply what the step's actors learn without choosing (the pack, the Masons)."""
    for seat in actors(game, step):
        role = role_of(game, step, seat)
        for ability in abilities(game, step, seat, picks=False):
            use(game, seat, role, ability)
            effects.apply(game, Act(step, seat, role, ability))
        for ability in game.abilities_of(role):
            # who the night has struck (learned every night, the save spent or not)
            here = ability.turn == step.turn and ability.when.holds(
                game.chosen(), game.night, None, game.options
            )
            if here and any(p.struck for p in ability.picks):
                hit = [Place.seat(i) for i in struck(game)]
                game.record(step, seat, "struck", targets=hit, private=True)


def prompt(game: Game, step: Step, seat: int) -> Prompt | None:
    """The choice `seat` may make now at `step`, or None."""
    tonight = game.tonight
    if seat not in actors(game, step) and seat not in tonight.copying:
        return None
    available = abilities(game, step, seat, picks=True)
    if not available:
        return None
    ability = available[0]
    role = role_of(game, step, seat)
    touches = bool(TOUCHES & set(ability.effects)) and ability.of == "card"
    if touches and "swap_own" in ability.effects and seat in game.shielded:
        return None  # a shielded card cannot move, not even by its holder
    if not effects.ready(game, ability):
        return None  # nothing left to give (the artifacts' stack is empty)
    seats: list[int] = []
    if any(p.players for p in ability.picks):
        mates = actors(game, step) if any(not p.mates for p in ability.picks) else []
        hit = struck(game) if any(p.struck for p in ability.picks) else None
        known = next((p.known for p in ability.picks if p.known is not None), None)
        met = _met(game, seat, copied=known is False) if known is not None else set()
        marked = [p.not_ for p in ability.picks if p.not_ is not None]
        previous = tonight.last_pick.get((step.id, seat))
        seats = [
            i
            for i in public_seats(game, ability, seat, previous)
            if (i == seat or i not in mates)
            and not (touches and i in game.shielded)
            and (hit is None or i in hit)
            and (known is None or (i in met) == known)
            and not any(game.counts(i, m) for m in marked)
            and not effects.refused(game, ability, i)
        ]
        if (hit is not None or known) and not seats:
            return None  # nobody to save, or to look at among those met
    asked = shape(game, step, ability, role, seats)
    # nobody the power may pick (every other player a werewolf the Alpha knows)
    return asked if asked.options else None


def public_seats(game: Game, ability: Ability, seat: int, previous: Place | None) -> list[int]:
    """The players the power's pick may name from `seat`, by what the whole table
    knows: those in play, the actor only if the pick allows it, those in the pick's
    relation to the actor's seat (`among`, by the seat numbers), not the player the
    call's previous power picked (`apart`). A decoy's prompt is built the same way."""
    n = len(game.seats)
    own_too = any(p.players and not p.other for p in ability.picks)
    among = next((p.among for p in ability.picks if p.among), "")
    return [
        i
        for i, s in enumerate(game.seats)
        if (own_too or i != seat)
        and s.alive
        and s.free
        and related(among, seat, i, n)
        and not (ability.apart and previous == Place.seat(i))
    ]


def related(among: str, seat: int, other: int, n: int) -> bool:
    """Whether `other` is in the relation `among` to `seat` (0-based seats of `n`,
    clockwise: `left` is the next seat, as the Village Idiot's): seat numbers odd or
    even, higher or lower, the neighbour on one side or either, the two on one side."""
    left, right = (other - seat) % n, (seat - other) % n
    return {
        "": True,
        "odd": other % 2 == 0,  # seat numbers count from 1
        "even": other % 2 == 1,
        "higher": other > seat,
        "lower": other < seat,
        "left": left == 1,
        "right": right == 1,
        "neighbours": 1 in (left, right),
        "left_two": left in (1, 2),
        "right_two": right in (1, 2),
    }[among]


def _met(game: Game, seat: int, *, copied: bool) -> set[int]:
    """The players `seat` met tonight (its `know` entries), and with `copied` the
    one whose card it copied: what the player knows, as their journal says it."""
    kinds = ("know", "copy") if copied else ("know",)
    return {
        t.index
        for e in game.log
        if e.to == seat and e.night == game.night and e.kind in kinds
        for t in e.targets
        if t.is_seat
    }


def shape(game: Game, step: Step, ability: Ability, role: str, seats: Sequence[int]) -> Prompt:
    """The prompt of `ability` at `step` with `seats` (0-based) to choose among,
    then the centre's cards and the ability's named options."""
    options = [Place.seat(i) for i in seats]
    if any(p.centre for p in ability.picks):
        options += [Place.centre(k) for k in range(len(game.centre))]
    for p in ability.picks:
        options += [Place.word(w) for w in p.named]
    sizes = [p.players + p.centre + (1 if p.named else 0) for p in ability.picks]
    return Prompt(
        step=step.id,
        ability=ability.id,
        role=role,
        min=0 if ability.optional else min(sizes),
        max=max(sizes),
        options=tuple(options),
        picks=ability.picks,
    )


def act(game: Game, step: Step, seat: int, choice: Sequence[Place]) -> list[Entry]:
    """`seat` answers its prompt at `step`; returns what it learns (also logged)."""
    tonight = game.tonight
    asked = prompt(game, step, seat) or tonight.group_prompts.get((step.id, seat))
    if asked is None:
        name = game.seats[seat].name
        raise MoveError(Phrase("{name} has nothing to choose at this call", name=name))
    ability = game.ability(asked.role, asked.ability)
    picked = targets(game, asked, seat, choice, ability)
    use(game, seat, asked.role, ability)
    before = len(game.log)
    game.record(step, seat, "chose", targets=picked, private=True)
    if ability.agree:  # a group's pick: it may change until the call ends
        tonight.group_prompts[(step.id, seat)] = asked
        picks = tonight.groups.setdefault((step.id, f"{asked.role}.{ability.id}"), {})
        picks.pop(seat, None)
        if picked:
            picks[seat] = picked[0].index
        game.record(step, seat, "pick" if picked else "nothing", targets=picked, private=True)
        return game.log[before:]
    if not picked:
        game.record(step, seat, "nothing", private=True)
        return game.log[before:]
    if ability.once:
        game.spent.add((seat, f"{asked.role}.{ability.id}"))
    previous = tonight.last_pick.get((step.id, seat))
    tonight.last_pick[(step.id, seat)] = picked[0]
    was = tonight.copying.get(seat)
    effects.apply(game, Act(step, seat, asked.role, ability, tuple(picked), previous))
    if picked[0].is_word:  # a word: what follows it and picks nothing (the Oracle's yes)
        for after in following(game, step, seat, asked.role, picked[0].kind):
            use(game, seat, asked.role, after)
            effects.apply(game, Act(step, seat, asked.role, after))
    cards = [game.card_at(p).role for p in picked if not p.is_word]
    if any(game.matches(card, m) for card in cards for m in ability.stop):
        for rest in game.abilities_of(asked.role):  # a look that ends the role's night
            if rest.picks:
                use(game, seat, asked.role, rest)
    copied = tonight.copying.get(seat)
    if copied is not None and copied != was:  # a copy acting at once: its own looks now
        for own in abilities(game, step, seat, picks=False):
            if own.timing == "at_once":
                use(game, seat, copied, own)
                effects.apply(game, Act(step, seat, copied, own))
    if seat in tonight.copying and not abilities(game, step, seat, picks=True):
        tonight.copying.pop(seat)
    return game.log[before:]


def group_picks(game: Game, step: Step) -> dict[int, int]:
    """Each member's pick in the groups choosing at `step` (seat -> seat, 0-based):
    what the members see of each other, and nobody else."""
    out: dict[int, int] = {}
    for (step_id, _key), picks in game.tonight.groups.items():
        if step_id == step.id:
            out.update(picks)
    return out


def close_step(game: Game, step: Step) -> None:
    """The call ends: a choice nobody made is nothing, or chance where it is owed;
    a group's picks decide its one target, whose dawn effects wait for dawn."""
    tonight = game.tonight
    for seat in [*actors(game, step), *tonight.copying]:
        while (asked := prompt(game, step, seat)) is not None:
            act(game, step, seat, [] if asked.min == 0 else random_choice(game, asked))
    tonight.copying.clear()
    here = [
        a
        for a in game.abilities_of(step.role)
        if a.turn == step.turn and in_play(game, step.role, a)
    ]
    for (step_id, key), picks in list(tonight.groups.items()):
        if step_id != step.id:
            continue
        role, _, ability_id = key.partition(".")
        ability = game.ability(role, ability_id)
        members = actors(game, step)
        target = agreed(ability.agree, picks, members, game.strength)
        if target is None and not ability.optional and picks:
            target = _drawn_among_most(game, picks)
        if target is not None:
            for word in ability.effects:
                if word in DAWN_EFFECTS:
                    tonight.dawn.append(Pending(word, target, ability.priority))
        for member in picks:
            game.record(
                step,
                member,
                "agreed" if target is not None else "disagreed",
                targets=[Place.seat(target)] if target is not None else [],
                private=True,
            )
        now = tuple(w for w in ability.effects if w in GROUP_NOW)
        if target is not None and now:
            group = tuple(i for i in members if role_of(game, step, i) == role)
            together = replace(ability, effects=now)
            picked_ = (Place.seat(target),)
            effects.apply(game, Act(step, group[0], role, together, picked_, group=group))
        del tonight.groups[(step_id, key)]
    effects.close(game, step, here)


def _drawn_among_most(game: Game, picks: dict[int, int]) -> int:
    """A group that must choose and did not agree: one of its most picked players, by
    chance (replayed as a draw)."""
    counts = Counter(picks.values())
    top = max(counts.values())
    tied = [f"seat:{t + 1}" for t in sorted(t for t, n in counts.items() if n == top)]
    return int(game.chance(tied).partition(":")[2]) - 1


def random_choice(game: Game, asked: Prompt) -> list[Place]:
    """A legal answer drawn at random (what an idle phone's mandatory power does)."""
    seats = [o for o in asked.options if o.is_seat]
    centres = [o for o in asked.options if o.is_centre]
    picks = [
        p for p in asked.picks if p.named or (p.players <= len(seats) and p.centre <= len(centres))
    ]
    if not picks:
        return []  # nothing can be picked (every card shielded)
    pick = game.rng.choice(picks)
    if pick.named:
        return [Place.word(game.rng.choice(pick.named))]
    return game.rng.sample(seats, pick.players) + game.rng.sample(centres, pick.centre)


def struck(game: Game) -> list[int]:
    """The players a kill waiting for dawn has struck tonight, in seat order."""
    return sorted({p.target for p in game.tonight.dawn if p.effect == "kill"})


def agreed(
    rule: str, picks: dict[int, int], members: Sequence[int], strength: Callable[[int], int]
) -> int | None:
    """A group's one target from its members' picks, by the ruleset's rule:
    `strongest`, the pick of the strongest member in play -- nobody if he picked
    nobody (seed 000: «il giocatore indicato dal Lupo Mannaro più forte in gioco viene
    ucciso»), between equals the first seat; `unanimous`, every pick the same;
    `most`, the most picks (a tie is nobody)."""
    counts = Counter(picks.values())
    if rule == "strongest":
        if not members:
            return None
        return picks.get(min(members, key=lambda seat: (-strength(seat), seat)))
    if not counts:
        return None
    if rule == "unanimous":
        return next(iter(counts)) if len(counts) == 1 else None
    top = max(counts.values())
    leaders = [t for t, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else None


def targets(
    game: Game,
    asked: Prompt,
    seat: int,
    choice: Sequence[Place],
    ability: Ability,
    action: Ability | None = None,
) -> list[Place]:
    """`choice` checked against the prompt (and the power's reserved targets, `only`,
    refused as the day's `action` -- "cannot capture" -- or, at night, as a choice):
    the places picked, or a MoveError naming the player. `only` is meant for cards
    the table knows (a capture needs a shown card): on a hidden one, the refusal
    would tell the actor what it is."""
    name = game.seats[seat].name
    if len(set(choice)) != len(choice):
        raise MoveError(Phrase("{name} chose the same card twice", name=name))
    for option in choice:
        if option not in asked.options:
            what = game.describe(option)
            raise MoveError(
                Phrase("{name} cannot choose {what} at this call", name=name, what=what)
            )
    if not choice:
        if asked.min > 0:
            raise MoveError(Phrase("{name} must choose at this call", name=name))
        return []
    if not asked.fits(choice):
        ways = either([pick_words(p) for p in asked.picks])
        raise MoveError(Phrase("{name} must choose {ways}", name=name, ways=ways))
    places = list(choice)
    mine = game.seats[seat].card.identity
    for place in places:
        if place.is_word:
            continue  # a word (left, right)
        card = game.card_at(place).identity
        for only in ability.only:
            if game.matches(card, only.target) and not game.matches(mine, only.by):
                who, by = game.describe(place), _who(game, only.by)
                if action is None:
                    said = Phrase(
                        "{name} cannot choose {who}: only {by} may", name=name, who=who, by=by
                    )
                else:
                    said = Phrase(
                        "{name} cannot {action} {who}: only {by} may",
                        name=name,
                        action=Verb(action),
                        who=who,
                        by=by,
                    )
                raise MoveError(said)
    return places


def _who(game: Game, match: Match) -> Value:
    """Who a match names, for a refusal: the role, the team or the tag."""
    if match.role:
        return Phrase("the {role}", role=game.ruleset.role(match.role).name)
    if match.team:
        return dict(game.ruleset.teams).get(match.team) or match.team
    return Phrase("a card tagged {tag}", tag=match.tag)
