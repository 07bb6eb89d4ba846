"""The loader's readers of roles and their calls of the night.

A role (`roles:`): its name, team, box and count, its turns (the main one and any
extra turns elsewhere in the order), and what it does (`read_powers`). A turn: its
place (`order: 9b` or `after: insomniac`), when it wakes, its wake, act and close
lines (or the night's templates), its action time, the `choices` one of which is
drawn from the plan's seed and the `recap` of the roles it may stand in for. Calls
of the whole table (`night: calls:`) are turns with no role.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from narrator.rules.errors import RulesetError
from narrator.rules.model import Call, Line, Order, Recap, Role, Text, Turn
from narrator.rules.powers import Ability, Powers
from narrator.rules.read_common import (
    ID,
    ReadContext,
    call,
    condition,
    declared,
    known,
    optional_text,
    text,
    wakes,
)
from narrator.rules.read_powers import listed_abilities, powers, unique_ids
from narrator.rules.reader import Fields, line_of_value
from narrator.rules.yamlio import Located

_ORDER = re.compile(r"^(-?\d+)([a-zA-Z]?)(?:\.(\d+))?$")


def parse_order(value: Any) -> Order | None:
    """`5`, `'9b'`, `-6B`, `'-1b.2'` -> Order; None if it is none of these."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    match = _ORDER.match(str(value).strip())
    if match is None:
        return None
    return Order(int(match.group(1)), match.group(2).lower(), int(match.group(3) or 0))


def first_order(raw: Any) -> Order | None:
    """A raw role's own order, or its first extra turn's (what `after:` refers to)."""
    if not isinstance(raw, dict) or "id" not in raw:
        return None
    if "order" in raw:
        return parse_order(raw["order"])
    turns = raw.get("turns")
    if isinstance(turns, list) and turns and isinstance(turns[0], dict):
        return parse_order(turns[0].get("order"))
    return None


def order(ctx: ReadContext, f: Fields, what: str) -> Order:
    """`order: -6b` or `after: insomniac` (right after that role's own turn)."""
    if f.has("after"):
        target = f.get("after", str)
        known(ctx, f, "after", (target,))
        if f.has("order"):
            raise f.error("after", f"{what} has both 'order' and 'after'; keep one")
        if target not in ctx.role_orders:
            raise f.error("after", f"'after' names '{target}', which has no 'order' of its own")
        base = ctx.role_orders[target]
        return Order(base.number, base.sub, base.then + 1)
    value = f.required("order")
    parsed = parse_order(value)
    if parsed is None:
        raise f.error(
            "order", f"'order' of {what} must look like 5, '9b', -6 or '-1b.2', not {value!r}"
        )
    return parsed


def turn(
    ctx: ReadContext,
    f: Fields,
    what: str,
    *,
    main: bool,
    default_time: float,
    name: Text | None = None,
) -> Turn:
    return Turn(
        order=order(ctx, f, what),
        when=wakes(ctx, f, what),
        wake=call(ctx, f, "wake", what) or templated(ctx, "wake", name),
        act=call(ctx, f, "act", what),
        close=call(ctx, f, "close", what) or templated(ctx, "close", name),
        action_time=f.number("action_time", default_time),
        main=main,
        complex=f.get("complex", bool, False),
        choices=choices(ctx, f, what),
        recap=recap(ctx, f, what),
    )


def templated(ctx: ReadContext, key: str, name: Text | None) -> Call:
    """The night's `wake_template`/`close_template` with the role's name filled in."""
    template = ctx.templates.get(key)
    if template is None or name is None:
        return ()
    values = tuple((lang, t.replace("{name}", name.get(lang))) for lang, t in template.values)
    phones = tuple((lang, t.replace("{name}", name.get(lang))) for lang, t in template.phones)
    return (Line(Text(values, phones)),)


def role(ctx: ReadContext, value: Any, at: int, default_time: float) -> Role:
    f = ctx.fields(value, "a role", at)
    role_id = f.get("id", str, need=True)
    if not ID.match(role_id):
        raise f.error("id", f"role id '{role_id}' must be lower case letters, digits and _")
    what = f"role '{role_id}'"
    f.what = what
    turns: list[Turn] = []
    name = text(ctx, f.required("name"), f"the name of {what}", f.line_of("name"))
    wakes_raw = f.raw("wakes", "every_night")
    wakes_with = f.get("wakes_with", str) if f.has("wakes_with") else None
    if wakes_with is not None:
        known(ctx, f, "wakes_with", (wakes_with,))
    if wakes_raw != "never" and wakes_with is None:
        turns.append(turn(ctx, f, what, main=True, default_time=default_time, name=name))
    elif wakes_raw == "never":
        for key in ("order", "wake", "act", "close", "action_time", "choices", "recap"):
            if f.has(key):
                raise f.error(
                    key, f"{what} never wakes, so '{key}' has no use; remove it or set 'wakes'"
                )
    # the powers of each turn's choices: a turn's k is 0 for the role's own call, then
    # 1, 2... for its extra turns (as a power's `turn:` counts them)
    drawn = list(choice_powers(ctx, f, what, 0)) if turns else []
    for i, extra in enumerate(f.listed("turns", lambda v, ln: (v, ln))):
        tf = ctx.fields(extra[0], f"extra turn {i + 1} of {what}", extra[1])
        turns.append(turn(ctx, tf, tf.what, main=False, default_time=default_time, name=name))
        drawn += choice_powers(ctx, tf, tf.what, i + 1)
        tf.done()
    own = powers(ctx, f, what)
    if drawn:
        own = own or Powers()
        own = replace(own, abilities=own.abilities + tuple(drawn), given=True)
        unique_ids(own.abilities, what, f)
    read = Role(
        id=role_id,
        name=name,
        team=declared(f, "team", "is on team", ctx.team_ids, "teams"),
        max_count=f.whole("max", 1, low=1),
        turns=tuple(turns),
        wakes_with=wakes_with,
        note=optional_text(ctx, f, "note", f"the note of {what}"),
        card=optional_text(ctx, f, "card", f"the card text of {what}"),
        line=f.line,
        box=box(ctx, f),
        powers=own,
    )
    f.done()
    return read


def box(ctx: ReadContext, f: Fields) -> str:
    if not f.has("box"):
        return ctx.box_ids[0] if ctx.box_ids else ""
    return declared(f, "box", "is in box", ctx.box_ids, "boxes")


def table_call(
    ctx: ReadContext, value: Any, at: int, default_time: float
) -> tuple[str, Turn, Powers | None]:
    """A call of the whole table at its place in the night (everyone looks at their
    mark), and what it lets everyone do (`does:`), if anything."""
    f = ctx.fields(value, "a call of the night", at)
    call_id = f.get("id", str, need=True)
    f.what = f"call '{call_id}' of the night"
    if call_id in ctx.role_ids:
        raise f.error("id", f"{f.what} has the id of a role; give it an id of its own")
    read = turn(ctx, f, f.what, main=False, default_time=default_time)
    does = listed_abilities(ctx, f, f.what) if f.has("does") else None
    if does is not None:
        unique_ids(does, f.what, f)
        for ability in does:
            if ability.who is not None or ability.turn or ability.picks:
                raise RulesetError(
                    f"a power of {f.what} is everyone's and picks nothing: remove its "
                    "'who', 'turn' and 'pick'",
                    f.path,
                    ability.line or None,
                )
    f.done()
    return call_id, read, None if does is None else Powers(abilities=does)


def choices(ctx: ReadContext, f: Fields, what: str) -> tuple[Call, ...]:
    """`choices:` a list of alternatives, each one line or a list of lines (a line
    may say what the choice does: `choice_powers`)."""
    out: list[Call] = []
    for i, (value, at) in enumerate(f.listed("choices", lambda v, ln: (v, ln))):
        holder = ctx.fields({"choice": _said(value)}, what, at)
        out.append(call(ctx, holder, "choice", f"choice {i + 1} of {what}"))
    if len(out) == 1:
        raise f.error("choices", f"'choices' of {what} has one choice; give two or more")
    return tuple(out)


def _said(value: Any) -> Any:
    """A choice's line without its `does:` (read by `choice_powers`)."""
    if not isinstance(value, dict) or "does" not in value:
        return value
    out = Located({k: v for k, v in value.items() if k != "does"})
    out.line = value.line if isinstance(value, Located) else 0
    out.key_lines = dict(value.key_lines) if isinstance(value, Located) else {}
    return out


def choice_powers(ctx: ReadContext, f: Fields, what: str, k: int) -> list[Ability]:
    """The powers of the turn's choices (`does:` on a choice), each the role's only in
    a game where that choice is drawn: `choice` its index, `turn` the turn's `k`."""
    out: list[Ability] = []
    raw = f.data.get("choices")
    if not isinstance(raw, list):
        return out
    for i, value in enumerate(raw):
        if not isinstance(value, dict) or "does" not in value:
            continue
        cf = ctx.fields(value, f"choice {i + 1} of {what}", line_of_value(value, f.line))
        cf.seen.update(k for k in cf.data if k != "does")
        for ability in listed_abilities(ctx, cf, cf.what):
            if ability.turn:
                raise RulesetError(
                    f"a power of {cf.what} has 'turn': a choice's powers are its turn's",
                    f.path,
                    ability.line or None,
                )
            out.append(replace(ability, turn=k, choice=i))
    return out


def recap(ctx: ReadContext, f: Fields, what: str) -> Recap | None:
    if not f.has("recap"):
        return None
    rf = ctx.fields(f.raw("recap"), f"'recap' of {what}", f.line_of("recap"))
    roles = known(ctx, rf, "roles", rf.ids("roles"))
    read = Recap(
        roles=roles,
        line=text(ctx, rf.required("line"), f"the line of {rf.what}", rf.line_of("line")),
        when=condition(ctx, rf.raw("when"), f"'when' of {rf.what}", rf.line_of("when")),
    )
    rf.done()
    return read
