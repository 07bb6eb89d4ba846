"""build_script(): from a ruleset and a plan to the ordered steps of a night or a day.

A pure function. The plan holds only what the table chose -- players, roles, night
number, language, pace -- and nothing about the game's state: there is no way to
tell the builder who is dead or which cards lie in the centre, so a night can never
give that away. Every possible role is called whether or not its card is in play.
"""

from __future__ import annotations

import re
from dataclasses import replace

from narrator.i18n import gettext
from narrator.rules import (
    Ruleset,
    SelectionError,
    check_selection,
)
from narrator.rules.chance import drawn_choice
from narrator.rules.flow import Accuse, Part, Steps, Talk, Turns
from narrator.rules.model import Call, Condition, SpokenCount, StepSpec, Text, Timed, Turn
from narrator.script.model import (
    Choice,
    Cue,
    Pause,
    Say,
    Script,
    Step,
    Timer,
    TimerWarning,
    Wait,
)
from narrator.script.plan import Plan, check_plan

_PLACEHOLDER = re.compile(r"\{(night|players|round|turn)\}")
# Where a wait's branch may go, as a placeholder index until the day is built.
_BRANCH_TARGETS = {"closing": -1}


def turn_key(role_id: str | None, turn: Turn) -> str:
    """What an action-time override is keyed by: the role id for a role's own turn,
    `role:<order>` for a follow-up (the Doppelganger's 1b is "doppelganger:1b").

    A role's own key is what settings saved before follow-ups could be timed used."""
    role = role_id or ""
    return role if turn.main else f"{role}:{turn.order}"


def timed_turns(ruleset: Ruleset, plan: Plan) -> tuple[str, ...]:
    """The turn key of each role-timed pause of the night, in the script's order."""
    ctx = _Context(ruleset, plan)
    ctx.night()
    return tuple(ctx.timed)


def spoken_call(
    ruleset: Ruleset, plan: Plan, call: Call, *, round_: int | None = None, turn: int | None = None
) -> str:
    """`call` as a script of `plan` says it in this round and at this turn: the lines
    whose condition holds (chosen roles, night, round, options), their {night},
    {players}, {round} and {turn} filled -- for a front end that calls a ruleset's
    lines itself (the phones' table, round by round), so it says what the script does."""
    context = _Context(ruleset, plan)
    context.round, context.turn = round_, turn
    return context.spoken(call)


def day_timer(ruleset: Ruleset, plan: Plan, phase: str) -> Timer | None:
    """The timer the day script runs in the flow's phase `phase` (the discussion in
    "day", the defence in "defence"), as the script has it (the first day's length,
    the table's own discussion length, the warnings that fit, the end line); None
    when that phase has no timer. Addressed by name, never by its place in the day."""
    flow = ruleset.flow
    talk = flow.phase(phase).timer if flow.has(phase) else None
    if talk is None:
        return None
    seconds = plan.discussion_seconds if talk.name == "discussion" else None
    step = _Context(ruleset, plan).timer(talk.timed, seconds)[-1]
    assert isinstance(step, Timer)
    return step


def build_script(ruleset: Ruleset, plan: Plan) -> Script:
    """The script of `plan.phase` of night (or day) `plan.night`; SelectionError if invalid."""
    check_plan(ruleset, plan)
    report = check_selection(ruleset, plan.players, plan.roles)
    if report.errors:
        raise SelectionError(report.errors[0])
    ctx = _Context(ruleset, plan)
    steps = ctx.night() if plan.phase == "night" else ctx.day()
    if plan.phase == "night":
        night = gettext(plan.lang, "Night {night}").format(night=plan.night)
        ctx.stages = [night] * len(steps)
    order = {r: i for i, r in enumerate(ruleset.role_ids)}
    defaults = {o.id: o.default for o in ruleset.options}
    return Script(
        ruleset=ruleset.id,
        phase=plan.phase,
        night=plan.night,
        lang=plan.lang,
        players=plan.players,
        roles=tuple(sorted(plan.roles, key=lambda rc: order.get(rc[0], len(order)))),
        steps=tuple(steps),
        warnings=report.warnings,
        rounds=ruleset.rounds is not None,
        stages=tuple(ctx.stages),
        seed=plan.seed,
        choices=tuple(ctx.choices),
        options=tuple((k, v) for k, v in plan.options if defaults.get(k) != v),
        calls=tuple(ctx.calls),
    )


class _Context:
    def __init__(self, ruleset: Ruleset, plan: Plan):
        self.ruleset = ruleset
        self.plan = plan
        self.lang = plan.lang
        self.chosen = frozenset(r for r, n in plan.roles if n > 0)
        self.overrides = dict(plan.action_times)
        values = {o.id: o.default for o in ruleset.options} | dict(plan.options)
        self.options = frozenset(k for k, v in values.items() if v)
        self.terse = any(o.effect == "terse" and o.id in self.options for o in ruleset.options)
        self.role_timer = max(
            (values[o.id] for o in ruleset.options if o.effect == "action_time"), default=0.0
        )
        self.choices: list[Choice] = []
        self.round: int | None = None
        self.stages: list[str] = []  # the stage of each step, in the plan's language
        self.turn: int | None = None
        self.timed: list[str] = []  # the turn key of each role's timed pause, in order
        self.calls: list[tuple[str, int, int]] = []  # a table call's id, first and last step

    def holds(self, when: Condition) -> bool:
        return when.holds(self.chosen, self.plan.night, self.round, self.options)

    # -- text --------------------------------------------------------------------

    def fill(self, text: str) -> str:
        values = {
            "night": str(self.plan.night),
            "players": str(self.plan.players),
            "round": str(self.round or ""),
            "turn": str(self.turn or ""),
        }
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text)

    def words(self, text: Text) -> str:
        """A ruleset's text in the plan's language, in its phones' words when the plan
        plays on the phones (`Text.phones`)."""
        return self.fill(text.get(self.lang, phones=self.plan.phones))

    def spoken(self, call: Call) -> str:
        """The lines of a call whose condition holds, as one utterance."""
        return " ".join(self.spoken_parts(call))

    def spoken_parts(self, call: Call) -> list[str]:
        """Each line of a call whose condition holds (`spoken` joins them)."""
        return [self.words(line.text) for line in call if self.holds(line.when)]

    def say(self, call: Call, role: str | None) -> list[Step]:
        text = self.spoken(call)
        return [Say(text, role, self.round, self.turn)] if text else []

    def spec(self, specs: tuple[StepSpec, ...]) -> list[Step]:
        out: list[Step] = []
        for spec in specs:
            if not self.holds(spec.when):
                continue
            if spec.kind == "say" and spec.text is not None:
                out.append(Say(self.words(spec.text), None, self.round, self.turn))
            elif spec.kind == "wait" and spec.text is not None:
                text = self.words(spec.text)
                if spec.spoken:  # the table may have its eyes closed: say it first
                    out.append(Say(text, None, self.round, self.turn))
                branch = self.words(spec.branch) if spec.branch is not None else None
                # `branch_to` is resolved to a step index once the script is whole.
                to = _BRANCH_TARGETS.get(spec.branch_to or "")
                out.append(Wait(text, None, self.round, self.turn, branch=branch, branch_to=to))
            elif spec.kind == "pause":
                out.append(Pause(self.paced(spec.seconds), None, self.round, self.turn))
            elif spec.kind == "cue":
                out.append(Cue(spec.sound, None, self.round, self.turn))
        return out

    def paced(self, seconds: float) -> float:
        return round(seconds * self.plan.pace, 3)

    # -- night -------------------------------------------------------------------

    def turns(self) -> list[tuple[str | None, Turn]]:
        """The turns called tonight, in order; group leads are called for any member.

        Calls of the whole table (role None) take their place in the same order.
        """
        leads = {r.wakes_with for r in self.ruleset.roles if r.wakes_with and r.id in self.chosen}
        found: list[tuple[object, int, str | None, Turn]] = []
        for index, role in enumerate(self.ruleset.roles):
            if role.id not in self.chosen and role.id not in leads:
                continue
            for turn in role.turns:
                if self.holds(turn.when):
                    found.append((turn.order, index, role.id, turn))
        for _, turn in self.ruleset.night.calls:
            if self.holds(turn.when):
                found.append((turn.order, -1, None, turn))
        found.sort(key=lambda t: (t[0], t[1]))
        return [(role_id, turn) for _, _, role_id, turn in found]

    def chosen_line(self, role_id: str | None, turn: Turn) -> str:
        """One of the turn's choices, drawn from the seed, the role and the place."""
        if not turn.choices:
            return ""
        index = drawn_choice(self.plan.seed, role_id, turn.order, len(turn.choices))
        text = self.spoken(turn.choices[index])
        self.choices.append(Choice(role_id, str(turn.order), index, text))
        return text

    def recap(self, turn: Turn) -> str:
        """The recap lines of the chosen roles, in the ruleset's order of roles."""
        return " ".join(self.recap_parts(turn))

    def recap_parts(self, turn: Turn) -> list[str]:
        """Each chosen role's recap line (`recap` joins them)."""
        recap = turn.recap
        if recap is None or not self.holds(recap.when):
            return []
        parts = []
        for role_id in recap.roles:
            if role_id not in self.chosen:
                continue
            role = self.ruleset.role(role_id)
            act = " ".join(
                self.words(line.text)
                for t in role.turns[:1]
                for line in t.act
                if self.holds(line.when)
            )
            line = self.words(recap.line)
            parts.append(line.replace("{name}", role.name.get(self.lang)).replace("{act}", act))
        return parts

    def seconds(self, role_id: str | None, turn: Turn) -> float:
        seconds = turn.action_time
        if self.role_timer > 0:
            seconds = self.role_timer * (2 if turn.complex else 1)
        key = turn_key(role_id, turn)
        if key in self.overrides:
            seconds = self.overrides[key]
        return seconds

    def night(self) -> list[Step]:
        steps = self.spec(self.ruleset.night.opening)
        gap = self.paced(self.ruleset.night.gap)
        eyes_closed = False  # no gap inside a role's sub-steps (1 then 1b): its eyes are open
        call_ids = {id(turn): call_id for call_id, turn in self.ruleset.night.calls}
        for role_id, turn in self.turns():
            if eyes_closed and gap > 0:
                steps.append(Pause(gap, None))
            first = len(steps)
            wake = self.spoken(turn.wake)
            told: list[Step] = [] if self.terse else self.say(turn.act, role_id)
            for extra in (self.chosen_line(role_id, turn), "" if self.terse else self.recap(turn)):
                if extra:
                    told.append(Say(extra, role_id))
            if wake:
                # Eyes open before the instruction starts.
                after = self.paced(self.plan.wake_gap) if told else 0.0
                steps.append(Say(wake, role_id, self.round, self.turn, after=after))
            steps += told
            seconds = self.seconds(role_id, turn)
            if seconds > 0:
                steps.append(Pause(self.paced(seconds), role_id))
                if role_id is not None:
                    self.timed.append(turn_key(role_id, turn))
            closing = self.say(turn.close, role_id)
            steps += closing
            eyes_closed = bool(closing)
            if role_id is None and id(turn) in call_ids and len(steps) > first:
                self.calls.append((call_ids[id(turn)], first, len(steps) - 1))
        steps += self.spec(self.ruleset.night.closing)
        return steps

    # -- day ---------------------------------------------------------------------

    def timer(self, timed: Timed, seconds: float | None = None) -> list[Step]:
        steps = self.say(timed.start, None)
        if seconds is None and self.plan.night == 1 and timed.first_day_seconds is not None:
            seconds = timed.first_day_seconds
        length = seconds if seconds is not None else timed.seconds
        warnings = tuple(
            TimerWarning(w.at, self.words(w.text)) for w in timed.warnings if w.at < length
        )
        end = self.spoken(timed.end) or None
        steps.append(Timer(length, self.words(timed.label), warnings, end, None, self.round))
        return steps

    def countdown(self, countdown: SpokenCount) -> list[Step]:
        steps = self.say(countdown.announce, None)
        steps += self.spec(countdown.ready)
        for count in countdown.counts:
            steps.append(Say(self.words(count), None, self.round, self.turn))
            steps.append(Pause(countdown.interval, None, self.round, self.turn))
        steps += self.say(countdown.go, None)
        return steps

    def day(self) -> list[Step]:
        """The day as the ruleset's flow says it: each phase's parts, in order."""
        steps: list[Step] = []
        closing = -1
        for part in self.ruleset.flow.spoken_day:
            if isinstance(part, Steps) and part.what == "closing":
                closing = len(steps)
            steps += self.part(part)
            self.name_part(steps, part)
        return [
            replace(s, branch_to=closing) if isinstance(s, Wait) and s.branch_to == -1 else s
            for s in steps
        ]

    def part(self, part: Part) -> list[Step]:
        """The steps of one part of the day."""
        if isinstance(part, Steps):
            return self.spec(part.steps)
        if isinstance(part, Turns):
            return self.rounds()
        if isinstance(part, Talk):
            seconds = self.plan.discussion_seconds if part.name == "discussion" else None
            return self.timer(part.timed, seconds)
        if isinstance(part, Accuse):
            steps = self.say(part.call, None)
            if part.wait:
                return steps + self.spec(part.wait)
            return [*steps, Wait(self.words(part.tie_rule), None)]
        steps = self.countdown(part.countdown)
        steps.append(Wait(f"{self.words(part.result)} {self.words(part.tie_rule)}", None))
        return steps

    def name_part(self, steps: list[Step], part: Part) -> None:
        """Name the steps of `part` by their stage, in the plan's language."""
        t = self.t
        if isinstance(part, Turns):
            for step in steps[len(self.stages) :]:
                name = t("Round {round}").format(round=step.round)
                if step.turn is not None:
                    name += " · " + t("Turn {turn}").format(turn=step.turn)
                self.stages.append(name)
        elif isinstance(part, Steps):
            self.name_stage(steps, t("Wake-up") if part.what == "opening" else t("Nightfall"))
        elif isinstance(part, Talk):
            self.name_stage(steps, self.words(part.timed.label))
        elif isinstance(part, Accuse):
            self.name_stage(steps, t("Accusation"))
        else:
            self.name_stage(steps, t("Ballot") if part.trial else t("Vote"))

    def t(self, message: str) -> str:
        """The app's own word for `message` in the plan's language (stage names)."""
        return gettext(self.lang, message)

    def name_stage(self, steps: list[Step], name: str) -> None:
        """Name every step added since the last call `name`."""
        self.stages += [name] * (len(steps) - len(self.stages))

    def rounds(self) -> list[Step]:
        rounds = self.ruleset.rounds
        assert rounds is not None
        seconds = self.plan.turn_seconds
        if seconds is None:
            seconds = rounds.turn_seconds
        steps: list[Step] = []
        for number in range(1, rounds.count + 1):
            self.round, self.turn = number, None
            steps += self.say(rounds.round_start, None)
            steps += self.say(rounds.reminders, None)
            for turn in range(1, rounds.turns + 1):
                self.turn = turn
                call = self.spoken(rounds.turn_call)
                steps.append(Say(call, None, number, turn))
                if seconds:
                    steps.append(Timer(seconds, call, (), None, None, number, turn))
                else:
                    steps.append(Wait(call, None, number, turn))
            self.turn = None
            steps += self.say(rounds.round_end, None)
        self.round = rounds.count
        steps += self.say(rounds.end, None)
        self.round = None
        return steps
