"""The loader's readers of the night's frame, the day and Secret Moon's rounds.

`night:` (its opening and closing steps, the gap between turns, the templates of a
role's wake and close lines, calls of the whole table), `day:` (its opening, the
discussion timer, the vote as the voice calls it, its closing) and `rounds:` (rounds
of numbered turns). How the vote is counted is `outcome: vote:` (`read_outcome`);
`check.py` holds the two sides of the vote together.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from narrator.rules.model import (
    Day,
    Night,
    Rounds,
    SpokenCount,
    StepSpec,
    Text,
    Timed,
    TimeWarning,
    Vote,
)
from narrator.rules.read_common import ReadContext, call, steps, text, text_of
from narrator.rules.read_roles import table_call
from narrator.rules.read_setup import MAX_PLAYERS
from narrator.rules.reader import Fields


def timed(ctx: ReadContext, value: Any, what: str, at: int) -> Timed:
    f = ctx.fields(value, what, at)
    read = Timed(
        seconds=f.number("seconds", low=1),
        label=text(ctx, f.required("label"), f"'label' of {what}", f.line_of("label")),
        start=call(ctx, f, "start", what),
        warnings=f.listed("warnings", lambda v, ln: warning(ctx, v, ln, what)),
        end=call(ctx, f, "end", what),
        first_day_seconds=f.number("first_day_seconds", low=1)
        if f.has("first_day_seconds")
        else None,
    )
    f.done()
    return read


def warning(ctx: ReadContext, value: Any, at: int, what: str) -> TimeWarning:
    f = ctx.fields(value, f"a warning of {what}", at)
    seconds = f.number("at", low=1)
    return TimeWarning(seconds, text_of(ctx, f, f"a warning of {what}", skip=("at",)))


def countdown(ctx: ReadContext, value: Any, at: int) -> SpokenCount:
    f = ctx.fields(value, "'ballot' of the vote", at)
    read = SpokenCount(
        announce=call(ctx, f, "announce", "the ballot"),
        counts=f.listed("counts", lambda v, ln: text(ctx, v, "a count of the ballot", ln)),
        go=call(ctx, f, "go", "the ballot"),
        interval=f.number("interval", 1.0),
        ready=steps(ctx, f, "ready", "the ballot"),
    )
    f.done()
    return read


def vote(ctx: ReadContext, value: Any, at: int) -> Vote:
    f = ctx.fields(value, "'vote' of the day", at)
    style = f.get("style", str, need=True)
    if style not in ("countdown", "accusation_ballot"):
        raise f.error("style", f"vote style '{style}' is not countdown or accusation_ballot")
    read = Vote(
        style=cast(Literal["countdown", "accusation_ballot"], style),
        tie_rule=text(ctx, f.required("tie_rule"), "'tie_rule'", f.line_of("tie_rule")),
        ballot=countdown(ctx, f.required("ballot"), f.line_of("ballot")),
        result=text(ctx, f.required("result"), "'result' of the vote", f.line_of("result")),
        accusation=call(ctx, f, "accusation", "the vote"),
        accusation_wait=accusation_wait(ctx, f),
        defence=timed(ctx, f.raw("defence"), "'defence'", f.line_of("defence"))
        if f.has("defence")
        else None,
        line=f.line_of("style"),
    )
    if style == "accusation_ballot" and (not read.accusation or read.defence is None):
        raise f.error(None, "an accusation_ballot vote needs 'accusation' and 'defence'")
    f.done()
    return read


def accusation_wait(ctx: ReadContext, f: Fields) -> tuple[StepSpec, ...]:
    """A text (one wait, as before) or a list of steps, like a day's opening."""
    value = f.raw("accusation_wait")
    if value is None:
        return ()
    if isinstance(value, list):
        return steps(ctx, f, "accusation_wait", "the vote")
    said = text(ctx, value, "'accusation_wait'", f.line_of("accusation_wait"))
    return (StepSpec("wait", text=said),)


def day(ctx: ReadContext, value: Any, at: int) -> Day:
    f = ctx.fields(value, "'day'", at)
    read = Day(
        opening=steps(ctx, f, "opening", "the day"),
        discussion=timed(ctx, f.raw("discussion"), "'discussion'", f.line_of("discussion"))
        if f.has("discussion")
        else None,
        vote=vote(ctx, f.raw("vote"), f.line_of("vote")) if f.has("vote") else None,
        closing=steps(ctx, f, "closing", "the day"),
        line=f.line,
    )
    f.done()
    return read


def night(
    ctx: ReadContext, value: Any, at: int, default_time: float
) -> tuple[Night, dict[str, Text]]:
    """The night's frame, and the templates of a role's wake and close lines."""
    f = ctx.fields(value, "'night'", at)
    templates = {}
    for key in ("wake", "close"):
        if f.has(f"{key}_template"):
            templates[key] = text(
                ctx, f.raw(f"{key}_template"), f"'{key}_template'", f.line_of(f"{key}_template")
            )
    calls = f.listed("calls", lambda v, ln: table_call(ctx, v, ln, default_time))
    read = Night(
        opening=steps(ctx, f, "opening", "the night"),
        closing=steps(ctx, f, "closing", "the night"),
        gap=f.number("gap", 1.0),
        calls=tuple((call_id, turn) for call_id, turn, _ in calls),
        powers=tuple((call_id, p) for call_id, _, p in calls if p is not None),
    )
    f.done()
    return read, templates


def rounds(ctx: ReadContext, value: Any, at: int) -> Rounds:
    f = ctx.fields(value, "'rounds'", at)
    seconds = f.raw("turn_seconds")
    if seconds is not None:
        seconds = f.number("turn_seconds", low=1)
    read = Rounds(
        count=f.whole("count", low=1, high=100),
        turns=f.whole("turns", low=1, high=MAX_PLAYERS),
        turn_seconds=seconds,
        round_start=call(ctx, f, "round_start", "the rounds"),
        turn_call=call(ctx, f, "turn_call", "the rounds"),
        round_end=call(ctx, f, "round_end", "the rounds"),
        reminders=call(ctx, f, "reminders", "the rounds"),
        end=call(ctx, f, "end", "the rounds"),
        line=f.line,
    )
    if not read.turn_call:
        raise f.error("turn_call", "'rounds' needs a 'turn_call' line")
    f.done()
    return read
