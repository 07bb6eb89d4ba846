"""One Night's options, set-up checks, decks per box and random decks from owned boxes."""

from __future__ import annotations

import json
import random

import pytest

from narrator.cli import main
from narrator.rules import SelectionError, check_selection, parse_roles, recommended
from narrator.rules.draw import random_deck, tokens_needed
from narrator.rules.selection import parse_options
from tests.unit.helpers import ruleset, script, seq

FIRST_GAME = "werewolf:2,seer,robber,troublemaker,villager"
LONE_WOLF = "If you are the only werewolf, you may look at one card in the centre."


def texts(night: object) -> list[str]:
    return [t for kind, _, t in seq(night) if kind == "say"]  # type: ignore[arg-type]


def test_lone_wolf_is_on_by_default_and_can_be_turned_off() -> None:
    assert LONE_WOLF in texts(script("onuw", 3, FIRST_GAME))
    off = script("onuw", 3, FIRST_GAME, options=(("lone_wolf", 0.0),))
    assert LONE_WOLF not in texts(off)
    assert off.options == (("lone_wolf", 0.0),)


def test_terse_keeps_only_the_wake_and_close_calls() -> None:
    night = script("onuw", 3, FIRST_GAME, options=(("terse", 1.0),))
    seer = [t for kind, role, t in seq(night) if role == "seer"]
    assert seer == ["Seer, wake up.", 10.0, "Seer, close your eyes."]


def test_terse_still_speaks_a_drawn_instruction() -> None:
    night = script("onuw", 3, "alien:2,psychic,seer,villager:2", options=(("terse", 1.0),))
    psychic = [t for kind, role, t in seq(night) if role == "psychic" and kind == "say"]
    assert len(psychic) == 3 and psychic[1] == night.choices[-1].text


def test_move_your_card_replaces_the_nudge_at_the_end() -> None:
    night = texts(script("onuw", 3, FIRST_GAME, options=(("move_card", 1.0),)))
    assert night[-2].startswith("Everyone, with your eyes still closed, reach out and move")
    assert not any(t.startswith("Whoever sits closest") for t in night)


def test_verbose_doppelganger_hears_each_chosen_role_she_may_do_at_once() -> None:
    deck = "doppelganger,werewolf,seer,witch,troublemaker,villager"
    plain = [t for _, role, t in seq(script("onuw", 3, deck)) if role == "doppelganger"]
    verbose = [
        t
        for _, role, t in seq(script("onuw", 3, deck, options=(("verbose_doppelganger", 1.0),)))
        if role == "doppelganger"
    ]
    extra = [t for t in verbose if t not in plain]
    assert extra == [
        "If you are now the Seer: You may look at another player's card, or at two of the "
        "cards in the centre. If you are now the Witch: You may look at one card in the "
        "centre. If you do, swap it with the card of any player, yours too. If you are now "
        "the Troublemaker: You may swap the cards of two other players, without looking at them."
    ]


def test_role_timer_gives_every_turn_the_same_time_and_complex_ones_twice() -> None:
    night = script(
        "onuw",
        3,
        "doppelganger,werewolf,witch,seer,insomniac,robber",
        options=(("role_timer", 7.0),),
    )
    pauses = {role: s for kind, role, s in seq(night) if kind == "pause" and role}
    assert pauses == {"doppelganger": 7.0, "werewolf": 7.0, "witch": 14.0, "seer": 7.0,
                      "insomniac": 7.0, "robber": 7.0}  # fmt: skip
    # The Doppelganger's own turn is complex: its first pause is doubled.
    first = next(s for kind, role, s in seq(night) if kind == "pause" and role == "doppelganger")
    assert first == 14.0


def test_options_are_checked() -> None:
    rs = ruleset("onuw")
    assert parse_options(["terse", "lone_wolf=off", "role_timer=20"], rs) == (
        ("terse", 1.0),
        ("lone_wolf", 0.0),
        ("role_timer", 20.0),
    )
    for bad, message in [
        (["lone_wolf=maybe"], "lone_wolf is on or off"),
        (["role_timer=soon"], "takes a number of seconds"),
        (["role_timer=900"], "choose 0 to 600"),
        (["tersee"], "did you mean 'terse'"),
    ]:
        with pytest.raises(SelectionError, match=message):
            parse_options(bad, rs)


@pytest.mark.parametrize(
    ("roles", "message"),
    [
        ("apprentice_tanner,werewolf:2,seer,robber,villager", "Apprentice Tanner is only useful"),
        ("renfield,werewolf:2,seer,robber,villager", "Renfield is only useful with Vampire"),
        ("leader,werewolf:2,seer,robber,villager", "Leader is only useful with Alien"),
        ("mason,werewolf:2,seer,robber,villager", "Mason cards come in pairs"),
    ],
)
def test_roles_that_need_another_are_refused_alone(roles: str, message: str) -> None:
    rs = ruleset("onuw")
    report = check_selection(rs, 3, parse_roles(roles, rs))
    assert any(message in e for e in report.errors), report.errors


@pytest.mark.parametrize("box", ["base", "daybreak", "vampire", "alien", "bonus"])
def test_each_box_has_a_valid_deck_for_every_table(box: str) -> None:
    rs = ruleset("onuw")
    for players in range(3, 11):
        deck, _ = recommended(rs, players, box)
        report = check_selection(rs, players, deck)
        assert report.ok and not report.warnings, (players, report)
        boxes = {rs.role(r).box for r, _ in deck}
        assert boxes <= ({box} if box in ("base", "vampire", "alien") else {box, "base"})


def test_a_random_deck_comes_only_from_the_boxes_owned_and_is_valid() -> None:
    rs = ruleset("onuw")
    for seed in range(60):
        owned = ("vampire", "alien") if seed % 2 else ("base", "bonus")
        players = 3 + seed % 8
        deck = random_deck(rs, players, owned, random.Random(seed))
        assert {rs.role(r).box for r, _ in deck} <= set(owned)
        assert check_selection(rs, players, deck).ok
        assert random_deck(rs, players, owned, random.Random(seed)) == deck


def test_a_random_deck_that_cannot_be_made_says_why() -> None:
    rs = ruleset("onuw")
    with pytest.raises(SelectionError, match="hold 11 cards; 10 players need 13"):
        random_deck(rs, 10, ("daybreak",), random.Random(1))
    with pytest.raises(SelectionError, match="no valid deck"):
        random_deck(rs, 3, ("bonus",), random.Random(1))


def test_the_tokens_a_deck_needs() -> None:
    rs = ruleset("onuw")
    deck = parse_roles("sentinel,curator,cupid,vampire,werewolf,villager", rs)
    assert dict(tokens_needed(rs, deck)) == {
        "shield": 1,
        # Daybreak's six artifacts (the bonus packs' six only with their option)
        "claw_of_the_werewolf": 1,
        "brand_of_the_villager": 1,
        "cudgel_of_the_tanner": 1,
        "void_of_nothingness": 1,
        "mask_of_muting": 1,
        "shroud_of_shame": 1,
        "mark_of_clarity": 10,
        "mark_of_the_vampire": 1,
        "mark_of_love": 2,
    }


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_seed_and_options_reach_the_script(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("script", "onuw", "--players", "5", "--box", "alien", "--format", "json")
    code, out, err = run(capsys, *argv, "--seed", "7", "--option", "terse")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["seed"] == 7 and doc["options"] == {"terse": 1.0}
    assert [c["role"] for c in doc["choices"]] == [
        "oracle",
        "alien",
        "psychic",
        "rascal",
    ]
    assert json.loads(run(capsys, *argv, "--seed", "7", "--option", "terse")[1]) == doc
    # With no seed, a fresh one is drawn and shown.
    fresh = json.loads(run(capsys, *argv)[1])
    assert isinstance(fresh["seed"], int)


def test_cli_setup_by_box_and_random(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "setup", "onuw", "--players", "4", "--box", "vampire", "--format", "json"
    )
    assert code == 0 and json.loads(out)["roles"] == {
        "vampire": 2, "cupid": 1, "priest": 1, "marksman": 1, "pickpocket": 1, "gremlin": 1,
    }  # fmt: skip
    code, out, _ = run(
        capsys, "setup", "onuw", "--players", "6", "--random", "alien", "--seed", "2",
        "--format", "json",
    )  # fmt: skip
    doc = json.loads(out)
    rs = ruleset("onuw")
    assert code == 0 and {rs.role(r).box for r in doc["roles"]} == {"alien"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("script", "onuw", "--players", "5", "--option", "bogus"), "has no option 'bogus'"),
        (("setup", "onuw", "--players", "5", "--box", "dayb"), "did you mean 'daybreak'"),
        (("setup", "onuw", "--players", "5", "--random", "zz"), "has no box 'zz'"),
        (("script", "onuw", "--players", "5", "--seed", "-1"), "out of range"),
    ],
)
def test_cli_bad_box_option_or_seed_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, *argv) if argv[-1] != "-1" else _exit(capsys, argv)
    assert code == 2 and message in err and err.count("\n") == 1


def _exit(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err
