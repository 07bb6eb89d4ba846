"""Every line a game can say: what a voice pack records, in the order it is read.

A night or a day says the lines its ruleset wrote -- the calls, the timers' warnings,
the countdown -- filled in ({night}, {round}, {turn}), alone or several joined into
one utterance (the lines of a call whose condition holds, a Doppelganger's recap of
the roles chosen). The unit a speaker records is one such line, so that whatever deck
is dealt, every utterance is recorded lines in a row: `LineBook.split` finds them.

`every_line(ruleset, plan)` lists them: first the lines of the plan's own deck, night
then day, in the order the table hears them (a speaker can stop there and play
tonight), then every other line the ruleset can say. Both come from the script
builder itself (`_Context`): for the rest it is run with every role chosen, every
condition holding and every random choice taken, so no line is missed and none is
invented. A line with a player's name is said only by the phones' table, from its
own words; it is never recorded (the pack's voice falls back to the default voice).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from narrator.rules import Ruleset
from narrator.rules.model import Call, Condition, Turn
from narrator.script.builder import _PLACEHOLDER, _Context
from narrator.script.model import Say, Step, Timer
from narrator.script.plan import Plan, check_plan

NIGHTS = 10  # a ruleset whose lines name the night: nights 1 to this are recorded


class _Collector(_Context):
    """The builder, remembering which lines each utterance joins; with `every`, every
    condition holds (but `never`) and every random choice is said."""

    def __init__(self, ruleset: Ruleset, plan: Plan, *, every: bool) -> None:
        super().__init__(ruleset, plan)
        self.every = every
        self.parts: dict[str, tuple[str, ...]] = {}
        self.placeholders: set[str] = set()
        self.extra: list[str] = []  # the random choices not drawn
        if every:
            self.terse = False

    def holds(self, when: Condition) -> bool:
        return not when.never if self.every else super().holds(when)

    def fill(self, text: str) -> str:
        self.placeholders.update(m.group(1) for m in _PLACEHOLDER.finditer(text))
        return super().fill(text)

    def spoken_parts(self, call: Call) -> list[str]:
        parts = super().spoken_parts(call)
        self.parts[" ".join(parts)] = tuple(parts)
        return parts

    def recap_parts(self, turn: Turn) -> list[str]:
        parts = super().recap_parts(turn)
        self.parts[" ".join(parts)] = tuple(parts)
        return parts

    def chosen_line(self, role_id: str | None, turn: Turn) -> str:
        if self.every:
            for choice in turn.choices:
                self.extra.append(self.spoken(choice))
        return super().chosen_line(role_id, turn)

    def lines(self, steps: Sequence[Step]) -> Iterator[str]:
        """The recorded lines `steps` say, in order."""
        for text in [*spoken(steps), *self.extra]:
            yield from self.parts.get(text, (text,))


def spoken(steps: Iterable[Step]) -> Iterator[str]:
    """Every utterance of `steps`, in order: says, timers' warnings and ends."""
    for step in steps:
        if isinstance(step, Say):
            yield step.text
        elif isinstance(step, Timer):
            yield from (w.text for w in step.warnings)
            if step.end:
                yield step.end


def _pass(ruleset: Ruleset, plan: Plan, *, every: bool) -> tuple[list[str], set[str]]:
    night = _Collector(ruleset, replace(plan, phase="night"), every=every)
    day = _Collector(ruleset, replace(plan, phase="day"), every=every)
    lines = [*night.lines(night.night()), *day.lines(day.day())]
    return lines, night.placeholders | day.placeholders


def deck_lines(ruleset: Ruleset, plan: Plan) -> tuple[str, ...]:
    """The distinct lines of `plan`'s deck: its first nights and days, as heard."""
    check_plan(ruleset, plan)
    found: dict[str, None] = {}
    for night in (1,) if ruleset.nights == 1 else (1, 2):
        lines, _ = _pass(ruleset, replace(plan, night=night), every=False)
        found.update(dict.fromkeys(lines))
    return tuple(line for line in found if line.strip())


def every_line(ruleset: Ruleset, plan: Plan) -> tuple[str, ...]:
    """Each distinct line `ruleset` can say in `plan.lang`: the lines of `plan`'s deck
    first (`deck_lines`), then the rest. SelectionError for a plan the builder
    refuses (a language the ruleset lacks)."""
    found = dict.fromkeys(deck_lines(ruleset, plan))
    everyone = replace(plan, roles=tuple((role, 1) for role in ruleset.role_ids), options=())
    lines, placeholders = _pass(ruleset, everyone, every=True)
    found.update(dict.fromkeys(lines))
    last = ruleset.nights or NIGHTS
    more_nights = range(2, min(last, NIGHTS) + 1) if "night" in placeholders else range(2, 3)
    setup = ruleset.setup
    counts = (
        range(setup.min_players, setup.max_players + 1)
        if "players" in placeholders
        else (plan.players,)
    )
    for players in counts:
        for night in (1, *more_nights):
            if ruleset.nights == 1 and night > 1:
                break
            lines, _ = _pass(ruleset, replace(everyone, night=night, players=players), every=True)
            found.update(dict.fromkeys(lines))
    return tuple(line for line in found if line.strip())


class LineBook:
    """Recorded lines, and how an utterance is made of them."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = frozenset(lines)
        self._by_word: dict[str, list[str]] = {}
        for line in sorted(self._lines, key=len, reverse=True):
            self._by_word.setdefault(line.split(" ", 1)[0], []).append(line)

    def __contains__(self, text: object) -> bool:
        return text in self._lines

    def __len__(self) -> int:
        return len(self._lines)

    def split(self, text: str) -> tuple[str, ...] | None:
        """`text` as recorded lines joined by single spaces (the fewest lines), or None
        when some part of it was never recorded."""
        if text in self._lines:
            return (text,)
        n = len(text)
        best: dict[int, tuple[str, ...]] = {n: ()}
        starts = [0, *(i + 1 for i, c in enumerate(text) if c == " ")]
        for start in reversed(starts):
            word = text[start:].split(" ", 1)[0]
            for line in self._by_word.get(word, ()):
                end = start + len(line)
                if not text.startswith(line, start):
                    continue
                rest = n if end == n else end + 1
                if end < n and text[end] != " ":
                    continue
                after = best.get(rest)
                if after is not None and (start not in best or len(after) + 1 < len(best[start])):
                    best[start] = (line, *after)
        return best.get(0)
