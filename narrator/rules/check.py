"""What no single mapping of a ruleset can tell, checked once the whole file is read.

The section readers (`read_*.py`) check each mapping as they read it; these checks
look across sections: unique role ids and group leads, buildable decks
(`cross_check`), the tags the rules name (`check_powers`), and the parts the game's
flow is made of (`check_flow`: the day's vote as the voice calls it and as the rules
count it, the rounds, the actions, the nights). Each failure is one `RulesetError`
with the file and line of the part at fault.
"""

from __future__ import annotations

from narrator.base.errors import did_you_mean
from narrator.rules.decks import build_deck
from narrator.rules.errors import RulesetError
from narrator.rules.flow import KIND_OF_STYLE
from narrator.rules.model import Ruleset
from narrator.rules.powers import Ability, Match, Predicate
from narrator.rules.read_common import with_article


def cross_check(ruleset: Ruleset) -> None:
    """What no single mapping can tell: unique ids, group leads, buildable decks."""
    seen: dict[str, int] = {}
    by_id = {r.id: r for r in ruleset.roles}
    for role in ruleset.roles:
        if role.id in seen:
            raise RulesetError(
                f"role id '{role.id}' is used twice (also on line "
                f"{seen[role.id]}); ids must be unique",
                ruleset.path,
                role.line,
            )
        seen[role.id] = role.line
        if role.wakes_with is not None:
            lead = by_id[role.wakes_with]
            if not lead.turns or lead.wakes_with is not None:
                raise RulesetError(
                    f"role '{role.id}' wakes with '{lead.id}', which has no turn of its own",
                    ruleset.path,
                    role.line,
                )
    for deck in ruleset.setup.decks:
        for players in range(deck.min_players, deck.max_players + 1):
            try:
                build_deck(ruleset, deck, players)
            except ValueError as exc:
                raise RulesetError(str(exc), ruleset.path, deck.line) from None


def check_powers(ruleset: Ruleset) -> None:
    """What one mapping cannot check: every tag a rule names is some role's tag, and
    every mark or artifact it names is one of the ruleset's `tokens` of that kind."""
    tags = {t for r in ruleset.roles if r.powers for t in r.powers.tags}
    where = ruleset.path or "ruleset"
    kinds = {
        kind: [t.id for t in ruleset.tokens if t.kind == kind] for kind in ("mark", "artifact")
    }

    def token(kind: str, name: str, line: int, what: str) -> None:
        if name and name not in kinds[kind]:
            raise RulesetError(
                f"{what} names the {kind} '{name}', which is not one of the ruleset's "
                f"'tokens' of kind {kind}{did_you_mean(name, kinds[kind])}",
                where,
                line or None,
            )

    def check(match: Match | None, line: int, what: str) -> None:
        if match is not None and match.tag and match.tag not in tags:
            raise RulesetError(
                f"{what} names the tag '{match.tag}', which no role has"
                f"{did_you_mean(match.tag, sorted(tags))}; add it to a role's 'tags'",
                where,
                line or None,
            )
        if match is not None:
            token("mark", match.mark, line, what)
            token("artifact", match.artifact, line, what)

    epic = bool(ruleset.outcome and ruleset.outcome.vote.epic)

    def walk(p: Predicate, line: int) -> None:
        for m in (
            p.dead, p.held, p.dead_other, p.alive, p.captured, p.free, p.revealed, p.voted,
            *(p.parity or ()), *p.only_alive, *(p.all_voted or ()),
        ):  # fmt: skip
            check(m, line, "a win rule")
        if p.epic and not epic:
            raise RulesetError(
                "a win rule asks whether the vote's epic battle is on, but the vote has "
                "no 'epic' groups; add 'epic:' to 'outcome: vote:'",
                where,
                line or None,
            )
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
        for only in action.only:
            check(only.target, action.line, f"action '{action.id}'")
            check(only.by, action.line, f"action '{action.id}'")
    owners = [(f"role '{r.id}'", r.powers) for r in ruleset.roles if r.powers]
    owners += [(f"call '{c}'", p) for c, p in ruleset.night.powers]
    for owner, powers in owners:
        for ability in powers.abilities:
            what = f"a power of {owner}"
            check(ability.know, ability.line, what)
            check(ability.who, ability.line, what)
            for match in (
                *ability.hidden,
                *ability.stop,
                *((ability.learn,) if ability.learn else ()),
                *(p.not_ for p in ability.picks if p.not_ is not None),
            ):
                check(match, ability.line, what)
            token("mark", ability.mark, ability.line, what)
        check_turns(powers.abilities, owner, where)
    if ruleset.outcome:
        for rule in ruleset.outcome.wins:
            walk(rule.when, rule.line)
        for seat in ruleset.outcome.seats:
            check(seat.who, seat.line, "a seat rule")
            walk(seat.when, seat.line)
        vote = ruleset.outcome.vote
        for match in (*vote.uncounted, *vote.shields, *vote.together, *vote.epic):
            check(match, vote.line, "the vote")
        for who, by in [(m.who, m.by) for m in vote.spared] + [(m.who, m.by) for m in vote.turns]:
            check(who, vote.line, "the vote")
            check(by, vote.line, "the vote")
        for end in ruleset.outcome.ends:
            walk(end, ruleset.outcome.line)
        for match in ruleset.outcome.last_two:
            check(match, ruleset.outcome.line, "'last_two' of outcome")


def check_turns(abilities: tuple[Ability, ...], owner: str, where: object) -> None:
    """A call's powers agree on who answers it (`who:`: all of them, or none), and a
    power offered after a word (`if_picked`) follows a power that picks that word,
    at the same call and in the same choice."""
    for ability in abilities:
        mates = [  # the powers of the same call, in a game where this one is used
            a
            for a in abilities
            if (a.turn == ability.turn and ability.choice in (-1, a.choice))
            or (a.turn == ability.turn and a.choice == -1)
        ]
        if any((a.who is None) != (ability.who is None) for a in mates):
            raise RulesetError(
                f"the powers of {owner} at one call differ on 'who' answers it; give "
                "every power of that call the same 'who', or none",
                str(where),
                ability.line or None,
            )
        if ability.if_picked:
            before = mates[: mates.index(ability)]
            if not any(ability.if_picked in p.named for a in before for p in a.picks):
                raise RulesetError(
                    f"a power of {owner} is offered 'if_picked: {ability.if_picked}', but no "
                    "power before it at that call picks that word",
                    str(where),
                    ability.line or None,
                )


def check_flow(ruleset: Ruleset) -> None:
    """The parts the game's flow is made of agree (`flow.py`): the day's vote as the
    voice calls it is the vote the rules count, and the day, the rounds, the actions
    and the nights make one way through the game that every driver can walk."""
    where = ruleset.path or "ruleset"
    day, outcome, rounds = ruleset.day, ruleset.outcome, ruleset.rounds
    spoken = day.vote
    if outcome is not None:
        counted = outcome.vote
        if spoken is None and counted.kind != "none":
            style = "countdown" if counted.kind == "simultaneous" else "accusation_ballot"
            raise RulesetError(
                f"'outcome' counts {with_article(counted.kind)} vote, but the day has no "
                f"'vote' to call it; add the day's 'vote' (style: {style}) or remove 'vote' "
                "from 'outcome'",
                where,
                counted.line or None,
            )
        if spoken is not None and counted.kind == "none":
            raise RulesetError(
                f"'outcome' counts no vote, but the day calls one (style: {spoken.style}, "
                f"line {spoken.line}); give 'outcome' a 'vote' of kind "
                f"{KIND_OF_STYLE[spoken.style]}, or remove the day's 'vote'",
                where,
                counted.line or outcome.line or None,
            )
        if spoken is not None and counted.kind != KIND_OF_STYLE[spoken.style]:
            raise RulesetError(
                f"'outcome' counts {with_article(counted.kind)} vote, but the day's vote "
                f"(line {spoken.line}) is 'style: {spoken.style}'; make them one vote: a countdown "
                "is counted as simultaneous, an accusation_ballot as accusation_ballot",
                where,
                counted.line or None,
            )
    if spoken is not None and spoken.style == "countdown" and ruleset.nights != 1:
        raise RulesetError(
            "a countdown vote ends the game (everyone points at once, and the cards "
            "decide), so the game has one night; set 'nights: 1', or make the vote an "
            "accusation_ballot (accusation, defence, ballot, then the next night)",
            where,
            spoken.line or None,
        )
    if rounds is not None:
        for key, part in (("discussion", day.discussion), ("vote", spoken)):
            if part is not None:
                raise RulesetError(
                    f"a day of 'rounds' is its rounds of turns, with no '{key}'; remove "
                    f"the day's '{key}' or the 'rounds'",
                    where,
                    rounds.line or None,
                )
        if ruleset.nights != 1:
            raise RulesetError(
                "the game ends after its last round, so it has one night; set 'nights: 1'",
                where,
                rounds.line or None,
            )
    if ruleset.actions and rounds is None:
        raise RulesetError(
            "'actions' are taken on the turns of 'rounds', which this ruleset does not "
            "have; add 'rounds' or remove 'actions'",
            where,
            ruleset.actions[0].line or None,
        )
