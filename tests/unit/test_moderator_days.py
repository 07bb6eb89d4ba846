"""The many-night games in the engine: the day's counting rules, the strongest wolf,
the end judged at dawn, random games of Lupus, Mafia and Wherewolf, and Secret
Moon's rounds of turns.

The counting functions (`narrator.moderator.votes`) are the one place the rules of
the day live; the engine and the phones' table both call them.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from narrator.moderator import Game, MoveError, run, runnable_roles
from narrator.moderator.scenario import Replay, to_scenario
from narrator.moderator.votes import accusation, verdict
from narrator.rules import Ruleset, RulesetError, check_selection, load_catalog, parse_ruleset
from narrator.rules.powers import VoteRule
from tests.support.examples import examples
from tests.unit.helpers import places

CATALOG = load_catalog()
LUPUS = VoteRule(kind="accusation_ballot", accusers="everyone", suspects=2)
MAFIA = VoteRule(kind="accusation_ballot", accusers="everyone", tie="last_arrested_nearest")
WHEREWOLF = CATALOG.get("wherewolf").outcome.vote  # type: ignore[union-attr]


# -- counting the day ---------------------------------------------------------------------


def test_lupus_the_seeds_example_the_tie_goes_clockwise_from_the_tombstone() -> None:
    """Seed 003: Andrea 3, Roberta and Daniela 2 each; Francesco (seat 5) holds the
    Tombstone, and Daniela (seat 6) is nearer him clockwise than Roberta (seat 2)."""
    andrea, roberta, daniela, bruno, carla = 0, 2, 6, 3, 4
    votes = dict(enumerate([andrea] * 3 + [roberta] * 2 + [daniela] * 2 + [bruno, carla], start=0))
    got = accusation(LUPUS, votes, [0, 1, 2, 3, 4, 6, 7, 8], reference=5, seats=9)
    assert got.suspects == (andrea, daniela) and got.dies is None
    # a tie in the ballot goes the same way
    assert verdict(LUPUS, {1: andrea, 2: daniela}, [andrea, daniela], 5, 9) == daniela


def test_mafia_ties_go_to_the_nearer_to_the_last_arrested_either_way() -> None:
    # seats 0..7, the last arrested at 4: seat 3 is one away anticlockwise, seat 6 two
    votes = {0: 3, 1: 6, 2: 1}
    got = accusation(MAFIA, votes, list(range(8)), reference=4, seats=8)
    assert got.suspects[0] == 3
    # equal distance both ways: the clockwise one first
    assert verdict(MAFIA, {0: 3, 1: 5}, [3, 5], 4, 8) == 5


def test_clockwise_wraps_round_the_table() -> None:
    # the Tombstone at seat 6 of 8: seat 0 is two steps clockwise, seat 5 seven
    assert verdict(LUPUS, {2: 0, 3: 5}, [0, 5], 6, 8) == 0
    assert verdict(LUPUS, {2: 5, 3: 5, 4: 0}, [0, 5], 6, 8) == 5
    # the last arrested at 4 of 10: seat 3 is one step anticlockwise, seat 6 two clockwise
    assert verdict(MAFIA, {1: 3, 2: 6}, [3, 6], 4, 10) == 3
    assert verdict(LUPUS, {1: 3, 2: 6}, [3, 6], 4, 10) == 6


def test_wherewolf_the_most_accused_with_every_runner_up() -> None:
    votes = {0: 1, 1: 2, 2: 1, 3: 4, 4: 2, 5: 1, 6: 3}  # 1: three, 2: two, 3 and 4: one
    assert accusation(WHEREWOLF, votes, list(range(7)), None, 7).suspects == (1, 2)
    votes = {0: 1, 1: 2, 2: 1, 3: 4, 4: 2, 5: 1, 6: 4}  # 1: three, 2 and 4: two
    assert accusation(WHEREWOLF, votes, list(range(7)), None, 7).suspects == (1, 2, 4)


def test_wherewolf_several_tied_for_the_most_are_all_and_only_the_accused() -> None:
    votes = {0: 1, 1: 2, 2: 1, 3: 2, 4: 5}
    assert accusation(WHEREWOLF, votes, list(range(6)), None, 6).suspects == (1, 2)


def test_wherewolf_every_accusation_on_one_player_burns_with_no_ballot() -> None:
    """Audit 3, finding 20: "every vote" is every other accuser's; the accused's own
    vote cannot save them, and a player who stayed silent can."""
    got = accusation(WHEREWOLF, {0: 3, 1: 3, 2: 3, 4: 3}, list(range(5)), None, 5)
    assert got == type(got)((), 3)
    got = accusation(WHEREWOLF, {0: 3, 1: 3, 2: 3, 4: 3, 3: 0}, list(range(5)), None, 5)
    assert got.dies == 3  # the accused voted for someone else: still burned
    got = accusation(WHEREWOLF, {0: 3, 1: 3}, list(range(6)), None, 6)
    assert got.dies is None and got.suspects == (3,)  # two of five: a ballot
    # Lupus has no such rule: the one accused is the only suspect, and a ballot follows
    assert accusation(LUPUS, {0: 3, 1: 3}, list(range(5)), None, 5).suspects == (3,)


def test_wherewolf_a_ballot_tie_burns_nobody_and_two_players_vote_once() -> None:
    assert verdict(WHEREWOLF, {0: 1, 3: 2}, [1, 2], None, 5) is None
    assert verdict(WHEREWOLF, {0: 1, 3: 1, 4: 2}, [1, 2], None, 5) == 1
    two = accusation(WHEREWOLF, {0: 1, 1: 0}, [0, 1], None, 5)
    assert two.suspects == () and two.dies is None  # a tie: nobody
    assert accusation(WHEREWOLF, {0: 1}, [0, 1], None, 5).dies == 1
    assert accusation(WHEREWOLF, {0: 1}, [0, 1, 2], None, 5).dies is None  # three left


def test_nobody_is_a_suspect_without_an_accusation() -> None:
    assert accusation(LUPUS, {}, [0, 1, 2], None, 3).suspects == ()
    assert accusation(LUPUS, {0: None, 1: None}, [0, 1, 2], None, 3).suspects == ()


# -- the strongest wolf, and the end at dawn ---------------------------------------------------


def _wherewolf(cards: list[str]) -> Game:
    names = [chr(ord("A") + i) for i in range(len(cards))]
    return Game.deal(CATALOG.get("wherewolf"), names, cards, [])


def _night(game: Game, picks: dict[int, list[str]]) -> list[int]:
    for step in game.begin_night():
        game.open_step(step)
        for seat in game.actors(step):
            if game.prompt(step, seat) is not None:
                game.act(step, seat, places(*picks.get(seat, [])))
        game.close_step(step)
    return game.dawn()


def test_the_strongest_werewolf_in_play_decides_and_his_nobody_is_nobody() -> None:
    """Seed 000: «Il giocatore indicato dal Lupo Mannaro più forte in gioco viene
    ucciso» -- the Pack Leader points at nobody: nobody dies, whatever a weaker
    werewolf picked (audit 4, finding 5); once he is out, the werewolf is the
    strongest in play."""
    game = _wherewolf(["werewolf", "pack_leader", "seer", "villager", "villager", "villager"])
    assert _night(game, {}) == []  # night 1: the pack only meets, nobody can die
    assert _night(game, {0: ["seat:3"], 1: ["seat:4"]}) == [3]  # the Pack Leader's pick
    assert _night(game, {0: ["seat:5"], 1: []}) == []  # he points at nobody: nobody dies
    game.seats[1].alive = False  # the Pack Leader is out
    assert _night(game, {0: ["seat:5"]}) == [4]  # the werewolf is the strongest now
    hunts = [e for e in game.log if e.kind in ("agreed", "disagreed")]
    assert {e.seat for e in hunts} == {0, 1} and all(e.to == e.seat for e in hunts)


def test_the_pack_leader_alone_hunts_and_finds_the_pack_with_the_werewolves() -> None:
    game = _wherewolf(["pack_leader", "werewolf", "seer", "healer", "villager"])
    night1 = [s.role for s in game.begin_night()]
    assert night1.count("werewolf") == 1 and "pack_leader" not in night1
    game = _wherewolf(["pack_leader", "seer", "healer", "villager", "villager"])
    _night(game, {})
    assert _night(game, {0: ["seat:2"]}) == [1]  # no werewolf dealt: the Pack Leader hunts
    assert _night(game, {0: ["seat:5"], 2: ["seat:5"]}) == []  # the Healer saves the struck
    assert _night(game, {0: ["seat:4"], 2: ["seat:4"]}) == [3]  # once per game: no more
    struck = [e for e in game.log if e.kind == "struck"]
    assert [e.targets for e in struck] == [(p,) for p in places("seat:2", "seat:5", "seat:4")]
    assert all(e.to == 2 for e in struck)  # only the Healer learns who was struck


def test_wherewolf_is_judged_at_the_start_of_the_day_only() -> None:
    game = _wherewolf(["pack_leader", "seer", "healer", "villager", "villager"])
    _night(game, {})
    game.accuse({1: 0, 2: 0, 3: 0, 4: 0})  # every accusation on the Pack Leader
    assert not game.seats[0].alive
    assert game.over() is None  # after the stake night falls; nobody checks
    assert game.over("dawn") == (["village"], [1, 2, 3, 4])


def test_extermination_ends_the_game_with_no_winner() -> None:
    game = _wherewolf(["pack_leader", "seer", "healer", "villager", "villager"])
    for seat in game.seats:
        seat.alive = False
    assert game.over("dawn") == ([], [])


# -- random games of the many-night systems ---------------------------------------------------


def _day(game: Game, rng: random.Random) -> None:
    rule = game.ruleset.outcome.vote  # type: ignore[union-attr]
    in_play = [i for i, s in enumerate(game.seats) if s.alive and s.free]
    accusers = [
        i for i, s in enumerate(game.seats) if rule.accusers == "everyone" or (s.alive and s.free)
    ]
    accusations: dict[int, int | None] = {}
    for voter in accusers:
        targets = [t for t in in_play if t != voter]
        accusations[voter] = rng.choice(targets) if targets and rng.random() < 0.9 else None
    suspects = game.accuse(accusations)
    voters = [i for i in in_play if i not in suspects]
    game.ballot({v: rng.choice(suspects) for v in voters} if suspects else {})


def legal_deck(ruleset: Ruleset, players: int, rng: random.Random) -> list[str]:
    """A random deck of the roles the engine runs that the app would let a table
    deal: the required roles and one of each side's indispensable ones first; [] if
    the draw breaks another rule (the caller assumes it away)."""
    runnable = runnable_roles(ruleset)
    pool = [r for r in runnable for _ in range(ruleset.role(r).max_count)]
    rng.shuffle(pool)
    cards = [r for r in ruleset.setup.required if r in runnable]
    for need in ruleset.setup.must_contain:
        if need.level == "error" and not any(r in cards for r in need.any_of):
            cards += [r for r in need.any_of if r in runnable][:1]
    for role in cards:
        pool.remove(role)
    cards += pool[: players - len(cards)]
    rng.shuffle(cards)
    counts = Counter(cards)
    deck = tuple((r, counts[r]) for r in ruleset.role_ids if r in counts)
    return cards if check_selection(ruleset, players, deck).ok else []


@settings(
    max_examples=examples(60, deep=600),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    system=st.sampled_from(["lupus", "mafia_infiltrators", "wherewolf"]),
    players=st.integers(min_value=5, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_many_night_games_end_keep_their_cards_and_replay(
    system: str, players: int, seed: int
) -> None:
    ruleset = CATALOG.get(system)
    rng = random.Random(seed)
    players = max(players, ruleset.setup.min_players)
    cards = legal_deck(ruleset, players, rng)
    assume(cards)
    names = [f"P{i}" for i in range(players)]
    game = Game.deal(ruleset, names, cards, [], rng=random.Random(seed))
    ended = None
    for _ in range(3 * players):
        for step in game.begin_night():
            game.open_step(step)
            for seat in game.actors(step):
                while (prompt := game.prompt(step, seat)) is not None:
                    answer = [] if rng.random() < 0.2 else game.random_choice(prompt)
                    game.act(step, seat, answer)
                    if game.group_prompt(step, seat) is not None:
                        break  # a group's pick is made; it could change until the call ends
            game.close_step(step)
        game.dawn()
        if (ended := game.over("dawn")) is not None:
            break
        _day(game, rng)
        if (ended := game.over()) is not None:
            break
    # no card made or lost; the dead are dead once; the game reached an end or went on
    assert Counter(s.card.role for s in game.seats) == Counter(cards)
    assert len(set(game.dead_order)) == len(game.dead_order)
    again = run(to_scenario(Replay(game, "en", [], [])), CATALOG.get).to_dict()
    assert again["dead"] == [names[i] for i in game.dead_order]
    assert again["prisoners"] == [s.name for s in game.seats if not s.free]
    assert again["log"] == [e.to_dict() for e in game.log]  # the same game, entry for entry
    if ended is not None:
        teams, winners = ended
        assert again["winners"] == {"teams": teams, "players": [names[i] for i in winners]}


# -- Secret Moon's turns ---------------------------------------------------------------------

MOON = CATALOG.get("secret_moon")
MOON_DEAL = ["princess", "wanderer", "priestess", "minister", "guard", "guard"]


def _moon() -> Game:
    game = Game.deal(MOON, ["A", "B", "C", "D", "E", "F"], MOON_DEAL, ["guard", "guard"])
    for step in game.begin_night():
        game.open_step(step)
        game.close_step(step)
    game.begin_round()
    return game


@pytest.mark.parametrize(
    ("moves", "error"),
    [
        (
            [(4, "accuse", ["seat:1", "role:princess"]), (5, "capture", ["seat:1"])],
            "cannot capture",
        ),
        ([(3, "capture", ["seat:1"])], "cannot choose A"),  # not shown: not a target
        ([(0, "hide", ["seat:1"]), (3, "inspect", ["seat:1"])], "cannot choose A"),
        ([(4, "disturb", ["seat:3"]), (2, "inspect", ["seat:1"])], "C was disturbed"),
        ([(4, "disturb", ["seat:3"]), (4, "inspect", ["seat:1"])], "E is out of the game"),
        ([(0, "fly", ["seat:2"])], "there is no action 'fly'"),
        ([(0, "accuse", ["seat:2"])], "must name one role"),
        ([(0, "accuse", ["seat:2", "role:dragon"])], "'dragon', which is not a role"),
    ],
)
def test_secret_moon_moves_the_rules_forbid(
    moves: list[tuple[int, str, list[str]]], error: str
) -> None:
    game = _moon()
    *before, (seat, action, choice) = moves
    for s, a, c in before:
        _turn(game, s, a, c)
    with pytest.raises(MoveError, match=error):
        _turn(game, seat, action, choice)


def _turn(game: Game, seat: int, action: str, choice: list[str]) -> None:
    """A turn as the pages send it: places, and `role:` the role named."""
    roles = [c.removeprefix("role:") for c in choice if c.startswith("role:")]
    at = places(*(c for c in choice if not c.startswith("role:")))
    game.turn(seat, action, at, roles[0] if roles else None)


def test_secret_moon_nobody_hides_in_the_third_round_and_a_hidden_card_shows_again() -> None:
    game = _moon()
    game.turn(0, "hide", places("seat:1"))
    game.begin_round()
    game.turn(3, "inspect", places("seat:1"))  # round 2: the hiding is over
    game.begin_round()
    with pytest.raises(MoveError, match="A cannot hide: nobody may hide in round 3"):
        game.turn(0, "hide", places("seat:1"))


@settings(
    max_examples=examples(60, deep=600),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(5, 8))
def test_random_secret_moon_games_end_and_replay(seed: int, players: int) -> None:
    rng = random.Random(seed)
    deck = ["princess", "wanderer", "priestess", "minister", "guard", "guard", "guard", "guard"]
    if players == 5:
        deck.remove(rng.choice(["priestess", "guard"]))
    rest = [c for c in deck if c not in ("princess", "minister")]
    rng.shuffle(rest)
    cards = ["princess", "minister", *rest]
    rng.shuffle(cards)  # the Princess and the Minister are always dealt here
    cards, centre = cards[:players], cards[players:]
    names = [f"P{i}" for i in range(players)]
    game = Game.deal(MOON, names, cards, centre)
    for step in game.begin_night():
        game.open_step(step)
        game.close_step(step)
    ended = None
    for _ in range(3):
        game.begin_round()
        for seat in rng.sample(range(players), players):
            actions = [a.id for a in MOON.actions]
            rng.shuffle(actions)
            for action in actions:
                try:
                    prompt = game.turn_prompt(seat, action)
                except MoveError:
                    continue  # out, disturbed, a Guard's capture, no hiding in round 3
                pick = rng.choice(prompt.picks) if prompt.picks else None
                seats = [o for o in prompt.options if o.is_seat]
                centre_ = [o for o in prompt.options if o.is_centre]
                if pick is not None and (len(seats) < pick.players or len(centre_) < pick.centre):
                    continue
                choice = (
                    rng.sample(seats, pick.players) + rng.sample(centre_, pick.centre)
                    if pick is not None
                    else []
                )
                role = rng.choice(MOON.role_ids) if pick is not None and pick.role else None
                try:
                    game.turn(seat, action, choice, role)
                except MoveError:
                    continue  # a target kept for another card (the Princess's capture)
                break
            if (ended := game.over()) is not None:
                break
        if ended is not None:
            break
    if ended is None:
        game.end_rounds()
        ended = game.over()
    assert ended is not None and len(ended[0]) == 1  # one side wins, always
    again = run(to_scenario(Replay(game, "en", [], list(centre))), CATALOG.get).to_dict()
    teams, winners = ended
    assert again["winners"] == {"teams": teams, "players": [names[i] for i in winners]}
    assert again["prisoners"] == [s.name for s in game.seats if not s.free]
    assert again["log"] == [e.to_dict() for e in game.log]


# -- the loader's new keys -------------------------------------------------------------------

WHEREWOLF_TEXT = (CATALOG.get("wherewolf").path or "").read_text(encoding="utf-8")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ("    does_as: werewolf\n", "    does_as: werwolf\n", "names the role 'werwolf'"),
        (
            "    does_as: werewolf\n",
            "    does_as: werewolf\n    does: []\n",
            "has 'does' and 'does_as'",
        ),
        ("agree: strongest", "agree: strong", "must be unanimous, most or strongest"),
        ("suspects: ranks", "suspects: rank", "must be a whole number or ranks, not 'rank'"),
        ("tie: nobody", "tie: nobdy", "did you mean 'nobody'"),
        ("judged: day_start", "judged: dawn", "must be at_end, any_time or day_start"),
        ("only_alive: [{team: pack}", "only_alive: [{team: pak}", "names the team 'pak'"),
        ("last_two: [{team: pack}", "last_two: [{team: pak}", "names the team 'pak'"),
        ("last_two: [{team: pack}", "last_two: [{tag: wulf}", "names the tag 'wulf'"),
    ],
)
def test_a_mistake_in_the_new_keys_is_one_line_with_file_and_line(
    old: str, new: str, error: str
) -> None:
    assert old in WHEREWOLF_TEXT
    with pytest.raises(RulesetError) as info:
        parse_ruleset(WHEREWOLF_TEXT.replace(old, new, 1), "wherewolf.yaml")
    message = str(info.value)
    assert error in message and message.startswith("wherewolf.yaml:"), message


@settings(
    max_examples=examples(30, deep=300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    system=st.sampled_from(["lupus", "wherewolf", "mafia_infiltrators"]), seed=st.integers(0, 2**32)
)
def test_a_snapshot_between_two_calls_restores_the_same_game(system: str, seed: int) -> None:
    """What the table saves: after each dawn and day, the game written as JSON data
    and read back is the same game, and plays on to the same end."""
    ruleset = CATALOG.get(system)
    rng = random.Random(seed)
    deck = [r for r in runnable_roles(ruleset) for _ in range(ruleset.role(r).max_count)]
    rng.shuffle(deck)
    names = [f"P{i}" for i in range(7)]
    game = Game.deal(ruleset, names, deck[:7], [], rng=random.Random(seed))
    for _ in range(4):
        for step in game.begin_night():
            game.open_step(step)
            for seat in game.actors(step):
                if (prompt := game.prompt(step, seat)) is not None:
                    game.act(step, seat, game.random_choice(prompt))
            game.close_step(step)
        game.dawn()
        data = json.loads(json.dumps(game.snapshot()))
        again = Game.from_snapshot(ruleset, data)
        assert again.snapshot() == game.snapshot()
        assert again.winners() == game.winners() and again.over("dawn") == game.over("dawn")
        if game.over("dawn"):
            break
        _day(game, rng)


# -- the dawn, a pure calculator --------------------------------------------------------------


def test_dawn_resolves_by_priority_a_protection_before_the_kill_it_spares() -> None:
    from narrator.moderator.dawn import Fate, Pending, resolve

    alive = free = range(5)
    kill, save = Pending("kill", 2, 20, by=None), Pending("protect", 2, 10, by=4)
    assert resolve([kill, save], alive, free) == []  # the save comes first, by priority
    late = Pending("protect", 2, 30, by=4)
    assert resolve([kill, late], alive, free) == [Fate(2, "kill")]  # too late
    twice = [kill, Pending("kill", 2, 20), Pending("kill", 3, 20)]
    assert resolve(twice, alive, free) == [Fate(2, "kill"), Fate(3, "kill")]
    assert resolve([kill], [0, 1], free) == []  # the dead do not die again
    arrest = Pending("arrest", 1, 20, by=0)
    assert resolve([arrest, arrest], alive, free) == [Fate(1, "arrest")]
    assert resolve([arrest], alive, [0, 2]) == []  # a prisoner is not arrested again


def test_wherewolfs_last_two_leave_by_the_seeds_list_and_two_alike_stay() -> None:
    from narrator.moderator.dawn import last_two

    game = _wherewolf(["pack_leader", "seer", "healer", "villager", "villager"])
    for seat in (1, 2, 4):
        game.seats[seat].alive = False
    assert last_two(game) == 3  # a villager is lower than a werewolf
    game.seats[3].card.role, game.seats[3].dealt = "pack_leader", "pack_leader"
    assert last_two(game) is None  # the game is over: the pack is all that is left
    game = _wherewolf(["villager", "seer", "healer", "villager", "villager"])
    for seat in (1, 2, 4):
        game.seats[seat].alive = False
    assert last_two(game) is None  # no Creature of the Shadow: the village has won


def test_a_restored_round_knows_who_has_played() -> None:
    """Secret Moon saved mid-round: the turns played are read back from the log, so
    the restored game numbers the next turn on and refuses a second action."""
    game = _moon()
    game.turn(0, "inspect", places("seat:2"))
    again = Game.from_snapshot(MOON, json.loads(json.dumps(game.snapshot())))
    assert again.turns_played == 1 and again.round == 1
    with pytest.raises(MoveError, match="A has already taken a turn in round 1"):
        again.turn(0, "pass", [])
    again.turn(1, "pass", [])
    assert again.log[-1].step == "r1.2"


def test_a_game_saved_before_one_kind_said_nobody_died_reads_as_todays() -> None:
    game = _wherewolf(["pack_leader", "seer", "healer", "villager", "villager"])
    _night(game, {})
    _night(game, {})  # the pack points at nobody: nobody died in the night
    data = json.loads(json.dumps(game.snapshot()))
    night = next(e for e in data["log"] if e["kind"] == "nobody_dies")
    night.update(kind="nobody_died", why="")  # as a save made before this change wrote it
    data["log"].append({**night, "kind": "nobody_dies", "why": ""})  # the old vote's
    again = Game.from_snapshot(CATALOG.get("wherewolf"), data)
    said = [e for e in again.log if e.kind == "nobody_dies"]
    assert [e.why for e in said] == ["night", "vote"]
    for kind, why, error in [
        ("nobody_cared", "", "is not a kind"),
        ("death", "boredom", "boredom"),
    ]:
        data["log"][-1].update(kind=kind, why=why)
        with pytest.raises(ValueError, match=error):
            Game.from_snapshot(CATALOG.get("wherewolf"), data)
