"""The loader's reader of what roles do (`does:`, `tags:`, `on_death:`) and of the
game's end (`outcome:`), and the checks across them once every role is read.

A section of its own, beside the night and day readers: each function takes a
`Fields` of the YAML and returns the frozen records of `powers.py`; every mistake is
one `RulesetError` with the file and line and, for a typo, a did-you-mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from narrator.base.errors import did_you_mean
from narrator.rules.errors import RulesetError
from narrator.rules.powers import (
    EFFECTS,
    NEEDS_PICK,
    Ability,
    Answer,
    Effect,
    Match,
    Outcome,
    Pick,
    Powers,
    Predicate,
    VoteRule,
    WinRule,
)
from narrator.rules.reader import Fields, line_of_value

if TYPE_CHECKING:
    from narrator.rules.model import Ruleset

_PREDICATES = (
    "dead", "held", "dead_other", "alive", "parity", "only_alive", "nobody_dead",
    "nobody_alive", "captured", "revealed", "all", "any", "not",
)  # fmt: skip
_ON_DEATH = ("", "shoot_vote")


class PowersMixin:
    """Mixed into the loader's reader: needs `fields()`, `condition()`, `text()`,
    `known()` and `role_ids`."""

    role_ids: tuple[str, ...]
    team_ids: tuple[str, ...]

    def fields(self, data: Any, what: str, line: int = 0) -> Fields:
        raise NotImplementedError

    def condition(self, value: Any, what: str, line: int) -> Any:
        raise NotImplementedError

    def text(self, value: Any, what: str, line: int) -> Any:
        raise NotImplementedError

    def known(self, f: Fields, key: str, ids: tuple[str, ...]) -> tuple[str, ...]:
        raise NotImplementedError

    # -- a role's powers ---------------------------------------------------------

    def powers(self, f: Fields, what: str) -> Powers | None:
        if not any(f.has(k) for k in ("does", "tags", "on_death", "strength", "does_as")):
            f.raw("does")  # nothing to read
            return None
        tags = f.ids("tags")
        on_death = f.get("on_death", str, "")
        if on_death not in _ON_DEATH:
            raise f.error(
                "on_death",
                f"'on_death' of {what} must be one of: shoot_vote, not '{on_death}'",
            )
        raw = f.raw("does", [])
        if not isinstance(raw, list):
            raise f.error("does", f"'does' of {what} must be a list of powers")
        abilities = tuple(
            self.ability(item, f"power {i + 1} of {what}", line_of_value(item, f.line_of("does")))
            for i, item in enumerate(raw)
        )
        ids = [a.id for a in abilities]
        for i, a in enumerate(abilities):
            if a.id in ids[:i]:
                raise RulesetError(
                    f"{what} has two powers with the id '{a.id}'; give each its own 'id'",
                    f.path,
                    a.line or None,
                )
        does_as = f.get("does_as", str, "")
        if does_as:
            self.known(f, "does_as", (does_as,))
            if f.has("does"):
                raise f.error(
                    "does_as", f"{what} has 'does' and 'does_as'; it acts as one role only"
                )
        return Powers(
            abilities=abilities,
            tags=tags,
            on_death=cast(Any, on_death),
            strength=f.whole("strength", 0, high=100),
            does_as=does_as,
            given=any(f.has(k) for k in ("does", "does_as", "on_death")),
        )

    def ability(self, value: Any, what: str, line: int) -> Ability:
        f = self.fields(value, what, line)
        effects = self._effects(f, what)
        picks = f.listed("pick", lambda v, ln: self.pick(v, f"a 'pick' of {what}", ln))
        target = f.get("target", str, "")
        if target not in ("", "executed"):
            raise f.error("target", f"'target' of {what} must be executed, not '{target}'")
        needs = [e for e in effects if e in NEEDS_PICK or (e == "learn" and not target)]
        if needs and not picks:
            raise f.error(None, f"{what} does '{needs[0]}', which needs a 'pick'; add one")
        if picks and not needs:
            raise f.error("pick", f"{what} picks, but none of its effects uses what is picked")
        if "know" in effects and not f.has("know"):
            raise f.error(None, f"{what} does 'know'; say whom with 'know: {{tag: ...}}'")
        for key in ("learn", "answer"):
            if "learn" in effects and not f.has(key):
                raise f.error(None, f"{what} does 'learn'; give '{key}' too")
        if "answer" in effects and not f.has("answers"):
            raise f.error(None, f"{what} does 'answer'; say how each card answers in 'answers'")
        if "accuse" in effects and not any(p.role for p in picks):
            raise f.error("pick", f"{what} does 'accuse'; its pick must name a role: 'role: true'")
        answer = None
        if f.has("answer"):
            af = self.fields(f.raw("answer"), f"'answer' of {what}", f.line_of("answer"))
            answer = (
                self.text(af.required("is"), f"'is' of {what}'s answer", af.line_of("is")),
                self.text(
                    af.required("is_not"), f"'is_not' of {what}'s answer", af.line_of("is_not")
                ),
            )
            af.done()
        agree = f.get("agree", str, "")
        if agree not in ("", "unanimous", "most", "strongest"):
            raise f.error(
                "agree", f"'agree' of {what} must be unanimous, most or strongest, not '{agree}'"
            )
        know = self.match(f.raw("know"), f"'know' of {what}", f.line_of("know"))
        timing = f.get("timing", str, "at_once")
        if timing not in ("at_once", "dawn"):
            raise f.error("timing", f"'timing' of {what} must be at_once or dawn, not '{timing}'")
        later = self.known(f, "later", f.ids("later"))
        ability = Ability(
            id=f.get("id", str, "act"),
            effects=effects,
            picks=picks,
            optional=f.get("optional", bool, True),
            when=self.condition(f.raw("when"), f"'when' of {what}", f.line_of("when")),
            alone=f.get("alone", bool, False),
            know=know if f.has("know") else None,
            later=later,
            timing=cast(Any, timing),
            priority=f.whole("priority", 0),
            turn=f.whole("turn", 0, high=20),
            hidden=f.listed("hidden", lambda v, ln: self.match(v, f"'hidden' of {what}", ln)),
            learn=self.match(f.raw("learn"), f"'learn' of {what}", f.line_of("learn"))
            if f.has("learn")
            else None,
            answer=answer,
            target=cast(Any, target),
            agree=cast(Any, agree),
            once=f.get("once", bool, False),
            answers=f.listed("answers", lambda v, ln: self.answer(v, f"an answer of {what}", ln)),
            not_by=self.match(f.raw("not_by"), f"'not_by' of {what}", f.line_of("not_by"))
            if f.has("not_by")
            else None,
            say=self.text(f.raw("say"), f"'say' of {what}", f.line_of("say"))
            if f.has("say")
            else None,
            label=self.text(f.raw("label"), f"'label' of {what}", f.line_of("label"))
            if f.has("label")
            else None,
            line=f.line,
        )
        f.done()
        return ability

    def answer(self, value: Any, what: str, line: int) -> Answer:
        f = self.fields(value, what, line)
        answer = Answer(
            match=self.match(f.required("if"), f"'if' of {what}", f.line_of("if")),
            say=self.text(f.required("say"), f"'say' of {what}", f.line_of("say")),
            reveal=f.get("reveal", bool, False),
        )
        f.done()
        return answer

    def _effects(self, f: Fields, what: str) -> tuple[Effect, ...]:
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

    def pick(self, value: Any, what: str, line: int) -> Pick:
        f = self.fields(value, what, line)
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
        )
        f.done()
        if sum(bool(x) for x in (pick.players, pick.centre, pick.named)) != 1:
            raise f.error(
                None, f"{what} must pick some 'players', some 'centre' cards, or one of 'named'"
            )
        return pick

    def match(self, value: Any, what: str, line: int) -> Match:
        if value is None:
            return Match()
        f = self.fields(value, what, line)
        match = Match(
            role=f.get("role", str, ""), team=f.get("team", str, ""), tag=f.get("tag", str, "")
        )
        f.done()
        if sum(bool(x) for x in (match.role, match.team, match.tag)) != 1:
            raise f.error(None, f"{what} must name exactly one of: role, team, tag")
        if match.role:
            self.known(f, "role", (match.role,))
        if match.team and match.team not in self.team_ids:
            raise f.error(
                "team",
                f"{what} names the team '{match.team}', which this ruleset does not have"
                f"{did_you_mean(match.team, self.team_ids)}",
            )
        return match

    # -- the end of the game -----------------------------------------------------

    def outcome(self, value: Any, line: int) -> Outcome:
        f = self.fields(value, "'outcome'", line)
        vf = self.fields(f.raw("vote", {"kind": "none"}), "'vote' of outcome", f.line_of("vote"))
        kind = vf.get("kind", str, "simultaneous")
        dies = vf.get("dies", str, "most")
        if kind not in ("simultaneous", "accusation_ballot", "none"):
            raise vf.error(
                "kind",
                f"'kind' of the vote must be simultaneous, accusation_ballot or none, not '{kind}'",
            )
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
        )
        vf.done()
        wins = f.listed("wins", self.win_rule)
        if not wins:
            raise f.error("wins", "'outcome' needs 'wins': the ordered list of win rules")
        judged = f.get("judged", str, "at_end")
        if judged not in ("at_end", "any_time", "day_start"):
            raise f.error(
                "judged", f"'judged' must be at_end, any_time or day_start, not '{judged}'"
            )
        ends_raw = f.raw("ends", [])
        if not isinstance(ends_raw, list):
            raise f.error("ends", "'ends' of outcome must be a list of conditions")
        ends = tuple(
            self.predicate(v, f"end {i + 1} of outcome", line_of_value(v, f.line_of("ends")))
            for i, v in enumerate(ends_raw)
        )
        rounds_out = f.get("rounds_out", str, "")
        if rounds_out and rounds_out not in self.team_ids:
            raise f.error(
                "rounds_out",
                f"'rounds_out' names the team '{rounds_out}', which this ruleset does not have"
                f"{did_you_mean(rounds_out, self.team_ids)}",
            )
        words = {}
        for key in ("night_death", "vote_death"):
            if f.has(key):
                words[key] = self.text(f.raw(key), f"'{key}' of outcome", f.line_of(key))
        f.done()
        return Outcome(
            vote=vote,
            wins=wins,
            judged=cast(Any, judged),
            ends=ends,
            rounds_out=rounds_out,
            line=f.line,
            **words,
        )

    def win_rule(self, value: Any, line: int) -> WinRule:
        f = self.fields(value, "a win rule", line)
        team = f.get("team", str, need=True)
        if team not in self.team_ids:
            raise f.error(
                "team",
                f"the win rule names the team '{team}', which this ruleset does not have"
                f"{did_you_mean(team, self.team_ids)}",
            )
        rule = WinRule(
            team=team,
            when=self.predicate(f.required("if"), f"'if' of {team}'s win", f.line_of("if")),
            line=f.line,
        )
        f.done()
        return rule

    def predicate(self, value: Any, what: str, line: int) -> Predicate:
        f = self.fields(value, what, line)
        keys = [k for k in f.data if k in _PREDICATES]
        if len(keys) != 1 or len(f.data) != 1:
            f.done(_PREDICATES)  # a typo: did-you-mean
            raise f.error(None, f"{what} must be exactly one of: {', '.join(_PREDICATES)}")
        key = str(keys[0])
        raw = f.raw(key)
        at = f.line_of(key)
        if key in ("all", "any"):
            if not isinstance(raw, list) or not raw:
                raise f.error(key, f"'{key}' in {what} must be a list of conditions")
            parts = tuple(
                self.predicate(v, f"a part of '{key}'", line_of_value(v, at)) for v in raw
            )
            return Predicate(all=parts) if key == "all" else Predicate(any=parts)
        if key == "not":
            return Predicate(not_=self.predicate(raw, f"'not' in {what}", at))
        if key == "parity":
            pf = self.fields(raw, f"'parity' in {what}", at)
            side = self.match(pf.required("side"), f"'side' of {what}", pf.line_of("side"))
            against = self.match(
                pf.required("against"), f"'against' of {what}", pf.line_of("against")
            )
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
                    self.match(v, f"'only_alive' in {what}", line_of_value(v, at)) for v in raw
                )
            )
        match = self.match(raw, f"'{key}' in {what}", at)
        if key == "dead":
            return Predicate(dead=match)
        if key == "held":
            return Predicate(held=match)
        if key == "captured":
            return Predicate(captured=match)
        if key == "revealed":
            return Predicate(revealed=match)
        if key == "alive":
            return Predicate(alive=match)
        return Predicate(dead_other=match)


def check_powers(ruleset: Ruleset) -> None:
    """What one mapping cannot check: every tag a rule names is some role's tag."""
    tags = {t for r in ruleset.roles if r.powers for t in r.powers.tags}
    where = ruleset.path or "ruleset"

    def check(match: Match | None, line: int, what: str) -> None:
        if match is not None and match.tag and match.tag not in tags:
            raise RulesetError(
                f"{what} names the tag '{match.tag}', which no role has"
                f"{did_you_mean(match.tag, sorted(tags))}; add it to a role's 'tags'",
                where,
                line or None,
            )

    def walk(p: Predicate, line: int) -> None:
        for m in (
            p.dead, p.held, p.dead_other, p.alive, p.captured, p.revealed,
            *(p.parity or ()), *p.only_alive,
        ):  # fmt: skip
            check(m, line, "a win rule")
        for sub in (*p.all, *p.any, *((p.not_,) if p.not_ else ())):
            walk(sub, line)

    ids = [a.id for a in ruleset.actions]
    for i, action in enumerate(ruleset.actions):
        if action.id in ids[:i]:
            raise RulesetError(
                f"two actions have the id '{action.id}'; give each its own 'id'",
                where,
                action.line or None,
            )
        for answer in action.answers:
            check(answer.match, action.line, f"action '{action.id}'")
        check(action.not_by, action.line, f"action '{action.id}'")
    for role in ruleset.roles:
        for ability in role.powers.abilities if role.powers else ():
            check(ability.know, ability.line, f"a power of role '{role.id}'")
            for match in (*ability.hidden, *((ability.learn,) if ability.learn else ())):
                check(match, ability.line, f"a power of role '{role.id}'")
    if ruleset.outcome:
        for rule in ruleset.outcome.wins:
            walk(rule.when, rule.line)
        for end in ruleset.outcome.ends:
            walk(end, ruleset.outcome.line)
