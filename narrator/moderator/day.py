"""The day: One Night's vote of everyone at once, and the many-night games'
accusation and ballot, counted by `votes.py` and applied to the game.

One Night's vote first turns whom the rules turn (`turns`: the Cursed a werewolf
votes for is a werewolf), then is counted with what the cards change
(`modifiers`: the Prince, the Bodyguard's shield, an epic battle), read on the cards
and tokens as the night left them. A death follows a death (the Hunter's shot, the
Lovers who die `together`) until none is pending; every death is logged with its
`Cause`, and a vote that kills nobody is one `nobody_dies` entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from narrator.i18n.phrase import Phrase
from narrator.moderator import sides, votes
from narrator.moderator.board import MoveError, Place
from narrator.moderator.log import Cause, Entry, Kind
from narrator.rules.powers import Match, VoteRule

if TYPE_CHECKING:
    from narrator.moderator.game import Game


@dataclass
class DayMemory:
    """What the days remember: the seats the tie rules measure from, the last one put
    to death (the Medium asks about them), and today's suspects."""

    tombstone: int | None = None  # the last player out (Lupus's tie rule)
    executed: int | None = None  # the player the last vote put to death
    last_arrested: int | None = None  # Mafia's reference for ties
    suspects: list[int] = field(default_factory=list)


def vote(game: Game, ballot: dict[int, int | None]) -> list[int]:
    """Everyone points at once; returns the seats that die, in order (the Hunter's
    shot after the vote's dead)."""
    outcome = game.ruleset.outcome
    if outcome is None:
        raise MoveError(f"the ruleset '{game.ruleset.id}' has no 'outcome' to judge a vote")
    rule = outcome.vote
    for voter, target in ballot.items():
        name = game.seats[voter].name
        if not game.seats[voter].alive:
            raise MoveError(Phrase("{name} is dead and cannot vote", name=name))
        if target is None:
            continue
        if target == voter and not rule.self_vote:
            raise MoveError(Phrase("{name} cannot vote for themselves", name=name))
        if not game.seats[target].alive:
            whom = game.seats[target].name
            raise MoveError(Phrase("{name} votes for {whom}, who is dead", name=name, whom=whom))
    _votes(game, "vote", ballot)
    _turn(game, rule, ballot)
    counted = votes.count(ballot, rule.min_votes, modifiers(game, rule))
    for seat, why in counted.spared:
        game.log.append(Entry(game.night, "day", "", "spared", seat, why=why))
    for seat in counted.dead:
        game.die(seat, Cause.VOTE)
    if not counted.dead:
        game.record(None, None, "nobody_dies", why=Cause.VOTE)
    # Deaths that follow a death (the Hunter's shot, the Lovers), until none is pending.
    i = 0
    while i < len(game.dead_order):
        seat = game.dead_order[i]
        powers = game.powers(sides.power_role(game, seat))
        target = ballot.get(seat)
        shoots = powers is not None and powers.on_death == "shoot_vote"
        if shoots and target is not None and game.seats[target].alive:
            game.die(target, Cause.SHOT, by=seat)
        for match in rule.together:
            if game.counts(seat, match):
                for other, s in enumerate(game.seats):
                    if s.alive and game.counts(other, match):
                        game.die(other, Cause.TOGETHER, by=seat)
        i += 1
    return list(game.dead_order)


def modifiers(game: Game, rule: VoteRule) -> votes.Modifiers:
    """The vote's modifiers as the players' cards and tokens are at the end of the
    night: whose powers (`power_role`: the card, or an artifact's role) are a
    Prince's or a Bodyguard's, and who is spared by whose vote (the voter's side)."""
    everyone = range(len(game.seats))

    def powered(matches: tuple[Match, ...]) -> frozenset[int]:
        return frozenset(i for i in everyone if any(sides.has_power(game, i, m) for m in matches))

    spared: dict[int, frozenset[int]] = {}
    for rule_ in rule.spared:
        for i in everyone:
            if sides.has_power(game, i, rule_.who):
                by = frozenset(v for v in everyone if v != i and game.counts(v, rule_.by))
                spared[i] = spared.get(i, frozenset()) | by
    return votes.Modifiers(
        powered(rule.uncounted), powered(rule.shields), spared, epic=sides.epic(game)
    )


def _turn(game: Game, rule: VoteRule, ballot: dict[int, int | None]) -> None:
    """A player a `turns` rule is about, voted for by a voter matching its `by`
    (their side at the end of the night), becomes its `to` -- when several rules
    could turn them, the one with the most such voters, the first listed on a tie
    (a Cursed voted for by a werewolf and a vampire alike)."""
    for seat in range(len(game.seats)):
        best: tuple[int, str] | None = None
        for turn in rule.turns:
            if not sides.has_power(game, seat, turn.who):
                continue
            n = sum(1 for v, t in ballot.items() if t == seat and game.counts(v, turn.by))
            if n and (best is None or n > best[0]):
                best = (n, turn.to)
        if best is not None:
            game.tokens.turned[seat] = best[1]
            game.log.append(Entry(game.night, "day", "", "turned", seat, cards=(best[1],)))


def accuse(game: Game, accusations: dict[int, int | None]) -> list[int]:
    """Everyone who may accuses; returns the suspects for the ballot, by the
    ruleset's rule (`votes.accusation`). When the accusation alone puts someone to
    death (every accusation on one player, or the final two's one vote), that
    player dies now and there is no ballot: the list is empty."""
    rule = _rule(game, "accusation_ballot")
    for voter, target in accusations.items():
        who = game.seats[voter]
        if rule.accusers == "alive" and not who.alive:
            raise MoveError(Phrase("{name} is dead and cannot accuse", name=who.name))
        if rule.accusers == "alive" and not who.free:
            raise MoveError(Phrase("{name} is a prisoner and cannot accuse", name=who.name))
        _check_target(game, voter, target)
    _votes(game, "accuse", accusations)
    in_play = [i for i, s in enumerate(game.seats) if s.alive and s.free]
    everyone = list(range(len(game.seats)))
    result = votes.accusation(
        rule,
        accusations,
        in_play,
        reference(game),
        len(game.seats),
        accusers=everyone if rule.accusers == "everyone" else in_play,
    )
    suspects = list(result.suspects)
    game.log.append(
        Entry(game.night, "day", "", "suspects", None, tuple(Place.seat(i) for i in suspects))
    )
    game.day.suspects = suspects
    if result.dies is not None:
        game.day.executed = result.dies
        game.die(result.dies, Cause.VOTE)
    elif not suspects:
        game.record(None, None, "nobody_dies", why=Cause.VOTE)
    return suspects


def ballot(game: Game, ballot_: dict[int, int | None]) -> int | None:
    """The living who are not suspects vote between the suspects; the most votes is
    put to death (a tie by the ruleset's rule: the Tombstone, the last arrested, or
    nobody)."""
    rule = _rule(game, "accusation_ballot")
    suspects = game.day.suspects
    if not suspects and any(t is not None for t in ballot_.values()):
        raise MoveError(Phrase("there is no ballot today: nobody is a suspect"))
    for voter, target in ballot_.items():
        who = game.seats[voter]
        if not who.alive:
            raise MoveError(Phrase("{name} is dead and cannot vote in the ballot", name=who.name))
        if not who.free:
            raise MoveError(
                Phrase("{name} is a prisoner and cannot vote in the ballot", name=who.name)
            )
        if voter in suspects:
            raise MoveError(
                Phrase("{name} is a suspect and cannot vote in the ballot", name=who.name)
            )
        if target is not None and target not in suspects:
            whom = game.seats[target].name
            raise MoveError(
                Phrase("{name} votes for {whom}, not a suspect", name=who.name, whom=whom)
            )
    if not suspects:
        return None
    _votes(game, "ballot", ballot_)
    out = votes.verdict(rule, ballot_, suspects, reference(game), len(game.seats))
    game.day.suspects = []
    if out is None:
        game.record(None, None, "nobody_dies", why=Cause.VOTE)
        return None
    game.day.executed = out
    game.die(out, Cause.VOTE)
    return out


def reference(game: Game) -> int | None:
    """The seat the tie rule measures from: the last player arrested (Mafia) or
    the Tombstone, the last one out (Lupus); None before there is one."""
    outcome = game.ruleset.outcome
    if outcome is not None and outcome.vote.tie == "last_arrested_nearest":
        return game.day.last_arrested
    return game.day.tombstone


def _rule(game: Game, kind: str) -> VoteRule:
    outcome = game.ruleset.outcome
    if outcome is None or outcome.vote.kind != kind:
        raise MoveError(f"the ruleset '{game.ruleset.id}' has no {kind} vote")
    return outcome.vote


def _check_target(game: Game, voter: int, target: int | None) -> None:
    """Whom `voter` accuses: another player, alive and free."""
    name = game.seats[voter].name
    if target is None:
        return
    if target == voter:
        raise MoveError(Phrase("{name} cannot accuse themselves", name=name))
    whom = game.seats[target].name
    if not game.seats[target].alive:
        raise MoveError(Phrase("{name} cannot accuse {whom}, who is dead", name=name, whom=whom))
    if not game.seats[target].free:
        raise MoveError(Phrase("{name} cannot accuse {whom}, a prisoner", name=name, whom=whom))


def _votes(game: Game, kind: Kind, ballot: dict[int, int | None]) -> None:
    for voter, target in ballot.items():
        game.log.append(
            Entry(
                night=game.night,
                step="day",
                role="",
                kind=kind,
                seat=voter,
                targets=(Place.seat(target),) if target is not None else (),
            )
        )
