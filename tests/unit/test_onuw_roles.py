"""One Night's boxes on the engine: what a scenario cannot show.

A player's side through its layers (an artifact, a mark, a player turned, the
card), the vote's modifiers as pure counting, the seat rules, a save that keeps the
tokens and the draws, the mark and convert effects the Vampire and Alien boxes will
use, and every mistake in the new keys as one line with the file and the line.
The games themselves are `tests/scenarios/onuw/daybreak_*` and `bonus_*`.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from narrator.moderator import Game, MoveError, Words
from narrator.moderator.votes import Modifiers, count
from narrator.rules import Ruleset, RulesetError, parse_ruleset
from narrator.rules.powers import Match
from tests.unit.helpers import places, ruleset

ROOT = Path(__file__).resolve().parents[2]
ONUW_TEXT = (ROOT / "rulesets" / "onuw.yaml").read_text(encoding="utf-8")
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]


def onuw() -> Ruleset:
    return ruleset("onuw")


def night(game: Game, choices: dict[int, list[list[str]]]) -> None:
    """Play a night: each seat's answers in call order (as the pages write them:
    `seat:2`); the rest do nothing (or, where they must, what the deadline would draw)."""
    queues = {seat: list(calls) for seat, calls in choices.items()}
    for step in game.begin_night():
        game.open_step(step)
        for seat in game.actors(step):
            while (prompt := game.prompt(step, seat)) is not None:
                queue = queues.get(seat)
                if queue:
                    game.act(step, seat, places(*queue.pop(0)))
                else:
                    game.act(step, seat, [] if prompt.min == 0 else game.random_choice(prompt))
        game.close_step(step)


# -- a player's side, layer by layer ------------------------------------------------------


def test_an_artifact_outranks_a_mark_which_outranks_a_turn_which_outranks_the_card() -> None:
    game = Game.deal(onuw(), NAMES, ["villager", "seer", "werewolf", "cursed", "prince"], [])
    tokens = game.tokens
    assert game.side(3).role == "cursed" and game.team_of(3) == "village"
    tokens.turned[3] = "werewolf"  # a werewolf voted for the Cursed
    assert game.side(3).role == "werewolf" and game.team_of(3) == "werewolves"
    tokens.marks[3] = "mark_of_the_vampire"  # a mark that becomes a vampire stays one
    assert game.side(3).role == "vampire" and game.team_of(3) == "vampires"
    tokens.artifacts[3] = "brand_of_the_villager"  # an artifact outranks them all
    assert game.side(3).role == "villager"


def test_a_mark_keeps_the_cards_powers_an_artifact_takes_them() -> None:
    """The Vampire rulebook: a Prince with the Mark of the Vampire is a vampire who
    still cannot be voted out; the Bonus rulebook: with the Mist of the Vampire (an
    artifact) he can."""
    rule = onuw().outcome.vote  # type: ignore[union-attr]
    votes: dict[int, int | None] = {0: 4, 1: 4, 2: 4, 3: 0, 4: 0}
    # (no werewolf at the table: with one, a vampire would make it an epic battle)
    game = Game.deal(onuw(), NAMES, ["villager", "seer", "villager", "villager", "prince"], [])
    game.tokens.marks[4] = "mark_of_the_vampire"
    assert game.side(4).team == "vampires"
    assert game.vote(dict(votes)) == [0]  # his three votes do not count: Ann's two do
    game = Game.deal(onuw(), NAMES, ["villager", "seer", "villager", "villager", "prince"], [])
    game.tokens.artifacts[4] = "mist_of_the_vampire"
    assert game.vote(dict(votes)) == [4]
    assert rule.uncounted and rule.shields


def test_the_cursed_turns_to_the_side_with_more_votes_on_him_a_werewolf_on_a_tie() -> None:
    """Not written in any rulebook: a werewolf and a vampire both voting for him."""
    cards = ["werewolf", "vampire", "cursed", "villager", "seer"]
    tie = Game.deal(onuw(), NAMES, cards, [])
    tie.vote({0: 2, 1: 2, 2: 3, 3: 4, 4: 3})
    assert tie.side(2).role == "werewolf"
    more = Game.deal(onuw(), NAMES, ["werewolf", "vampire", "cursed", "vampire", "seer"], [])
    more.vote({0: 2, 1: 2, 3: 2, 2: 4, 4: 0})
    assert more.side(2).role == "vampire"


# -- the vote's modifiers, counted -------------------------------------------------------


@pytest.mark.parametrize(
    ("votes", "modifiers", "dead", "spared"),
    [
        # the Prince (seat 4): his votes do not count; the next most voted, two votes
        (
            {0: 4, 1: 4, 2: 4, 3: 1, 4: 1},
            Modifiers(uncounted=frozenset({4})),
            (1,),
            ((4, "uncounted"),),
        ),
        # tied with him: the other is alone on top of the votes that count
        (
            {0: 4, 1: 4, 2: 1, 3: 1, 4: 0},
            Modifiers(uncounted=frozenset({4})),
            (1,),
            ((4, "uncounted"),),
        ),
        # the Bodyguard (seat 0) shields seat 1: his point is no vote; nobody else has two
        ({0: 1, 2: 1, 3: 1, 4: 2}, Modifiers(shields=frozenset({0})), (), ((1, "shielded"),)),
        # the Master (seat 1), voted for by a vampire (seat 2): spared; seat 3 dies
        (
            {0: 1, 2: 1, 4: 1, 1: 3, 3: 0},
            Modifiers(spared={1: frozenset({2})}),
            (),
            ((1, "shielded"),),
        ),
        (
            {0: 1, 2: 1, 4: 1, 1: 3, 3: 0, 5: 3},
            Modifiers(spared={1: frozenset({2})}),
            (3,),
            ((1, "shielded"),),
        ),
        # not voted for by a vampire: the Master dies as anyone would
        ({0: 1, 3: 1, 4: 1, 1: 3}, Modifiers(spared={1: frozenset({2})}), (1,), ()),
        # nothing to change: the seed's vote (the most, at least two)
        ({0: 1, 1: 2, 2: 1}, Modifiers(), (1,), ()),
    ],
)
def test_the_vote_with_the_cards_modifiers(
    votes: dict[int, int | None],
    modifiers: Modifiers,
    dead: tuple[int, ...],
    spared: tuple[tuple[int, str], ...],
) -> None:
    counted = count(votes, 2, modifiers)
    assert counted.dead == dead and counted.spared == spared


# -- seat rules ----------------------------------------------------------------------------


def test_the_dagger_of_the_traitor_needs_a_mate_of_his_side_dead() -> None:
    """The Bonus rulebook: the Dagger's holder wins only if someone else on their
    side dies; alone on their side, it does nothing."""
    cards = ["villager", "seer", "werewolf", "villager", "hunter"]
    game = Game.deal(onuw(), NAMES, cards, ["villager", "robber", "drunk"])
    game.tokens.artifacts[0] = "dagger_of_the_traitor"
    game.vote({0: 2, 1: 2, 3: 2, 2: 0})  # the werewolf dies: the village wins, no villager died
    teams, seats = game.winners()
    assert teams == ["village"] and 0 not in seats and {1, 3, 4} <= set(seats)
    game = Game.deal(onuw(), NAMES, cards, ["villager", "robber", "drunk"])
    game.tokens.artifacts[0] = "dagger_of_the_traitor"
    game.vote({0: 4, 1: 4, 3: 2, 2: 4, 4: 2})  # the Hunter dies and shoots the werewolf
    assert 0 in game.winners()[1]
    alone = Game.deal(onuw(), NAMES, cards, ["villager", "robber", "drunk"])
    alone.tokens.artifacts[2] = "dagger_of_the_traitor"  # the only werewolf
    alone.vote({0: 1, 1: 2, 2: 3, 3: 4, 4: 0})  # nobody dies: the werewolves win, him too
    assert alone.winners() == (["werewolves"], [2])


def test_a_doppelganger_who_copies_nostradamus_has_her_own_side_told_to_her_alone() -> None:
    """The table hears the side of the printed Nostradamus card, once, whether or not
    the Doppelganger copied him (the app knows of no copy): nothing tells the two
    games apart but her own journal."""

    def public(copied: bool) -> list[tuple[str, str]]:
        game = Game.deal(
            onuw(),
            NAMES,
            ["doppelganger", "nostradamus", "werewolf", "villager", "seer"],
            ["villager", "robber", "drunk"],
            rng=random.Random(1),
        )
        night(game, {0: [["seat:2" if copied else "seat:3"], ["seat:3"]], 1: [["seat:4"]]})
        if copied:
            mine = [e for e in game.log if e.to == 0 and e.kind == "ally"]
            assert [e.why for e in mine] == ["werewolves"]
        return [(e.kind, e.why) for e in game.log if e.to is None]

    assert public(True) == public(False) == [("sides", "village")]


# -- the effects the Vampire and Alien boxes will use -------------------------------------


def _with(old: str, new: str) -> Ruleset:
    assert ONUW_TEXT.count(old) == 1, old
    return parse_ruleset(ONUW_TEXT.replace(old, new), "onuw.yaml")


def test_a_mark_is_given_to_the_actor_and_to_the_player_picked() -> None:
    """The Priest puts a Mark of Clarity in front of himself and may give one to
    another player; the mark each had goes back unseen (the Vampire rulebook)."""
    game = Game.deal(onuw(), NAMES, ["priest", "seer", "werewolf", "villager", "cupid"], [])
    assert game.tokens.marks == dict.fromkeys(range(5), "mark_of_clarity")  # everyone's
    game.tokens.marks[0] = "mark_of_love"
    game.tokens.marks[3] = "mark_of_the_vampire"
    assert game.counts(3, Match(mark="mark_of_the_vampire")) and game.side(3).team == "vampires"
    night(game, {0: [["seat:4"]], 4: [[]]})
    assert game.tokens.marks[0] == game.tokens.marks[3] == "mark_of_clarity"
    assert not game.counts(3, Match(mark="mark_of_the_vampire"))
    words = Words(game, "en")
    lines = [words.journal(e) for e in game.log if e.to == 0 and e.kind == "mark"]
    assert lines == [
        "Night 1: you put the Mark of Clarity in front of yourself.",
        "Night 1: you gave the Mark of Clarity to Dee.",
    ]
    assert game.side(3).team == "village" and Words(game, "it").tokens(3) == [
        "Davanti a Dee: Marchio della Lucidità."
    ]


def test_a_converted_card_is_the_new_role_wherever_it_goes_and_looks_the_same() -> None:
    robber = "        effect: [swap_own, see_own]\n"
    rs = _with(robber, "        effect: [swap_own, see_own, convert]\n        into: werewolf\n")
    game = Game.deal(rs, NAMES, ["robber", "seer", "villager", "villager", "troublemaker"], [])
    night(game, {0: [["seat:2"]], 4: [["seat:1", "seat:3"]]})  # then Ann's card goes to Cy
    assert game.seats[2].card.role == "seer" and game.side(2).role == "werewolf"
    words = Words(game, "en")
    learned = [words.journal(e) for e in game.log if e.to == 0]
    assert learned[-2:] == [
        "Night 1: your card is now the Seer.",
        "Night 1: you are now the Werewolf.",
    ]


# -- a save keeps the tokens, the spare card and the draws -------------------------------


def test_a_saved_game_keeps_its_artifacts_spare_card_sides_and_draws() -> None:
    cards = ["curator", "alpha_wolf", "nostradamus", "villager", "seer"]
    game = Game.deal(onuw(), NAMES, cards, ["werewolf", "tanner", "villager"])
    night(game, {0: [["seat:5"]], 1: [["seat:5"]]})  # Eve: the spare card, an artifact
    saved = game.snapshot()
    assert saved["artifacts"] == {"4": game.tokens.artifacts[4]} and saved["drawn"]
    assert saved["seats"][4]["spare"] is True  # the Alpha Wolf gave Eve the spare card
    again = Game.from_snapshot(onuw(), saved)
    assert again.snapshot() == saved
    assert again.side(4) == game.side(4) and again.chosen() == game.chosen()
    for bad in ({"artifacts": {"4": "claw_of_the_wolf"}}, {"marks": {"9": "mark_of_clarity"}}):
        with pytest.raises((ValueError, TypeError, KeyError)):
            Game.from_snapshot(onuw(), saved | bad)


def test_the_alpha_wolf_with_nobody_to_give_the_spare_to_has_no_prompt() -> None:
    game = Game.deal(onuw(), ["Ann", "Bo", "Cy"], ["alpha_wolf", "werewolf", "mystic_wolf"], [])
    steps = game.begin_night()
    alpha = next(s for s in steps if s.role == "alpha_wolf")
    for step in steps:
        game.open_step(step)
        if step == alpha:
            assert game.prompt(step, 0) is None  # every other player a werewolf he met
        game.close_step(step)
    assert game.centre[-1].spare and game.centre[-1].role == "werewolf"


def test_an_illegal_draw_in_a_replay_is_refused() -> None:
    game = Game.deal(
        onuw(), NAMES[:4], ["drunk", "villager", "werewolf", "seer"], [], drawn=["aliens"]
    )
    with pytest.raises(MoveError, match="the draw 'aliens' is not one of"):
        game.chance(["village", "werewolves"])


# -- every mistake in the new keys: one line, the file and the line -----------------------


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        (
            "    - who: {role: nostradamus}\n",
            "    - who: {mark: mark_of_lov}\n",
            "names the mark 'mark_of_lov', which is not one of the ruleset's 'tokens' of kind "
            "mark; did you mean 'mark_of_love'?",
        ),
        (
            "        effect: [see, become]\n        stop: [{tag: wolf}, {role: tanner}, {tag: vampire}, {team: aliens}]\n        when: {not_option: pi_any_non_village}\n      - id: look_again",
            "        effect: [see, become]\n        when: {not_option: pi_any_non_village}\n      - id: look_again",
            "does 'become'; say which cards it becomes with 'stop'",
        ),
        (
            "        thumbs: [see, swap, swap_own, copy, rotate, reveal, mark, see_mark, swap_mark]\n",
            "        thumbs: [see, swop]\n",
            "'swop' in 'thumbs' of power 1 of role 'aura_seer' is not an act of the night",
        ),
        (
            "                      - dead: {tag: vampire}\n",
            "                      - self_dead: true\n",
            "'self_dead' asks about one player or the teams' result: it belongs in a seat rule",
        ),
        (
            "      only: {all: [{self_alive: true}, {ally_won: true}]}\n",
            "      only: {all: [{self_alive: true}, {ally_won: true}]}\n      also: {self_alive: true}\n",
            "a seat rule says exactly one of: only",
        ),
        (
            "    becomes: werewolf\n    help:\n      en: You are now a Werewolf",
            "    becomes: werewulf\n    help:\n      en: You are now a Werewolf",
            "'becomes' names the role 'werewulf', which this ruleset does not have; did you "
            "mean 'werewolf'?",
        ),
        (
            "    spare: werewolf\n",
            "",
            "does 'swap_spare' but brings no spare card; add 'spare: ROLE'",
        ),
        (
            "      - {who: {role: cursed}, by: {tag: wolf}, to: werewolf}\n",
            "      - {who: {role: cursed}, by: {tag: wolf}, to: werewulf}\n",
            "'to' names the role 'werewulf'",
        ),
        (
            "  - id: void_of_nothingness\n    kind: artifact\n",
            "  - id: void_of_nothingness\n    kind: artifact\n    everyone: true\n",
            "only a mark has 'everyone'",
        ),
        (
            "        pick: [{players: 1, known: false}]\n",
            "        pick: [{players: 1, known: maybe}]\n",
            "'known'",
        ),
        (
            "    uncounted: [{role: prince}]\n",
            "    uncounted: [{tag: royal}]\n",
            "the vote names the tag 'royal', which no role has",
        ),
        # the Vampire and Alien boxes' keys
        (
            "{id: view_odd, pick: [{players: 1, among: odd}]",
            "{id: view_odd, pick: [{players: 1, among: odds}]",
            "'among' in a 'pick' of power 1 of choice 2 of role 'alien' must be one of: "
            "odd, even, higher, lower, left, right, neighbours, left_two, right_two, not "
            "'odds'; did you mean 'odd'?",
        ),
        (
            "{id: pick, pick: [{players: 1}], of: mark, effect: [swap_own, see_own]}",
            "{id: pick, pick: [{players: 1}], of: marks, effect: [swap_own, see_own]}",
            "'of' of power 1 of role 'pickpocket' must be card or mark, not 'marks'",
        ),
        (
            "        if_picked: cards\n",
            "        if_picked: card\n",
            "is offered 'if_picked: card', but no power before it at that call picks that word",
        ),
        (
            "    epic: [{team: village}, {tag: wolf}, {tag: vampire}, {tag: alien}]\n",
            "    epic: [{team: village}, {tag: wolf}]\n",
            "'epic' of the vote names its groups: three or more of them",
        ),
        (
            "    epic: [{team: village}, {tag: wolf}, {tag: vampire}, {tag: alien}]\n",
            "",
            "asks whether the vote's epic battle is on, but the vote has no 'epic' groups",
        ),
        (
            "pick: [{players: 1, known: false, not: {mark: mark_of_the_vampire}}]",
            "pick: [{players: 1, known: false, not: {role: vampire}}]",
            "may only leave out the holders of a mark",
        ),
        (
            "        who: {mark: mark_of_love}\n",
            "        who: {mark: mark_of_lust}\n",
            "names the mark 'mark_of_lust'",
        ),
        (
            '              "no": {en: The Oracle said no., it: L\'Oracolo ha detto no., fa: غیبگو گفت نه.}\n',
            "",
            "has no line for the answer 'no'",
        ),
        (
            "        - id: look\n          effect: see_own\n          of: mark\n",
            "        - id: look\n          effect: see_own\n          of: mark\n          who: {mark: mark_of_love}\n",
            "a power of call 'marks' of the night is everyone's and picks nothing",
        ),
        (
            "    group_powers: true\n    card:\n      en: >-\n        You wake with the vampires.",
            "    group_powers: yes please\n    card:\n      en: >-\n        You wake with the vampires.",
            "'group_powers' in role 'the_master' must be true or false",
        ),
        (
            "        does: [{id: left, effect: reach, left: 1}]\n",
            "        does: [{id: left, effect: reach}]\n",
            "does 'reach'; say how far with 'left:' and 'right:'",
        ),
    ],
)
def test_a_mistake_in_the_new_keys_is_one_line_with_file_and_line(
    old: str, new: str, error: str
) -> None:
    assert ONUW_TEXT.count(old) >= 1, old
    with pytest.raises(RulesetError) as info:
        parse_ruleset(ONUW_TEXT.replace(old, new, 1), "onuw.yaml")
    message = str(info.value)
    assert error in message, message
    assert re.match(r"onuw\.yaml:\d+: ", message), message
    assert "\n" not in message


def test_the_docs_count_the_roles_the_engine_runs() -> None:
    """docs/ONUW.md and docs/ENGINE.md say how many of One Night's roles run: the
    engine's own count (a doc the code made false is a defect)."""
    from narrator.moderator import runnable_roles

    runs, every = len(runnable_roles(onuw())), len(onuw().roles)
    assert f"runs **{runs} roles**" in (ROOT / "docs" / "ONUW.md").read_text("utf-8")
    assert f"| One Night | {runs} of {every} roles" in (ROOT / "docs" / "ENGINE.md").read_text(
        "utf-8"
    )


def test_every_role_acts_in_some_scenario() -> None:
    """`narrator replay` plays every One Night role: each is dealt in a scenario of
    tests/scenarios/onuw (which quotes the rule it follows)."""
    import yaml

    dealt: set[str] = set()
    for path in sorted((ROOT / "tests" / "scenarios" / "onuw").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        dealt |= set(data["deal"].values())
    assert set(onuw().role_ids) - dealt == set()


# -- the Vampire and Alien boxes' mechanisms, where a scenario cannot show them ------------


def test_fear_is_fixed_by_the_look_a_mark_moved_later_binds_nobody() -> None:
    """The Vampire rulebook ties the Mark of Fear to the player who saw it: the Count's
    fear on Dee keeps her asleep all night, even after the Pickpocket takes it; he
    looks at it then, and sleeps from then on."""
    cards = ["vampire", "the_count", "pickpocket", "seer", "insomniac"]
    game = Game.deal(onuw(), NAMES, cards, ["villager", "villager", "robber"])
    night(game, {0: [["seat:5"]], 1: [["seat:5"], ["seat:4"]], 2: [["seat:4"]]})
    assert game.tokens.asleep == {2, 3}
    assert game.tokens.marks[2] == "mark_of_fear" and game.tokens.marks[3] != "mark_of_fear"
    seer = [e for e in game.log if e.role == "seer" and e.kind in ("see", "nothing")]
    assert seer == []  # Dee, the Seer, was not called: she was afraid
    insomniac = [e.kind for e in game.log if e.to == 4 and e.role == "insomniac"]
    assert insomniac == ["see"]  # Eve was not


def test_the_vampires_must_bite_and_a_tie_is_drawn_among_the_most_pointed_at() -> None:
    game = Game.deal(
        onuw(), NAMES, ["vampire", "vampire", "seer", "villager", "villager"], [], drawn=["seat:4"]
    )
    night(game, {0: [["seat:3"]], 1: [["seat:4"]]})
    assert game.drawn == ["seat:4"] and game.tokens.marks[3] == "mark_of_the_vampire"
    agreed = [e for e in game.log if e.kind == "agreed"]
    bitten = tuple(places("seat:4"))
    assert [(e.to, e.targets) for e in agreed] == [(0, bitten), (1, bitten)]


def test_the_oracles_answer_drawn_for_her_card_in_the_centre_is_done_to_it() -> None:
    """Seed 1 draws "join the werewolves?"; with nobody to answer, the answer is drawn,
    told to the table, and the Oracle card in the centre is a werewolf's."""
    game = Game.deal(
        onuw(), NAMES[:3], ["seer", "werewolf", "villager"], ["oracle", "villager", "villager"],
        drawn=["yes"], seed=1,
    )  # fmt: skip
    night(game, {})
    assert [(e.kind, e.why) for e in game.log if e.to is None] == [("replied", "yes")]
    assert game.centre[0].role == "oracle" and game.centre[0].identity == "werewolf"
    assert Words(game, "fa").dawn(game.log[0]) == "غیبگو گفت آری: کارت غیبگو حالا یک گرگینه است."


def test_a_saved_game_keeps_who_sleeps_the_reach_and_the_seed() -> None:
    cards = ["blob", "the_count", "vampire", "seer", "villager"]
    game = Game.deal(onuw(), NAMES, cards, ["villager", "villager", "robber"], seed=10)
    night(game, {1: [["seat:5"], ["seat:4"]], 2: [["seat:5"]]})
    assert game.tokens.asleep == {3} and game.seats[0].card.reach == (1, 1)
    saved = game.snapshot()
    again = Game.from_snapshot(onuw(), saved)
    assert again.snapshot() == saved
    assert again.tokens.asleep == {3} and again.seed == 10 and again.seats[0].card.reach == (1, 1)


@pytest.mark.parametrize(
    ("among", "seat", "seats"),
    [
        ("odd", 1, [0, 2, 4]),  # seat numbers 1, 3 and 5
        ("even", 0, [1, 3]),
        ("higher", 2, [3, 4]),
        ("lower", 2, [0, 1]),
        ("left", 4, [0]),  # the next seat clockwise, round the table
        ("right", 0, [4]),
        ("neighbours", 0, [1, 4]),
        ("left_two", 3, [4, 0]),
        ("right_two", 1, [0, 4]),
    ],
)
def test_a_pick_among_seats_reads_the_public_seat_numbers(
    among: str, seat: int, seats: list[int]
) -> None:
    from narrator.moderator.night import related

    assert sorted(i for i in range(5) if i != seat and related(among, seat, i, 5)) == sorted(seats)
