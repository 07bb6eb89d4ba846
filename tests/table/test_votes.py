"""Each game's vote counting and tie rules, from the seeds, on seat numbers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from narrator.rules import load_catalog
from narrator.table import outcome, votes

ONUW = load_catalog().get("onuw")

# -- One Night (seed 004) ---------------------------------------------------------


def test_one_night_the_most_votes_dies() -> None:
    assert votes.countdown_dead({1: 3, 2: 3, 3: 1, 4: 3, 5: 2}) == [3]


def test_one_night_every_player_tied_for_the_most_dies() -> None:
    assert votes.countdown_dead({1: 2, 2: 1, 3: 4, 4: 3}) == []  # one vote each
    assert votes.countdown_dead({1: 2, 2: 1, 3: 1, 4: 2, 5: 3}) == [1, 2]


def test_one_night_nobody_with_more_than_one_vote_means_nobody_dies() -> None:
    # abstentions (missing voters) included: the most anyone has is one
    assert votes.countdown_dead({1: 2, 3: 4}) == []
    assert votes.countdown_dead({}) == []


def test_with_physical_cards_the_count_is_the_ruleset_s_own() -> None:
    """The rule is data: One Night's `min_votes` as shipped gives the seed's count, and
    a user's copy that lets one vote kill is counted so with physical cards too."""
    rule = ONUW.outcome.vote
    assert votes.countdown_dead({1: 2, 3: 4}, rule) == votes.countdown_dead({1: 2, 3: 4})
    assert votes.countdown_dead({1: 2, 3: 4}, replace(rule, min_votes=1)) == [2, 4]


def _countdown(cards: list[str], ballot: dict[int, int]) -> outcome.VoteEnd:
    seats = dict(enumerate(cards, 1))
    return outcome.countdown(ONUW, seats, ["villager"] * 3, ballot)


def test_one_night_the_hunter_takes_the_one_he_points_at() -> None:
    # the engine judges it from the ruleset: the Hunter's card says `on_death: shoot_vote`
    cards = ["villager", "hunter", "seer", "villager", "werewolf"]
    # seat 2 is the Hunter, dies, and points at 5
    end = _countdown(cards, {1: 2, 3: 2, 2: 5, 4: 1, 5: 1})
    assert (end.dead, end.shot) == ((1, 2), (5,))
    # a Hunter who lives shoots nobody
    end = _countdown(cards, {1: 3, 2: 4, 3: 1, 4: 3})
    assert (end.dead, end.shot) == ((3,), ())
    # a Hunter who did not vote shoots nobody; one pointing at the dead adds nobody
    end = _countdown(cards, {1: 2, 3: 2})
    assert (end.dead, end.shot) == ((2,), ())
    end = _countdown(cards, {1: 2, 3: 2, 2: 1, 4: 1})
    assert (end.dead, end.shot) == ((1, 2), ())


# -- who wins ------------------------------------------------------------------------


def _winners(cards: dict[int, str], dead: list[int]) -> outcome.Outcome:
    """One Night's winners by the engine, with `dead` voted out (two votes each)."""
    voters = [s for s in cards if s not in dead]
    ballot: dict[int, int] = {}
    for target in dead:  # every living player points at the first dead, and so on
        ballot.update({v: target for v in cards if v != target and v not in ballot})
    end = outcome.countdown(ONUW, cards, ["villager"] * 3, ballot)
    assert set(end.dead) == set(dead) or not voters
    return end.outcome


@pytest.mark.parametrize(
    ("cards", "dead", "teams"),
    [
        ({1: "werewolf", 2: "villager", 3: "seer"}, [1], ("village",)),
        ({1: "werewolf", 2: "villager", 3: "seer"}, [2], ("werewolves",)),
        ({1: "werewolf", 2: "villager", 3: "tanner"}, [3], ("tanner",)),
        ({1: "villager", 2: "villager", 3: "seer"}, [], ("village",)),
        ({1: "villager", 2: "villager", 3: "seer"}, [2], ()),
        ({1: "minion", 2: "villager", 3: "seer"}, [2], ("werewolves",)),
        ({1: "minion", 2: "villager", 3: "seer"}, [1], ()),
        ({1: "minion", 2: "werewolf", 3: "seer"}, [1], ("werewolves",)),
        # audit 3, finding 5: no werewolf at the table and the Tanner dies
        ({1: "villager", 2: "tanner", 3: "seer"}, [2], ("tanner",)),
        # audit 3, finding 8: ... and a Minion alive: the Tanner's rule first
        ({1: "minion", 2: "tanner", 3: "seer"}, [2], ("tanner",)),
    ],
)
def test_one_night_winners(cards: dict[int, str], dead: list[int], teams: tuple[str, ...]) -> None:
    assert _winners(cards, dead).teams == teams


def test_one_night_the_whole_side_wins_but_only_a_dead_tanner() -> None:
    cards = {1: "werewolf", 2: "minion", 3: "tanner", 4: "seer", 5: "villager"}
    assert _winners(cards, [4]).seats == (1, 2)
    assert _winners(cards, [3]).seats == (3,)


def test_one_night_tanner_and_werewolf_both_die_two_sides_win() -> None:
    cards = {1: "werewolf", 2: "villager", 3: "tanner", 4: "seer", 5: "villager"}
    end = outcome.countdown(ONUW, cards, ["villager"] * 3, {2: 1, 4: 1, 1: 3, 5: 3, 3: 2})
    assert end.dead == (1, 3)
    assert end.outcome == outcome.Outcome(("tanner", "village"), (2, 3, 4, 5))
