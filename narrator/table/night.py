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
  window never closes early because everyone answered. A call of the whole table
  (everyone looks at their own mark) has the window of its steps in the script
  (`Script.calls`).
- **The same prompt on every phone.** While a window is open every phone gets a
  prompt with the step's id, the same `min`/`max` and options built from the
  role's power (not from the holder): the real one for whoever answers the call, a
  decoy for everyone else, whose answer changes nothing. A power that names players
  by their place (the odd numbers, the neighbour on the left: `among`) or not the
  one just picked (`apart`) is built the same way from each phone's own seat and
  its own last answer, which the whole table knows: a decoy refuses what the real
  one refuses for that reason. The powers are those of the instruction the game
  drew (the same draw the voice spoke).
- **Seats.** A phone is its seat's `SeatIndex`, as in the engine; the options are
  the engine's ids (`seat:N`, `centre:K`, a word), passed to the phones and back
  as they are; a group's picks are named the same way (`seats.option`).
- **Acts.** `act()` checks the prompt id, the options and the count the same way
  for everyone (409 / 400 as `TableError`) and answers with the same shape: what
  the player learned (empty for a decoy), which the phone also keeps in its
  private journal. A group's picks (the pack) may change until the window closes;
  members see each other's picks on their own phones only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import Any

from narrator.moderator import Game as Engine
from narrator.moderator import MoveError, Prompt, Step, Words
from narrator.moderator.board import place_of
from narrator.moderator.night import public_seats
from narrator.rules.powers import Ability
from narrator.script import Script
from narrator.table.errors import TableError
from narrator.table.seats import SeatIndex, option


def prompt_text(words: Words, role: str | None) -> str:
    """What a prompt says: the role called, for its holder; the decoy's line for every
    other phone (`role` None)."""
    if role is None:
        return words.t("Tap a player you trust least.")
    return words.t("{role}: choose.", role=words.role(role))


def label(words: Words, option: str) -> str:
    """An option as the phone shows it: a player's name, a centre card, or a word the
    power offers ("left"), in the table's language."""
    if option.startswith(("seat:", "centre:")):
        return words.who(option)
    return words.t(option)


@dataclass(frozen=True, slots=True)
class Window:
    """Engine step `step` is open while the voice is on script steps first..last."""

    step: Step
    first: int
    last: int


def windows(script: Script, steps: list[Step], engine: Engine | None = None) -> list[Window]:
    """Each engine step with its call in `script`: the k-th run of the role's steps --
    for a role that wakes with another (the Alpha Wolf), whose first turn is that
    role's call, its extra turn k is its own (k-1)-th run; a call of the whole table,
    its steps as the script names them."""
    table_calls = {call_id: (first, last) for call_id, first, last in script.calls}
    runs: dict[str, list[tuple[int, int]]] = {}
    roles = [getattr(s, "role", None) for s in script.steps]
    for role, run in groupby(range(len(roles)), key=roles.__getitem__):
        indices = list(run)
        if role is not None:
            runs.setdefault(role, []).append((indices[0], indices[-1]))
    out = []
    for step in steps:
        if engine is not None and engine.is_call(step.role):
            if step.role in table_calls:
                out.append(Window(step, *table_calls[step.role]))
            continue
        calls = runs.get(step.role, [])
        joins = engine is not None and engine.ruleset.role(step.role).wakes_with is not None
        k = step.turn - 1 if joins else step.turn
        if 0 <= k < len(calls):
            first, last = calls[k]
            out.append(Window(step, first, last))
    return out


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
    # each phone's last answer at a call: what a power `apart` from it leaves out
    last: dict[tuple[str, SeatIndex], list[str]] = field(default_factory=dict)
    real: dict[tuple[str, SeatIndex], str] = field(default_factory=dict)  # a real prompt's role
    picked: dict[tuple[str, SeatIndex], dict[str, Any]] = field(default_factory=dict)  # its line
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
        desk = cls(engine, script, lang, steps, windows(script, steps, engine))
        desk.journal = journal if journal is not None else {}
        desk.logged = len(engine.log)
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
        self.engine.open_step(window.step)
        self._to_journal()

    def _close(self, window: Window) -> None:
        self.engine.close_step(window.step)
        self.closed.add(window.step.id)
        self.open = None
        self._to_journal()

    # -- what a phone sees ----------------------------------------------------------

    def _picking(self, role: str, turn: int | None) -> list[Ability]:
        """The powers of `role` that pick, at its call `turn` (None: at any call), as
        the game's options and deck allow them (both public: the Paranormal
        Investigator's looks by the option). A power's nights are not read here: on a
        night it sleeps its shape is still every phone's (Wherewolf's first night)."""
        engine = self.engine
        chosen, options = engine.chosen(), engine.options
        found = [
            a
            for a in engine.abilities_of(role)
            if a.picks
            and (turn is None or a.turn == turn)
            and replace(a.when, nights=(), from_night=None, until_night=None).holds(
                chosen, 1, None, options
            )
            and a.choice in (-1, engine.drawn_choice(role, a.turn))
        ]
        # powers offered after a word (the Gremlin's cards or marks) are one prompt:
        # those of the first word stand for the others (the same shape)
        first = next((a.if_picked for a in found if a.if_picked), "")
        return [a for a in found if a.if_picked in ("", first)]

    def rounds(self, step: Step) -> int:
        """How many prompts every phone answers at `step`, one after the other: one per
        power of the role's call that picks (the Witch: look, then swap), and after a
        copy as many more as the deck's role she might copy at once has (the
        Doppelganger's follow-ups: the Paranormal Investigator's two looks). The same
        count on every phone, whatever it holds: a decoy answers as often."""
        picking = self._picking(step.role, step.turn)
        follow = 0
        for a in picking:
            if "copy" in a.effects:
                at_once = [r for r in self.engine.chosen() if r not in a.later]
                counts = (len([b for b in self._picking(r, None) if not b.alone]) for r in at_once)
                follow = max([1, *counts])
        return max(1, len(picking) + follow)

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
        words = Words(self.engine, self.lang, phones=True)
        pid = self._prompt_id(step, k)
        text = prompt_text(words, self._holds(step, pid, seat, real))
        return {
            "id": pid,
            "text": text,
            "min": shape.min,
            "max": shape.max,
            "options": [{"id": o, "label": label(words, o)} for o in shape.options],
            # the ways to answer: so many players, or so many centre cards, or a word
            "ways": [
                {"seat": p.players, "centre": p.centre, "named": list(p.named)} for p in shape.picks
            ],
        }

    def _holds(self, step: Step, pid: str, seat: SeatIndex, real: Prompt | None) -> str | None:
        """The role whose real prompt `pid` is on this phone, None for a decoy: what it
        was when first asked, so the holder's prompt does not turn into the decoy's
        once answered (review 2)."""
        if real is not None:
            self.real.setdefault((pid, seat), real.role or step.role)
        return self.real.get((pid, seat))

    def _shape(self, step: Step, seat: SeatIndex, k: int = 0) -> Prompt | None:
        """The prompt number `k` of the step as the role's power shapes it, whoever
        holds the card; after the first, the holder's real one (a follow-up's own
        shape: the copied Seer's look)."""
        real = self.engine.prompt(step, seat)
        if real is not None and (k > 0 or any(p.struck for p in real.picks)):
            # a follow-up, or a choice among those the night struck (the Healer sees
            # who they are here, on her own phone): the holder's real options
            return real
        abilities = self._picking(step.role, step.turn)
        if not abilities:
            return None
        ability = abilities[min(k, len(abilities) - 1)]
        seats: list[int] = []
        if any(p.players for p in ability.picks):
            last = self.last.get((step.id, seat), [])
            previous = place_of(last[0]) if len(last) == 1 else None
            seats = public_seats(self.engine, ability, seat, previous)
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
        if len(set(choose)) != len(choose) or any(c not in shape.options for c in choose):
            raise TableError("an option that was not offered")
        if not shape.min <= len(choose) <= shape.max:
            raise TableError(f"choose from {shape.min} to {shape.max} options")
        if choose and not shape.fits(choose):
            raise TableError("those options are not one of the ways to answer")
        learned: list[str] = []
        real = self.engine.prompt(step, seat)
        self._holds(step, str(prompt_id), seat, real)
        group = self.engine.group_prompt(step, seat) if real is None else None
        group_pick = False
        if (real is not None or group is not None) and done < self.rounds(step):
            try:
                entries = self.engine.act(step, seat, list(choose))
            except MoveError as exc:
                raise TableError(str(exc)) from None
            words = Words(self.engine, self.lang, phones=True)
            learned = [words.journal(e) for e in entries if e.to == seat and e.kind != "chose"]
            learned = [line for line in learned if line]
            group_pick = self.engine.group_prompt(step, seat) is not None
        if not group_pick:  # a group's pick may change until the call ends
            self.answered[key] = done + 1
        self.last[key] = list(choose)
        mine = self.journal.setdefault(seat, [])
        if group_pick and key in self.picked:  # a changed pick: its line, not one more
            old = self.picked.pop(key)
            mine[:] = [item for item in mine if item is not old]
        for line in learned:
            item = {"night": self.engine.night, "text": line}
            mine.append(item)
            if group_pick:
                self.picked[key] = item
        return {"ok": True, "learned": learned}

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
        words = Words(self.engine, self.lang, phones=True)
        for entry in self.engine.log[start:]:
            if entry.to is None or entry.kind in ("chose", "pick"):
                continue
            line = words.journal(entry)
            mine = self.journal.setdefault(SeatIndex(entry.to), [])
            item = {"night": entry.night, "text": line}
            if line and item not in mine:
                mine.append(item)
        self.logged = len(self.engine.log)
