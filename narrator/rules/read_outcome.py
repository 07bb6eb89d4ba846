"""The loader's reader of how a game ends: `outcome:` -- how the day's vote is counted
(`vote:`), the ordered win rules (`wins:`), when they are judged, the ends where
perhaps nobody wins, the team that wins when the rounds run out, and the game's own
words for a death.

The vote as the voice calls it is the day's `vote:` (`read_day`); `check.py` holds
the two sides together (`check_flow`).
"""

from __future__ import annotations

from typing import Any, cast

from narrator.base.errors import did_you_mean
from narrator.rules.powers import (
    Conversion,
    Outcome,
    Predicate,
    SeatRule,
    Spared,
    VoteRule,
    WinRule,
)
from narrator.rules.read_common import ReadContext, known, text, with_article
from narrator.rules.read_powers import match
from narrator.rules.reader import line_of_value

_PREDICATES = (
    "dead", "held", "dead_other", "alive", "parity", "only_alive", "nobody_dead",
    "nobody_alive", "captured", "free", "revealed", "all", "any", "not", "self_dead",
    "self_alive", "won", "ally_won", "self_mates", "mate_dead", "epic", "voted", "all_voted",
    "reach_dead",
)  # fmt: skip
# The predicates about a seat rule's own player, or the team rules' result: only in
# `outcome: seats:`.
_OF_A_SEAT = (
    "self_dead", "self_alive", "won", "ally_won", "self_mates", "mate_dead", "voted",
    "reach_dead",
)  # fmt: skip
_FLAGS = ("self_dead", "self_alive", "ally_won", "self_mates", "mate_dead", "epic", "reach_dead")
_MODIFIERS = ("uncounted", "shields", "spared", "turns", "together", "epic")
# The keys of `outcome: vote:` that only one kind of vote has (each has its windows too).
_RULES_OF = {
    "simultaneous": ("dies", "min_votes", "self_vote", *_MODIFIERS),
    "accusation_ballot": (
        "accusers", "suspects", "sole_accused_dies", "final_two_one_vote",
        "open_accusation", "open_ballot", "tie",
    ),
}  # fmt: skip


def outcome(ctx: ReadContext, value: Any, line: int) -> Outcome:
    f = ctx.fields(value, "'outcome'", line)
    vf = ctx.fields(f.raw("vote", {"kind": "none"}), "'vote' of outcome", f.line_of("vote"))
    kind = vf.get("kind", str, "simultaneous")
    if kind not in ("simultaneous", "accusation_ballot", "none"):
        raise vf.error(
            "kind",
            f"'kind' of the vote must be simultaneous, accusation_ballot or none, not '{kind}'",
        )
    for other, keys in _RULES_OF.items():
        for key in keys if other != kind else ():
            if vf.has(key):
                raise vf.error(
                    key,
                    f"'{key}' is a rule of {with_article(other)} vote, not of "
                    f"{with_article(kind)} one; remove it, or make the vote's kind {other}",
                )
    dies = vf.get("dies", str, "most")
    if dies != "most":
        raise vf.error("dies", f"'dies' of the vote must be most, not '{dies}'")
    accusers = vf.get("accusers", str, "alive")
    if accusers not in ("alive", "everyone"):
        raise vf.error("accusers", f"'accusers' must be alive or everyone, not '{accusers}'")
    tie = vf.get("tie", str, "tombstone_clockwise")
    ties = ("tombstone_clockwise", "last_arrested_nearest", "nobody")
    if tie not in ties:
        raise vf.error(
            "tie",
            f"'tie' must be one of: {', '.join(ties)}, not '{tie}'{did_you_mean(tie, ties)}",
        )
    suspects_raw = vf.raw("suspects", 2)
    if isinstance(suspects_raw, str) and suspects_raw != "ranks":
        raise vf.error(
            "suspects", f"'suspects' must be a whole number or ranks, not '{suspects_raw}'"
        )
    if suspects_raw == "ranks":
        suspects, suspects_by = 2, "ranks"
    else:
        suspects, suspects_by = vf.whole("suspects", 2, low=1, high=10), "count"
    # the phones' vote windows; a ruleset that says nothing gets VoteRule's
    default = VoteRule()
    windows = {
        "seconds": default.seconds,
        "accusation_seconds": default.accusation_seconds,
        "ballot_seconds": default.ballot_seconds,
    }
    for key in windows:
        if vf.has(key):
            if (kind == "simultaneous") != (key == "seconds"):
                raise vf.error(
                    key,
                    f"'{key}' is not a time of a {kind} vote: a simultaneous vote has "
                    "'seconds', an accusation_ballot vote 'accusation_seconds' and "
                    "'ballot_seconds'",
                )
            windows[key] = vf.number(key, low=5)
    vote = VoteRule(
        kind=cast(Any, kind),
        min_votes=vf.whole("min_votes", 1, low=1),
        self_vote=vf.get("self_vote", bool, False),
        accusers=cast(Any, accusers),
        suspects=suspects,
        suspects_by=cast(Any, suspects_by),
        sole_accused_dies=vf.get("sole_accused_dies", bool, False),
        final_two_one_vote=vf.get("final_two_one_vote", bool, False),
        open_accusation=vf.get("open_accusation", bool, False),
        open_ballot=vf.get("open_ballot", bool, False),
        tie=cast(Any, tie),
        seconds=windows["seconds"],
        accusation_seconds=windows["accusation_seconds"],
        ballot_seconds=windows["ballot_seconds"],
        uncounted=vf.listed(
            "uncounted", lambda v, ln: match(ctx, v, "'uncounted' of the vote", ln)
        ),
        shields=vf.listed("shields", lambda v, ln: match(ctx, v, "'shields' of the vote", ln)),
        spared=vf.listed("spared", lambda v, ln: spared(ctx, v, ln)),
        turns=vf.listed("turns", lambda v, ln: turn(ctx, v, ln)),
        together=vf.listed("together", lambda v, ln: match(ctx, v, "'together' of the vote", ln)),
        epic=vf.listed("epic", lambda v, ln: match(ctx, v, "'epic' of the vote", ln)),
        line=vf.line_of("kind"),
    )
    if vote.epic and len(vote.epic) < 3:
        raise vf.error("epic", "'epic' of the vote names its groups: three or more of them")
    vf.done()
    wins = f.listed("wins", lambda v, ln: win_rule(ctx, v, ln))
    seats = f.listed("seats", lambda v, ln: seat_rule(ctx, v, ln))
    if not wins:
        raise f.error("wins", "'outcome' needs 'wins': the ordered list of win rules")
    judged = f.get("judged", str, "at_end")
    if judged not in ("at_end", "any_time", "day_start"):
        raise f.error("judged", f"'judged' must be at_end, any_time or day_start, not '{judged}'")
    ends_raw = f.raw("ends", [])
    if not isinstance(ends_raw, list):
        raise f.error("ends", "'ends' of outcome must be a list of conditions")
    ends = tuple(
        predicate(ctx, v, f"end {i + 1} of outcome", line_of_value(v, f.line_of("ends")))
        for i, v in enumerate(ends_raw)
    )
    rounds_out = f.get("rounds_out", str, "")
    if rounds_out and rounds_out not in ctx.team_ids:
        raise f.error(
            "rounds_out",
            f"'rounds_out' names the team '{rounds_out}', which this ruleset does not have"
            f"{did_you_mean(rounds_out, ctx.team_ids)}",
        )
    last_two = f.listed("last_two", lambda v, ln: match(ctx, v, "'last_two' of outcome", ln))
    words = {}
    for key in ("night_death", "vote_death"):
        if f.has(key):
            words[key] = text(ctx, f.raw(key), f"'{key}' of outcome", f.line_of(key))
    f.done()
    return Outcome(
        vote=vote,
        wins=wins,
        seats=seats,
        judged=cast(Any, judged),
        ends=ends,
        rounds_out=rounds_out,
        last_two=last_two,
        line=f.line,
        **words,
    )


def spared(ctx: ReadContext, value: Any, line: int) -> Spared:
    f = ctx.fields(value, "a player 'spared' by the vote", line)
    rule = Spared(
        who=match(ctx, f.required("who"), "'who' of 'spared'", f.line_of("who")),
        by=match(ctx, f.required("by"), "'by' of 'spared'", f.line_of("by")),
    )
    f.done()
    return rule


def turn(ctx: ReadContext, value: Any, line: int) -> Conversion:
    f = ctx.fields(value, "a player the vote 'turns'", line)
    to = f.get("to", str, need=True)
    known(ctx, f, "to", (to,))
    rule = Conversion(
        who=match(ctx, f.required("who"), "'who' of 'turns'", f.line_of("who")),
        by=match(ctx, f.required("by"), "'by' of 'turns'", f.line_of("by")),
        to=to,
    )
    f.done()
    return rule


def seat_rule(ctx: ReadContext, value: Any, line: int) -> SeatRule:
    """`{who: MATCH, only|also|never: CONDITION, team: TEAM}`: one player's own win."""
    f = ctx.fields(value, "a seat rule", line)
    kinds = [k for k in ("only", "also", "never") if f.has(k)]
    if len(kinds) != 1:
        raise f.error(
            None,
            "a seat rule says exactly one of: only (the player wins exactly when it "
            "holds), also (wins besides their team), never (loses even if their team won)",
        )
    (kind,) = kinds
    who = None
    if f.has("who"):
        who = match(ctx, f.raw("who"), "'who' of a seat rule", f.line_of("who"))
    team = f.get("team", str, "")
    if team and team not in ctx.team_ids:
        raise f.error(
            "team",
            f"the seat rule names the team '{team}', which this ruleset does not have"
            f"{did_you_mean(team, ctx.team_ids)}",
        )
    if team and kind == "never":
        raise f.error("team", "a seat rule that makes a player lose adds no winning team")
    rule = SeatRule(
        who=who,
        kind=cast(Any, kind),
        when=predicate(ctx, f.raw(kind), f"'{kind}' of a seat rule", f.line_of(kind), seat=True),
        team=team,
        line=f.line,
    )
    f.done()
    return rule


def win_rule(ctx: ReadContext, value: Any, line: int) -> WinRule:
    f = ctx.fields(value, "a win rule", line)
    team = f.get("team", str, need=True)
    if team not in ctx.team_ids:
        raise f.error(
            "team",
            f"the win rule names the team '{team}', which this ruleset does not have"
            f"{did_you_mean(team, ctx.team_ids)}",
        )
    rule = WinRule(
        team=team,
        when=predicate(ctx, f.required("if"), f"'if' of {team}'s win", f.line_of("if")),
        each=f.get("each", bool, False),
        line=f.line,
    )
    f.done()
    return rule


def predicate(
    ctx: ReadContext, value: Any, what: str, line: int, *, seat: bool = False
) -> Predicate:
    """A condition on the end; `seat`: of a seat rule, which may ask about its own
    player (`self_dead`, `self_alive`) and the team rules' result (`won`,
    `ally_won`)."""
    f = ctx.fields(value, what, line)
    keys = [k for k in f.data if k in _PREDICATES]
    if len(keys) != 1 or len(f.data) != 1:
        f.done(_PREDICATES)  # a typo: did-you-mean
        raise f.error(None, f"{what} must be exactly one of: {', '.join(_PREDICATES)}")
    key = str(keys[0])
    raw = f.raw(key)
    at = f.line_of(key)
    if key in _OF_A_SEAT and not seat:
        raise f.error(
            key,
            f"'{key}' asks about one player or the teams' result: it belongs in a seat "
            "rule ('outcome: seats:'), not in a team's win",
        )
    if key in ("all", "any"):
        if not isinstance(raw, list) or not raw:
            raise f.error(key, f"'{key}' in {what} must be a list of conditions")
        parts = tuple(
            predicate(ctx, v, f"a part of '{key}'", line_of_value(v, at), seat=seat) for v in raw
        )
        return Predicate(all=parts) if key == "all" else Predicate(any=parts)
    if key == "not":
        return Predicate(not_=predicate(ctx, raw, f"'not' in {what}", at, seat=seat))
    if key in _FLAGS:
        if raw is not True:
            raise f.error(key, f"'{key}' in {what} can only be true")
        return Predicate(
            self_dead=key == "self_dead",
            self_alive=key == "self_alive",
            ally_won=key == "ally_won",
            self_mates=key == "self_mates",
            mate_dead=key == "mate_dead",
            epic=key == "epic",
            reach_dead=key == "reach_dead",
        )
    if key == "all_voted":
        af = ctx.fields(raw, f"'all_voted' in {what}", at)
        voters = match(ctx, af.required("who"), f"'who' of {what}", af.line_of("who"))
        target = match(ctx, af.required("for"), f"'for' of {what}", af.line_of("for"))
        af.done()
        return Predicate(all_voted=(voters, target))
    if key == "won":
        if raw not in ctx.team_ids:
            raise f.error(
                key,
                f"'won' in {what} names the team '{raw}', which this ruleset does not have"
                f"{did_you_mean(str(raw), ctx.team_ids)}",
            )
        return Predicate(won=str(raw))
    if key == "parity":
        pf = ctx.fields(raw, f"'parity' in {what}", at)
        side = match(ctx, pf.required("side"), f"'side' of {what}", pf.line_of("side"))
        against = match(ctx, pf.required("against"), f"'against' of {what}", pf.line_of("against"))
        pf.done()
        return Predicate(parity=(side, against))
    if key in ("nobody_dead", "nobody_alive"):
        if raw is not True:
            raise f.error(key, f"'{key}' in {what} can only be true")
        if key == "nobody_dead":
            return Predicate(nobody_dead=True)
        return Predicate(nobody_alive=True)
    if key == "only_alive":
        if not isinstance(raw, list) or not raw:
            raise f.error(key, f"'only_alive' in {what} must be a list of roles, teams or tags")
        return Predicate(
            only_alive=tuple(
                match(ctx, v, f"'only_alive' in {what}", line_of_value(v, at)) for v in raw
            )
        )
    found = match(ctx, raw, f"'{key}' in {what}", at)
    if key == "dead":
        return Predicate(dead=found)
    if key == "held":
        return Predicate(held=found)
    if key == "captured":
        return Predicate(captured=found)
    if key == "free":
        return Predicate(free=found)
    if key == "revealed":
        return Predicate(revealed=found)
    if key == "alive":
        return Predicate(alive=found)
    if key == "voted":
        return Predicate(voted=found)
    return Predicate(dead_other=found)
