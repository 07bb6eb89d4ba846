"""What every section reader of the loader shares: the read context and the readers of
texts, lines, calls, conditions and steps.

The loader reads a ruleset in two stages (as python-statemachine reads a chart): it
first gathers what the sections refer to -- the languages, the ids of the roles,
teams, boxes and options, each role's place in the night -- into a frozen
`ReadContext`, then hands that context and a `Fields` of the YAML to plain section
readers (`read_roles`, `read_setup`, `read_day`, `read_powers`, `read_outcome`), each
returning frozen records of the model. Every mistake is one `RulesetError` naming the
file, the line and the key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, cast

from narrator.base.errors import did_you_mean
from narrator.rules.model import ALWAYS, Call, Condition, Line, Order, StepSpec, Text
from narrator.rules.reader import Fields, line_of_value

# An id of a role, a ruleset, a box or an option: written once, for every section.
ID = re.compile(r"^[a-z][a-z0-9_]*$")
LANG = re.compile(r"^[a-z]{2}$")

_WAKES = {
    "never": Condition(never=True),
    "every_night": ALWAYS,
    "first_night": Condition(nights=(1,)),
}


@dataclass(frozen=True, slots=True)
class ReadContext:
    """What the section being read may refer to, gathered before it is read."""

    path: Path
    languages: tuple[str, ...] = ()
    role_ids: tuple[str, ...] = ()
    team_ids: tuple[str, ...] = ()
    box_ids: tuple[str, ...] = ()
    option_ids: tuple[str, ...] = ()
    # each role's own place in the night (or its first extra turn's): what `after:` names
    role_orders: dict[str, Order] = field(default_factory=dict)
    # the roles of each team, as written (a `must_contain` rule names a team)
    team_roles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the night's `wake_template`/`close_template`, with {name}
    templates: dict[str, Text] = field(default_factory=dict)

    def fields(self, data: Any, what: str, line: int = 0) -> Fields:
        return Fields(data, self.path, what, line)

    def with_(self, **changes: Any) -> ReadContext:
        return replace(self, **changes)


# -- texts ---------------------------------------------------------------------------


def text(ctx: ReadContext, value: Any, what: str, line: int) -> Text:
    return text_of(ctx, ctx.fields(value, what, line), what)


# The key of a text's phones' variant (`Text.phones`): what the line says when the
# cards are dealt on the players' phones.
PHONES = "phones"


def text_of(ctx: ReadContext, f: Fields, what: str, skip: tuple[str, ...] = ()) -> Text:
    """A text: one sentence per language (`en: ...`), every declared language, and
    maybe `phones:`, its phones' variant, the same way."""
    values = _languages(ctx, f, what, (*skip, PHONES))
    phones: tuple[tuple[str, str], ...] = ()
    if f.has(PHONES):
        variant = f"the phones' variant of {what}"
        pf = ctx.fields(f.raw(PHONES), f"'{PHONES}' of {what}", f.line_of(PHONES))
        if pf.has(PHONES):
            raise pf.error(PHONES, f"{variant} has a '{PHONES}' of its own; write it once")
        phones = _languages(ctx, pf, variant, ())
        if dict(phones) == dict(values):
            raise f.error(
                PHONES,
                f"{variant} says the same as the line in every language; leave it out "
                "(a line with no variant is said as it is on the phones too)",
            )
    return Text(values, phones)


def _languages(
    ctx: ReadContext, f: Fields, what: str, skip: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    values = []
    for key, val in f.data.items():
        if key in skip:
            continue
        if not LANG.match(str(key)):
            f.done(skip)  # unknown key: report it with did-you-mean
            raise f.error(key, f"'{key}' in {what} is not a language code like 'en' or 'it'")
        if not isinstance(val, str) or not val.strip():
            raise f.error(key, f"the '{key}' text of {what} must be non-empty text")
        f.seen.add(key)
        values.append((str(key), " ".join(val.split())))
    if not values:
        raise f.error(None, f"{what} has no text in any language")
    missing = [lang for lang in ctx.languages if lang not in dict(values)]
    if missing:
        raise f.error(
            None,
            f"{what} has no '{missing[0]}' text; every line needs one in "
            f"each language the ruleset declares ({', '.join(ctx.languages)})",
        )
    return tuple(values)


def optional_text(ctx: ReadContext, f: Fields, key: str, what: str) -> Text | None:
    """The text under `key`, if the mapping has it."""
    return text(ctx, f.raw(key), what, f.line_of(key)) if f.has(key) else None


def line(ctx: ReadContext, value: Any, what: str, at: int) -> Line:
    f = ctx.fields(value, what, at)
    when = condition(ctx, f.raw("when"), f"'when' of {what}", f.line_of("when"))
    return Line(text_of(ctx, f, what, skip=("when",)), when)


def call(ctx: ReadContext, f: Fields, key: str, what: str) -> Call:
    """One line (a mapping of languages) or a list of them."""
    value = f.raw(key)
    if value is None:
        return ()
    label = f"'{key}' of {what}"
    if isinstance(value, list):
        return tuple(line(ctx, v, label, line_of_value(v, f.line_of(key))) for v in value)
    return (line(ctx, value, label, f.line_of(key)),)


# -- ids -----------------------------------------------------------------------------


def known(ctx: ReadContext, f: Fields, key: str, ids: tuple[str, ...]) -> tuple[str, ...]:
    """`ids`, after checking that each names a role of this ruleset."""
    for role_id in ids:
        if role_id not in ctx.role_ids:
            raise f.error(
                key,
                f"'{key}' names the role '{role_id}', which this ruleset does "
                f"not have{did_you_mean(role_id, ctx.role_ids)}",
            )
    return ids


def known_options(ctx: ReadContext, f: Fields, key: str) -> tuple[str, ...]:
    ids = f.ids(key)
    for option_id in ids:
        if option_id not in ctx.option_ids:
            raise f.error(
                key,
                f"'{key}' names the option '{option_id}', which is not under 'options'"
                f"{did_you_mean(option_id, ctx.option_ids)}",
            )
    return ids


def declared(f: Fields, key: str, phrase: str, ids: tuple[str, ...], section: str) -> str:
    """The id under `key`, which must be one of `ids` (declared under `section`)."""
    value = f.get(key, str, need=True)
    if value not in ids:
        raise f.error(
            key,
            f"{f.what} {phrase} '{value}', which is not under '{section}'"
            f"{did_you_mean(value, ids)}",
        )
    return value


# -- conditions ----------------------------------------------------------------------


def condition(ctx: ReadContext, value: Any, what: str, at: int) -> Condition:
    if value is None:
        return ALWAYS
    f = ctx.fields(value, what, at)
    nights = f.raw("night", [])
    rounds = f.raw("round", [])
    for key in ("chosen", "not_chosen", "any_chosen", "when_chosen"):
        known(ctx, f, key, f.ids(key))
    cond = Condition(
        chosen=f.ids("chosen"),
        not_chosen=f.ids("not_chosen"),
        any_chosen=f.ids("any_chosen") + f.ids("when_chosen"),
        nights=_numbers(f, "night", nights),
        from_night=f.get("from_night", int) if f.has("from_night") else None,
        until_night=f.get("until_night", int) if f.has("until_night") else None,
        rounds=_numbers(f, "round", rounds),
        options=known_options(ctx, f, "option"),
        not_options=known_options(ctx, f, "not_option"),
    )
    f.done()
    return cond


def _numbers(f: Fields, key: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return tuple(value)
    raise f.error(key, f"'{key}' in {f.what} must be a number or a list of numbers")


def wakes(ctx: ReadContext, f: Fields, what: str) -> Condition:
    value = f.raw("wakes", "every_night")
    if isinstance(value, str):
        if value not in _WAKES:
            choices = ", ".join(_WAKES)
            raise f.error(
                "wakes",
                f"'wakes' of {what} is '{value}'; use one of: {choices}, "
                "or a mapping such as {from_night: 2} or {when_chosen: [minion]}",
            )
        return _WAKES[value]
    return condition(ctx, value, f"'wakes' of {what}", f.line_of("wakes"))


# -- steps of everyone ---------------------------------------------------------------


def step(ctx: ReadContext, value: Any, at: int, what: str) -> StepSpec:
    f = ctx.fields(value, f"a step of {what}", at)
    when = condition(ctx, f.raw("when"), f"'when' of a step of {what}", f.line_of("when"))
    kinds = [k for k in ("say", "pause", "cue", "wait") if f.has(k)]
    if len(kinds) != 1:
        for key in ("say", "pause", "cue", "wait"):
            f.raw(key)
        f.done()
        raise f.error(None, f"a step of {what} needs exactly one of say, pause, cue, wait")
    kind = kinds[0]
    spec: StepSpec
    if kind == "pause":
        spec = StepSpec("pause", when, seconds=f.number("pause"))
    elif kind == "cue":
        spec = StepSpec("cue", when, sound=f.get("cue", str, need=True))
    else:
        said = text(ctx, f.raw(kind), f"'{kind}' of a step of {what}", f.line_of(kind))
        spec = StepSpec(cast(Literal["say", "wait"], kind), when, text=said)
    if kind == "wait":
        spec = _wait_extras(ctx, f, spec, what)
    f.done()
    return spec


def _wait_extras(ctx: ReadContext, f: Fields, spec: StepSpec, what: str) -> StepSpec:
    """`spoken: true` and `branch` + `branch_to`, which only a wait may have."""
    spoken = f.get("spoken", bool, False)
    branch = optional_text(ctx, f, "branch", f"'branch' of a step of {what}")
    target = f.get("branch_to", str) if f.has("branch_to") else None
    if (branch is None) != (target is None):
        raise f.error(
            "branch" if branch is None else "branch_to",
            "a wait with a branch needs both 'branch' (what the button says) "
            "and 'branch_to' (where it goes: closing)",
        )
    if target is not None and target != "closing":
        raise f.error("branch_to", f"'branch_to' is '{target}'; the only target is: closing")
    return replace(
        spec,
        spoken=spoken,
        branch=branch,
        branch_to=cast(Literal["closing"] | None, target),
    )


def steps(ctx: ReadContext, f: Fields, key: str, what: str) -> tuple[StepSpec, ...]:
    return f.listed(key, lambda v, ln: step(ctx, v, ln, f"{what} {key}"))


def with_article(word: str) -> str:
    """`word` with its article, for a message: "a simultaneous", "an accusation_ballot"."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"
