"""The game being set up and played: a small pure-python controller.

Widgets show it and call its methods; they never hold game state themselves. All
rules come from the core (`check_selection`, `recommended`, `build_script`), so the
app can never accept a selection the command line would refuse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from narrator.rules import (
    Dealing,
    Report,
    Role,
    Ruleset,
    SelectionError,
    check_selection,
    dealing,
    describe_dealing,
    recommended,
)
from narrator.rules.draw import random_deck
from narrator.script import Plan, Script, build_script, timed_turns
from narrator.script.defaults import PACE, WAKE_GAP
from narrator.script.model import Phase

Roles = tuple[tuple[str, int], ...]


@dataclass
class GameSetup:
    """Players, chosen roles, language and times; and which night we are on."""

    ruleset: Ruleset
    players: int
    counts: dict[str, int] = field(default_factory=dict)
    lang: str = "en"
    night: int = 1
    pace: float = PACE
    wake_gap: float = WAKE_GAP  # seconds after a wake call (the settings'), scaled by pace
    action_times: dict[str, float] = field(default_factory=dict)
    turn_seconds: float | None = None  # rounds: None = the ruleset's, 0 = wait for a key
    boxes: tuple[str, ...] = ()  # the boxes the table owns; () = every box
    options: dict[str, float] = field(default_factory=dict)  # the ruleset's options
    phones: bool = False  # the cards are on the players' phones: their lines (Plan.phones)
    # Random choices of the night (an Alien's instruction) come from this: one per game.
    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(2**31))

    @classmethod
    def start(cls, ruleset: Ruleset, lang: str = "en", pace: float = PACE) -> GameSetup:
        """A new game at the smallest sensible table, with its recommended deck."""
        low = ruleset.setup.min_players
        players = min(max(low, 5), ruleset.setup.max_players)
        game = cls(ruleset, players, lang=lang if lang in ruleset.languages else "", pace=pace)
        if not game.lang:
            game.lang = ruleset.languages[0]
        game.boxes = tuple(b for b, _ in ruleset.boxes[:1])  # the first box, until told
        game.recommend()
        return game

    # -- what the screen shows ---------------------------------------------------------
    @property
    def title(self) -> str:
        return self.ruleset.name.get(self.lang)

    @property
    def roles(self) -> Roles:
        return tuple((r, self.counts[r]) for r in self.ruleset.role_ids if self.counts.get(r))

    @property
    def cards(self) -> int:
        return sum(self.counts.values())

    def report(self, lang: str = "en") -> Report:
        """The checks of this choice, in `lang` (the app's language)."""
        return check_selection(self.ruleset, self.players, self.roles, lang)

    def dealing(self) -> Dealing:
        return dealing(self.ruleset, self.players, self.roles)

    @property
    def valid(self) -> bool:
        return self.report().ok

    @property
    def many_nights(self) -> bool:
        return self.ruleset.nights != 1

    @property
    def has_next_night(self) -> bool:
        return self.ruleset.nights is None or self.night < self.ruleset.nights

    def name(self, role_id: str) -> str:
        return self.ruleset.role(role_id).name.get(self.lang)

    def owns(self, box: str) -> bool:
        return not self.boxes or box in self.boxes

    def set_boxes(self, boxes: tuple[str, ...]) -> None:
        """The boxes the table owns; chosen roles from other boxes are put back."""
        known = [b for b, _ in self.ruleset.boxes]
        self.boxes = tuple(b for b in known if b in boxes)
        for role_id in list(self.counts):
            if not self.owns(self.ruleset.role(role_id).box):
                del self.counts[role_id]

    def apply_choices(self, boxes: tuple[str, ...] | None, options: dict[str, float]) -> None:
        """The boxes owned and the options chosen (unknown ones dropped); a recommended
        deck follows the boxes."""
        if boxes is not None and self.ruleset.boxes:
            follow = self.is_recommended()
            self.set_boxes(boxes or self.boxes)
            if follow or not self.counts:
                self.recommend()
        known = {o.id for o in self.ruleset.options}
        self.options = {k: v for k, v in options.items() if k in known}

    def deck_box(self) -> str | None:
        """Whose recommended decks to use: the first owned box that has any."""
        for box, _ in self.ruleset.boxes:
            if self.owns(box) and any(d.box == box for d in self.ruleset.setup.decks):
                return box
        return None

    def groups(self) -> list[tuple[str, list[Role]]]:
        """The roles by box (the boxes owned) if the ruleset has boxes, else by team."""
        if self.ruleset.boxes:
            return [
                (name.get(self.lang), [r for r in self.ruleset.roles if r.box == box])
                for box, name in self.ruleset.boxes
                if self.owns(box)
            ]
        out = []
        for team, _ in self.ruleset.teams:
            members = [r for r in self.ruleset.roles if r.team == team]
            if members:
                out.append((self.ruleset.team_name(team, self.lang), members))
        return out

    # -- editing -----------------------------------------------------------------------
    def set_players(self, players: int) -> None:
        setup = self.ruleset.setup
        self.players = max(setup.min_players, min(setup.max_players, players))

    def set_count(self, role_id: str, count: int) -> None:
        most = self.ruleset.role(role_id).max_count
        self.counts[role_id] = max(0, min(most, count))
        if not self.counts[role_id]:
            del self.counts[role_id]

    def change_count(self, role_id: str, delta: int) -> None:
        """+1/-1; roles that come in pairs move by two."""
        step = 2 if role_id in self.ruleset.setup.pairs else 1
        self.set_count(role_id, self.counts.get(role_id, 0) + delta * step)

    def set_action_time(self, key: str, seconds: float) -> None:
        """`key`: a role id (its own turn) or a follow-up's turn key ("doppelganger:1b")."""
        self.action_times[key] = max(0.0, min(600.0, seconds))

    def is_recommended(self) -> bool:
        try:
            roles, _ = recommended(self.ruleset, self.players, self.deck_box())
        except SelectionError:
            return False
        return dict(roles) == self.counts

    def recommend(self) -> str | None:
        """Use the recommended deck; a sentence when there is none for this count."""
        try:
            roles, discard = recommended(self.ruleset, self.players, self.deck_box())
        except SelectionError as exc:
            return str(exc)
        self.counts = dict(roles)
        if discard:
            return describe_dealing(self.ruleset, self.dealing(), self.roles, self.lang)
        return None

    def random_pick(self, rng: random.Random) -> bool:
        """A random deck within the rules (rules.draw: from the boxes the table owns,
        or keeping the recommended deck's team sizes), different from the one now."""
        for _ in range(20):
            try:
                deck = random_deck(self.ruleset, self.players, self.boxes, rng)
            except SelectionError:
                return False
            if dict(deck) != self.counts:
                self.counts = dict(deck)
                return True
        return False

    # -- scripts -----------------------------------------------------------------------
    def plan(self, phase: Phase) -> Plan:
        return Plan(
            players=self.players,
            roles=self.roles,
            night=self.night,
            lang=self.lang,
            phase=phase,
            action_times=tuple(sorted(self.action_times.items())),
            pace=self.pace,
            wake_gap=self.wake_gap,
            turn_seconds=self.turn_seconds if self.ruleset.rounds is not None else None,
            seed=self.seed,
            options=tuple(sorted(self.options.items())),
            phones=self.phones,
        )

    def script(self, phase: Phase) -> Script:
        return build_script(self.ruleset, self.plan(phase))

    def timed_turns(self) -> tuple[str, ...]:
        """The turn key (see `set_action_time`) of each role-timed pause of the night."""
        return timed_turns(self.ruleset, self.plan("night"))

    def next_night(self) -> None:
        if not self.has_next_night:
            raise SelectionError(f"{self.title} has no night {self.night + 1}")
        self.night += 1
