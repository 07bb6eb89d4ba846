"""Everyone's vote at once (One Night), counted by the referee's two judges, from the
seeds, on seat indices (0-based): the physical one counts the votes only; the
engine's judges the cards (the Hunter's shot, the winners)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from narrator.moderator import Game
from narrator.moderator.judges import EngineJudge, PhysicalJudge
from narrator.moderator.results import Winners
from narrator.rules import load_catalog
from narrator.rules.flow import build_flow
from narrator.rules.powers import VoteRule

ONUW = load_catalog().get("onuw")


def physical_dead(ballot: dict[int, int], rule: VoteRule | None = None) -> list[int]:
    """Who a vote of everyone at once kills, counted with physical cards: by the
    ruleset's `rule` (the flow's), or, stated nowhere, by the seed's."""
    assert ONUW.outcome is not None
    ruleset = replace(ONUW, outcome=None)
    if rule is not None:
        ruleset = replace(ONUW, outcome=replace(ONUW.outcome, vote=rule))
    judge = PhysicalJudge(build_flow(ruleset), 5)
    return list(judge.vote(ballot).dead)


@dataclass(frozen=True)
class VoteEnd:
    dead: tuple[int, ...]
    shot: tuple[int, ...]
    winners: Winners


def countdown(cards: dict[int, str], ballot: dict[int, int]) -> VoteEnd:
    """One Night's vote judged by the engine on `cards` (seat -> card)."""
    seats = sorted(cards)
    game = Game.deal(ONUW, [str(s) for s in seats], [cards[s] for s in seats], ["villager"] * 3)
    judge = EngineJudge(game)
    voted = judge.vote(ballot)
    winners = judge.final()
    assert winners is not None
    return VoteEnd(voted.dead, voted.shot, winners)


# -- One Night (seed 004) ---------------------------------------------------------


def test_one_night_the_most_votes_dies() -> None:
    assert physical_dead({0: 2, 1: 2, 2: 0, 3: 2, 4: 1}) == [2]


def test_one_night_every_player_tied_for_the_most_dies() -> None:
    assert physical_dead({0: 1, 1: 0, 2: 3, 3: 2}) == []  # one vote each
    assert physical_dead({0: 1, 1: 0, 2: 0, 3: 1, 4: 2}) == [0, 1]


def test_one_night_nobody_with_more_than_one_vote_means_nobody_dies() -> None:
    # abstentions (missing voters) included: the most anyone has is one
    assert physical_dead({0: 1, 2: 3}) == []
    assert physical_dead({}) == []


def test_with_physical_cards_the_count_is_the_ruleset_s_own() -> None:
    """The rule is data: One Night's `min_votes` as shipped gives the seed's count, and
    a user's copy that lets one vote kill is counted so with physical cards too."""
    rule = ONUW.outcome.vote
    assert physical_dead({0: 1, 2: 3}, rule) == physical_dead({0: 1, 2: 3})
    assert physical_dead({0: 1, 2: 3}, replace(rule, min_votes=1)) == [1, 3]


def _countdown(cards: list[str], ballot: dict[int, int]) -> VoteEnd:
    return countdown(dict(enumerate(cards)), ballot)


def test_one_night_the_hunter_takes_the_one_he_points_at() -> None:
    # the engine judges it from the ruleset: the Hunter's card says `on_death: shoot_vote`
    cards = ["villager", "hunter", "seer", "villager", "werewolf"]
    # seat 1 is the Hunter, dies, and points at 4
    end = _countdown(cards, {0: 1, 2: 1, 1: 4, 3: 0, 4: 0})
    assert (end.dead, end.shot) == ((0, 1), (4,))
    # a Hunter who lives shoots nobody
    end = _countdown(cards, {0: 2, 1: 3, 2: 0, 3: 2})
    assert (end.dead, end.shot) == ((2,), ())
    # a Hunter who did not vote shoots nobody; one pointing at the dead adds nobody
    end = _countdown(cards, {0: 1, 2: 1})
    assert (end.dead, end.shot) == ((1,), ())
    end = _countdown(cards, {0: 1, 2: 1, 1: 0, 3: 0})
    assert (end.dead, end.shot) == ((0, 1), ())


# -- who wins ------------------------------------------------------------------------


def _winners(cards: dict[int, str], dead: list[int]) -> Winners:
    """One Night's winners by the engine, with `dead` voted out (two votes each)."""
    voters = [s for s in cards if s not in dead]
    ballot: dict[int, int] = {}
    for target in dead:  # every living player points at the first dead, and so on
        ballot.update({v: target for v in cards if v != target and v not in ballot})
    end = countdown(cards, ballot)
    assert set(end.dead) == set(dead) or not voters
    return end.winners


@pytest.mark.parametrize(
    ("cards", "dead", "teams"),
    [
        ({0: "werewolf", 1: "villager", 2: "seer"}, [0], ("village",)),
        ({0: "werewolf", 1: "villager", 2: "seer"}, [1], ("werewolves",)),
        ({0: "werewolf", 1: "villager", 2: "tanner"}, [2], ("tanner",)),
        ({0: "villager", 1: "villager", 2: "seer"}, [], ("village",)),
        ({0: "villager", 1: "villager", 2: "seer"}, [1], ()),
        ({0: "minion", 1: "villager", 2: "seer"}, [1], ("werewolves",)),
        ({0: "minion", 1: "villager", 2: "seer"}, [0], ()),
        ({0: "minion", 1: "werewolf", 2: "seer"}, [0], ("werewolves",)),
        # audit 3, finding 5: no werewolf at the table and the Tanner dies
        ({0: "villager", 1: "tanner", 2: "seer"}, [1], ("tanner",)),
        # audit 3, finding 8: ... and a Minion alive: the Tanner's rule first
        ({0: "minion", 1: "tanner", 2: "seer"}, [1], ("tanner",)),
    ],
)
def test_one_night_winners(cards: dict[int, str], dead: list[int], teams: tuple[str, ...]) -> None:
    assert _winners(cards, dead).teams == teams


def test_one_night_the_whole_side_wins_but_only_a_dead_tanner() -> None:
    cards = {0: "werewolf", 1: "minion", 2: "tanner", 3: "seer", 4: "villager"}
    assert _winners(cards, [3]).seats == (0, 1)
    assert _winners(cards, [2]).seats == (2,)


def test_one_night_tanner_and_werewolf_both_die_two_sides_win() -> None:
    cards = {0: "werewolf", 1: "villager", 2: "tanner", 3: "seer", 4: "villager"}
    ballot = {1: 0, 3: 0, 0: 2, 4: 2, 2: 1}
    end = countdown(cards, ballot)
    assert end.dead == (0, 2)
    assert end.winners == Winners(("tanner", "village"), (1, 2, 3, 4))
