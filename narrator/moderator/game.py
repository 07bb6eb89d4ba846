"""The game a moderator would hold in their head: seats, cards, the night, the log.

`Game` is pure state and commands -- no I/O, no clock, no randomness of its own (a
`random.Random` is passed in for the choices an idle phone leaves to chance). Every
rule it applies comes from the ruleset's data (`rules.powers`): what a role does
(`does:`), its tags, what its death does (`on_death:`), how the vote kills and who
wins (`outcome:`). No ruleset or role id is written here.

A night is a list of `Step`s, one per call of a role that has powers, in the call
order. At each step the seats that answer it are those whose card *at the start of
the night* is that role (a Doppelganger answers the calls of the role she copied),
whatever their card is now: a Robber who took a werewolf still wakes as the Robber.
What a player learns is written in the log, addressed to that seat only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from narrator.moderator import votes
from narrator.moderator.log import Entry
from narrator.moderator.votes import most_voted
from narrator.moderator.wins import holds
from narrator.rules.model import Ruleset
from narrator.rules.powers import TOUCHES, Ability, Match, Pick, Powers, VoteRule


class MoveError(ValueError):
    """A command the rules do not allow (a choice the role cannot make, a dead voter)."""


@dataclass(slots=True)
class Card:
    """One physical card. A copy (the Doppelganger's) stays with the card when it moves."""

    role: str
    copied: str | None = None

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
    free: bool = True  # False: arrested (a Prisoner: alive, out of play)


@dataclass(frozen=True, slots=True)
class Step:
    """One call of the night that lets someone act: `id` is the same on every phone."""

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


@dataclass
class Game:
    ruleset: Ruleset
    seats: list[Seat]
    centre: list[Card]
    options: frozenset[str] = frozenset()
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    log: list[Entry] = field(default_factory=list)
    night: int = 0
    dead_order: list[int] = field(default_factory=list)
    # per night: (step id, seat) -> the abilities already used, and prompts done
    _used: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    _copy_pending: dict[int, str] = field(default_factory=dict)
    _last_pick: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)
    shielded: set[int] = field(default_factory=set)
    # the night's dawn effects: (priority, effect, target seat, acting seat or None)
    _dawn: list[tuple[int, str, int, int | None]] = field(default_factory=list)
    # a group's picks this call: (step id, ability key) -> seat -> picked seat
    _group: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)
    _group_prompt: dict[tuple[str, int], Prompt] = field(default_factory=dict)
    tombstone: int | None = None  # the last player out (Lupus's tie rule)
    executed: int | None = None  # the player the last vote put to death
    last_arrested: int | None = None  # Mafia's reference for ties
    _suspects: list[int] = field(default_factory=list)
    # Secret Moon's rounds of turns: cards shown to everyone (a centre card too), cards
    # hidden until the round ends, players who lost this round's turn
    round: int = 0
    revealed: set[tuple[str, int]] = field(default_factory=set)
    hidden: set[tuple[str, int]] = field(default_factory=set)
    disturbed: set[int] = field(default_factory=set)
    rounds_over: bool = False
    _turns: int = 0
    spent: set[tuple[int, str]] = field(default_factory=set)  # (seat, role.ability) used once

    # -- set up ------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        ruleset: Ruleset,
        players: list[str],
        cards: list[str],
        centre: list[str],
        *,
        options: frozenset[str] = frozenset(),
        rng: random.Random | None = None,
    ) -> Game:
        """A game with `cards[i]` dealt to `players[i]` and `centre` left unseen."""
        if len(cards) != len(players):
            raise MoveError(f"{len(players)} players but {len(cards)} cards dealt")
        for role_id in (*cards, *centre):
            ruleset.role(role_id)  # KeyError: unknown role
        seats = [Seat(n, Card(c), c, c) for n, c in zip(players, cards, strict=True)]
        return cls(
            ruleset,
            seats,
            [Card(c) for c in centre],
            options=options,
            rng=rng or random.Random(0),
        )

    # -- a saved game ------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The game as plain JSON data, between two calls (what a night's open call
        holds -- its picks, its pending dawn -- is not kept: a night cut off by a
        restart is lost, and the table plays the next one)."""
        return {
            "seats": [
                {
                    "name": s.name,
                    "role": s.card.role,
                    "copied": s.card.copied,
                    "dealt": s.dealt,
                    "acts_as": s.acts_as,
                    "alive": s.alive,
                    "free": s.free,
                }
                for s in self.seats
            ],
            "centre": [{"role": c.role, "copied": c.copied} for c in self.centre],
            "options": sorted(self.options),
            "night": self.night,
            "dead_order": list(self.dead_order),
            "shielded": sorted(self.shielded),
            "tombstone": self.tombstone,
            "executed": self.executed,
            "last_arrested": self.last_arrested,
            "suspects": list(self._suspects),
            "round": self.round,
            "revealed": sorted(self.revealed),
            "hidden": sorted(self.hidden),
            "disturbed": sorted(self.disturbed),
            "rounds_over": self.rounds_over,
            "spent": sorted([seat, key] for seat, key in self.spent),
            "log": [e.to_dict() for e in self.log],
        }

    @classmethod
    def from_snapshot(
        cls, ruleset: Ruleset, data: dict[str, Any], rng: random.Random | None = None
    ) -> Game:
        """The game `snapshot` wrote. A value of the wrong kind, or a role this ruleset
        does not have, raises (ValueError, TypeError, KeyError): a tampered save."""

        def role(value: Any) -> str:
            ruleset.role(str(value))  # KeyError: not a role of this game
            return str(value)

        def card(d: dict[str, Any]) -> Card:
            return Card(role(d["role"]), None if d["copied"] is None else role(d["copied"]))

        def seat_no(value: Any) -> int:
            n = int(value)
            if not 0 <= n < len(data["seats"]):
                raise ValueError(f"seat {n} is not at this table")
            return n

        def place(value: Any) -> tuple[str, int]:
            kind, index = value
            if kind not in ("seat", "centre"):
                raise ValueError(f"{kind!r} is not a place")
            return (str(kind), int(index))

        def maybe(value: Any) -> int | None:
            return None if value is None else seat_no(value)

        seats = [
            Seat(
                str(d["name"]),
                card(d),
                role(d["dealt"]),
                None if d["acts_as"] is None else role(d["acts_as"]),
                bool(d["alive"]),
                bool(d["free"]),
            )
            for d in data["seats"]
        ]
        game = cls(
            ruleset,
            seats,
            [card(d) for d in data["centre"]],
            options=frozenset(str(o) for o in data["options"]),
            rng=rng or random.Random(0),
            log=[
                Entry(**{**e, "targets": tuple(e["targets"]), "cards": tuple(e["cards"])})
                for e in data["log"]
            ],
            night=int(data["night"]),
            dead_order=[seat_no(i) for i in data["dead_order"]],
            tombstone=maybe(data["tombstone"]),
            executed=maybe(data["executed"]),
            last_arrested=maybe(data["last_arrested"]),
            _suspects=[seat_no(i) for i in data["suspects"]],
        )
        game.shielded = {seat_no(i) for i in data["shielded"]}
        game.round = int(data["round"])
        game.revealed = {place(p) for p in data["revealed"]}
        game.hidden = {place(p) for p in data["hidden"]}
        game.disturbed = {seat_no(i) for i in data["disturbed"]}
        game.rounds_over = bool(data["rounds_over"])
        game.spent = {(seat_no(i), str(key)) for i, key in data.get("spent", [])}
        return game

    # -- reading the cards -------------------------------------------------------

    def powers(self, role_id: str) -> Powers | None:
        return self.ruleset.role(role_id).powers

    def matches(self, role_id: str, match: Match) -> bool:
        if match.role:
            return role_id == match.role
        if match.team:
            return self.ruleset.role(role_id).team == match.team
        powers = self.powers(role_id)
        return bool(powers and match.tag in powers.tags)

    def _strength(self, seat: int) -> int:
        powers = self.powers(self.seats[seat].card.identity)
        return powers.strength if powers is not None else 0

    def team_of(self, seat: int) -> str:
        return self.ruleset.role(self.seats[seat].card.identity).team

    def chosen(self) -> frozenset[str]:
        return frozenset([s.dealt for s in self.seats] + [c.role for c in self.centre])

    def option_id(self, target: tuple[str, int]) -> str:
        return target[0] if target[1] < 0 else f"{target[0]}:{target[1] + 1}"

    def card_at(self, target: tuple[str, int]) -> Card:
        kind, index = target
        return self.seats[index].card if kind == "seat" else self.centre[index]

    def describe(self, option: str) -> str:
        """An option id in words, for error messages: a player's name, centre card K."""
        kind, _, number = option.partition(":")
        if kind == "seat" and number.isdigit() and 1 <= int(number) <= len(self.seats):
            return self.seats[int(number) - 1].name
        return f"centre card {number}" if kind == "centre" else repr(option)

    def put(self, target: tuple[str, int], card: Card) -> None:
        kind, index = target
        if kind == "seat":
            self.seats[index].card = card
        else:
            self.centre[index] = card

    # -- the night ---------------------------------------------------------------

    def begin_night(self) -> list[Step]:
        """Start the next night; its steps in call order."""
        self.night += 1
        self._used.clear()
        self._last_pick.clear()
        self._group_prompt.clear()
        for seat in self.seats:
            seat.acts_as = self._acts_as(seat.card.identity) if seat.alive and seat.free else None
        return self.steps()

    def steps(self) -> list[Step]:
        """Every call of a role with powers, in the ruleset's order, for the chosen roles."""
        chosen = self.chosen()
        answered = {self._acts_as(r) for r in chosen}  # a Pack Leader answers the pack's call
        calls = []
        for role in self.ruleset.roles:
            if role.id not in answered or not (role.powers and role.powers.abilities):
                continue
            own = self.ruleset.role(role.wakes_with) if role.wakes_with else role
            main = [t for t in own.turns if t.main]
            extra = [t for t in role.turns if not t.main]
            for k in sorted({a.turn for a in role.powers.abilities}):
                for turn in main if k == 0 else extra[k - 1 : k]:
                    if turn.when.holds(chosen, self.night, None, self.options):
                        calls.append((turn.order, role.id, k))
                        break
        calls.sort()
        night = self.night
        return [
            Step(f"n{night}.{i + 1}", role, night, turn) for i, (_, role, turn) in enumerate(calls)
        ]

    def _acts_as(self, role_id: str) -> str:
        """The role whose call and powers a card answers: its own, or its `does_as`."""
        powers = self.powers(role_id)
        return powers.does_as if powers is not None and powers.does_as else role_id

    def actors(self, step: Step) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.alive and s.acts_as == step.role]

    def open_step(self, step: Step) -> None:
        """Apply what the step's actors learn without choosing (the pack, the Masons)."""
        actors = self.actors(step)
        for seat in actors:
            for ability in self._abilities(step, seat, picks=False):
                self._use(step, seat, step.role, ability)
                if "know" in ability.effects and ability.know is not None:
                    self._know(step, seat, ability.know)
                if "see_own" in ability.effects:
                    self._see(step, seat, [("seat", seat)])
                if "learn" in ability.effects and ability.target == "executed":
                    self._learn(step, seat, ability, self.executed)
            for ability in self._all_abilities(step.role):
                # who the night has struck (learned every night, the save spent or not)
                here = ability.turn == step.turn and ability.when.holds(
                    self.chosen(), self.night, None, self.options
                )
                if here and any(p.struck for p in ability.picks):
                    hit = [("seat", i) for i in self.struck()]
                    self._log(step, seat, "struck", targets=hit, private=True)

    def prompt(self, step: Step, seat: int) -> Prompt | None:
        """The choice `seat` may make now at `step`, or None."""
        if seat not in self.actors(step) and seat not in self._copy_pending:
            return None
        abilities = self._abilities(step, seat, picks=True)
        if not abilities:
            return None
        ability = abilities[0]
        role = self._copy_pending.get(seat, step.role)
        touches = bool(TOUCHES & set(ability.effects))
        if touches and "swap_own" in ability.effects and seat in self.shielded:
            return None  # a shielded card cannot move, not even by its holder
        seats: list[int] = []
        if any(p.players for p in ability.picks):
            own_too = any(p.players and not p.other for p in ability.picks)
            struck = self.struck() if any(p.struck for p in ability.picks) else None
            seats = [
                i
                for i in range(len(self.seats))
                if (own_too or i != seat)
                and not (touches and i in self.shielded)
                and self.seats[i].alive
                and self.seats[i].free
                and (struck is None or i in struck)
            ]
            if struck is not None and not seats:
                return None  # nobody to save: the night struck nobody else
        return self.shape(step, ability, role, seats)

    def shape(self, step: Step, ability: Ability, role: str, seats: Sequence[int]) -> Prompt:
        """The prompt of `ability` at `step` with `seats` (0-based) to choose among,
        then the centre's cards and the ability's named options."""
        options = [f"seat:{i + 1}" for i in seats]
        if any(p.centre for p in ability.picks):
            options += [f"centre:{k + 1}" for k in range(len(self.centre))]
        for p in ability.picks:
            options += list(p.named)
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

    def act(self, step: Step, seat: int, choice: list[str]) -> list[Entry]:
        """`seat` answers its prompt at `step`; returns what it learns (also logged)."""
        prompt = self.prompt(step, seat) or self._group_prompt.get((step.id, seat))
        if prompt is None:
            raise MoveError(f"{self.seats[seat].name} has nothing to choose at this call")
        ability = next(a for a in self._all_abilities(prompt.role) if a.id == prompt.ability)
        targets = self._targets(prompt, seat, choice)
        self._use(step, seat, prompt.role, ability)
        before = len(self.log)
        self._log(step, seat, "chose", targets=targets, private=True)
        if ability.agree:  # a group's pick: it may change until the call ends
            self._group_prompt[(step.id, seat)] = prompt
            picks = self._group.setdefault((step.id, f"{prompt.role}.{ability.id}"), {})
            picks.pop(seat, None)
            if targets:
                picks[seat] = targets[0][1]
            self._log(step, seat, "pick" if targets else "nothing", targets=targets, private=True)
            return self.log[before:]
        if not targets:
            self._log(step, seat, "nothing", private=True)
            return self.log[before:]
        if ability.once:
            self.spent.add((seat, f"{prompt.role}.{ability.id}"))
        effects = ability.effects
        last = self._last_pick.get((step.id, seat))
        self._last_pick[(step.id, seat)] = targets[0]
        if "swap_last" in effects and last is not None:
            (t,) = targets
            ca, cb = self.card_at(last), self.card_at(t)
            self.put(last, cb)
            self.put(t, ca)
            self._log(step, seat, "swap", targets=[last, t], private=True)
        if "rotate" in effects:
            self._rotate(step, seat, targets[0][0])
        if "shield" in effects:
            (t,) = targets
            self.shielded.add(t[1])
            self._log(step, seat, "shield", targets=targets, private=True)
        if "reveal" in effects:
            (t,) = targets
            card = self.card_at(t).identity
            self._log(step, seat, "see", targets=targets, cards=[card], private=True)
            if not any(self.matches(card, m) for m in ability.hidden):
                self._log(step, seat, "reveal", targets=targets, cards=[card])
        if "learn" in effects:
            self._learn(step, seat, ability, targets[0][1])
        for effect in ("protect", "kill", "arrest"):
            if effect in effects:
                self._dawn.append((ability.priority, effect, targets[0][1], seat))
                self._log(step, seat, effect, targets=targets, private=True)
        if "swap" in effects:
            a, b = targets
            ca, cb = self.card_at(a), self.card_at(b)
            self.put(a, cb)
            self.put(b, ca)
            self._log(step, seat, "swap", targets=targets, private=True)
        if "swap_own" in effects:
            own = ("seat", seat)
            (t,) = targets
            mine, theirs = self.card_at(own), self.card_at(t)
            self.put(own, theirs)
            self.put(t, mine)
            self._log(step, seat, "swap_own", targets=targets, private=True)
        if "see" in effects:
            self._see(step, seat, targets)
        if "copy" in effects:
            (t,) = targets
            role = self.card_at(t).identity
            self.seats[seat].card.copied = role
            self._log(step, seat, "copy", targets=targets, cards=[role], private=True)
            self._copy_pending.pop(seat, None)
            if role in ability.later:
                self.seats[seat].acts_as = role
            else:
                self.seats[seat].acts_as = None
                if self._all_abilities(role):
                    self._copy_pending[seat] = role
                    self._apply_auto(step, seat, role)
        elif seat in self._copy_pending and not self._abilities(step, seat, picks=True):
            self._copy_pending.pop(seat, None)
        if "see_own" in effects:
            self._see(step, seat, [("seat", seat)])
        return self.log[before:]

    def group_prompt(self, step: Step, seat: int) -> Prompt | None:
        """The group choice `seat` made at `step` and may still change until the call
        ends (the wolves' victim), or None."""
        return self._group_prompt.get((step.id, seat))

    def group_picks(self, step: Step) -> dict[int, int]:
        """Each member's pick in the groups choosing at `step` (seat -> seat, 0-based):
        what the members see of each other, and nobody else."""
        out: dict[int, int] = {}
        for (step_id, _key), picks in self._group.items():
            if step_id == step.id:
                out.update(picks)
        return out

    def close_step(self, step: Step) -> None:
        """The call ends: a choice nobody made is nothing, or chance where it is owed."""
        for seat in [*self.actors(step), *self._copy_pending]:
            while (prompt := self.prompt(step, seat)) is not None:
                if prompt.min == 0:
                    self.act(step, seat, [])
                    continue
                self.act(step, seat, self.random_choice(prompt))
        self._copy_pending.clear()
        for (step_id, key), picks in list(self._group.items()):
            if step_id != step.id:
                continue
            role, _, ability_id = key.partition(".")
            ability = next(a for a in self._all_abilities(role) if a.id == ability_id)
            target = _agreed(ability.agree, picks, self._strength)
            if target is not None:
                for effect in ("protect", "kill", "arrest"):
                    if effect in ability.effects:
                        self._dawn.append((ability.priority, effect, target, None))
            for member in picks:
                self._log(
                    step,
                    member,
                    "agreed" if target is not None else "disagreed",
                    targets=[("seat", target)] if target is not None else [],
                    private=True,
                )
            del self._group[(step_id, key)]

    def dawn(self) -> list[int]:
        """Apply the night's dawn effects by priority: returns who died, in order."""
        protected: set[int] = set()
        died = []
        for _, effect, target, _actor in sorted(self._dawn, key=lambda d: d[0]):
            if effect == "protect":
                protected.add(target)
            elif effect == "kill" and self.seats[target].alive and target not in protected:
                self._die(target, "night")
                died.append(target)
            elif effect == "arrest" and self.seats[target].free and target not in protected:
                self.seats[target].free = False
                self.last_arrested = target
                self._log(None, target, "arrested")
                died.append(target)
        self._dawn.clear()
        if not died:
            self._log(None, None, "nobody_died")
        return died

    def random_choice(self, prompt: Prompt) -> list[str]:
        """A legal answer drawn at random (what an idle phone's mandatory power does)."""
        seats = [o for o in prompt.options if o.startswith("seat:")]
        centre = [o for o in prompt.options if o.startswith("centre:")]
        picks = [
            p
            for p in prompt.picks
            if p.named or (p.players <= len(seats) and p.centre <= len(centre))
        ]
        if not picks:
            return []  # nothing can be picked (every card shielded)
        pick = self.rng.choice(picks)
        if pick.named:
            return [self.rng.choice(pick.named)]
        return self.rng.sample(seats, pick.players) + self.rng.sample(centre, pick.centre)

    # -- helpers of the night ------------------------------------------------------

    def _all_abilities(self, role_id: str) -> tuple[Ability, ...]:
        powers = self.powers(role_id)
        return powers.abilities if powers else ()

    def _abilities(self, step: Step, seat: int, *, picks: bool) -> list[Ability]:
        role = self._copy_pending.get(seat, step.role)
        turn = 0 if seat in self._copy_pending else step.turn
        used = self._used.get((step.id, seat), [])
        alone = self._alone(step, seat, role)
        out = []
        for a in self._all_abilities(role):
            if f"{role}.{a.id}" in used or bool(a.picks) != picks:
                continue
            if a.once and (seat, f"{role}.{a.id}") in self.spent:
                continue
            if a.turn != turn:
                continue
            if "swap_last" in a.effects and (step.id, seat) not in self._last_pick:
                continue
            if not a.when.holds(self.chosen(), self.night, None, self.options):
                continue
            if a.alone and not alone:
                continue
            out.append(a)
        return out

    def _alone(self, step: Step, seat: int, role: str) -> bool:
        """Nobody else acts as a role sharing this role's tags (the lone wolf), or, for a
        role without tags, nobody else answers this call."""
        powers = self.powers(role)
        tags = set(powers.tags) if powers else set()
        if not tags:
            return self.actors(step) == [seat]
        for i, s in enumerate(self.seats):
            other = self.powers(s.acts_as) if s.acts_as and i != seat and s.alive else None
            if other is not None and tags & set(other.tags):
                return False
        return True

    def _apply_auto(self, step: Step, seat: int, role: str) -> None:
        for ability in self._all_abilities(role):
            if ability.picks or ability.timing != "at_once":
                continue
            self._use(step, seat, role, ability)
            if "see_own" in ability.effects:
                self._see(step, seat, [("seat", seat)])

    def _use(self, step: Step, seat: int, role: str, ability: Ability) -> None:
        self._used.setdefault((step.id, seat), []).append(f"{role}.{ability.id}")

    def struck(self) -> list[int]:
        """The players a kill waiting for dawn has struck tonight, in seat order."""
        return sorted({t for _, effect, t, _ in self._dawn if effect == "kill"})

    def _targets(self, prompt: Prompt, seat: int, choice: list[str]) -> list[tuple[str, int]]:
        name = self.seats[seat].name
        if len(set(choice)) != len(choice):
            raise MoveError(f"{name} chose the same card twice")
        for option in choice:
            if option not in prompt.options:
                raise MoveError(f"{name} cannot choose {self.describe(option)} at this call")
        if not choice:
            if prompt.min > 0:
                raise MoveError(f"{name} must choose at this call")
            return []
        if not prompt.fits(choice):
            ways = " or ".join(_pick_words(p) for p in prompt.picks)
            raise MoveError(f"{name} must choose {ways}")
        out = []
        for option in choice:
            kind, _, number = option.partition(":")
            out.append((kind, int(number) - 1) if number else (option, -1))
        return out

    def _rotate(self, step: Step, seat: int, direction: str) -> None:
        """Every other unshielded card moves one seat: `left` is the next seat clockwise."""
        ring = [i for i in range(len(self.seats)) if i != seat and i not in self.shielded]
        cards = [self.seats[i].card for i in ring]
        shift = 1 if direction == "left" else -1
        for j in range(len(ring)):
            self.seats[ring[(j + shift) % len(ring)]].card = cards[j]
        self._log(step, seat, "rotate", targets=[(direction, -1)], private=True)

    def _see(self, step: Step, seat: int, targets: list[tuple[str, int]]) -> None:
        cards = [self.card_at(t).identity for t in targets]
        self._log(step, seat, "see", targets=targets, cards=cards, private=True)

    def _learn(self, step: Step, seat: int, ability: Ability, target: int | None) -> None:
        """The actor learns whether `target`'s card matches the question (a nod)."""
        if target is None or ability.learn is None:
            self._log(step, seat, "learn", private=True)  # nobody to ask about
            return
        yes = self.matches(self.seats[target].card.identity, ability.learn)
        self._log(
            step,
            seat,
            "learn",
            targets=[("seat", target)],
            private=True,
            why="yes" if yes else "no",
        )

    def _know(self, step: Step, seat: int, match: Match) -> None:
        others = [
            i
            for i, s in enumerate(self.seats)
            if i != seat and s.alive and s.acts_as is not None and self.matches(s.acts_as, match)
        ]
        self._log(step, seat, "know", targets=[("seat", i) for i in others], private=True)

    def _log(
        self,
        step: Step | None,
        seat: int | None,
        kind: str,
        *,
        targets: list[tuple[str, int]] | None = None,
        cards: list[str] | None = None,
        private: bool = False,
        why: str = "",
    ) -> None:
        self.log.append(
            Entry(
                night=step.night if step else self.night,  # a turn: its round
                step=step.id if step else "",
                role=(self._copy_pending.get(seat, step.role) if step and seat is not None else ""),
                kind=kind,
                seat=seat,
                targets=tuple(self.option_id(t) for t in targets or ()),
                cards=tuple(cards or ()),
                to=seat if private else None,
                why=why,
            )
        )

    # -- the day -----------------------------------------------------------------

    def vote(self, votes: dict[int, int | None]) -> list[int]:
        """Everyone points at once; returns the seats that die, in order (the Hunter's
        shot after the vote's dead)."""
        outcome = self.ruleset.outcome
        if outcome is None:
            raise MoveError(f"the ruleset '{self.ruleset.id}' has no 'outcome' to judge a vote")
        rule = outcome.vote
        for voter, target in votes.items():
            name = self.seats[voter].name
            if not self.seats[voter].alive:
                raise MoveError(f"{name} is dead and cannot vote")
            if target is None:
                continue
            if target == voter and not rule.self_vote:
                raise MoveError(f"{name} cannot vote for themselves")
            if not self.seats[target].alive:
                raise MoveError(f"{name} votes for {self.seats[target].name}, who is dead")
        self._votes("vote", votes)
        dead = most_voted(votes, rule.min_votes)
        for seat in dead:
            self._die(seat, "vote")
        if not dead:
            self._log(None, None, "nobody_dies")
        # Deaths that follow a death (the Hunter's shot), until none is pending.
        i = 0
        while i < len(self.dead_order):
            seat = self.dead_order[i]
            powers = self.powers(self.seats[seat].card.identity)
            target = votes.get(seat)
            shoots = powers is not None and powers.on_death == "shoot_vote"
            if shoots and target is not None and self.seats[target].alive:
                self._die(target, "shot", by=seat)
            i += 1
        return list(self.dead_order)

    def remove(self, seat: int) -> None:
        """The table takes a player out by hand (someone leaves the game): a death the
        rules did not cause, logged with the reason `removed`."""
        if self.seats[seat].alive:
            self._die(seat, "removed")

    def _die(self, seat: int, why: str, by: int = -1) -> None:
        self.seats[seat].alive = False
        self.dead_order.append(seat)
        self.tombstone = seat
        self.log.append(
            Entry(
                night=self.night,
                step="day",
                role=self.seats[seat].card.identity,
                kind="death",
                seat=seat,
                targets=(f"seat:{by + 1}",) if by >= 0 else (),
                cards=(self.seats[seat].card.identity,),
                why=why,
            )
        )

    # -- a day of accusation and ballot (Lupus) -------------------------------------

    def accuse(self, accusations: dict[int, int | None]) -> list[int]:
        """Everyone who may accuses; returns the suspects for the ballot, by the
        ruleset's rule (`votes.accusation`). When the accusation alone puts someone to
        death (every accusation on one player, or the final two's one vote), that
        player dies now and there is no ballot: the list is empty."""
        rule = self._rule("accusation_ballot")
        for voter, target in accusations.items():
            who = self.seats[voter]
            if rule.accusers == "alive" and not who.alive:
                raise MoveError(f"{who.name} is dead and cannot accuse")
            if rule.accusers == "alive" and not who.free:
                raise MoveError(f"{who.name} is a prisoner and cannot accuse")
            self._check_target(voter, target, "accuse")
        self._votes("accuse", accusations)
        in_play = [i for i, s in enumerate(self.seats) if s.alive and s.free]
        everyone = list(range(len(self.seats)))
        result = votes.accusation(
            rule,
            accusations,
            in_play,
            self._reference(),
            len(self.seats),
            accusers=everyone if rule.accusers == "everyone" else in_play,
        )
        suspects = list(result.suspects)
        self.log.append(
            Entry(self.night, "day", "", "suspects", None, tuple(f"seat:{i + 1}" for i in suspects))
        )
        self._suspects = suspects
        if result.dies is not None:
            self.executed = result.dies
            self._die(result.dies, "vote")
        elif not suspects:
            self._log(None, None, "nobody_dies")
        return suspects

    def ballot(self, votes_: dict[int, int | None]) -> int | None:
        """The living who are not suspects vote between the suspects; the most votes is
        put to death (a tie by the ruleset's rule: the Tombstone, the last arrested, or
        nobody)."""
        rule = self._rule("accusation_ballot")
        suspects = self._suspects
        if not suspects and any(t is not None for t in votes_.values()):
            raise MoveError("there is no ballot today: nobody is a suspect")
        for voter, target in votes_.items():
            who = self.seats[voter]
            if not who.alive:
                raise MoveError(f"{who.name} is dead and cannot vote in the ballot")
            if not who.free:
                raise MoveError(f"{who.name} is a prisoner and cannot vote in the ballot")
            if voter in suspects:
                raise MoveError(f"{who.name} is a suspect and cannot vote in the ballot")
            if target is not None and target not in suspects:
                raise MoveError(f"{who.name} votes for {self.seats[target].name}, not a suspect")
        if not suspects:
            return None
        self._votes("ballot", votes_)
        out = votes.verdict(rule, votes_, suspects, self._reference(), len(self.seats))
        self._suspects = []
        if out is None:
            self._log(None, None, "nobody_dies")
            return None
        self.executed = out
        self._die(out, "vote")
        return out

    def _rule(self, kind: str) -> VoteRule:
        outcome = self.ruleset.outcome
        if outcome is None or outcome.vote.kind != kind:
            raise MoveError(f"the ruleset '{self.ruleset.id}' has no {kind} vote")
        return outcome.vote

    def _check_target(self, voter: int, target: int | None, what: str) -> None:
        name = self.seats[voter].name
        if target is None:
            return
        if target == voter:
            raise MoveError(f"{name} cannot {what} themselves")
        if not self.seats[target].alive:
            raise MoveError(f"{name} cannot {what} {self.seats[target].name}, who is dead")
        if not self.seats[target].free:
            raise MoveError(f"{name} cannot {what} {self.seats[target].name}, a prisoner")

    def _votes(self, kind: str, votes: dict[int, int | None]) -> None:
        for voter, target in votes.items():
            self.log.append(
                Entry(
                    night=self.night,
                    step="day",
                    role="",
                    kind=kind,
                    seat=voter,
                    targets=(f"seat:{target + 1}",) if target is not None else (),
                )
            )

    def _reference(self) -> int | None:
        """The seat the tie rule measures from: the last player arrested (Mafia) or
        the Tombstone, the last one out (Lupus); None before there is one."""
        outcome = self.ruleset.outcome
        if outcome is not None and outcome.vote.tie == "last_arrested_nearest":
            return self.last_arrested
        return self.tombstone

    def over(self, moment: str = "death") -> tuple[list[str], list[int]] | None:
        """Whether the game has ended now, and who won: `moment` is "death" (after a
        vote or any death) or "dawn" (the night's dead are known). Games judged
        `any_time` end at either, `day_start` at dawn only, `at_end` never before the
        vote. The game ends once a win rule holds or one of the ruleset's `ends` does
        (then perhaps nobody wins)."""
        outcome = self.ruleset.outcome
        if outcome is None or outcome.judged == "at_end":
            return None
        if outcome.judged == "day_start" and moment != "dawn":
            return None
        teams, seats = self.winners()
        if teams or any(holds(self, p) for p in outcome.ends):
            return teams, seats
        return None

    # -- rounds of turns (Secret Moon): each player acts openly, in turn order ------

    @property
    def turns_played(self) -> int:
        """How many turns of this round have been played."""
        return self._turns

    def begin_round(self) -> int:
        """The next round: what was hidden shows again, every turn is back."""
        self.round += 1
        self._turns = 0
        self.hidden.clear()
        self.disturbed.clear()
        return self.round

    def end_rounds(self) -> None:
        """The last round is over: a game with `rounds_out` is won by that team now."""
        self.rounds_over = True
        self._log(None, None, "rounds_over")

    def action(self, action_id: str) -> Ability:
        for ability in self.ruleset.actions:
            if ability.id == action_id:
                return ability
        known = ", ".join(a.id for a in self.ruleset.actions) or "none"
        raise MoveError(f"there is no action '{action_id}' (the actions: {known})")

    def turn_prompt(self, seat: int, action_id: str) -> Prompt:
        """What `seat` may pick for the action `action_id` on their turn."""
        ability = self.action(action_id)
        who = self.seats[seat]
        card = who.card.identity
        if not (who.alive and who.free):
            raise MoveError(f"{who.name} is out of the game and has no turn")
        if seat in self.disturbed:
            raise MoveError(f"{who.name} was disturbed and has no turn this round")
        if ability.not_by is not None and self.matches(card, ability.not_by):
            raise MoveError(f"{who.name} holds a card that cannot {action_id}")
        if not ability.when.holds(self.chosen(), self.night, self.round, self.options):
            raise MoveError(f"nobody may {action_id} in round {self.round}")
        needs_shown = "capture" in ability.effects
        own_too = any(p.players and not p.other for p in ability.picks)
        options: list[str] = []
        if any(p.players for p in ability.picks):
            options += [
                f"seat:{i + 1}"
                for i, s in enumerate(self.seats)
                if (own_too or i != seat)
                and s.alive
                and s.free
                and ("seat", i) not in self.hidden
                and (not needs_shown or ("seat", i) in self.revealed)
            ]
        if any(p.centre for p in ability.picks):
            options += [
                f"centre:{k + 1}"
                for k in range(len(self.centre))
                if ("centre", k) not in self.hidden
            ]
        if any(p.role for p in ability.picks):
            options += [f"role:{r}" for r in self.ruleset.role_ids]
        sizes = [p.players + p.centre for p in ability.picks]
        return Prompt(
            step=f"r{self.round}",
            ability=ability.id,
            role="",
            min=min(sizes, default=0),
            max=max(sizes, default=0),
            options=tuple(options),
            picks=ability.picks,
        )

    def turn(self, seat: int, action_id: str, choice: list[str]) -> list[Entry]:
        """`seat` takes the action `action_id` on their turn; returns what happened
        (what the actor alone learns is private to them; the rest the table sees)."""
        prompt = self.turn_prompt(seat, action_id)
        ability = self.action(action_id)
        named = [c for c in choice if c.startswith("role:")]
        picked = [c for c in choice if not c.startswith("role:")]
        name = self.seats[seat].name
        for option in named:
            if option not in prompt.options:
                raise MoveError(f"{name} named {option[5:]!r}, which is not a role of this game")
        if any(p.role for p in ability.picks) and len(named) != 1:
            raise MoveError(f"{name} must name one role to {action_id}")
        if not picked and ability.picks:
            raise MoveError(f"{name} must choose whom to {action_id}")
        targets = self._targets(prompt, seat, picked)
        self._turns += 1
        step = Step(f"r{self.round}.{self._turns}", "", self.round)
        before = len(self.log)
        self._log(step, seat, "turn", targets=targets, cards=[n[5:] for n in named], why=action_id)
        effects = ability.effects
        if "see" in effects:
            self._see(step, seat, targets)
        if "answer" in effects:
            (t,) = targets
            card = self.card_at(t).identity
            answer = next((a for a in ability.answers if self.matches(card, a.match)), None)
            index = ability.answers.index(answer) if answer is not None else -1
            self._log(step, t[1], "answer", targets=[t], why=str(index))
            if answer is not None and answer.reveal:
                self._show(step, t)
        if "accuse" in effects:
            (t,) = targets
            guess = named[0][5:]
            right = self.card_at(t).identity == guess
            self._log(step, seat, "accuse_role", targets=[t], cards=[guess], why=str(right).lower())
            self._show(step, t if right else ("seat", seat))
        if "hide" in effects:
            self.hidden.update(targets)
            self._log(step, seat, "hide", targets=targets)
        if "disturb" in effects:
            self.disturbed.update(i for kind, i in targets if kind == "seat")
            self._log(step, seat, "disturb", targets=targets)
        if "capture" in effects:
            for _kind, i in targets:
                self._capture(step, i, by=seat)
        if "self_capture" in effects:
            self._capture(step, seat, by=seat)
        return self.log[before:]

    def _show(self, step: Step, target: tuple[str, int]) -> None:
        """A card is shown to everyone (and stays known)."""
        self.revealed.add(target)
        self._log(step, None, "shown", targets=[target], cards=[self.card_at(target).identity])

    def _capture(self, step: Step, seat: int, by: int) -> None:
        self.seats[seat].free = False
        self._log(step, seat, "captured", targets=[("seat", by)])

    # -- the end -----------------------------------------------------------------

    def winners(self) -> tuple[list[str], list[int]]:
        """The teams whose win rule holds, in the ruleset's order, and their seats."""
        outcome = self.ruleset.outcome
        if outcome is None:
            return [], []
        teams = [r.team for r in outcome.wins if holds(self, r.when)]
        if not teams and self.rounds_over and outcome.rounds_out:
            teams = [outcome.rounds_out]
        teams = list(dict.fromkeys(teams))
        seats = [i for i in range(len(self.seats)) if self.team_of(i) in teams]
        return teams, seats


def _agreed(rule: str, picks: dict[int, int], strength: Callable[[int], int]) -> int | None:
    """A group's one target from its members' picks, by the ruleset's rule."""
    counts = Counter(picks.values())
    if not counts:
        return None
    if rule == "strongest":  # the strongest member who picked; between equals, the first seat
        return picks[min(picks, key=lambda seat: (-strength(seat), seat))]
    if rule == "unanimous":
        return next(iter(counts)) if len(counts) == 1 else None
    top = max(counts.values())
    leaders = [t for t, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else None  # most picks; a tie is nobody


def _pick_words(pick: Pick) -> str:
    if pick.named:
        return " or ".join(pick.named)
    if pick.players:
        return f"{pick.players} other player(s)" if pick.other else f"{pick.players} player(s)"
    return f"{pick.centre} centre card(s)"
