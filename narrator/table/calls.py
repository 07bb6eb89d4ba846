"""Which script steps each of the engine's night steps is heard at: its window.

The engine knows the night's calls that let someone act (`Step`, "n1.3"); the voice
plays the night script. Each engine step is matched to its call in the script -- the
k-th run of script steps spoken to the step's role -- and is open on the phones
while the voice is on that run (`night.NightDesk`). Two things of the ruleset shape
the match (`calls`): a role called with another's call (`wakes_with`: the Mystic
Wolf meets the pack at the werewolves' call -- in the engine that call is one step,
the lead role's, answered by both -- and looks at his own call after: his extra
turn k is his own (k-1)-th run), and a role a copy plays at her own call after the
role's (the Doppelganger's follow-ups, "if you copied the Insomniac, wake up": the
window runs on through that call, the copies' part of it). A call of the whole
table (everyone looks at their own mark: `night: calls:`) is one engine step named
by the call's id, open while the voice is on that call's steps (`Script.calls`).
The script and the steps depend on the deck (public), never on who holds which card.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from itertools import groupby

from narrator.moderator import Game as Engine
from narrator.moderator import Step
from narrator.script import Script


@dataclass(frozen=True, slots=True)
class CallWindow:
    """Engine step `step` is open while the voice is on script steps first..last."""

    step: Step
    first: int
    last: int
    # the copies' own call, right after this one (the Doppelganger who copied the
    # Insomniac, called again "if you copied the Insomniac"): they act there
    later: tuple[int, int] | None = None

    @property
    def end(self) -> int:
        """The last script step of the window: its call's, or the copies' call's."""
        return self.later[1] if self.later is not None else self.last


def windows(
    script: Script,
    steps: list[Step],
    wakes_with: Mapping[str, str] | None = None,
    copied_later: Mapping[str, Collection[str]] | None = None,
    table_calls: Collection[str] = (),
) -> list[CallWindow]:
    """Each engine step with its call in `script`: the k-th run of the role's steps
    -- for a role that wakes with another (`wakes_with`), whose first turn is that
    role's call (the engine's step of it), its extra turn k is its own (k-1)-th run.
    A role a copy plays later (`copied_later`: role -> the roles that copy it so) whose
    call is followed by one copier's own call has that call as the copies' (`later`). A
    step of a call of the whole table (`table_calls`: their ids) has that call's
    steps, as the script names them."""
    spans = {call_id: (first, last) for call_id, first, last in script.calls}
    runs: dict[str, list[tuple[int, int]]] = {}
    order: list[tuple[str | None, int, int]] = []
    roles = [getattr(s, "role", None) for s in script.steps]
    for role, run in groupby(range(len(roles)), key=roles.__getitem__):
        indices = list(run)
        order.append((role, indices[0], indices[-1]))
        if role is not None:
            runs.setdefault(role, []).append((indices[0], indices[-1]))
    joins = wakes_with or {}
    copier = copied_later or {}
    out = []
    for step in steps:
        if step.role in table_calls:
            if step.role in spans:
                out.append(CallWindow(step, *spans[step.role]))
            continue
        calls = runs.get(step.role, [])
        k = step.turn - 1 if step.role in joins else step.turn
        if not 0 <= k < len(calls):
            continue
        first, last = calls[k]
        later = None
        if step.turn == 0 and step.role in copier:
            after = [(r, f, t) for r, f, t in order if f > last and r is not None][:1]
            if after and after[0][0] in copier[step.role]:
                later = (after[0][1], after[0][2])
        out.append(CallWindow(step, first, last, later))
    return sorted(out, key=lambda w: w.first)


def calls(engine: Engine, script: Script, steps: list[Step]) -> list[CallWindow]:
    """The night's windows, with what the ruleset says of its calls: the roles called
    with another's (`wakes_with`), those a copy plays at her own call (`later`), and
    the calls of the whole table."""
    roles = engine.ruleset.roles
    hosts = {r.id: r.wakes_with for r in roles if r.wakes_with}
    copied: dict[str, set[str]] = {}
    for role in roles:
        for ability in role.powers.abilities if role.powers else ():
            if "copy" in ability.effects:
                for later in ability.later:  # the Copycat's too, who acts at every call
                    copied.setdefault(later, set()).add(role.id)
    table_calls = {step.role for step in steps if engine.is_call(step.role)}
    return windows(script, steps, hosts, copied, table_calls)
