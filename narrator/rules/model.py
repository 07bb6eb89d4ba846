"""The ruleset model: frozen dataclasses that can express all five game systems.

Nothing here reads files; `loader.py` turns YAML into these values and nothing after
the loader sees a raw dict. The shapes come from what the games need:

- a `Turn` is one call of the night (wake, what to do, action time, close eyes); a
  role has one main turn and may have extra turns elsewhere in the order (One
  Night's Doppelganger at 1b and 9b);
- a `Condition` decides whether a turn or a line is used, from the chosen roles and
  the night or round number only -- never from who is dead or what is in the
  centre, so a night can never give that away;
- the day is a discussion timer and a vote (`countdown`: One Night's "three, two,
  one, point"; `accusation_ballot`: accusation, defence, secret ballot);
- Secret Moon's rounds of numbered turns are `Rounds`;
- the mechanisms One Night's boxes brought, kept general: `Option`s the table sets
  (a condition may ask for one), `Token`s a role brings to the table (shields,
  marks, artifacts), calls of the whole table at a place in the order (everyone
  looks at their mark), a turn that speaks one of several `choices` drawn from the
  plan's seed (the Alien's instructions, the Oracle's question), and `Recap`: a
  role that may stand in for others says their actions in its own turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from narrator.rules.flow import Flow
    from narrator.rules.powers import Ability, Outcome, Powers


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence in several languages: `(("en", "..."), ("it", "..."))`, and maybe
    its phones' variant: the same sentence for a table whose cards are dealt on the
    players' phones ("tap a player on your phone" where the table's says "point at a
    player"), in the same languages; () when it says the same either way."""

    values: tuple[tuple[str, str], ...]
    phones: tuple[tuple[str, str], ...] = ()

    def get(self, lang: str, *, phones: bool = False) -> str:
        """The sentence in `lang`; with `phones`, its phones' variant where it has one."""
        for code, text in self.phones if phones and self.phones else self.values:
            if code == lang:
                return text
        raise KeyError(lang)

    def languages(self) -> frozenset[str]:
        return frozenset(code for code, _ in self.values)


@dataclass(frozen=True, slots=True)
class Condition:
    """When a turn or a line applies. Every field that is set must hold."""

    chosen: tuple[str, ...] = ()  # all of these roles are chosen
    not_chosen: tuple[str, ...] = ()  # none of these is chosen
    any_chosen: tuple[str, ...] = ()  # at least one of these is chosen
    nights: tuple[int, ...] = ()  # only on these nights
    from_night: int | None = None
    until_night: int | None = None
    rounds: tuple[int, ...] = ()  # only in these rounds (round-based play)
    options: tuple[str, ...] = ()  # all of these options are on
    not_options: tuple[str, ...] = ()  # none of these options is on
    never: bool = False

    def holds(
        self,
        chosen: frozenset[str],
        night: int,
        round_: int | None = None,
        options: frozenset[str] = frozenset(),
    ) -> bool:
        if self.never:
            return False
        if any(o not in options for o in self.options):
            return False
        if any(o in options for o in self.not_options):
            return False
        if any(r not in chosen for r in self.chosen):
            return False
        if any(r in chosen for r in self.not_chosen):
            return False
        if self.any_chosen and not any(r in chosen for r in self.any_chosen):
            return False
        if self.nights and night not in self.nights:
            return False
        if self.from_night is not None and night < self.from_night:
            return False
        if self.until_night is not None and night > self.until_night:
            return False
        return not (self.rounds and round_ not in self.rounds)

    def role_ids(self) -> tuple[str, ...]:
        return self.chosen + self.not_chosen + self.any_chosen


ALWAYS = Condition()


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence of a call, used only when its condition holds."""

    text: Text
    when: Condition = ALWAYS


# A call is the lines spoken together as one utterance (joined with a space).
Call = tuple[Line, ...]


@dataclass(frozen=True, slots=True, order=True)
class Order:
    """A place in the night: One Night's 9 then 9b. Sorts by number, letter, then.

    Numbers may be negative (One Night's dusk, -9 to 0, comes before night 1);
    `then` places a step right after another one with the same number and letter
    (a Doppelganger's follow-up after the role she copied: `after: insomniac`).
    """

    number: int
    sub: str = ""
    then: int = 0

    def __str__(self) -> str:
        return f"{self.number}{self.sub}" + (f".{self.then}" if self.then else "")


@dataclass(frozen=True, slots=True)
class Turn:
    """One call of the night: wake, what to do, the action time, close eyes."""

    order: Order
    when: Condition
    wake: Call
    act: Call
    close: Call
    action_time: float
    main: bool = True  # the role's own turn (per-role action-time overrides apply)
    complex: bool = False  # a per-role timer option gives this turn twice the time
    choices: tuple[Call, ...] = ()  # one is drawn per game from the plan's seed
    recap: Recap | None = None


@dataclass(frozen=True, slots=True)
class Recap:
    """Lines said in a turn for each chosen role of `roles`: `{name}`, `{act}` filled.

    One Night's verbose Doppelganger: "if you are now the Seer: <the Seer's act>".
    """

    roles: tuple[str, ...]
    line: Text
    when: Condition = ALWAYS


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    name: Text
    team: str
    max_count: int
    turns: tuple[Turn, ...] = ()
    wakes_with: str | None = None  # woken in that role's turn (werewolves together)
    note: Text | None = None
    # what the phone's card says the role does, in place of its calls' text (the
    # Hunter's shot, the Tanner's aim: rules no call speaks)
    card: Text | None = None
    line: int = 0
    box: str = ""  # the box (expansion) the card comes in; "" = the ruleset has none
    # What the role does (`does:`, `tags:`, `on_death:`); None: nothing the engine runs.
    powers: Powers | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """A choice the table makes before the game (lone wolf, terse narration...).

    `kind` flag: on or off; seconds: a number. `effect` names what the builder does
    with it beyond conditions: `terse` leaves out every turn's `act` lines,
    `action_time` gives every turn that many seconds (twice for complex turns).
    """

    id: str
    label: Text
    kind: Literal["flag", "seconds"] = "flag"
    default: float = 0.0  # flags: 1.0 on, 0.0 off
    effect: Literal["", "terse", "action_time"] = ""
    help: Text | None = None


@dataclass(frozen=True, slots=True)
class Token:
    """A token some roles bring to the table (a shield, a mark, an artifact).

    A mark or an artifact is also the engine's (`kind`): a mark lies in front of a
    player, an artifact on a player's card, drawn from a stack shuffled at the deal
    (those whose `when` holds). `becomes`: its holder counts as that role at the end
    (a mark: for winning only, the card's own powers kept; an artifact: for winning
    and for the vote, the card's powers lost). `help`: what its holder is told.
    `everyone`: a mark every player starts with (the Mark of Clarity). `wakes`:
    False -- a player who has looked at this mark in front of them does not wake for
    their role's calls from then on (the Mark of Fear)."""

    id: str
    name: Text
    count: int
    roles: tuple[str, ...]  # needed when any of these is chosen
    kind: Literal["", "mark", "artifact"] = ""
    becomes: str = ""
    help: Text | None = None
    when: Condition = ALWAYS
    everyone: bool = False
    wakes: bool = True


@dataclass(frozen=True, slots=True)
class StepSpec:
    """A step of everyone (opening and closing of a night, the day's frame)."""

    kind: Literal["say", "pause", "cue", "wait"]
    when: Condition = ALWAYS
    text: Text | None = None  # say, wait
    seconds: float = 0.0  # pause
    sound: str = ""  # cue
    # A wait the table must hear (eyes closed): its text is spoken as it begins.
    spoken: bool = False
    # A wait may offer a way round what follows: `branch` is what the button says,
    # `branch_to` the part of the day it jumps to ("closing": night falls at once).
    branch: Text | None = None
    branch_to: Literal["closing"] | None = None


@dataclass(frozen=True, slots=True)
class TimeWarning:
    """A spoken warning during a timed stage ("one minute left"), `at` seconds left
    (not the built-in `Warning`, which the old name shadowed)."""

    at: float
    text: Text


@dataclass(frozen=True, slots=True)
class Timed:
    """A timed stage of the day (discussion, defence) with spoken warnings."""

    seconds: float
    label: Text
    start: Call = ()
    warnings: tuple[TimeWarning, ...] = ()
    end: Call = ()
    first_day_seconds: float | None = None  # a shorter (or longer) first day


@dataclass(frozen=True, slots=True)
class SpokenCount:
    """A spoken count ("three, two, one") then the signal ("point!")."""

    announce: Call
    counts: tuple[Text, ...]
    go: Call
    interval: float = 1.0
    ready: tuple[StepSpec, ...] = ()  # between the announce and the count


@dataclass(frozen=True, slots=True)
class Vote:
    style: Literal["countdown", "accusation_ballot"]
    tie_rule: Text
    ballot: SpokenCount
    result: Text  # what the table does after the signal (shown while waiting)
    accusation: Call = ()
    # What happens between the accusation and the defence (the table counts the
    # accusations); empty: one wait showing the tie rule.
    accusation_wait: tuple[StepSpec, ...] = ()
    defence: Timed | None = None
    line: int = field(default=0, compare=False)  # of its `style`


@dataclass(frozen=True, slots=True)
class Day:
    opening: tuple[StepSpec, ...]
    discussion: Timed | None
    vote: Vote | None
    closing: tuple[StepSpec, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Night:
    opening: tuple[StepSpec, ...]
    closing: tuple[StepSpec, ...]
    gap: float = 1.0  # silence between one turn's "close your eyes" and the next call
    calls: tuple[tuple[str, Turn], ...] = ()  # calls of the whole table, in the order
    # what a call of the whole table lets everyone do (`does:` on the call: everyone
    # looks at their own mark), by the call's id
    powers: tuple[tuple[str, Powers], ...] = ()


@dataclass(frozen=True, slots=True)
class Rounds:
    """Secret Moon: rounds of numbered turns after the opening call."""

    count: int
    turns: int
    turn_seconds: float | None  # None: each turn waits for the user
    round_start: Call  # may use {round}
    turn_call: Call  # may use {turn} and {round}
    round_end: Call = ()
    reminders: Call = ()  # lines with `rounds:` conditions
    end: Call = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Need:
    """`role` needs one of `any_of` chosen too; an error or just a warning."""

    role: str
    any_of: tuple[str, ...]
    level: Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Requirement:
    """Every deck must hold one of `any_of` (a side's indispensable role).

    `what` names them in the ruleset's own words (a team, or the roles), and
    `because` says why the game cannot do without them; a `warning` only warns
    (One Night: the werewolves may all lie in the centre).
    """

    any_of: tuple[str, ...]
    level: Literal["error", "warning"]
    because: Text
    team: str | None = None
    what: Text | None = None  # how to name them, when not the team or the roles


@dataclass(frozen=True, slots=True)
class Deck:
    """A recommended deck for a range of player counts.

    The deck is `base`, then ids from `add_in_order` one at a time until it holds
    players + extra cards + `discard`; `discard` cards are then removed unseen,
    taken only from `discard_from` when that is set: one of those roles, each as
    likely, then one card of it (Secret Moon with 5 players: the Priestess or a
    Guard, half and half, never the Princess or the Minister).
    """

    min_players: int
    max_players: int
    base: tuple[tuple[str, int], ...]
    add_in_order: tuple[str, ...] = ()
    discard: int = 0
    line: int = 0
    box: str = ""  # recommended for tables that own this box (and the ones before it)
    discard_from: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Setup:
    min_players: int
    max_players: int
    extra_min: int = 0  # cards = players + extra, extra in [extra_min, extra_max]
    extra_max: int = 0
    warn_over_factor: float | None = None  # warn when cards > players * factor
    pairs: tuple[str, ...] = ()
    needs: tuple[Need, ...] = ()
    required: tuple[str, ...] = ()
    decks: tuple[Deck, ...] = ()
    must_contain: tuple[Requirement, ...] = ()


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name: Text
    languages: tuple[str, ...]
    nights: int | None  # None: as many nights as the game lasts
    teams: tuple[tuple[str, Text], ...]
    roles: tuple[Role, ...]
    setup: Setup
    night: Night
    day: Day
    rounds: Rounds | None = None
    description: Text | None = None
    boxes: tuple[tuple[str, Text], ...] = ()
    options: tuple[Option, ...] = ()
    tokens: tuple[Token, ...] = ()
    # How the vote kills and who wins, for the engine (`outcome:`); None: not modelled.
    outcome: Outcome | None = None
    # What any player may do on their turn (Secret Moon's `actions:`), for the engine.
    actions: tuple[Ability, ...] = ()
    path: Path | None = field(default=None, compare=False)
    # What happens after the night, read once from the parts above (`flow.py`).
    flow: Flow = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        from narrator.rules.flow import build_flow  # flow.py reads this module

        object.__setattr__(self, "flow", build_flow(self))

    def role(self, role_id: str) -> Role:
        for role in self.roles:
            if role.id == role_id:
                return role
        raise KeyError(role_id)

    @property
    def role_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.roles)

    def option(self, option_id: str) -> Option:
        for option in self.options:
            if option.id == option_id:
                return option
        raise KeyError(option_id)

    def role_nights(self, role_id: str) -> tuple[int | None, int | None]:
        """The first and last night the role is called: (1, 1) first night only,
        (2, None) from the second night on, (None, None) never.

        A role that wakes with another (the Pack Leader with the werewolves) has
        that role's nights; conditions on the chosen roles are not counted.
        """
        role = self.role(role_id)
        if role.wakes_with is not None:
            role = self.role(role.wakes_with)
        main = [t.when for t in role.turns if t.main and not t.when.never]
        if not main:
            return None, None
        firsts: list[int] = []
        lasts: list[int | None] = []
        for when in main:
            first = max(min(when.nights, default=1), when.from_night or 1)
            ends = [n for n in (max(when.nights, default=None), when.until_night) if n]
            last = min(ends) if ends else None
            if last is not None and last < first:
                continue
            firsts.append(first)
            lasts.append(last)
        if not firsts:
            return None, None
        until = None if None in lasts else max(n for n in lasts if n is not None)
        return min(firsts), until

    def team_name(self, team: str, lang: str) -> str:
        for team_id, name in self.teams:
            if team_id == team:
                return name.get(lang)
        return team
