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
  Mystic Wolf, the Alpha Wolf meet the pack at the werewolves' call) is the engine's
  one step of that call (`moderator/night.py`); its own later calls are steps of
  their own, each at its own call in the script (`calls.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from narrator.i18n.phrase import Phrase
from narrator.moderator import Game as Engine
from narrator.moderator import MoveError, Place, Prompt, Step, Words
from narrator.moderator.board import parse_place
from narrator.moderator.night import public_seats
from narrator.rules.powers import Ability
from narrator.script import Script
from narrator.table.calls import CallWindow, calls
from narrator.table.errors import TableError
from narrator.table.seats import SeatIndex, option, option_id, place

# A tap that reaches the table after its call closed (or before it opened)
LATE = Phrase("that prompt is not open now")


def prompt_text(words: Words, role: str | None) -> str:
    """What a prompt says: the role called, for its holder; the decoy's line for every
    other phone (`role` None)."""
    if role is None:
        return words.t("Tap a player you trust least.")
    return words.t("{role}: choose.", role=words.role(role))


@dataclass
class NightDesk:
    """One night's prompts, acts and journals, driven by where the voice is."""

    engine: Engine
    script: Script
    lang: str
    steps: list[Step] = field(default_factory=list)
    windows: list[CallWindow] = field(default_factory=list)
    open: CallWindow | None = None
    closed: set[str] = field(default_factory=set)
    answered: dict[tuple[str, SeatIndex], int] = field(default_factory=dict)  # (step, seat) -> n
    # each phone's last answer at a call: what a power `apart` from it leaves out
    last: dict[tuple[str, SeatIndex], list[Place]] = field(default_factory=dict)
    real: dict[tuple[str, SeatIndex], str] = field(default_factory=dict)  # a real prompt's role
    # a group member's pick's line in their journal (a changed pick replaces it)
    picked: dict[tuple[str, SeatIndex], dict[str, Any]] = field(default_factory=dict)
    journal: dict[SeatIndex, list[dict[str, Any]]] = field(default_factory=dict)  # the game's
    logged: int = 0  # log entries already put in the journals
    opened_at: int = 0  # the log's length when the open window opened
    index: int = -1  # the script step the voice is on

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
        desk = cls(engine, script, lang, steps, calls(engine, script, steps))
        desk.journal = journal if journal is not None else {}
        desk.logged = len(engine.log)
        return desk

    # -- saved, and resumed after a restart ---------------------------------------------

    def state(self) -> dict[str, Any]:
        """The night as JSON data, for the saved game's sealed part: which calls are
        done and open, how many prompts each phone has answered at each. (The choices
        themselves are the engine's: its snapshot keeps them; where the voice was is
        the table's, in the clear), each phone's last answer at a call (what a power
        `apart` from it leaves out), which role a phone's real prompt was for, and
        which journal line is a group member's pick."""
        return {
            "open": None if self.open is None else self.open.step.id,
            "closed": sorted(self.closed),
            "answered": [[step, seat, n] for (step, seat), n in sorted(self.answered.items())],
            "last": [
                [step, seat, [option_id(p) for p in places]]
                for (step, seat), places in sorted(self.last.items())
            ],
            "real": [[pid, seat, role] for (pid, seat), role in sorted(self.real.items())],
            "picked": [
                [step, seat, self._line_at(seat, item)]
                for (step, seat), item in sorted(self.picked.items())
                if self._line_at(seat, item) >= 0
            ],
            "logged": self.logged,
            "opened_at": self.opened_at,
        }

    def _line_at(self, seat: SeatIndex, item: dict[str, Any]) -> int:
        """Where `item` is in `seat`'s journal (-1: not there)."""
        mine = self.journal.get(seat, [])
        return next((i for i, line in enumerate(mine) if line is item), -1)

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
        desk = cls(engine, script, lang, steps, calls(engine, script, steps))
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
        for step, seat, chosen in state.get("last", []):  # saved by an older narrator: none
            if step not in ids or not isinstance(chosen, list):
                raise ValueError("an answer to no call of this night")
            desk.last[(str(step), SeatIndex(int(seat)))] = [parse_place(str(c)) for c in chosen]
        if not desk.closed <= ids:
            raise ValueError("a call closed that is not one of this night's")
        for pid, seat, role in state.get("real", []):  # saved by an older narrator: none
            if str(pid).partition("/")[0] not in ids or str(role) not in engine.ruleset.role_ids:
                raise ValueError("a prompt of no call of this night")
            desk.real[(str(pid), SeatIndex(int(seat)))] = str(role)
        for step, seat, at in state.get("picked", []):
            mine = journal.get(SeatIndex(int(seat)), [])
            if step not in ids or not 0 <= int(at) < len(mine):
                raise ValueError("a pick's line that is not in the journal")
            desk.picked[(str(step), SeatIndex(int(seat)))] = mine[int(at)]
        desk.logged = int(state["logged"])
        desk.opened_at = int(state.get("opened_at", desk.logged))
        if not 0 <= desk.opened_at <= desk.logged <= len(engine.log):
            raise ValueError("a night that does not fit the game")
        return desk

    # -- the voice's clock --------------------------------------------------------

    def at(self, index: int) -> bool:
        """The voice is on script step `index`: open or close windows (or, in a window
        with the copies' own call, go on to it); True if changed."""
        before, self.index = self.index, index
        changed = False
        window = self.open
        if window is not None and index > window.end:
            self._close(window)
            changed = True
        elif window is not None and window.later and before < window.later[0] <= index:
            self._to_copies(window)  # the copies' call: their prompt, what they learned
            return True
        if self.open is None:
            for window in self.windows:
                if window.step.id in self.closed:
                    continue
                if window.first <= index <= window.end:
                    self._open(window)
                    return True
                if index > window.end:  # passed without being heard (a skip): closed
                    self._open(window)
                    self._close(window)
                    changed = True
        return changed

    def finish(self) -> None:
        """The night has been heard to the end: every window still open closes."""
        self.at(len(self.script.steps) + 1)  # past every window: each opens and closes

    def _open(self, window: CallWindow) -> None:
        self.open = window
        self.opened_at = len(self.engine.log)
        self.engine.open_step(window.step)
        self._to_journal()

    def _close(self, window: CallWindow) -> None:
        self.engine.close_step(window.step)
        self._to_journal()
        if window.later is not None:
            self._to_copies(window)
        self.closed.add(window.step.id)
        self.open = None

    # -- a copy's own call (the Doppelganger's follow-up) -----------------------------

    def _copy(self, step: Step, seat: SeatIndex) -> bool:
        """`seat` answers `step` as a copy of the role (not as its card's holder)."""
        engine = self.engine
        return engine.acts_as(engine.seats[seat].dealt) != step.role

    def _stage(self, window: CallWindow) -> int:
        """0: the role's own call; 1: the copies' call after it."""
        later = window.later
        return 1 if later is not None and self.index >= later[0] else 0

    def _hidden(self, window: CallWindow, seat: SeatIndex) -> bool:
        """Whether `seat`'s real prompt waits (a copy, until her call) or is over (a
        holder, once the copies' call has come): the phone shows the decoy."""
        if window.later is None:
            return False
        return self._copy(window.step, seat) != (self._stage(window) == 1)

    def _to_copies(self, window: CallWindow) -> None:
        """What the copies learned as the role's call opened: in their journals now,
        at their own call."""
        self._to_journal(since=self.opened_at, copies=True)

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

    def _round(self, window: CallWindow, seat: SeatIndex) -> int:
        """The prompt this phone is on in `window` (0-based), the last once all are
        done; at the copies' call, the one after the role's (on every phone)."""
        step = window.step
        if self._stage(window) == 1:
            return self.rounds(step)
        return min(self.answered.get((step.id, seat), 0), self.rounds(step) - 1)

    def _real(self, window: CallWindow, seat: SeatIndex) -> Prompt | None:
        """The holder's real prompt now, or None (nothing to choose, or not yet)."""
        return None if self._hidden(window, seat) else self.engine.prompt(window.step, seat)

    @staticmethod
    def _prompt_id(step: Step, k: int) -> str:
        return step.id if k == 0 else f"{step.id}/{k + 1}"

    def prompt(self, seat: SeatIndex) -> dict[str, Any] | None:
        """The prompt every phone sees now: same id, same options, same shape."""
        window = self.open
        if window is None:
            return None
        step = window.step
        k = self._round(window, seat)
        real = self._real(window, seat)
        shape = self._shape(step, seat, k, real)
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
            "options": [{"id": option_id(o), "label": words.who(o)} for o in shape.options],
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

    def _shape(self, step: Step, seat: SeatIndex, k: int, real: Prompt | None) -> Prompt | None:
        """The prompt number `k` of the step as the role's power shapes it, whoever
        holds the card; after the first, the holder's real one (`real`: a follow-up's
        own shape, the copied Seer's look)."""
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
            previous = last[0] if len(last) == 1 else None
            seats = public_seats(self.engine, ability, seat, previous)
        return self.engine.shape(step, ability, step.role, seats)

    def act(self, seat: SeatIndex, prompt_id: object, choose: object) -> dict[str, Any]:
        """A phone answers: checked alike for every phone, answered in the same shape."""
        window = self.open
        if window is None:
            raise TableError(LATE, "refused")
        step = window.step
        key = (step.id, seat)
        done = self.answered.get(key, 0)
        k = self._round(window, seat)
        if prompt_id != self._prompt_id(step, k):
            raise TableError(LATE, "refused")
        real = self._real(window, seat)
        shape = self._shape(step, seat, k, real)
        if shape is None:
            raise TableError(LATE, "refused")
        if not isinstance(choose, list) or not all(isinstance(c, str) for c in choose):
            raise TableError("'choose' must be a list of option ids")
        places = _places(choose)
        if len(set(places)) != len(places) or any(p not in shape.options for p in places):
            raise TableError(Phrase("an option that was not offered"))
        if not shape.min <= len(choose) <= shape.max:
            raise TableError(
                Phrase("choose from {least} to {most} options", least=shape.min, most=shape.max)
            )
        if places and not shape.fits(places):
            raise TableError(Phrase("those options are not one of the ways to answer"))
        learned: list[str] = []
        self._holds(step, str(prompt_id), seat, real)
        hidden = self._hidden(window, seat)
        group = self.engine.group_prompt(step, seat) if real is None and not hidden else None
        if group is not None and self._same_pick(step, seat, places):
            group = None  # the pick it has (a phone sending it again): nothing changes
        group_pick = False
        if (real is not None or group is not None) and done < k + 1:
            try:
                entries = self.engine.act(step, seat, places)
            except MoveError as exc:
                # refused by the rules for this card (a fellow agent, a shielded card):
                # answered in the shape of any answer, so the phone's answer tells
                # nothing; the prompt stays open to answer again
                return {"ok": False, "learned": [], "refused": exc.say(self.lang)}
            words = Words(self.engine, self.lang, phones=True)
            learned = [words.journal(e) for e in entries if e.to == seat and e.kind != "chose"]
            learned = [line for line in learned if line]
            group_pick = self.engine.group_prompt(step, seat) is not None
        if not group_pick:  # a group's pick may change until the call ends
            self.answered[key] = max(done, k) + 1
        self.last[key] = places
        mine = self.journal.setdefault(seat, [])
        if group_pick and key in self.picked:  # a changed pick: its line, not one more
            old = self.picked.pop(key)
            mine[:] = [item for item in mine if item is not old]
        for line in learned:
            item = {"night": self.engine.night, "text": line}
            mine.append(item)
            if group_pick:
                self.picked[key] = item
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

    def _to_journal(self, since: int | None = None, copies: bool = False) -> None:
        """What a window told its seats (the pack agreed, a chance pick, a look) into
        their journals; a copy's, in a window with her own call, waits for it
        (`copies`: now it comes, from the log since `since`)."""
        start = self.logged if since is None else since
        window = self.open
        waiting = window is not None and window.later is not None and self._stage(window) == 0
        words = Words(self.engine, self.lang, phones=True)
        for entry in self.engine.log[start:]:
            if entry.to is None or entry.kind in ("chose", "pick"):
                continue
            to = SeatIndex(entry.to)
            if (
                window is not None
                and window.later is not None
                and (
                    (waiting and not copies and self._copy(window.step, to))
                    or (copies and not self._copy(window.step, to))
                )
            ):
                continue
            line = words.journal(entry)
            mine = self.journal.setdefault(to, [])
            item = {"night": entry.night, "text": line}
            if line and item not in mine:
                mine.append(item)
        if since is None:
            self.logged = len(self.engine.log)


def _places(choose: list[str]) -> list[Place]:
    """A phone's answer read back as places; text that names none was not offered."""
    try:
        return [place(c) for c in choose]
    except TableError:
        raise TableError(Phrase("an option that was not offered")) from None
