"""The night on the phones as pure state: windows on the voice's clock, the same
prompt on every phone whatever its card, real acts for the holder, decoys for the
rest, a private journal -- with the real engine and the real night script."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from itertools import combinations

import pytest

from narrator.moderator import Game as Engine
from narrator.moderator import Place
from narrator.session.game import GameSetup
from narrator.table.errors import TableError
from narrator.table.night import NightDesk
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]


def desk(cards: list[str], centre: list[str], game: str = "onuw") -> NightDesk:
    rs = ruleset(game)
    deck = dict(Counter(cards + centre))
    script = GameSetup(rs, len(NAMES), deck, "en", 1).script("night")
    engine = Engine.deal(rs, NAMES, cards, centre, rng=random.Random(3))
    return NightDesk.begin(engine, script, "en")


def first_way(p: dict[str, object]) -> list[str]:
    """The first way to answer `p`: its first players or centre cards, or its word."""
    way = p["ways"][0]  # type: ignore[index]
    ids = [o["id"] for o in p["options"]]  # type: ignore[attr-defined]
    if way["named"]:
        return [way["named"][0]]
    seats = [i for i in ids if i.startswith("seat:")][: way["seat"]]
    return seats + [i for i in ids if i.startswith("centre:")][: way["centre"]]


def walk(d: NightDesk, answer: bool = True) -> list[tuple[int, list[object], list[str]]]:
    """The voice walks the night step by step; every phone looks and (maybe) answers.
    Returns, per script step, what every phone's prompt *shape* is (id, min, max,
    option ids) and the keys of every answer -- what a neighbour could tell apart."""
    seen = []
    for index in range(len(d.script.steps)):
        d.at(index)
        shapes: list[object] = []
        answers: list[str] = []
        for seat in range(len(NAMES)):
            p = d.prompt(seat)
            shapes.append(
                None
                if p is None
                else (p["id"], p["min"], p["max"], [o["id"] for o in p["options"]])
            )
            if answer and p is not None and p["max"]:
                reply = d.act(seat, p["id"], first_way(p))
                answers.append(",".join(sorted(reply)))
        seen.append((index, shapes, answers))
    d.finish()
    return seen


def test_a_window_opens_and_closes_on_the_voices_clock_for_every_role() -> None:
    d = desk(
        ["robber", "werewolf", "seer", "troublemaker", "drunk"],
        ["villager", "insomniac", "werewolf"],
    )
    roles = [w.step.role for w in d.windows]
    assert roles == [s.role for s in d.steps]  # every call that lets someone act has a window
    for w in d.windows:
        assert d.script.steps[w.first].role == w.step.role == d.script.steps[w.last].role
        assert w.first < w.last
    d.at(d.windows[0].first - 1)
    assert d.open is None and all(d.prompt(s) is None for s in range(5))
    d.at(d.windows[0].first)
    assert d.open == d.windows[0]


def test_the_same_prompts_and_answers_whether_a_role_is_dealt_or_in_the_centre() -> None:
    dealt = desk(
        ["robber", "werewolf", "seer", "troublemaker", "drunk"],
        ["villager", "insomniac", "werewolf"],
    )
    centre = desk(
        ["werewolf", "werewolf", "insomniac", "troublemaker", "drunk"],
        ["robber", "seer", "villager"],
    )
    a, b = walk(dealt), walk(centre)
    assert [(i, s) for i, s, _ in a] == [(i, s) for i, s, _ in b]
    assert [ans for _, _, ans in a] == [ans for _, _, ans in b]  # same answer keys
    assert [w.step.id for w in dealt.windows] == [w.step.id for w in centre.windows]
    # at every open step every phone has a prompt with the same id
    for _, shapes, _ in a:
        ids = {s[0] if s else None for s in shapes}  # type: ignore[index]
        assert len(ids) == 1


def test_the_robber_learns_his_new_card_the_decoy_learns_nothing_in_the_same_shape() -> None:
    d = desk(
        ["robber", "werewolf", "seer", "troublemaker", "drunk"],
        ["villager", "insomniac", "werewolf"],
    )
    robber = next(w for w in d.windows if w.step.role == "robber")
    d.at(robber.first)
    real = d.act(0, robber.step.id, ["seat:2"])  # Ann robs Bo, the werewolf
    decoy = d.act(2, robber.step.id, ["seat:2"])  # Cy, the Seer, taps Bo too
    assert set(real) == set(decoy) == {"ok", "learned", "refused"}
    assert real["learned"] and "Werewolf" in " ".join(real["learned"])
    assert decoy["learned"] == []
    assert d.engine.seats[0].card.role == "werewolf" and d.engine.seats[1].card.role == "robber"
    assert d.journal[0][-1]["night"] == 1
    # Cy's journal holds only his own (skipped) Seer's call, nothing of the decoy
    assert [e["text"] for e in d.journal.get(2, [])] == ["Night 1: you did nothing."]
    json.dumps(d.journal)  # JSON-ready


def test_acts_are_checked_alike_for_every_phone() -> None:
    d = desk(
        ["robber", "werewolf", "seer", "troublemaker", "drunk"],
        ["villager", "insomniac", "werewolf"],
    )
    seer = next(w for w in d.windows if w.step.role == "seer")
    with pytest.raises(TableError, match="not open"):
        d.act(2, seer.step.id, ["seat:1"])  # before the call
    d.at(seer.first)
    for seat in (1, 2):  # a werewolf's decoy and the Seer are refused alike
        with pytest.raises(TableError, match="not open"):
            d.act(seat, "n1.99", [])
        with pytest.raises(TableError, match="not offered"):
            d.act(seat, seer.step.id, ["seat:9"])
        with pytest.raises(TableError, match="choose from"):
            d.act(seat, seer.step.id, ["centre:1", "centre:2", "centre:3"])
    d.at(seer.last + 1)
    assert d.open is None and seer.step.id in d.closed


@pytest.mark.parametrize(
    ("game", "cards", "centre", "expected"),
    [
        (
            "onuw",
            ["robber", "werewolf", "seer", "troublemaker", "drunk"],
            ["villager", "insomniac", "werewolf"],
            {"robber", "seer", "troublemaker", "drunk"},
        ),
        (
            "wherewolf",
            ["pack_leader", "seer", "healer", "villager", "villager"],
            [],
            {"seer", "werewolf"},  # the Healer is first called on the second night
        ),
    ],
)
def test_every_answer_is_taken_or_refused_alike_whoever_holds_the_card(
    game: str, cards: list[str], centre: list[str], expected: set[str]
) -> None:
    """At every call, every way of tapping a phone's options (none, one, two, ...):
    the phone of the card's holder and every other phone get the same outcome, the
    same refusal word for word. (The table's check and the engine's are one: an
    answer the table let through and the engine refused would tell them apart.)"""
    d = desk(cards, centre, game)
    tried, checked = 0, []
    # the rules and the script are read, never written: each trial shares them
    shared = {id(x): x for x in (d.engine.ruleset, d.script, *d.steps)}
    for window in d.windows:
        d.at(window.first)
        outcomes: dict[int, dict[tuple[int, ...], str]] = {}
        prompts = [d.prompt(seat) for seat in range(len(NAMES))]
        if all(p is None for p in prompts):  # a call with nothing to tap (the pack's look)
            continue
        for seat, p in enumerate(prompts):
            assert p is not None
            ids = [o["id"] for o in p["options"]]
            outcomes[seat] = {}
            for size in range(min(3, len(ids)) + 1):
                for picked in combinations(range(len(ids)), size):
                    trial = copy.deepcopy(d, dict(shared))
                    try:
                        trial.act(seat, p["id"], [ids[i] for i in picked])
                        outcomes[seat][picked] = "taken"
                    except TableError as exc:
                        outcomes[seat][picked] = str(exc)
                    tried += 1
        first = outcomes[0]
        assert "taken" in first.values() and len(set(first.values())) > 1
        for seat, seen in outcomes.items():
            assert seen == first, f"{window.step.id}: seat {seat + 1} is told apart"
        # then every phone answers its first way for real: the night goes on as
        # played (the pack strikes someone, and the Healer has someone to save)
        way = next(k for k, v in first.items() if k and v == "taken")
        for seat, p in enumerate(prompts):
            assert p is not None
            d.act(seat, p["id"], [p["options"][i]["id"] for i in way])
        d.at(window.last + 1)
        checked.append(window.step.role)
    assert tried > 100 and set(checked) >= expected, checked


def test_a_night_nobody_answers_still_ends_and_the_pack_learns_each_other() -> None:
    d = desk(
        ["werewolf", "werewolf", "seer", "troublemaker", "drunk"],
        ["robber", "insomniac", "villager"],
    )
    walk(d, answer=False)
    assert d.closed == {w.step.id for w in d.windows}
    assert d.journal[0] and d.journal[1]  # the two wolves saw each other
    # the Drunk's mandatory swap was drawn at the deadline: one centre card moved
    assert d.engine.seats[4].card.role != "drunk"


def test_a_wherewolf_game_on_the_phones_from_the_deal_to_the_winners() -> None:
    """Nobody knows the cards: the Seer learns an aura, the Pack Leader's pick is the
    victim and the Healer saves her, the village burns the Pack Leader with every
    other accusation, and the end is judged at the next dawn -- all through the
    table's state, the real night script and the engine."""
    from narrator.table import Table, views
    from narrator.table.announce import announce
    from narrator.table.results import Winners

    t = Table(ruleset("wherewolf"), "en", rng=random.Random(5))
    for name in NAMES:
        t.join(name, t.room)
    t.start({"seer": 1, "pack_leader": 1, "healer": 1, "villager": 2})
    cards = ["pack_leader", "seer", "healer", "villager", "villager"]
    for seat, card in zip(t.seats, cards, strict=True):
        seat.card = card
    t.engine = Engine.deal(t.ruleset, NAMES, cards, [], rng=random.Random(5))

    def night(picks: dict[int, list[str]]) -> None:
        t.advance()  # dusk: the table begins the night on the phones, as it falls
        assert t.desk is not None
        for index in range(len(t.desk.script.steps)):
            t.night_at(index)
            for seat in t.seats:
                p = views.private(t, seat)["prompt"]
                options = [o["id"] for o in p["options"]] if p else []
                if p and p["max"] and all(c in options for c in picks.get(seat.seat, ["-"])):
                    t.act(seat, p["id"], picks[seat.seat])  # real or decoy: alike
        t.advance()  # dawn

    night({1: ["seat:1"]})  # the Seer (seat index 1) asks about Ann ("seat:1" as shown)
    assert t.journal[1][-1]["text"] == "Night 1: you asked about Ann: a dark aura."
    while t.phase != "verdict":  # day 1: nobody accuses, nobody is a suspect
        t.advance()
    night({0: ["seat:2"], 2: ["seat:2"]})  # the Pack Leader picks Bo; the Healer heals Bo
    healer = [e for e in t.engine.log if e.kind == "struck"]
    assert healer[-1].targets == (Place.seat(1),) and healer[-1].to == 2
    assert [e.kind for e in t.events if e.kind == "victims"][-1:] == ["victims"]
    assert announce(t, t.events[-1]) == ["Nobody left the game last night."]
    assert all(s.alive for s in t.seats)
    t.advance()  # the accusation
    t.vote(t.seat(0), 1)
    for voter in (1, 2, 3, 4):
        t.vote(t.seat(voter), 0)  # every other accusation on Ann: burned at once
    assert t.phase == "verdict" and not t.seat(0).alive
    verdict = next(e for e in reversed(t.events) if e.kind == "verdict")
    assert announce(t, verdict) == [
        "Ann is burned at the stake, and leaves the game without showing the card."
    ]
    assert t.reveal is None  # judged at the start of the day, not after the stake
    night({})
    assert t.phase == "end" and t.reveal is not None
    assert t.reveal.winners == Winners(("village",), (1, 2, 3, 4))


def test_the_doppelganger_follows_up_on_her_phone_and_every_phone_answers_as_often() -> None:
    """Her copy of the Seer looks on her phone at once (a second prompt of the same
    call); every other phone gets a second prompt too, so none answers fewer times."""
    d = desk(
        ["doppelganger", "werewolf", "seer", "robber", "villager"],
        ["drunk", "insomniac", "villager"],
    )
    for index in range(len(d.script.steps)):
        d.at(index)
        if d.open is not None and d.open.step.role == "doppelganger":
            break
    assert d.open is not None
    step = d.open.step
    assert d.rounds(step) == 2
    assert {d.prompt(seat)["id"] for seat in range(5)} == {step.id}  # type: ignore[index]
    first = d.act(0, step.id, ["seat:3"])  # Ann copies Cy, the Seer
    assert first["learned"] == ["Night 1: you looked at Cy's card: you are now the Seer."]
    follow = d.prompt(0)
    assert (
        follow is not None and follow["id"] == f"{step.id}/2" and follow["text"] == "Seer: choose."
    )
    assert "centre:1" in [o["id"] for o in follow["options"]]  # the Seer's own ways
    second = d.act(0, follow["id"], ["seat:2"])
    assert second["learned"] == ["Night 1: you looked at Bo: the Werewolf."]
    for seat in range(1, 5):  # the decoys: two prompts each, the same ids
        p = d.prompt(seat)
        assert p is not None
        d.act(seat, step.id, first_way(p))
        p = d.prompt(seat)
        assert p is not None and p["id"] == f"{step.id}/2"
        d.act(seat, p["id"], first_way(p))
    with pytest.raises(TableError, match="not open"):
        d.act(1, step.id, ["seat:1"])  # the first prompt is done


def test_the_healer_sees_on_her_phone_only_those_the_night_struck() -> None:
    """Wherewolf's Healer chooses among the struck (her options), every other phone a
    decoy of all the players; at night the journal is hidden, so the prompt is
    where she learns it."""
    rs = ruleset("wherewolf")
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["pack_leader", "seer", "healer", "villager", "villager"]
    deck = dict(Counter(cards))
    engine = Engine.deal(rs, names, cards, [], rng=random.Random(3))
    for night in (1, 2):
        script = GameSetup(rs, len(names), deck, "en", night).script("night")
        d = NightDesk.begin(engine, script, "en")
        for index in range(len(script.steps)):
            d.at(index)
            if d.open is None:
                continue
            if night == 2 and d.open.step.role == "werewolf" and not engine.struck():
                p = d.prompt(0)
                assert p is not None
                d.act(0, p["id"], ["seat:4"])  # the Pack Leader strikes Dee
            if night == 2 and d.open.step.role == "healer" and not engine.spent:
                mine, decoy = d.prompt(2), d.prompt(1)
                assert mine is not None and decoy is not None
                assert [o["id"] for o in mine["options"]] == ["seat:4"]
                assert len(decoy["options"]) == 4 and mine["id"] == decoy["id"]
                d.act(2, mine["id"], ["seat:4"])
        d.finish()
        assert engine.dawn() == []  # night 1: no hunt; night 2: Dee saved


def test_an_agent_tapping_a_fellow_agent_is_answered_as_every_phone_is() -> None:
    """Review leak: the agents' arrest offers every phone the same players (a decoy
    cannot know who the agents are, so neither can the shape); an agent who taps a
    fellow agent is refused by the rules -- on their own phone, in the same shape
    and size as any answer, and may choose again."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
    rs = ruleset("mafia_infiltrators")
    cards = ["agent", "gangster", "agent", "gangster", "torturer", "gangster"]
    script = GameSetup(rs, len(names), dict(Counter(cards)), "en", 1).script("night")
    engine = Engine.deal(rs, names, cards, [], rng=random.Random(3))
    d = NightDesk.begin(engine, script, "en")
    arrest = next(w for w in d.windows if w.step.role == "agent")
    d.at(arrest.first)
    shown = [d.prompt(seat) for seat in range(len(names))]
    assert all(p is not None for p in shown)
    assert len({len(p["options"]) for p in shown if p}) == 1  # the same players for all
    mate = d.act(0, arrest.step.id, ["seat:3"])  # agent Ann taps agent Cy
    decoy = d.act(1, arrest.step.id, ["seat:3"])  # a gangster taps Cy too
    assert set(mate) == set(decoy) == {"ok", "learned", "refused"}
    assert mate["ok"] is False and "Cy" in mate["refused"] and decoy["refused"] is None
    assert len(json.dumps(mate)) < 4096 and len(json.dumps(decoy)) < 4096  # one padding
    assert d.act(0, arrest.step.id, ["seat:2"])["ok"] is True  # a gangster: taken


def test_the_mystic_wolf_meets_the_pack_at_its_call_and_looks_at_his_own() -> None:
    """PHASE1's table bug: his pack step was matched to his own 2c call and his look
    had no call; now he meets the pack at the werewolves' call (the engine's one step
    of that call, which he answers too) and looks at his."""
    d = desk(
        ["mystic_wolf", "werewolf", "seer", "robber", "villager"], ["villager"] * 2 + ["drunk"]
    )
    by_role = {w.step.role: w for w in d.windows}
    pack, look = by_role["werewolf"], by_role["mystic_wolf"]
    assert d.engine.actors(pack.step) == [0, 1] and look.step.turn == 1
    assert d.script.steps[pack.first].role == "werewolf"
    assert d.script.steps[look.first].role == "mystic_wolf" and look.first > pack.last
    d.at(pack.first)
    knows = [e for e in d.engine.log if e.kind == "know" and e.to == 0]
    assert knows and knows[0].targets == (Place.seat(1),)  # he sees the werewolf
    d.at(look.first)
    p = d.prompt(0)
    assert p is not None and p["id"] == look.step.id and p["text"] == "Mystic Wolf: choose."
    assert d.act(0, p["id"], ["seat:4"])["learned"] == ["Night 1: you looked at Dee: the Robber."]


def test_a_doppelganger_copy_acts_at_her_own_call_after_the_role_s() -> None:
    """PHASE1's table bug: a role she plays later (the 5.0 sheet's *: the Insomniac,
    the Revealer) she played in the real role's window; the voice calls her after it
    ("Doppelganger, if you copied the Revealer, wake up"), and there her phone shows
    her prompt and tells her what she saw. Every phone sees the same prompt ids."""
    d = desk(
        ["doppelganger", "werewolf", "seer", "revealer", "villager"],
        ["villager", "robber", "werewolf"],
    )
    copy = d.windows[0]
    d.at(copy.first)
    assert d.act(0, copy.step.id, ["seat:4"])["learned"][0].endswith("now the Revealer.")
    reveal = next(w for w in d.windows if w.step.role == "revealer")
    assert reveal.later is not None and reveal.end == reveal.later[1]
    assert d.script.steps[reveal.later[0]].role == "doppelganger"
    d.at(reveal.first)  # the Revealer's own call: the holder chooses, she does not yet
    ids = {d.prompt(seat)["id"] for seat in range(len(NAMES))}  # type: ignore[index]
    assert ids == {reveal.step.id}
    assert d.prompt(3)["text"] == "Revealer: choose."  # type: ignore[index]
    assert d.prompt(0)["text"] == "Tap a player you trust least."  # type: ignore[index]
    for seat in range(len(NAMES)):
        d.act(seat, reveal.step.id, ["seat:5" if seat != 4 else "seat:1"])
    assert not [e for e in d.engine.log if e.kind == "reveal" and e.seat == 0]
    d.at(reveal.later[0])  # "Doppelganger, if you copied the Revealer, wake up"
    ids = {d.prompt(seat)["id"] for seat in range(len(NAMES))}  # type: ignore[index]
    assert ids == {f"{reveal.step.id}/2"}
    assert d.prompt(0)["text"] == "Revealer: choose."  # type: ignore[index]
    assert d.prompt(3)["text"] == "Tap a player you trust least."  # type: ignore[index]
    for seat in range(len(NAMES)):
        answer = d.act(seat, f"{reveal.step.id}/2", ["seat:2" if seat != 1 else "seat:1"])
        assert set(answer) == {"ok", "learned", "refused"}
    revealed = [e for e in d.engine.log if e.kind == "see" and e.seat == 0 and e.step == "n1.5"]
    assert revealed and revealed[0].targets == (Place.seat(1),)  # Bo's card, turned up
    d.at(reveal.end + 1)
    assert d.open is None and reveal.step.id in d.closed


def test_a_doppelganger_insomniac_learns_her_card_at_her_own_call() -> None:
    d = desk(
        ["doppelganger", "werewolf", "seer", "insomniac", "villager"],
        ["villager", "robber", "werewolf"],
    )
    d.at(d.windows[0].first)
    d.act(0, d.windows[0].step.id, ["seat:4"])  # she copies the Insomniac
    insomniac = next(w for w in d.windows if w.step.role == "insomniac")
    assert insomniac.later is not None
    d.at(insomniac.first)
    assert d.journal[3][-1]["text"] == "Night 1: your card is now the Insomniac."
    assert all("card is now" not in j["text"] for j in d.journal.get(0, [])[1:])
    d.at(insomniac.later[0])  # her own call: now she sees her card
    assert d.journal[0][-1]["text"] == "Night 1: your card is now the Doppelganger."
