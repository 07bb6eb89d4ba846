"""The game a moderator would hold in their head: seats, cards, the log -- and the
commands the phones and `narrator replay` drive it with.

`Game` is pure state and commands -- no I/O, no clock, no randomness of its own (a
`random.Random` is passed in for the choices an idle phone leaves to chance). Every
rule it applies comes from the ruleset's data (`rules.powers`): what a role does
(`does:`), its tags, what its death does (`on_death:`), how the vote kills and who
wins (`outcome:`). No ruleset or role id is written here.

The class holds the state shared by every part and reads the cards; each command
is one line handing over to the module of its concern:

- `night.py` -- the calls, who answers them, prompts and choices (`Tonight`);
- `effects.py` -- what each power does, one function per effect, in listed order;
- `dawn.py` -- what the night's kills, protections and arrests come to (`Pending`);
- `day.py` -- the vote, the accusation and the ballot (`DayMemory`);
- `rounds.py` -- Secret Moon's turns (`RoundState`);
- `snapshot.py` -- the game saved as JSON data and read back;
- `wins.py` -- who won, from `outcome.wins`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from narrator.i18n.phrase import Phrase
from narrator.moderator import calls as calls_
from narrator.moderator import dawn as dawn_
from narrator.moderator import day as day_
from narrator.moderator import night as night_
from narrator.moderator import rounds as rounds_
from narrator.moderator import sides, wins
from narrator.moderator import snapshot as snapshot_
from narrator.moderator.board import Card, MoveError, Place, Prompt, Seat, Step
from narrator.moderator.day import DayMemory
from narrator.moderator.log import Cause, Entry, Kind
from narrator.moderator.night import Tonight
from narrator.moderator.rounds import RoundState
from narrator.moderator.sides import Side, Tokens
from narrator.rules.chance import drawn_choice
from narrator.rules.model import Ruleset
from narrator.rules.powers import Ability, Match, Powers


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
    shielded: set[int] = field(default_factory=set)  # cards nobody may move or look at
    spent: set[tuple[int, str]] = field(default_factory=set)  # (seat, "role.power") once
    tonight: Tonight = field(default_factory=Tonight)
    day: DayMemory = field(default_factory=DayMemory)
    rounds: RoundState = field(default_factory=RoundState)
    tokens: Tokens = field(default_factory=Tokens)  # marks, artifacts, who was turned
    # what the engine drew by chance, nobody choosing (a side for a Nostradamus card
    # nobody looked with), in order; a replay gives them back (`to_draw`)
    drawn: list[str] = field(default_factory=list)
    to_draw: list[str] = field(default_factory=list)
    # what the turns' `choices` are drawn from: the seed the voice's script was built
    # with (`Plan.seed`), so the engine applies the choice the voice spoke
    seed: int | None = None

    # -- set up, save, restore -----------------------------------------------------

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
        artifacts: Sequence[str] | None = None,
        drawn: Sequence[str] = (),
        seed: int | None = None,
    ) -> Game:
        """A game with `cards[i]` dealt to `players[i]` and `centre` left unseen; a
        role's spare card lies after the centre, and the artifacts' stack is
        `artifacts` (top first), else shuffled from `rng` (`sides.deal`). `seed` is
        the voice's: which of a turn's `choices` the game plays."""
        if len(cards) != len(players):
            raise MoveError(f"{len(players)} players but {len(cards)} cards dealt")
        for role_id in (*cards, *centre):
            ruleset.role(role_id)  # KeyError: unknown role
        seats = [Seat(n, Card(c), c, c) for n, c in zip(players, cards, strict=True)]
        game = cls(
            ruleset, seats, [Card(c) for c in centre], options=options, rng=rng or random.Random(0)
        )
        sides.deal(game, artifacts, game.rng)
        game.to_draw = list(drawn)
        game.seed = seed
        return game

    def snapshot(self) -> dict[str, Any]:
        """The game as plain JSON data, between two calls (`snapshot.py`)."""
        return snapshot_.snapshot(self)

    @classmethod
    def from_snapshot(
        cls, ruleset: Ruleset, data: dict[str, Any], rng: random.Random | None = None
    ) -> Game:
        """The game `snapshot` wrote; a tampered save raises (ValueError, TypeError,
        KeyError)."""
        return snapshot_.restore(cls, ruleset, data, rng)

    # -- reading the cards ---------------------------------------------------------

    def powers(self, role_id: str) -> Powers | None:
        """A role's powers, or those of a call of the whole table (by its id)."""
        for call_id, powers in self.ruleset.night.powers:
            if call_id == role_id:
                return powers
        return self.ruleset.role(role_id).powers

    def is_call(self, step_role: str) -> bool:
        """Whether a step is a call of the whole table (everyone looks at their mark)."""
        return any(call_id == step_role for call_id, _ in self.ruleset.night.powers)

    def call_name(self, step: Step, lang: str = "en") -> str:
        """A step's call in words, for a refusal: "the Seer's call", "the call 'marks'"."""
        if self.is_call(step.role):
            return f"the call '{step.role}'"
        return f"the {self.ruleset.role(step.role).name.get(lang)}'s call"

    def drawn_choice(self, role_id: str, turn: int) -> int | None:
        """Which of the `choices` of `role_id`'s turn `turn` (0 its own call, 1.. its
        extra turns) this game plays: the voice's draw (`rules.chance`), or None."""
        role = self.ruleset.role(role_id)
        own = [t for t in role.turns if t.main]
        extra = [t for t in role.turns if not t.main]
        found = own if turn == 0 else extra[turn - 1 : turn]
        if not found or not found[0].choices:
            return None
        return drawn_choice(self.seed, role_id, found[0].order, len(found[0].choices))

    def abilities_of(self, role_id: str) -> tuple[Ability, ...]:
        powers = self.powers(role_id)
        return powers.abilities if powers else ()

    def ability(self, role_id: str, ability_id: str) -> Ability:
        return next(a for a in self.abilities_of(role_id) if a.id == ability_id)

    def acts_as(self, role_id: str) -> str:
        """The role whose call and powers a card answers: its own, or its `does_as`."""
        powers = self.powers(role_id)
        return powers.does_as if powers is not None and powers.does_as else role_id

    def matches(self, role_id: str, match: Match) -> bool:
        """Whether a role (a card's) matches; a mark or an artifact is never a card's."""
        if match.mark or match.artifact:
            return False
        if match.role:
            return role_id == match.role
        if match.team:
            return self.ruleset.role(role_id).team == match.team
        powers = self.powers(role_id)
        return bool(powers and match.tag in powers.tags)

    def strength(self, seat: int) -> int:
        powers = self.powers(self.seats[seat].card.identity)
        return powers.strength if powers is not None else 0

    def side(self, seat: int) -> Side:
        """Whom the player counts as at the end (`sides.py`: artifact, mark, turned,
        then the card)."""
        return sides.side(self, seat)

    def counts(self, seat: int, match: Match) -> bool:
        """Whether the player matches by their side, their mark or their artifact."""
        return sides.counts(self, seat, match)

    def team_of(self, seat: int) -> str:
        return sides.side(self, seat).team

    def chosen(self) -> frozenset[str]:
        """The roles of the deck, wherever the cards lie now (a role's spare card is
        not one of them)."""
        cards = [*(s.card for s in self.seats), *self.centre]
        return frozenset(c.role for c in cards if not c.spare)

    def chance(self, choices: Sequence[str]) -> str:
        """One of `choices` drawn by chance where nobody chooses: from `rng`, or the
        next of a replay's draws (`to_draw`); kept in `drawn`."""
        if self.to_draw:
            value = self.to_draw.pop(0)
            if value not in choices:
                raise MoveError(f"the draw '{value}' is not one of: {', '.join(choices)}")
        else:
            value = self.rng.choice(list(choices))
        self.drawn.append(value)
        return value

    def card_at(self, target: Place) -> Card:
        return self.seats[target.index].card if target.is_seat else self.centre[target.index]

    def put(self, target: Place, card: Card) -> None:
        if target.is_seat:
            self.seats[target.index].card = card
        else:
            self.centre[target.index] = card

    def describe(self, place: Place) -> Phrase | str:
        """A place in words, for a refusal: a player's name, centre card K."""
        if place.is_seat and 0 <= place.index < len(self.seats):
            return self.seats[place.index].name
        if place.is_centre:
            return Phrase("centre card {k}", k=place.index + 1)
        return repr(place.kind)

    # -- writing the log -----------------------------------------------------------

    def record(
        self,
        step: Step | None,
        seat: int | None,
        kind: Kind,
        *,
        targets: Sequence[Place] = (),
        cards: Sequence[str] = (),
        private: bool = False,
        why: str = "",
    ) -> None:
        """Append one entry: `private` to `seat` (its journal) or the table's."""
        role = calls_.role_of(self, step, seat) if step and seat is not None else ""
        self.log.append(
            Entry(
                night=step.night if step else self.night,  # a turn: its round
                step=step.id if step else "",
                role=role,
                kind=kind,
                seat=seat,
                targets=tuple(targets),
                cards=tuple(cards),
                to=seat if private else None,
                why=str(why),
            )
        )

    def die(self, seat: int, cause: Cause, by: int | None = None) -> None:
        """`seat` leaves the game, for `cause` (shot `by` someone)."""
        self.seats[seat].alive = False
        self.dead_order.append(seat)
        self.day.tombstone = seat
        card = self.seats[seat].card.identity
        self.log.append(
            Entry(
                night=self.night,
                step="day",
                role=card,
                kind="death",
                seat=seat,
                targets=(Place.seat(by),) if by is not None else (),
                cards=(card,),
                why=str(cause),
            )
        )

    def show(self, step: Step, target: Place) -> None:
        """A card is shown to everyone (and stays known)."""
        self.rounds.revealed.add(target)
        self.record(step, None, "shown", targets=[target], cards=[self.card_at(target).identity])

    def capture(self, step: Step, seat: int, by: int) -> None:
        """`seat` is out of the game, alive (Secret Moon's capture)."""
        self.seats[seat].free = False
        self.record(step, seat, "captured", targets=[Place.seat(by)])

    # -- the night (night.py, effects.py, dawn.py) -----------------------------------

    def begin_night(self) -> list[Step]:
        """Start the next night; its steps in call order."""
        return night_.begin(self)

    def steps(self) -> list[Step]:
        """Every call of a role with powers, in the ruleset's order, for the chosen roles."""
        return calls_.steps(self)

    def actors(self, step: Step) -> list[int]:
        """The seats answering `step` (cards as at dusk), holders before copies."""
        return calls_.actors(self, step)

    def open_step(self, step: Step) -> None:
        """Apply what the step's actors learn without choosing (the pack, the Masons)."""
        night_.open_step(self, step)

    def prompt(self, step: Step, seat: int) -> Prompt | None:
        """The choice `seat` may make now at `step`, or None."""
        return night_.prompt(self, step, seat)

    def shape(self, step: Step, ability: Ability, role: str, seats: Sequence[int]) -> Prompt:
        """The prompt of `ability` at `step` with `seats` (0-based) to choose among."""
        return night_.shape(self, step, ability, role, seats)

    def act(self, step: Step, seat: int, choice: Sequence[Place]) -> list[Entry]:
        """`seat` answers its prompt at `step`; returns what it learns (also logged)."""
        return night_.act(self, step, seat, choice)

    def group_prompt(self, step: Step, seat: int) -> Prompt | None:
        """The group choice `seat` made at `step` and may still change until the call
        ends (the wolves' victim), or None."""
        return self.tonight.group_prompts.get((step.id, seat))

    def group_picks(self, step: Step) -> dict[int, int]:
        """Each member's pick in the groups choosing at `step` (seat -> seat, 0-based)."""
        return night_.group_picks(self, step)

    def close_step(self, step: Step) -> None:
        """The call ends: a choice nobody made is nothing, or chance where it is owed."""
        night_.close_step(self, step)

    def random_choice(self, prompt: Prompt) -> list[Place]:
        """A legal answer drawn at random (what an idle phone's mandatory power does)."""
        return night_.random_choice(self, prompt)

    def struck(self) -> list[int]:
        """The players a kill waiting for dawn has struck tonight, in seat order."""
        return night_.struck(self)

    def dawn(self) -> list[int]:
        """Apply the night's dawn effects: who died or was arrested, in order."""
        return dawn_.dawn(self)

    # -- the day (day.py) ------------------------------------------------------------

    @property
    def tombstone(self) -> int | None:
        """The last player out (Lupus's tie rule)."""
        return self.day.tombstone

    def vote(self, votes: dict[int, int | None]) -> list[int]:
        """Everyone points at once; returns the seats that die, in order."""
        return day_.vote(self, votes)

    def accuse(self, accusations: dict[int, int | None]) -> list[int]:
        """Everyone who may accuses; returns the suspects for the ballot (none when
        the accusation alone put someone to death)."""
        return day_.accuse(self, accusations)

    def ballot(self, votes: dict[int, int | None]) -> int | None:
        """The ballot between the suspects; returns who is put to death, or None."""
        return day_.ballot(self, votes)

    def remove(self, seat: int) -> None:
        """The table takes a player out by hand (someone leaves the game): a death the
        rules did not cause."""
        if self.seats[seat].alive:
            self.die(seat, Cause.REMOVED)

    # -- rounds of turns (rounds.py) ---------------------------------------------------

    @property
    def round(self) -> int:
        return self.rounds.number

    @property
    def turns_played(self) -> int:
        """How many turns of this round have been played."""
        return len(rounds_.played(self))

    def has_turn(self, seat: int) -> bool:
        """Whether `seat` may still take a turn this round (in play, not disturbed,
        not played): public, whatever their card."""
        return rounds_.has_turn(self, seat)

    def begin_round(self) -> int:
        """The next round: what was hidden shows again, every turn is back."""
        return rounds_.begin(self)

    def end_rounds(self) -> None:
        """The last round is over: a game with `rounds_out` is won by that team now."""
        rounds_.end(self)

    def action(self, action_id: str) -> Ability:
        return rounds_.action(self, action_id)

    def turn_prompt(self, seat: int, action_id: str) -> Prompt:
        """What `seat` may pick for the action `action_id` on their turn."""
        return rounds_.turn_prompt(self, seat, action_id)

    def turn(
        self, seat: int, action_id: str, choice: Sequence[Place], role: str | None = None
    ) -> list[Entry]:
        """`seat` takes the action `action_id` on their turn, on the places `choice`
        (naming `role`, for an accusation); returns what happened."""
        return rounds_.turn(self, seat, action_id, choice, role)

    # -- the end (wins.py) -------------------------------------------------------------

    def winners(self) -> tuple[list[str], list[int]]:
        """The teams whose win rule holds, in the ruleset's order, and their winners."""
        return wins.winners(self)

    def ended(self) -> bool:
        """Whether a win rule or one of the ruleset's `ends` holds now."""
        outcome = self.ruleset.outcome
        if outcome is None:
            return False
        return bool(self.winners()[0]) or any(wins.holds(self, p) for p in outcome.ends)

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
        return self.winners() if self.ended() else None
