"""The one referee (`moderator/referee.py`): the game after the deal walked from the
ruleset's flow, pure, for the phones' table and for `narrator replay`, with either
judge -- the engine's, or one that only counts the votes (physical cards).
"""

from __future__ import annotations

import pytest

from narrator.moderator import Game
from narrator.moderator.board import SeatIndex
from narrator.moderator.judges import EngineJudge, PhysicalJudge
from narrator.moderator.referee import Referee, Refused
from narrator.moderator.results import AccusationResult, VerdictResult
from tests.unit.helpers import ruleset

S = SeatIndex


def physical(game: str, players: int) -> Referee:
    flow = ruleset(game).flow
    return Referee(flow, PhysicalJudge(flow, players), alive=[True] * players)


def kinds(referee: Referee) -> list[str]:
    out, referee.events = [e.kind for e in referee.events], []
    return out


def test_a_day_of_lupus_walks_the_flow_with_a_judge_that_only_counts() -> None:
    r = physical("lupus", 7)
    assert r.phase == "cards"
    r.go_on()
    assert (r.phase, r.night, kinds(r)) == ("night", 1, ["night"])
    r.eliminate(S(6))  # the host marks the wolves' victim
    r.go_on()
    assert r.phase == "day" and kinds(r) == ["victims"] and not r.alive[6]
    r.go_on()
    assert r.phase == "accusation" and S(6) in r.voters()  # the Ghost accuses
    for voter, target in [(6, 1), (0, 1), (1, 2), (2, 1), (3, 4), (4, 2), (5, 4)]:
        r.vote(S(voter), S(target))
    # 1 has three accusations, 2 and 4 two each: the tie goes to the one nearer the
    # Tombstone (seat 6) going clockwise -- 2 is three seats on, 4 five
    assert r.phase == "defence" and r.suspects == [1, 2]
    assert isinstance(r.result, AccusationResult) and r.result.suspects == (1, 2)
    r.go_on()
    assert r.phase == "ballot" and sorted(r.voters()) == [0, 3, 4, 5]
    for voter, target in [(0, 2), (3, 2), (4, 1), (5, 2)]:
        r.vote(S(voter), S(target))
    assert r.phase == "verdict" and isinstance(r.result, VerdictResult)
    assert r.result.condemned == 2 and not r.alive[2]
    r.go_on()
    assert (r.phase, r.night) == ("night", 2)


def test_a_ballot_nobody_may_vote_in_is_not_held_and_kills_nobody() -> None:
    """Mafia, seed 001: Prisoners and Ghosts accuse but «non possono votare chi deve
    essere assassinato»; with the two suspects the only players in play, no ballot
    is opened, and nobody took a vote: nobody is killed."""
    r = physical("mafia_infiltrators", 5)
    r.go_on()
    for seat in (2, 3, 4):
        r.eliminate(S(seat))  # arrested, by the host's hand
    r.go_on(), r.go_on()
    assert r.phase == "accusation" and len(r.voters()) == 5
    r.cast({S(2): S(0), S(3): S(1), S(4): S(0), S(0): S(1), S(1): S(0)})
    assert r.phase == "defence" and r.suspects == [0, 1] and r.voters() == []
    r.go_on()  # the defences are heard; nobody may vote
    assert r.phase == "verdict" and isinstance(r.result, VerdictResult)
    assert r.result.condemned is None and r.result.suspects == (0, 1)
    assert "ballot" not in kinds(r) and all(r.alive[:2])


def test_a_sole_suspect_nobody_votes_against_is_spared() -> None:
    """Lupus, seed 003: the ballot puts to death «chi ha preso più voti»."""
    r = physical("lupus", 7)
    r.go_on(), r.go_on(), r.go_on()
    r.cast({S(0): S(3)})
    assert r.phase == "defence" and r.suspects == [3]
    r.go_on()
    r.cast({})
    assert isinstance(r.result, VerdictResult) and r.result.condemned is None and r.alive[3]
    again = physical("lupus", 7)
    again.go_on(), again.go_on(), again.go_on()
    again.cast({S(0): S(3)})
    again.go_on()
    again.cast({S(1): S(3)})  # one vote against her: she took the most
    assert isinstance(again.result, VerdictResult) and again.result.condemned == 3


def test_with_physical_cards_secret_moons_day_ends_by_the_host_unjudged() -> None:
    r = physical("secret_moon", 6)
    r.go_on(), r.go_on()
    assert r.phase == "day" and r.round == 0  # the turns are at the table
    with pytest.raises(Refused, match="no turns"):
        r.turn(S(0), "pass", [])
    r.go_on()
    assert r.phase == "end" and r.winners is None


def test_the_engine_judge_plays_the_rounds_and_judges_their_end() -> None:
    rs = ruleset("secret_moon")
    cards = ["princess", "wanderer", "priestess", "minister", "guard", "guard"]
    game = Game.deal(rs, [f"P{i}" for i in range(6)], cards, ["guard", "guard"])
    r = Referee(rs.flow, EngineJudge(game), alive=[True] * 6)
    r.go_on()
    for step in game.begin_night():
        game.open_step(step), game.close_step(step)
    r.go_on()
    # no power waits for dawn: what the night left in the open is seen ("found"; the
    # table words it from the cards, and Secret Moon's night leaves nothing there)
    assert (r.phase, r.round, kinds(r)) == ("day", 1, ["night", "found", "round"])
    r.turn(S(0), "pass", [])
    with pytest.raises(Exception, match="one each"):
        r.turn(S(0), "pass", [])
    r.go_on(), r.go_on()
    assert r.round == 3
    r.go_on()  # the last round is over: the Princess's side
    assert r.phase == "end" and r.winners is not None and r.winners.teams == ("red",)


def test_what_the_flow_does_not_take_is_refused() -> None:
    r = physical("onuw", 4)
    with pytest.raises(Refused, match="no vote"):
        r.vote(S(0), S(1))
    r.go_on(), r.go_on(), r.go_on()
    assert r.phase == "vote"
    with pytest.raises(Refused, match="cannot vote for"):
        r.vote(S(0), S(0))
    with pytest.raises(Refused, match="many nights"):
        r.eliminate(S(1))
    for voter, target in [(0, 1), (1, 0), (2, 1), (3, 1)]:
        r.vote(S(voter), S(target))
    assert r.phase == "end" and not r.alive[1]
    with pytest.raises(Refused, match="nothing follows"):
        r.go_on()
