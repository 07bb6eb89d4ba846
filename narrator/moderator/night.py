"""The night: its calls in order, who answers each, what they may choose, and the
choices applied through the effects' registry (`effects.py`).

A night is a list of `Step`s, one per call of a role that has powers, in the call
order. At each step the seats that answer it are those whose card *at the start of
the night* is that role (a Doppelganger answers the calls of the role she copied),
whatever their card is now: a Robber who took a werewolf still wakes as the Robber.
What a player learns is written in the log, addressed to that seat only.

A role that wakes with another (`wakes_with`: the Alpha and the Mystic Wolf with
the werewolves) answers that role's call with its own first powers: one call, one
step, several roles; its extra turns (the Alpha Wolf's at 2b) are steps of its own.

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
(`known: false`): what they know, never what the cards are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from narrator.moderator import effects
from narrator.moderator.board import MoveError, Place, Prompt, Step, pick_words
from narrator.moderator.dawn import DAWN_EFFECTS, Pending
from narrator.moderator.effects import Act
from narrator.moderator.log import Entry
from narrator.rules.model import Order
from narrator.rules.powers import TOUCHES, Ability, Match

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


def steps(game: Game) -> list[Step]:
    """Every call of a role with powers, in the ruleset's order, for the chosen roles
    (a role that wakes with another answers that role's call at its first turn)."""
    chosen = game.chosen()
    answered = {game.acts_as(r) for r in chosen}  # a Pack Leader answers the pack's call
    calls: set[tuple[Order, str, int]] = set()
    for role in game.ruleset.roles:
        if role.id not in answered or not (role.powers and role.powers.abilities):
            continue
        own = game.ruleset.role(role.wakes_with) if role.wakes_with else role
        main = [t for t in own.turns if t.main]
        extra = [t for t in role.turns if not t.main]
        for k in sorted({a.turn for a in role.powers.abilities}):
            for turn in main if k == 0 else extra[k - 1 : k]:
                if turn.when.holds(chosen, game.night, None, game.options):
                    calls.add((turn.order, own.id if k == 0 else role.id, k))
                    break
    night = game.night
    return [
        Step(f"n{night}.{i + 1}", role, night, turn)
        for i, (_, role, turn) in enumerate(sorted(calls))
    ]


def actors(game: Game, step: Step) -> list[int]:
    """The living seats answering `step`: the card's holders (and, at its first turn,
    those of the roles that wake with it), then those who copied the role (the 5.0
    sheet's `*`: a copy acts right after the real one)."""
    seats = [i for i, s in enumerate(game.seats) if s.alive and _answers(game, step, s.acts_as)]
    return sorted(
        seats, key=lambda i: (not _answers(game, step, game.acts_as(game.seats[i].dealt)), i)
    )


def _answers(game: Game, step: Step, role_id: str | None) -> bool:
    """Whether a seat acting as `role_id` answers `step`."""
    if role_id is None:
        return False
    if role_id == step.role:
        return True
    return step.turn == 0 and game.ruleset.role(role_id).wakes_with == step.role


def role_of(game: Game, step: Step, seat: int) -> str:
    """The role whose powers `seat` uses at `step`: the one copied at once, the one
    that wakes with the step's, or the step's own."""
    copied = game.tonight.copying.get(seat)
    if copied is not None:
        return copied
    acts_as = game.seats[seat].acts_as
    if acts_as is not None and acts_as != step.role and _answers(game, step, acts_as):
        return acts_as
    return step.role


def open_step(game: Game, step: Step) -> None:
    """Apply what the step's actors learn without choosing (the pack, the Masons)."""
    for seat in actors(game, step):
        role = role_of(game, step, seat)
        for ability in abilities(game, step, seat, picks=False):
            _use(game, seat, role, ability)
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
    touches = bool(TOUCHES & set(ability.effects))
    if touches and "swap_own" in ability.effects and seat in game.shielded:
        return None  # a shielded card cannot move, not even by its holder
    if not effects.ready(game, ability):
        return None  # nothing left to give (the artifacts' stack is empty)
    seats: list[int] = []
    if any(p.players for p in ability.picks):
        own_too = any(p.players and not p.other for p in ability.picks)
        mates = actors(game, step) if any(not p.mates for p in ability.picks) else []
        hit = struck(game) if any(p.struck for p in ability.picks) else None
        known = next((p.known for p in ability.picks if p.known is not None), None)
        met = _met(game, seat, copied=known is False) if known is not None else set()
        seats = [
            i
            for i in range(len(game.seats))
            if (own_too or i != seat)
            and (i == seat or i not in mates)
            and not (touches and i in game.shielded)
            and game.seats[i].alive
            and game.seats[i].free
            and (hit is None or i in hit)
            and (known is None or (i in met) == known)
            and not effects.refused(game, ability, i)
        ]
        if (hit is not None or known) and not seats:
            return None  # nobody to save, or to look at among those met
    asked = shape(game, step, ability, role, seats)
    # nobody the power may pick (every other player a werewolf the Alpha knows)
    return asked if asked.options else None


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
        raise MoveError(f"{game.seats[seat].name} has nothing to choose at this call")
    ability = game.ability(asked.role, asked.ability)
    picked = targets(game, asked, seat, choice, ability)
    _use(game, seat, asked.role, ability)
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
    if any(game.matches(game.card_at(p).role, m) for p in picked for m in ability.stop):
        for rest in game.abilities_of(asked.role):  # a look that ends the role's night
            if rest.picks:
                _use(game, seat, asked.role, rest)
    copied = tonight.copying.get(seat)
    if copied is not None and copied != was:  # a copy acting at once: its own looks now
        for own in abilities(game, step, seat, picks=False):
            if own.timing == "at_once":
                _use(game, seat, copied, own)
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
    chosen = game.chosen()
    here = [
        a
        for a in game.abilities_of(step.role)
        if a.turn == step.turn and a.when.holds(chosen, game.night, None, game.options)
    ]
    effects.close(game, step, here)
    for (step_id, key), picks in list(tonight.groups.items()):
        if step_id != step.id:
            continue
        role, _, ability_id = key.partition(".")
        ability = game.ability(role, ability_id)
        target = agreed(ability.agree, picks, actors(game, step), game.strength)
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
        del tonight.groups[(step_id, key)]


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


# -- what a seat may do ---------------------------------------------------------------


def abilities(game: Game, step: Step, seat: int, *, picks: bool) -> list[Ability]:
    """The powers `seat` may still use at `step` (those that pick, or not)."""
    tonight = game.tonight
    copying = seat in tonight.copying
    role = role_of(game, step, seat)
    used = tonight.used.get(seat, set())
    alone = _alone(game, step, seat, role)
    out = []
    for a in game.abilities_of(role):
        if f"{role}.{a.id}" in used or bool(a.picks) != picks:
            continue
        if a.once and (seat, f"{role}.{a.id}") in game.spent:
            continue
        if copying and ("know" in a.effects or a.alone):
            continue  # a copy meets the others (and looks alone) at the role's call
        if not copying and a.turn != step.turn:
            continue
        if "swap_last" in a.effects and (step.id, seat) not in tonight.last_pick:
            continue
        if not a.when.holds(game.chosen(), game.night, None, game.options):
            continue
        if a.alone and not alone:
            continue
        out.append(a)
    return out


def _alone(game: Game, step: Step, seat: int, role: str) -> bool:
    """Nobody else acts as a role sharing this role's tags (the lone wolf), or, for a
    role without tags, nobody else answers this call."""
    powers = game.powers(role)
    tags = set(powers.tags) if powers else set()
    if not tags:
        return actors(game, step) == [seat]
    for i, s in enumerate(game.seats):
        other = game.powers(s.acts_as) if s.acts_as and i != seat and s.alive else None
        if other is not None and tags & set(other.tags):
            return False
    return True


def _use(game: Game, seat: int, role: str, ability: Ability) -> None:
    game.tonight.used.setdefault(seat, set()).add(f"{role}.{ability.id}")


def targets(
    game: Game,
    asked: Prompt,
    seat: int,
    choice: Sequence[Place],
    ability: Ability,
    verb: str = "choose",
) -> list[Place]:
    """`choice` checked against the prompt (and the power's reserved targets, `only`,
    refused as `verb`: "capture"): the places picked, or a MoveError naming the
    player. `only` is meant for cards the table knows (a capture needs a shown card):
    on a hidden one, the refusal would tell the actor what it is."""
    name = game.seats[seat].name
    if len(set(choice)) != len(choice):
        raise MoveError(f"{name} chose the same card twice")
    for option in choice:
        if option not in asked.options:
            raise MoveError(f"{name} cannot choose {game.describe(option)} at this call")
    if not choice:
        if asked.min > 0:
            raise MoveError(f"{name} must choose at this call")
        return []
    if not asked.fits(choice):
        ways = " or ".join(pick_words(p) for p in asked.picks)
        raise MoveError(f"{name} must choose {ways}")
    places = list(choice)
    mine = game.seats[seat].card.identity
    for place in places:
        if place.is_word:
            continue  # a word (left, right)
        card = game.card_at(place).identity
        for only in ability.only:
            if game.matches(card, only.target) and not game.matches(mine, only.by):
                who = game.describe(place)
                raise MoveError(f"{name} cannot {verb} {who}: only {_who(game, only.by)} may")
    return places


def _who(game: Game, match: Match) -> str:
    """Who a match names, in the game's English, for a refusal."""
    if match.role:
        return f"the {game.ruleset.role(match.role).name.get('en')}"
    if match.team:
        return game.ruleset.team_name(match.team, "en")
    return f"a card tagged {match.tag}"
