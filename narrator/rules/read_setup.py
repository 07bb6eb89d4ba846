"""The loader's readers of a game's set-up and of what the table chooses before it.

`setup:` (players, extra cards, pairs, needs, required roles, recommended decks,
what every deck must contain), and the mechanisms One Night's boxes brought, kept
general: `boxes:` (which expansion a card comes in), `options:` the table sets, and
`tokens:` a role brings to the table.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from narrator.base.errors import did_you_mean
from narrator.rules.errors import RulesetError
from narrator.rules.model import Deck, Need, Option, Requirement, Setup, Text, Token
from narrator.rules.read_common import ID, ReadContext, condition, known, optional_text, text
from narrator.rules.read_roles import box
from narrator.rules.reader import Fields

MAX_PLAYERS = 100
_EFFECTS = ("", "terse", "action_time")


def setup(ctx: ReadContext, value: Any, at: int) -> Setup:
    f = ctx.fields(value, "'setup'", at)
    pf = ctx.fields(f.required("players"), "'players' of setup", f.line_of("players"))
    low = pf.whole("min", low=1, high=MAX_PLAYERS)
    high = pf.whole("max", low=1, high=MAX_PLAYERS)
    pf.done()
    if high < low:
        raise f.error("players", f"players: max ({high}) is below min ({low})")
    extra = f.raw("extra_cards", 0)
    if isinstance(extra, dict):
        ef = ctx.fields(extra, "'extra_cards' of setup", f.line_of("extra_cards"))
        extra_min, extra_max = ef.whole("min", 0), ef.whole("max", 0)
        ef.done()
    else:
        extra_min = extra_max = f.whole("extra_cards", 0)
    if extra_max < extra_min:
        raise f.error("extra_cards", "extra_cards: max is below min")
    read = Setup(
        min_players=low,
        max_players=high,
        extra_min=extra_min,
        extra_max=extra_max,
        warn_over_factor=f.number("warn_over_factor") if f.has("warn_over_factor") else None,
        pairs=known(ctx, f, "pairs", f.ids("pairs")),
        needs=f.listed("needs", lambda v, ln: need(ctx, v, ln)),
        required=known(ctx, f, "required", f.ids("required")),
        decks=f.listed("decks", lambda v, ln: deck(ctx, v, ln)),
        must_contain=f.listed("must_contain", lambda v, ln: requirement(ctx, v, ln)),
    )
    for each in read.decks:
        # Also bounds the cross-check, which builds each deck for each count.
        if each.min_players < low or each.max_players > high:
            raise RulesetError(
                f"a deck for {each.min_players} to {each.max_players} players lies "
                f"outside the ruleset's {low} to {high} players; narrow its 'players'",
                ctx.path,
                each.line,
            )
    f.done()
    return read


def requirement(ctx: ReadContext, value: Any, at: int) -> Requirement:
    """`{team: mafia}` or `{any_of: [princess]}`, with `because` and a `level`."""
    f = ctx.fields(value, "a 'must_contain' rule", at)
    level = f.get("level", str, "error")
    if level not in ("error", "warning"):
        raise f.error("level", f"'level' must be error or warning, not '{level}'")
    team = f.get("team", str) if f.has("team") else None
    any_of = known(ctx, f, "any_of", f.ids("any_of"))
    if (team is None) == (not any_of):
        raise f.error(None, "a 'must_contain' rule names either a 'team' or 'any_of' roles")
    if team is not None:
        if team not in ctx.team_ids:
            raise f.error(
                "team",
                f"'team' is '{team}', which is not under 'teams'{did_you_mean(team, ctx.team_ids)}",
            )
        any_of = ctx.team_roles.get(team, ())
        if not any_of:
            raise f.error("team", f"no role is on team '{team}'")
    because = text(
        ctx, f.required("because"), "'because' of a must_contain rule", f.line_of("because")
    )
    what = optional_text(ctx, f, "what", "'what' of a must_contain rule")
    f.done()
    return Requirement(any_of, cast(Literal["error", "warning"], level), because, team, what)


def need(ctx: ReadContext, value: Any, at: int) -> Need:
    f = ctx.fields(value, "a 'needs' rule", at)
    level = f.get("level", str, "error")
    if level not in ("error", "warning"):
        raise f.error("level", f"'level' must be error or warning, not '{level}'")
    known(ctx, f, "role", (f.get("role", str, need=True),))
    read = Need(
        f.get("role", str, need=True),
        known(ctx, f, "any_of", f.ids("any_of")),
        cast(Literal["error", "warning"], level),
    )
    if not read.any_of:
        raise f.error(None, "a 'needs' rule needs 'any_of': the roles it depends on")
    f.done()
    return read


def deck(ctx: ReadContext, value: Any, at: int) -> Deck:
    f = ctx.fields(value, "a recommended deck", at)
    players = f.required("players")
    if isinstance(players, int) and not isinstance(players, bool):
        low = high = players
    elif (
        isinstance(players, list)
        and len(players) == 2
        and all(isinstance(p, int) and not isinstance(p, bool) for p in players)
    ):
        low, high = players
    else:
        raise f.error("players", "'players' of a deck must be a number or [min, max]")
    rf = ctx.fields(f.required("roles"), "'roles' of a deck", f.line_of("roles"))
    base = tuple((str(k), rf.whole(str(k), low=1)) for k in list(rf.data))
    known(ctx, rf, "roles", tuple(k for k, _ in base))
    adds = known(ctx, f, "add_in_order", f.ids("add_in_order"))
    discard = f.whole("discard", 0)
    discard_from = known(ctx, f, "discard_from", f.ids("discard_from"))
    if discard_from and not discard:
        raise f.error("discard_from", "'discard_from' needs 'discard': how many to remove")
    read = Deck(low, high, base, adds, discard, f.line, box=box(ctx, f), discard_from=discard_from)
    f.done()
    return read


# -- boxes, options, tokens ------------------------------------------------------------


def boxes(ctx: ReadContext, f: Fields) -> tuple[tuple[str, Text], ...]:
    if not f.has("boxes"):
        return ()
    bf = ctx.fields(f.raw("boxes"), "'boxes'", f.line_of("boxes"))
    out = []
    for key, value in bf.data.items():
        if not ID.match(str(key)):
            raise bf.error(str(key), f"box id '{key}' must be lower case letters, digits, _")
        bf.seen.add(str(key))
        out.append((str(key), text(ctx, value, f"box '{key}'", bf.line_of(str(key)))))
    return tuple(out)


def option(ctx: ReadContext, value: Any, at: int) -> Option:
    f = ctx.fields(value, "an option", at)
    option_id = f.get("id", str, need=True)
    if not ID.match(option_id):
        raise f.error("id", f"option id '{option_id}' must be lower case letters, digits, _")
    f.what = f"option '{option_id}'"
    kind = f.get("kind", str, "flag")
    if kind not in ("flag", "seconds"):
        raise f.error("kind", f"'kind' of {f.what} must be flag or seconds, not '{kind}'")
    effect = f.get("effect", str, "")
    if effect not in _EFFECTS:
        raise f.error("effect", f"'effect' of {f.what} must be terse or action_time")
    if kind == "flag":
        default = 1.0 if f.get("default", bool, False) else 0.0
    else:
        default = f.number("default", 0.0)
    read = Option(
        id=option_id,
        label=text(ctx, f.required("label"), f"the label of {f.what}", f.line_of("label")),
        kind=cast(Literal["flag", "seconds"], kind),
        default=default,
        effect=cast(Literal["", "terse", "action_time"], effect),
        help=optional_text(ctx, f, "help", f"the help of {f.what}"),
    )
    f.done()
    return read


def token(ctx: ReadContext, value: Any, at: int) -> Token:
    f = ctx.fields(value, "a token", at)
    token_id = f.get("id", str, need=True)
    f.what = f"token '{token_id}'"
    kind = f.get("kind", str, "")
    if kind not in ("", "mark", "artifact"):
        raise f.error("kind", f"'kind' of {f.what} must be mark or artifact, not '{kind}'")
    becomes = f.get("becomes", str, "")
    if becomes:
        known(ctx, f, "becomes", (becomes,))
    read = Token(
        id=token_id,
        name=text(ctx, f.required("name"), f"the name of {f.what}", f.line_of("name")),
        count=f.whole("count", 1, low=1),
        roles=known(ctx, f, "roles", f.ids("roles")),
        kind=cast(Literal["", "mark", "artifact"], kind),
        becomes=becomes,
        help=optional_text(ctx, f, "help", f"the help of {f.what}"),
        when=condition(ctx, f.raw("when"), f"'when' of {f.what}", f.line_of("when")),
        everyone=f.get("everyone", bool, False),
        wakes=f.get("wakes", bool, True),
    )
    if not read.roles:
        raise f.error(None, f"{f.what} needs 'roles': the roles that bring it")
    for key in ("becomes", "help", "when", "everyone", "wakes"):
        if f.has(key) and not kind:
            raise f.error(key, f"{f.what} has '{key}' but no 'kind': say mark or artifact")
    for key in ("everyone", "wakes"):
        if f.has(key) and kind != "mark":
            raise f.error(key, f"only a mark has '{key}'; {f.what} is an {kind}")
    f.done()
    return read
