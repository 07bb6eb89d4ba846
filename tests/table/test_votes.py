"""Each game's vote counting and tie rules, from the seeds, on seat numbers."""

from __future__ import annotations

import pytest

from narrator.table import outcome, votes

# -- One Night (seed 004) ---------------------------------------------------------


def test_one_night_the_most_votes_dies() -> None:
    assert votes.countdown_dead({1: 3, 2: 3, 3: 1, 4: 3, 5: 2}) == ([3], [])


def test_one_night_every_player_tied_for_the_most_dies() -> None:
    assert votes.countdown_dead({1: 2, 2: 1, 3: 4, 4: 3}) == ([], [])  # one vote each
    assert votes.countdown_dead({1: 2, 2: 1, 3: 1, 4: 2, 5: 3}) == ([1, 2], [])


def test_one_night_nobody_with_more_than_one_vote_means_nobody_dies() -> None:
    # abstentions (missing voters) included: the most anyone has is one
    assert votes.countdown_dead({1: 2, 3: 4}) == ([], [])
    assert votes.countdown_dead({}) == ([], [])


def test_one_night_the_hunter_takes_the_one_he_points_at() -> None:
    # seat 2 is the Hunter, dies, and points at 5
    assert votes.countdown_dead({1: 2, 3: 2, 2: 5, 4: 1, 5: 1}, hunters=[2]) == ([1, 2], [5])
    # a Hunter who lives shoots nobody
    assert votes.countdown_dead({1: 3, 2: 4, 3: 1, 4: 3}, hunters=[2]) == ([3], [])
    # a Hunter who did not vote shoots nobody; one pointing at the dead adds nobody
    assert votes.countdown_dead({1: 2, 3: 2}, hunters=[2]) == ([2], [])
    assert votes.countdown_dead({1: 2, 3: 2, 2: 1, 4: 1}, hunters=[2]) == ([1, 2], [])


# -- Lupus (seed 003): closer clockwise to the Tombstone ------------------------------


def test_lupus_suspects_are_the_two_most_accused_ties_to_the_tombstone() -> None:
    # The seed's example: Andrea 3, Roberta and Daniela 2, Bruno and Carla 1;
    # Francesco (seat 9) holds the Tombstone; Daniela is closer to him clockwise.
    andrea, bruno, carla, daniela, roberta, francesco = 1, 2, 3, 4, 6, 9
    accusations = {
        11: andrea, 12: andrea, 13: andrea, 14: roberta, 15: roberta,
        16: daniela, 17: daniela, 18: bruno, 19: carla,
    }  # fmt: skip
    alive = [andrea, bruno, carla, daniela, roberta]
    # With the Tombstone at 5 going clockwise, Roberta (6) is nearer than Daniela (4).
    assert votes.suspects(accusations, alive, 5, 20, both_ways=False) == [andrea, roberta]
    # With the Tombstone at 3, Daniela (4) is nearer than Roberta (6).
    assert votes.suspects(accusations, alive, 3, 20, both_ways=False) == [andrea, daniela]
    assert francesco not in alive


def test_lupus_clockwise_wraps_round_the_table() -> None:
    # Tombstone at seat 7 of 8: seat 1 is two steps clockwise, seat 6 is seven.
    assert votes.distance(1, 7, 8, both_ways=False) < votes.distance(6, 7, 8, both_ways=False)
    assert votes.condemned({2: 1, 3: 6}, [1, 6], 7, 8, both_ways=False) == 1
    assert votes.condemned({2: 6, 3: 6, 4: 1}, [1, 6], 7, 8, both_ways=False) == 6


def test_mafia_ties_go_to_the_nearest_to_the_last_arrested_either_way() -> None:
    # last arrested: seat 5 of 10; seat 4 is one step counter-clockwise, seat 7 two clockwise
    assert votes.condemned({1: 4, 2: 7}, [4, 7], 5, 10, both_ways=True) == 4
    assert votes.condemned({1: 4, 2: 7}, [4, 7], 5, 10, both_ways=False) == 7
    # equal distance both ways: clockwise first
    assert votes.condemned({}, [4, 6], 5, 10, both_ways=True) == 6


# -- Wherewolf (seed 000) ---------------------------------------------------------


def test_wherewolf_several_tied_at_the_top_are_all_accused_and_only_they() -> None:
    acc = votes.wherewolf_accused({1: 2, 2: 3, 3: 2, 4: 3, 5: 1}, alive=5)
    assert acc == votes.Accusation((2, 3))


def test_wherewolf_one_at_the_top_is_accused_with_every_runner_up() -> None:
    acc = votes.wherewolf_accused({1: 2, 3: 2, 6: 2, 7: 2, 2: 4, 5: 4, 4: 5, 8: 5}, alive=8)
    assert acc == votes.Accusation((2, 4, 5))


def test_wherewolf_one_player_with_every_vote_burns_without_a_ballot() -> None:
    assert votes.wherewolf_accused({1: 4, 2: 4, 3: 4}, alive=4) == votes.Accusation((), 4)


def test_wherewolf_ballot_tie_burns_nobody() -> None:
    assert votes.wherewolf_burned({1: 2, 3: 4}, [2, 4]) is None
    assert votes.wherewolf_burned({1: 2, 3: 4, 5: 4}, [2, 4]) == 4
    assert votes.wherewolf_burned({}, [2, 4]) is None


def test_wherewolf_two_players_one_vote() -> None:
    assert votes.wherewolf_accused({1: 2, 2: 1}, alive=2) == votes.Accusation((), None)
    assert votes.wherewolf_accused({1: 2}, alive=2) == votes.Accusation((), 2)


# -- who wins ------------------------------------------------------------------------

TEAMS = {
    "werewolf": "werewolves", "minion": "werewolves", "villager": "village",
    "seer": "village", "hunter": "village", "tanner": "tanner",
}  # fmt: skip


@pytest.mark.parametrize(
    ("cards", "dead", "teams"),
    [
        ({1: "werewolf", 2: "villager", 3: "seer"}, [1], ("village",)),
        ({1: "werewolf", 2: "villager", 3: "seer"}, [2], ("werewolves",)),
        ({1: "werewolf", 2: "villager", 3: "tanner"}, [3], ("tanner",)),
        ({1: "werewolf", 2: "villager", 3: "tanner"}, [1, 3], ("tanner", "village")),
        ({1: "villager", 2: "villager", 3: "seer"}, [], ("village",)),
        ({1: "villager", 2: "villager", 3: "seer"}, [2], ()),
        ({1: "minion", 2: "villager", 3: "seer"}, [2], ("werewolves",)),
        ({1: "minion", 2: "villager", 3: "seer"}, [1], ()),
        ({1: "minion", 2: "werewolf", 3: "seer"}, [1], ("werewolves",)),
    ],
)
def test_one_night_winners(cards: dict[int, str], dead: list[int], teams: tuple[str, ...]) -> None:
    assert outcome.one_night(cards, TEAMS, dead).teams == teams


def test_one_night_the_whole_side_wins_but_only_a_dead_tanner() -> None:
    cards = {1: "werewolf", 2: "minion", 3: "tanner", 4: "seer", 5: "tanner"}
    assert outcome.one_night(cards, TEAMS, [4]).seats == (1, 2)
    assert outcome.one_night(cards, TEAMS, [3]).seats == (3,)


def test_lupus_ends_when_no_wolf_lives_or_wolves_equal_the_rest() -> None:
    teams = {"werewolf": "werewolves", "villager": "humans", "seer": "humans"}
    cards = {1: "werewolf", 2: "werewolf", 3: "villager", 4: "seer", 5: "villager"}
    assert outcome.many_nights("lupus", cards, teams, [1, 2, 3, 4, 5]) is None
    won = outcome.many_nights("lupus", cards, teams, [1, 2, 3, 4])
    assert won == outcome.Outcome(("werewolves",), (1, 2))
    assert outcome.many_nights("lupus", cards, teams, [3, 4, 5]).teams == ("humans",)  # type: ignore[union-attr]


def test_mafia_infiltrators_win_at_parity() -> None:
    teams = {"boss": "mafia", "gangster": "mafia", "agent": "infiltrators"}
    cards = {1: "boss", 2: "gangster", 3: "gangster", 4: "agent", 5: "agent"}
    assert outcome.many_nights("mafia", cards, teams, [1, 2, 3, 4, 5]) is None
    assert outcome.many_nights("mafia", cards, teams, [1, 2, 4, 5]).teams == ("infiltrators",)  # type: ignore[union-attr]
    assert outcome.many_nights("mafia", cards, teams, [1, 2, 3]).teams == ("mafia",)  # type: ignore[union-attr]
