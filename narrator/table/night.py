"""The night on the phones, as pure state: uniform prompts on the voice's clock.

The engine (`narrator.moderator`) knows the night's calls that let someone act
(`Step`, "n1.3", the same on every phone) and what a holder may choose. This module
turns them into what every phone sees, so that nothing tells one card from another:

- **Windows on the voice's clock.** Each engine step is matched to its call in the
  night script the voice plays (the k-th run of script steps spoken to the step's
  role): the window opens when the voice reaches the call's first step and closes
  when it has passed its last one ("close your eyes"). Which script step is being
  heard comes from the session's `PhaseRunner`; the script and the steps depend on
  the deck (public), never on who holds which card, so every window opens and
  closes at the same moment whether the role is dealt, in the centre or dead. A
  window never closes early because everyone answered.
- **The same prompt on every phone.** While a window is open every phone gets a
  prompt with the step's id, the same `min`/`max` and options built from the
  role's power (not from the holder): the real one for whoever answers the call, a
  decoy for everyone else, whose answer changes nothing.
- **Seats.** A phone is its seat's `SeatIndex`, as in the engine; the options are
  the engine's places, sent to the phones in their text form (`seat:N`, `centre:K`,
  a word: `seats.option_id`) and read back from it (`seats.place`); a group's picks
  are named the same way.
- **Acts.** `act()` checks the prompt id, the options and the count the same way
  for everyone (409 / 400 as `TableError`) and answers with the same shape: what
  the player learned (empty for a decoy), which the phone also keeps in its
  private journal, or -- a choice the rules refuse for the card held (a fellow
  agent, a shielded card) -- why (`refused`), in the same shape. A group's picks
  (the pack) may change until the window closes; members see each other's picks on
  their own phones only.
- **A call of two roles.** A role called with another's call (`wakes_with`: the
  Mystic Wolf meets the pack at the werewolves' call) has its steps opened and
  closed in that call's window; its own later calls have their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from narrator.moderator import Game as Engine
from narrator.moderator import MoveError, Place, Prompt, Step, Words
from narrator.script import Script
from narrator.table.errors import TableError
from narrator.table.seats import SeatIndex, option, option_id, place


@dataclass(frozen=True, slots=True)
class Window:
    """Engine step `step` is open while the voice is on script steps first..last;
    `with_`: steps of roles called with this call's (`wakes_with`: the Mystic Wolf
    meets the pack at the werewolves' call), opened and closed with it."""

    step: Step
    first: int
    last: int
    with_: tuple[Step, ...] = ()

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every engine step of the call, in the engine's order."""
        return tuple(sorted((self.step, *self.with_), key=lambda s: _number(s.id)))


def _number(step_id: str) -> int:
    return int(step_id.rpartition(".")[2])


def windows(
    script: Script, steps: list[Step], wakes_with: Mapping[str, str] | None = None
) -> list[Window]:
    """Each engine step with its call in `script`: the k-th run of the role's steps
    -- for a role that wakes with another (`wakes_with`), its main call is that
    role's first run and its own calls follow. Steps of one call share its window."""
    runs: dict[str, list[tuple[int, int]]] = {}
    roles = [getattr(s, "role", None) for s in script.steps]
    for role, run in groupby(range(len(roles)), key=roles.__getitem__):
        indices = list(run)
        if role is not None:
            runs.setdefault(role, []).append((indices[0], indices[-1]))
    host = wakes_with or {}
    placed: dict[tuple[int, int], list[Step]] = {}
    for step in steps:
        if step.role in host:  # its main call is the other's; its own calls after
            calls = runs.get(host[step.role], [])[:1] + runs.get(step.role, [])
        else:
            calls = runs.get(step.role, [])
        if step.turn < len(calls):
            placed.setdefault(calls[step.turn], []).append(step)
    out = []
    for (first, last), together in placed.items():
        called = [s for s in together if roles[first] == s.role] or together
        main = called[0]
        out.append(Window(main, first, last, tuple(s for s in together if s is not main)))
    return sorted(out, key=lambda w: w.first)


@dataclass
class NightDesk:
    """One night's prompts, acts and journals, driven by where the voice is."""

    engine: Engine
    script: Script
    lang: str
    steps: list[Step] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    open: Window | None = None
    closed: set[str] = field(default_factory=set)
    answered: dict[tuple[str, SeatIndex], int] = field(default_factory=dict)  # (step, seat) -> n
    journal: dict[SeatIndex, list[dict[str, Any]]] = field(default_factory=dict)  # the game's
    logged: int = 0  # log entries already put in the journals

    @classmethod
    def begin(
        cls,
        engine: Engine,
        script: Script,
        lang: str,
        journal: dict[SeatIndex, list[dict[str, Any]]] | None = None,
    ) -> NightDesk:
        """The engine's next night; `journal` carries the game's journals over."""
        steps = engine.begin_night()
        desk = cls(engine, script, lang, steps, windows(script, steps, _hosts(engine)))
        desk.journal = journal if journal is not None else {}
        desk.logged = len(engine.log)
        return desk

    # -- saved, and resumed after a restart ---------------------------------------------

    def state(self) -> dict[str, Any]:
        """The night as JSON data, for the saved game's sealed part: which calls are
        done and open, how many prompts each phone has answered at each. (The choices
        themselves are the engine's: its snapshot keeps them; where the voice was is
        the table's, in the clear.)"""
        return {
            "open": None if self.open is None else self.open.step.id,
            "closed": sorted(self.closed),
            "answered": [[step, seat, n] for (step, seat), n in sorted(self.answered.items())],
            "logged": self.logged,
        }

    @classmethod
    def resume(
        cls,
        engine: Engine,
        script: Script,
        lang: str,
        journal: dict[SeatIndex, list[dict[str, Any]]],
        state: dict[str, Any],
    ) -> NightDesk:
        """The night `state` saved, on the engine that was restored with it: the same
        night (its calls are worked out again, not begun again), the same windows
        open and closed, the same answers. A state that does not fit the engine's
        night raises ValueError (a tampered save)."""
        steps = engine.steps()
        desk = cls(engine, script, lang, steps, windows(script, steps, _hosts(engine)))
        desk.journal = journal
        by_id = {w.step.id: w for w in desk.windows}
        ids = {step.id for step in steps}
        opened = state["open"]
        if opened is not None and opened not in by_id:
            raise ValueError(f"the call {opened!r} is not one of this night's")
        desk.open = None if opened is None else by_id[opened]
        desk.closed = {str(c) for c in state["closed"]}
        for step, seat, n in state["answered"]:
            if step not in ids or not isinstance(n, int) or n < 0:
                raise ValueError("an answer to no call of this night")
            desk.answered[(str(step), SeatIndex(int(seat)))] = n
        if not desk.closed <= ids:
            raise ValueError("a call closed that is not one of this night's")
        desk.logged = int(state["logged"])
        if not 0 <= desk.logged <= len(engine.log):
            raise ValueError("a night that does not fit the game")
        return desk

    # -- the voice's clock --------------------------------------------------------

    def at(self, index: int) -> bool:
        """The voice is on script step `index`: open or close windows; True if changed."""
        changed = False
        if self.open is not None and index > self.open.last:
            self._close(self.open)
            changed = True
        if self.open is None:
            for window in self.windows:
                if window.step.id in self.closed:
                    continue
                if window.first <= index <= window.last:
                    self._open(window)
                    return True
                if index > window.last:  # passed without being heard (a skip): closed
                    self._open(window)
                    self._close(window)
                    changed = True
        return changed

    def finish(self) -> None:
        """The night has been heard to the end: every window still open closes."""
        self.at(len(self.script.steps) + 1)  # past every window: each opens and closes

    def _open(self, window: Window) -> None:
        self.open = window
        for step in window.steps:
            self.engine.open_step(step)
        self._to_journal()

    def _close(self, window: Window) -> None:
        for step in window.steps:
            self.engine.close_step(step)
        self.closed.add(window.step.id)
        self.open = None
        self._to_journal()

    # -- what a phone sees ----------------------------------------------------------

    def rounds(self, step: Step) -> int:
        """How many prompts every phone answers at `step`, one after the other: one per
        power of the role's call that picks (the Witch: look, then swap), and one more
        after a copy (the Doppelganger's follow-up as the role she copied). The same
        count on every phone, whatever it holds: a decoy answers as often."""
        powers = self.engine.powers(step.role)
        if powers is None:
            return 1
        picking = [a for a in powers.abilities if a.turn == step.turn and a.picks]
        follow = any("copy" in a.effects for a in picking)
        return max(1, len(picking) + (1 if follow else 0))

    def _round(self, step: Step, seat: SeatIndex) -> int:
        """The prompt this phone is on at `step` (0-based), the last once all are done."""
        return min(self.answered.get((step.id, seat), 0), self.rounds(step) - 1)

    @staticmethod
    def _prompt_id(step: Step, k: int) -> str:
        return step.id if k == 0 else f"{step.id}/{k + 1}"

    def prompt(self, seat: SeatIndex) -> dict[str, Any] | None:
        """The prompt every phone sees now: same id, same options, same shape."""
        window = self.open
        if window is None:
            return None
        step = window.step
        k = self._round(step, seat)
        real = self.engine.prompt(step, seat)
        shape = self._shape(step, seat, k)
        if shape is None:
            return None
        words = Words(self.engine, self.lang)
        role = words.role(real.role if real is not None and real.role else step.role)
        text = (
            words.t("{role}: choose.", role=role)
            if real is not None
            else words.t("Tap a player you trust least.")
        )
        return {
            "id": self._prompt_id(step, k),
            "text": text,
            "min": shape.min,
            "max": shape.max,
            "options": [{"id": option_id(o), "label": words.who(o)} for o in shape.options],
            # the ways to answer: so many players, or so many centre cards, or a word
            "ways": [
                {"seat": p.players, "centre": p.centre, "named": list(p.named)} for p in shape.picks
            ],
        }

    def _shape(self, step: Step, seat: SeatIndex, k: int = 0) -> Prompt | None:
        """The prompt number `k` of the step as the role's power shapes it, whoever
        holds the card; after the first, the holder's real one (a follow-up's own
        shape: the copied Seer's look)."""
        real = self.engine.prompt(step, seat)
        if real is not None and (k > 0 or any(p.struck for p in real.picks)):
            # a follow-up, or a choice among those the night struck (the Healer sees
            # who they are here, on her own phone): the holder's real options
            return real
        powers = self.engine.powers(step.role)
        if powers is None:
            return None
        abilities = [a for a in powers.abilities if a.turn == step.turn and a.picks]
        if not abilities:
            return None
        ability = abilities[min(k, len(abilities) - 1)]
        seats: list[int] = []
        if any(p.players for p in ability.picks):
            own_too = any(p.players and not p.other for p in ability.picks)
            seats = [
                i
                for i, s in enumerate(self.engine.seats)
                if (own_too or i != seat) and s.alive and s.free
            ]
        return self.engine.shape(step, ability, step.role, seats)

    def act(self, seat: SeatIndex, prompt_id: object, choose: object) -> dict[str, Any]:
        """A phone answers: checked alike for every phone, answered in the same shape."""
        window = self.open
        if window is None:
            raise TableError("that prompt is not open now", "refused")
        step = window.step
        key = (step.id, seat)
        done = self.answered.get(key, 0)
        k = min(done, self.rounds(step) - 1)
        if prompt_id != self._prompt_id(step, k):
            raise TableError("that prompt is not open now", "refused")
        shape = self._shape(step, seat, k)
        if shape is None:
            raise TableError("that prompt is not open now", "refused")
        if not isinstance(choose, list) or not all(isinstance(c, str) for c in choose):
            raise TableError("'choose' must be a list of option ids")
        places = _places(choose)
        if len(set(places)) != len(places) or any(p not in shape.options for p in places):
            raise TableError("an option that was not offered")
        if not shape.min <= len(choose) <= shape.max:
            raise TableError(f"choose from {shape.min} to {shape.max} options")
        if places and not shape.fits(places):
            raise TableError("those options are not one of the ways to answer")
        learned: list[str] = []
        real = self.engine.prompt(step, seat)
        group = self.engine.group_prompt(step, seat) if real is None else None
        if group is not None and self._same_pick(step, seat, places):
            group = None  # the pick it has (a phone sending it again): nothing changes
        group_pick = False
        if (real is not None or group is not None) and done < self.rounds(step):
            try:
                entries = self.engine.act(step, seat, places)
            except MoveError as exc:
                # refused by the rules for this card (a fellow agent, a shielded card):
                # answered in the shape of any answer, so the phone's answer tells
                # nothing; the prompt stays open to answer again
                return {"ok": False, "learned": [], "refused": str(exc)}
            words = Words(self.engine, self.lang)
            learned = [words.journal(e) for e in entries if e.to == seat and e.kind != "chose"]
            learned = [line for line in learned if line]
            group_pick = self.engine.group_prompt(step, seat) is not None
        if not group_pick:  # a group's pick may change until the call ends
            self.answered[key] = done + 1
        for line in learned:
            self.journal.setdefault(seat, []).append({"night": self.engine.night, "text": line})
        return {"ok": True, "learned": learned, "refused": None}

    def _same_pick(self, step: Step, seat: SeatIndex, places: list[Place]) -> bool:
        """A group member's answer is the pick they have now (or, as now, none)."""
        now = self.engine.group_picks(step).get(seat)
        return [p.index for p in places if p.is_seat] == ([] if now is None else [now])

    def picks(self, seat: SeatIndex) -> dict[str, str]:
        """A group's picks in the open window, shown to its members only."""
        window = self.open
        if window is None:
            return {}
        picks = self.engine.group_picks(window.step)
        if seat not in picks:
            return {}
        return {option(SeatIndex(m)): option(SeatIndex(t)) for m, t in picks.items()}

    def _to_journal(self) -> None:
        """What a window's close told its seats (the pack agreed, a chance pick)."""
        start = self.logged
        words = Words(self.engine, self.lang)
        for entry in self.engine.log[start:]:
            if entry.to is None or entry.kind in ("chose", "pick"):
                continue
            line = words.journal(entry)
            mine = self.journal.setdefault(SeatIndex(entry.to), [])
            item = {"night": entry.night, "text": line}
            if line and item not in mine:
                mine.append(item)
        self.logged = len(self.engine.log)


def _places(choose: list[str]) -> list[Place]:
    """A phone's answer read back as places; text that names none was not offered."""
    try:
        return [place(c) for c in choose]
    except TableError:
        raise TableError("an option that was not offered") from None


def _hosts(engine: Engine) -> dict[str, str]:
    """Each role called with another role's call: role -> that role."""
    return {r.id: r.wakes_with for r in engine.ruleset.roles if r.wakes_with}
