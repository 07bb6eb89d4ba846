"""The loader's reader of what roles do: `does:`, `tags:`, `on_death:`, `strength:`,
`does_as:` on a role, and Secret Moon's `actions:` open to every player.

Plain functions over a `ReadContext` and a `Fields` of the YAML, returning the frozen
records of `powers.py`; every mistake is one `RulesetError` with the file and line
and, for a typo, a did-you-mean. What one mapping cannot check (a tag no role has)
is `check.check_powers`; how the game ends is `read_outcome`.
"""

from __future__ import annotations

from typing import Any, cast

from narrator.base.errors import did_you_mean
from narrator.rules.errors import RulesetError
from narrator.rules.model import Text
from narrator.rules.powers import (
    ACTS,
    AMONG,
    DIRECTIONS,
    EFFECTS,
    NEEDS_PICK,
    OF,
    Ability,
    Answer,
    Effect,
    Match,
    Only,
    Pick,
    Powers,
)
from narrator.rules.read_common import ReadContext, condition, known, optional_text, text
from narrator.rules.reader import Fields, line_of_value

_ON_DEATH = ("", "shoot_vote")


def powers(ctx: ReadContext, f: Fields, what: str) -> Powers | None:
    keys = (
        "does", "tags", "on_death", "on_death_line", "strength", "does_as", "spare",
        "group_powers",
    )  # fmt: skip
    if not any(f.has(k) for k in keys):
        f.raw("does")  # nothing to read
        return None
    tags = f.ids("tags")
    on_death = f.get("on_death", str, "")
    if on_death not in _ON_DEATH:
        raise f.error(
            "on_death",
            f"'on_death' of {what} must be one of: shoot_vote, not '{on_death}'",
        )
    death_line = optional_text(ctx, f, "on_death_line", f"'on_death_line' of {what}")
    if death_line is not None and not on_death:
        raise f.error(
            "on_death_line",
            f"{what} has an 'on_death_line' but no 'on_death': say what its death does",
        )
    abilities = listed_abilities(ctx, f, what)
    unique_ids(abilities, what, f)
    does_as = f.get("does_as", str, "")
    if does_as:
        known(ctx, f, "does_as", (does_as,))
        if f.has("does"):
            raise f.error("does_as", f"{what} has 'does' and 'does_as'; it acts as one role only")
    if f.has("group_powers") and not f.has("wakes_with"):
        raise f.error(
            "group_powers",
            f"{what} uses the powers of the role it wakes with, but has no 'wakes_with'",
        )
    spare = f.get("spare", str, "")
    if spare:
        known(ctx, f, "spare", (spare,))
    if any("swap_spare" in a.effects for a in abilities) and not spare:
        raise f.error(
            "does", f"{what} does 'swap_spare' but brings no spare card; add 'spare: ROLE'"
        )
    return Powers(
        spare=spare,
        abilities=abilities,
        tags=tags,
        on_death=cast(Any, on_death),
        on_death_line=death_line,
        strength=f.whole("strength", 0, high=100),
        does_as=does_as,
        given=any(f.has(k) for k in ("does", "does_as", "on_death", "group_powers")),
        group_powers=f.get("group_powers", bool, False),
    )


def listed_abilities(ctx: ReadContext, f: Fields, what: str) -> tuple[Ability, ...]:
    """The powers listed under `does:` of a role, a call of the table or a choice."""
    raw = f.raw("does", [])
    if not isinstance(raw, list):
        raise f.error("does", f"'does' of {what} must be a list of powers")
    return tuple(
        ability(ctx, item, f"power {i + 1} of {what}", line_of_value(item, f.line_of("does")))
        for i, item in enumerate(raw)
    )


def unique_ids(abilities: tuple[Ability, ...], what: str, f: Fields) -> None:
    """Every power of a role has its own id (its choices' powers too): the phones and
    the log name a power by it."""
    ids = [a.id for a in abilities]
    for i, a in enumerate(abilities):
        if a.id in ids[:i]:
            raise RulesetError(
                f"{what} has two powers with the id '{a.id}'; give each its own 'id'",
                f.path,
                a.line or None,
            )


def ability(ctx: ReadContext, value: Any, what: str, line: int) -> Ability:
    f = ctx.fields(value, what, line)
    effects = _effects(f, what)
    picks = f.listed("pick", lambda v, ln: pick(ctx, v, f"a 'pick' of {what}", ln))
    target = f.get("target", str, "")
    if target not in ("", "executed", "self"):
        raise f.error("target", f"'target' of {what} must be executed or self, not '{target}'")
    if target and not {"learn", "mark"} & set(effects):
        raise f.error("target", f"'target' is for 'learn' or 'mark'; {what} does neither")
    needs = [e for e in effects if e in NEEDS_PICK or (e in ("learn", "mark") and not target)]
    if needs and not picks:
        raise f.error(None, f"{what} does '{needs[0]}', which needs a 'pick'; add one")
    if picks and not needs:
        raise f.error("pick", f"{what} picks, but none of its effects uses what is picked")
    if "know" in effects and not f.has("know"):
        raise f.error(None, f"{what} does 'know'; say whom with 'know: {{tag: ...}}'")
    for key in ("learn", "answer"):
        for word in ("learn", "fist"):
            if word in effects and not f.has(key):
                raise f.error(None, f"{what} does '{word}'; give '{key}' too")
    if "answer" in effects and not f.has("answers"):
        raise f.error(None, f"{what} does 'answer'; say how each card answers in 'answers'")
    stop = f.listed("stop", lambda v, ln: match(ctx, v, f"'stop' of {what}", ln))
    if "become" in effects and not stop:
        raise f.error(None, f"{what} does 'become'; say which cards it becomes with 'stop'")
    if stop and not {"see", "become", "ally"} & set(effects):
        raise f.error("stop", f"{what} stops on a card it looked at, but it looks at none")
    if "mark" in effects and not f.has("mark"):
        raise f.error(None, f"{what} does 'mark'; say which with 'mark: TOKEN'")
    for word in ("convert", "recruit"):
        if word in effects and not f.has("into"):
            raise f.error(None, f"{what} does '{word}'; say into which role with 'into: ROLE'")
    into = f.get("into", str, "")
    if into:
        known(ctx, f, "into", (into,))
    if "aura" in effects and not f.has("thumbs"):
        raise f.error(None, f"{what} does 'aura'; say which acts count with 'thumbs'")
    thumbs = f.ids("thumbs")
    for act in thumbs:
        if act not in ACTS:
            raise f.error(
                "thumbs",
                f"'{act}' in 'thumbs' of {what} is not an act of the night (one of: "
                f"{', '.join(ACTS)}){did_you_mean(act, ACTS)}",
            )
    if "accuse" in effects and not any(p.role for p in picks):
        raise f.error("pick", f"{what} does 'accuse'; its pick must name a role: 'role: true'")
    said = None
    if f.has("answer"):
        af = ctx.fields(f.raw("answer"), f"'answer' of {what}", f.line_of("answer"))
        said = (
            text(ctx, af.required("is"), f"'is' of {what}'s answer", af.line_of("is")),
            text(ctx, af.required("is_not"), f"'is_not' of {what}'s answer", af.line_of("is_not")),
        )
        af.done()
    agree = f.get("agree", str, "")
    if agree not in ("", "unanimous", "most", "strongest"):
        raise f.error(
            "agree", f"'agree' of {what} must be unanimous, most or strongest, not '{agree}'"
        )
    know = match(ctx, f.raw("know"), f"'know' of {what}", f.line_of("know"))
    timing = f.get("timing", str, "at_once")
    if timing not in ("at_once", "dawn"):
        raise f.error("timing", f"'timing' of {what} must be at_once or dawn, not '{timing}'")
    later = ctx.role_ids if f.raw("later") == "all" else known(ctx, f, "later", f.ids("later"))
    of = f.get("of", str, "card")
    if of not in OF:
        raise f.error("of", f"'of' of {what} must be card or mark, not '{of}'")
    if of == "mark" and not set(effects) <= {"see", "see_own", "swap", "swap_own"}:
        raise f.error("of", f"'of: mark' is for see, see_own, swap and swap_own; {what} does more")
    extra = _extra(ctx, f, what, effects, picks)
    ability = Ability(
        id=f.get("id", str, "act"),
        effects=effects,
        picks=picks,
        optional=f.get("optional", bool, True),
        when=condition(ctx, f.raw("when"), f"'when' of {what}", f.line_of("when")),
        alone=f.get("alone", bool, False),
        know=know if f.has("know") else None,
        later=later,
        timing=cast(Any, timing),
        priority=f.whole("priority", 0),
        turn=f.whole("turn", 0, high=20),
        hidden=f.listed("hidden", lambda v, ln: match(ctx, v, f"'hidden' of {what}", ln)),
        learn=match(ctx, f.raw("learn"), f"'learn' of {what}", f.line_of("learn"))
        if f.has("learn")
        else None,
        answer=said,
        target=cast(Any, target),
        agree=cast(Any, agree),
        once=f.get("once", bool, False),
        answers=f.listed("answers", lambda v, ln: answer(ctx, v, f"an answer of {what}", ln)),
        not_by=match(ctx, f.raw("not_by"), f"'not_by' of {what}", f.line_of("not_by"))
        if f.has("not_by")
        else None,
        only=f.listed("only", lambda v, ln: only(ctx, v, f"'only' of {what}", ln)),
        stop=stop,
        mark=f.get("mark", str, ""),
        thumbs=thumbs,
        into=into,
        of=cast(Any, of),
        who=match(ctx, f.raw("who"), f"'who' of {what}", f.line_of("who"))
        if f.has("who")
        else None,
        mutual=f.get("mutual", bool, False),
        if_picked=f.get("if_picked", str, ""),
        apart=f.get("apart", bool, False),
        **extra,
        say=text(ctx, f.raw("say"), f"'say' of {what}", f.line_of("say")) if f.has("say") else None,
        label=text(ctx, f.raw("label"), f"'label' of {what}", f.line_of("label"))
        if f.has("label")
        else None,
        line=f.line,
    )
    f.done()
    return ability


def _extra(
    ctx: ReadContext, f: Fields, what: str, effects: tuple[Effect, ...], picks: tuple[Pick, ...]
) -> dict[str, Any]:
    """The keys of the effects the boxes brought: a reach, a direction, the replies."""
    if f.has("mutual") and "know" not in effects:
        raise f.error("mutual", f"'mutual' is for 'know'; {what} does not know anyone")
    out: dict[str, Any] = {}
    if "reach" in effects:
        out["reach"] = (f.whole("left", 0, high=10), f.whole("right", 0, high=10))
        if out["reach"] == (0, 0):
            raise f.error(None, f"{what} does 'reach'; say how far with 'left:' and 'right:'")
    if "rotate_group" in effects:
        direction = f.get("direction", str, "")
        if direction not in DIRECTIONS:
            raise f.error(
                "direction" if f.has("direction") else None,
                f"{what} does 'rotate_group'; say 'direction: left' or 'direction: right'",
            )
        out["direction"] = direction
    if "reply" in effects:
        words = [w for p in picks for w in p.named]
        if not words:
            raise f.error("pick", f"{what} does 'reply'; its pick must name the words it answers")
        rf = ctx.fields(f.required("replies"), f"'replies' of {what}", f.line_of("replies"))
        replies: list[tuple[str, Text]] = []
        for word in words:
            if not rf.has(word):
                raise rf.error(None, f"'replies' of {what} has no line for the answer '{word}'")
            replies.append((word, text(ctx, rf.raw(word), f"the reply '{word}'", rf.line_of(word))))
        rf.done()
        out["replies"] = tuple(replies)
    return out


def only(ctx: ReadContext, value: Any, what: str, line: int) -> Only:
    f = ctx.fields(value, what, line)
    entry = Only(
        target=match(ctx, f.required("target"), f"'target' of {what}", f.line_of("target")),
        by=match(ctx, f.required("by"), f"'by' of {what}", f.line_of("by")),
    )
    f.done()
    return entry


def answer(ctx: ReadContext, value: Any, what: str, line: int) -> Answer:
    f = ctx.fields(value, what, line)
    answer = Answer(
        match=match(ctx, f.required("if"), f"'if' of {what}", f.line_of("if")),
        say=text(ctx, f.required("say"), f"'say' of {what}", f.line_of("say")),
        reveal=f.get("reveal", bool, False),
    )
    f.done()
    return answer


def _effects(f: Fields, what: str) -> tuple[Effect, ...]:
    raw = f.raw("effect")
    if raw is None:
        raise f.error(None, f"{what} needs 'effect' (one of: {', '.join(EFFECTS)})")
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not items:
        raise f.error("effect", f"'effect' of {what} must be an effect or a list of them")
    for item in items:
        if item not in EFFECTS:
            raise f.error(
                "effect",
                f"unknown effect '{item}' in {what}{did_you_mean(str(item), EFFECTS)}",
            )
    return tuple(cast(list[Effect], items))


def pick(ctx: ReadContext, value: Any, what: str, line: int) -> Pick:
    f = ctx.fields(value, what, line)
    named = f.raw("named", [])
    if not isinstance(named, list) or not all(isinstance(n, str) and n for n in named):
        raise f.error("named", f"'named' in {what} must be a list of words")
    pick = Pick(
        players=f.whole("players", 0, high=10),
        centre=f.whole("centre", 0, high=10),
        other=f.get("other", bool, True),
        named=tuple(named),
        role=f.get("role", bool, False),
        struck=f.get("struck", bool, False),
        mates=f.get("mates", bool, True),
        known=f.get("known", bool) if f.has("known") else None,
        among=f.get("among", str, ""),
        not_=match(ctx, f.raw("not"), f"'not' of {what}", f.line_of("not"))
        if f.has("not")
        else None,
    )
    f.done()
    if pick.among and pick.among not in AMONG:
        raise f.error(
            "among",
            f"'among' in {what} must be one of: {', '.join(AMONG)}, not '{pick.among}'"
            f"{did_you_mean(pick.among, AMONG)}",
        )
    if (pick.among or pick.not_) and not pick.players:
        raise f.error("among" if pick.among else "not", f"{what} leaves out players but picks none")
    if pick.not_ is not None and not pick.not_.mark:
        raise f.error(
            "not",
            f"'not' in {what} may only leave out the holders of a mark (one the actor saw "
            "given): a card's holder would be a secret the refusal tells",
        )
    if sum(bool(x) for x in (pick.players, pick.centre, pick.named)) != 1:
        raise f.error(
            None, f"{what} must pick some 'players', some 'centre' cards, or one of 'named'"
        )
    return pick


def match(ctx: ReadContext, value: Any, what: str, line: int) -> Match:
    if value is None:
        return Match()
    f = ctx.fields(value, what, line)
    match = Match(
        role=f.get("role", str, ""),
        team=f.get("team", str, ""),
        tag=f.get("tag", str, ""),
        mark=f.get("mark", str, ""),
        artifact=f.get("artifact", str, ""),
    )
    f.done()
    if sum(bool(x) for x in (match.role, match.team, match.tag, match.mark, match.artifact)) != 1:
        raise f.error(None, f"{what} must name exactly one of: role, team, tag, mark, artifact")
    if match.role:
        known(ctx, f, "role", (match.role,))
    if match.team and match.team not in ctx.team_ids:
        raise f.error(
            "team",
            f"{what} names the team '{match.team}', which this ruleset does not have"
            f"{did_you_mean(match.team, ctx.team_ids)}",
        )
    return match
