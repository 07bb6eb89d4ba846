"""YAML text -> checked, frozen `Ruleset`. The only place that sees a raw dict.

Two stages, as python-statemachine reads a chart: what the sections refer to (the
languages, the ids of roles, teams, boxes and options, each role's place in the
night) is gathered first into a frozen `read_common.ReadContext`; then each section
is read by a plain function of that context and a `Fields` of its YAML
(`read_roles`, `read_setup`, `read_day`, `read_powers`, `read_outcome`). Every mistake
raises one `RulesetError` naming the file, the line and the key, and saying what was
expected. `check.py` then checks what one mapping alone cannot: that ids are unique,
that every recommended deck can be built, that the tags the rules name exist, that
the day's vote as the voice calls it is the vote the rules count.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from narrator.rules import parsed
from narrator.rules.check import check_flow, check_powers, cross_check
from narrator.rules.errors import RulesetError
from narrator.rules.model import Ruleset
from narrator.rules.read_common import ID, LANG, ReadContext, optional_text, text
from narrator.rules.read_day import day, night, rounds
from narrator.rules.read_outcome import outcome
from narrator.rules.read_powers import ability
from narrator.rules.read_roles import first_order, role
from narrator.rules.read_setup import boxes, option, setup, token
from narrator.rules.yamlio import read_yaml

MAX_BYTES = 1_000_000  # the shipped rulesets are under 16 kB
_NOT_A_FILE = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}


def load_ruleset(path: Path | str) -> Ruleset:
    """Read and check one ruleset file."""
    path = Path(path)
    try:
        data = read_small_file(path)
        kept = parsed.recall(path, data)  # checked before, unchanged since (parsed.py)
        if kept is not None:
            return kept
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesetError("not UTF-8 text; save the file as UTF-8", path) from None
    except OSError as exc:
        raise RulesetError(f"cannot read the file ({exc.strerror})", path) from None
    ruleset = parse_ruleset(text, path)
    parsed.keep(path, data, ruleset)
    return ruleset


def read_small_file(path: Path, what: str = "a ruleset file") -> bytes:
    """The bytes of a regular file of at most MAX_BYTES, judged before reading; `what`
    names the file expected in the error lines.

    Opened non-blocking, so a FIFO cannot hang us waiting for a writer, then judged by
    the open file itself (no window to swap in something else after a check)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    info = os.fstat(fd)
    kind = stat.S_IFMT(info.st_mode)
    if kind != stat.S_IFREG:
        os.close(fd)
        kind_name = _NOT_A_FILE.get(kind, "not a regular file")
        raise RulesetError(f"this is {kind_name}, not {what}; give a .yaml file", path)
    with os.fdopen(fd, "rb") as file:
        data = file.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            size = max(info.st_size, len(data)) / 1e6
            limit = f"{what} is text of at most {MAX_BYTES / 1e6:g} MB"
            raise RulesetError(f"the file is {size:.1f} MB; {limit}", path)
        return data


def parse_ruleset(text: str, path: Path | str) -> Ruleset:
    path = Path(path)
    data = read_yaml(text, path)
    if data is None:
        raise RulesetError("the file is empty; a ruleset needs at least 'id' and 'roles'", path)
    return _ruleset(ReadContext(path), data)


def _ruleset(ctx: ReadContext, data: Any) -> Ruleset:
    """The whole file: what it refers to first, then each section, then the checks."""
    f = ctx.fields(data, "the ruleset", 1)
    ruleset_id = f.get("id", str, need=True)
    if not ID.match(ruleset_id):
        raise f.error("id", f"ruleset id '{ruleset_id}' must be lower case letters, digits, _")
    languages = f.raw("languages")
    if (
        not isinstance(languages, list)
        or not languages
        or not all(isinstance(x, str) and LANG.match(x) for x in languages)
    ):
        raise f.error("languages", "'languages' must be a list of codes like [en, it]")
    ctx = ctx.with_(languages=tuple(languages))
    raw_roles = f.raw("roles")
    if isinstance(raw_roles, list):
        ctx = ctx.with_(**_role_ids(raw_roles))
    ctx = ctx.with_(box_ids=tuple(b for b, _ in boxes(ctx, f)))
    options = f.listed("options", lambda v, ln: option(ctx, v, ln))
    ctx = ctx.with_(option_ids=tuple(o.id for o in options))
    nights = f.raw("nights", "many")
    if nights != "many" and not (
        isinstance(nights, int) and not isinstance(nights, bool) and nights >= 1
    ):
        raise f.error("nights", f"'nights' must be a number or 'many', not {nights!r}")
    tf = ctx.fields(f.required("teams"), "'teams'", f.line_of("teams"))
    teams = tuple(
        (str(k), text(ctx, v, f"team '{k}'", tf.line_of(str(k)))) for k, v in tf.data.items()
    )
    ctx = ctx.with_(team_ids=tuple(t for t, _ in teams), team_roles=_team_roles(raw_roles))
    default_time = f.number("action_time", 10.0)
    the_night, templates = night(ctx, f.raw("night", {}), f.line_of("night"), default_time)
    ctx = ctx.with_(templates=templates)
    roles = f.listed("roles", lambda v, ln: role(ctx, v, ln, default_time))
    if not roles:
        raise f.error("roles", "a ruleset needs at least one role under 'roles'")
    ruleset = Ruleset(
        id=ruleset_id,
        name=text(ctx, f.required("name"), "the ruleset name", f.line_of("name")),
        languages=tuple(languages),
        nights=None if nights == "many" else nights,
        teams=teams,
        roles=roles,
        setup=setup(ctx, f.required("setup"), f.line_of("setup")),
        night=the_night,
        day=day(ctx, f.required("day"), f.line_of("day")),
        rounds=rounds(ctx, f.raw("rounds"), f.line_of("rounds")) if f.has("rounds") else None,
        description=optional_text(ctx, f, "description", "'description'"),
        boxes=boxes(ctx, f),
        options=options,
        tokens=f.listed("tokens", lambda v, ln: token(ctx, v, ln)),
        outcome=outcome(ctx, f.raw("outcome"), f.line_of("outcome")) if f.has("outcome") else None,
        actions=f.listed("actions", lambda v, ln: ability(ctx, v, "an action", ln)),
        path=ctx.path,
    )
    f.done()
    cross_check(ruleset)
    check_powers(ruleset)
    check_flow(ruleset)
    return ruleset


def _role_ids(raw_roles: list[Any]) -> dict[str, Any]:
    """The role ids as written, and each role's own place in the night (`after:`)."""
    ids = tuple(str(r["id"]) for r in raw_roles if isinstance(r, dict) and "id" in r)
    orders = {}
    for r in raw_roles:
        order = first_order(r)
        if order is not None:
            orders[str(r["id"])] = order
    return {"role_ids": ids, "role_orders": orders}


def _team_roles(raw_roles: Any) -> dict[str, tuple[str, ...]]:
    """The roles of each team, as written (a `must_contain` rule may name a team)."""
    members: dict[str, tuple[str, ...]] = {}
    if isinstance(raw_roles, list):
        for item in raw_roles:
            if isinstance(item, dict) and "id" in item and "team" in item:
                team = str(item["team"])
                members[team] = (*members.get(team, ()), str(item["id"]))
    return members


__all__ = ["load_ruleset", "parse_ruleset", "read_small_file"]
