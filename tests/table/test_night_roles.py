"""One Night's boxes' nights on the phones, as pure state: every phone gets the same
prompts at every call whether a role is dealt or lies in the centre, with the real
engine and the real night script, built from one seed (`test_night.py` for the base
game).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from narrator.moderator import Game as Engine
from narrator.session.game import GameSetup
from narrator.table.errors import TableError
from narrator.table.night import NightDesk
from narrator.table.seats import option_id
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gil"]


def desk(
    cards: list[str], centre: list[str], options: frozenset[str] = frozenset(), seed: int = 0
) -> NightDesk:
    """A night on the phones: the voice's script and the engine from one seed (the
    table's: `Flow.game`), so the instruction drawn is the one both play."""
    rs = ruleset("onuw")
    deck = dict(Counter(cards + centre))
    game = GameSetup(rs, len(cards), deck, "en", 1, options=dict.fromkeys(options, 1.0))
    game.seed = seed
    engine = Engine.deal(
        rs, NAMES[: len(cards)], cards, centre, options=options, rng=random.Random(5), seed=seed
    )
    return NightDesk.begin(engine, game.script("night"), "en")


def walk(d: NightDesk) -> list[tuple[int, list[object], list[str]]]:
    """The voice walks the night; every phone looks and answers its first way with
    its last options -- the holder of the card among those the rules let them pick
    (the Squire among the werewolves he saw), as a player would -- and what a
    neighbour could see is kept: each phone's prompt and the keys of each answer."""
    seen = []
    players = len(d.engine.seats)
    for index in range(len(d.script.steps)):
        d.at(index)
        shapes: list[object] = []
        answers: list[str] = []
        for seat in range(players):
            p = d.prompt(seat)
            shapes.append(
                None
                if p is None
                else (p["id"], p["min"], p["max"], [o["id"] for o in p["options"]])
            )
            if p is not None and p["max"]:
                way = p["ways"][0]
                real = d.engine.prompt(d.open.step, seat) if d.open else None
                ids = (
                    [option_id(o) for o in real.options]
                    if real
                    else [o["id"] for o in p["options"]]
                )
                pick = (
                    [way["named"][0]]
                    if way["named"]
                    else (
                        [i for i in ids if i.startswith("seat:")][-way["seat"] :]
                        if way["seat"]
                        else []
                    )
                    + [i for i in ids if i.startswith("centre:")][: way["centre"]]
                )
                answers.append(",".join(sorted(d.act(seat, p["id"], pick))))
        seen.append((index, shapes, answers))
    d.finish()
    return seen


def same_night(a: NightDesk, b: NightDesk) -> None:
    wa, wb = walk(a), walk(b)
    assert [(i, s) for i, s, _ in wa] == [(i, s) for i, s, _ in wb]
    assert [ans for _, _, ans in wa] == [ans for _, _, ans in wb]
    assert [w.step.id for w in a.windows] == [w.step.id for w in b.windows]
    for _, shapes, _ in wa:  # at every moment, one prompt id on every phone, or none
        assert len({s[0] if s else None for s in shapes}) == 1  # type: ignore[index]


def test_daybreak_every_phone_alike_whether_its_roles_are_dealt_or_in_the_centre() -> None:
    dealt = desk(
        ["alpha_wolf", "paranormal_investigator", "curator", "bodyguard", "seer"],
        ["werewolf", "witch", "villager"],
    )
    centre = desk(
        ["werewolf", "witch", "villager", "bodyguard", "seer"],
        ["alpha_wolf", "paranormal_investigator", "curator"],
    )
    # the Alpha Wolf's own call has its window (phase 1: the Mystic Wolf's had none)
    assert {"alpha_wolf", "paranormal_investigator", "curator"} <= {
        w.step.role for w in dealt.windows
    }
    same_night(dealt, centre)
    # the Alpha Wolf's must was kept: the spare card moved, in the dealt game
    assert not dealt.engine.centre[-1].spare and centre.engine.centre[-1].spare
    assert dealt.engine.tokens.artifacts  # the Curator's artifact lies on a card


def test_the_investigators_looks_are_two_prompts_on_every_phone_by_the_option() -> None:
    for options in (frozenset(), frozenset({"pi_any_non_village"})):
        d = desk(
            ["paranormal_investigator", "minion", "villager", "seer", "robber"],
            ["werewolf", "troublemaker", "villager"],
            options,
        )
        pi = next(w for w in d.windows if w.step.role == "paranormal_investigator")
        assert d.rounds(pi.step) == 2


def test_bonus_every_phone_alike_whether_its_roles_are_dealt_or_in_the_centre() -> None:
    dealt = desk(
        ["squire", "beholder", "aura_seer", "thing", "nostradamus", "apprentice_tanner"],
        ["werewolf", "seer", "tanner"],
    )
    centre = desk(
        ["werewolf", "seer", "tanner", "aura_seer", "beholder", "thing"],
        ["squire", "nostradamus", "apprentice_tanner"],
    )
    same_night(dealt, centre)
    nostradamus = next(w for w in dealt.windows if w.step.role == "nostradamus")
    assert dealt.rounds(nostradamus.step) == 3
    # the Thing's tap reached the journal of the player beside him, and nobody else's
    tapped = [e for e in dealt.engine.log if e.kind == "tapped"]
    assert len(tapped) == 1 and tapped[0].to in (2, 4)


VAMPIRES = ["vampire", "the_count", "renfield", "cupid", "priest", "marksman", "gremlin"]


def test_the_vampire_box_every_phone_alike_whether_its_roles_are_dealt_or_in_the_centre() -> None:
    dealt = desk(VAMPIRES, ["pickpocket", "assassin", "diseased"])
    centre = desk(
        ["pickpocket", "assassin", "diseased", "vampire", "cupid", "marksman", "gremlin"],
        ["the_count", "renfield", "priest"],
    )
    # the marks call and the Lovers' have their windows on every phone
    roles = [w.step.role for w in dealt.windows]
    assert "marks" in roles and roles.count("cupid") == 2
    assert roles == [w.step.role for w in centre.windows]
    same_night(dealt, centre)
    engine = dealt.engine
    # the vampires gave the Mark of the Vampire, the Count his Mark of Fear; every
    # player learned their own mark in the marks call's window
    given = {e.cards[0] for e in engine.log if e.kind == "mark"}
    assert {"mark_of_the_vampire", "mark_of_fear", "mark_of_the_bat"} <= given
    looked = [e for e in engine.log if e.kind == "see_mark" and e.role == "marks"]
    assert sorted(e.to for e in looked) == list(range(7))
    # the Gremlin's two prompts (cards or marks, then two players) on every phone
    gremlin = next(w for w in dealt.windows if w.step.role == "gremlin")
    assert dealt.rounds(gremlin.step) == centre.rounds(gremlin.step) == 2


ALIENS = ["alien", "synthetic_alien", "cow", "groob", "zerb", "leader", "psychic"]


def test_the_alien_box_every_phone_alike_whether_its_roles_are_dealt_or_in_the_centre() -> None:
    for seed in range(6):  # a few instructions drawn: the aliens', the Psychic's...
        dealt = desk(ALIENS, ["oracle", "rascal", "blob"], seed=seed)
        centre = desk(
            ["oracle", "rascal", "blob", "alien", "cow", "leader", "psychic"],
            ["synthetic_alien", "groob", "zerb"],
            seed=seed,
        )
        same_night(dealt, centre)
        # the Oracle's answer is told at dawn whether she answered or her card lies in
        # the centre: nothing tells which
        for d in (dealt, centre):
            assert any(e.kind == "replied" for e in d.engine.log) == (
                d.engine.drawn_choice("oracle", 0) in (0, 1, 2)
            )


def test_a_pick_by_seat_numbers_is_built_from_each_phones_own_seat() -> None:
    """The Psychic's "players with odd numbers" (seed 9): every phone is offered the
    odd seats but its own, decoys too, and the real Psychic is refused an even one."""
    d = desk(
        ["psychic", "werewolf", "villager", "robber", "werewolf"],
        ["seer", "villager", "tanner"],
        seed=9,
    )
    window = next(w for w in d.windows if w.step.role == "psychic")
    d.at(window.first)
    offered = {
        seat: [o["id"] for o in (d.prompt(seat) or {"options": []})["options"]] for seat in range(5)
    }
    assert offered == {
        0: ["seat:3", "seat:5"],
        1: ["seat:1", "seat:3", "seat:5"],
        2: ["seat:1", "seat:5"],
        3: ["seat:1", "seat:3", "seat:5"],
        4: ["seat:1", "seat:3"],
    }
    prompt = d.prompt(0)
    assert prompt is not None
    with pytest.raises(TableError, match="not offered"):
        d.act(0, prompt["id"], ["seat:2"])
    assert d.act(0, prompt["id"], ["seat:3", "seat:5"])["learned"] == [
        "Night 1: you looked at Cy: the Villager; Eve: the Werewolf."
    ]
