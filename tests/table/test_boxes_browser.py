"""One Night's boxes (Daybreak, Vampire, Alien, the Bonus roles) in whole games on
phones in a real browser.

As `test_games_browser.py`: Debian's headless Chromium (Playwright), one browser
context per phone, the cards dealt by the phones and set by the test; each night's
choice is made on the holder's phone when the voice opens its call, every other
phone answers a decoy -- and before any phone answers, every phone shows the same
prompt (its id, how many to pick, how many options). The engine resolves the night,
counts the vote with what the cards change, and judges the end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from narrator.moderator import Step
from narrator.moderator.night import public_seats
from tests.table.live import Live
from tests.table.phones import held_game, play_night, seat_phones, vote, wait_phase
from tests.table.test_night_live import rig

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser-games")]


def alike(live: Live, pages: list[Any]) -> Any:
    """A check run at every call, before any phone answers: every phone has the same
    prompt -- the same id, the same numbers to pick and of options -- or none. A pick
    by seat numbers (the Psychic's odd numbers) offers each phone the seats the rule
    gives its own seat, whatever card it holds."""

    def check(step: Step) -> None:
        desk = live.table.desk
        assert desk is not None
        engine = desk.engine
        powers = desk._picking(step.role, step.turn)
        by_seat = bool(powers) and any(p.among for p in powers[0].picks)
        shapes = set()
        for i in range(len(pages)):
            p = desk.prompt(i)
            if p is not None and by_seat:
                ruled = public_seats(engine, powers[0], i, None)
                assert [o["id"] for o in p["options"]] == [f"seat:{s + 1}" for s in ruled]
            count = None if p is None or by_seat else len(p["options"])
            shapes.add(None if p is None else (p["id"], p["min"], p["max"], count))
        assert len(shapes) == 1, f"{step.id} ({step.role}): the phones differ: {shapes}"

    return check


def start(
    live: Live, pages: list[Any], cards: list[str], centre: list[str], seed: int | None = None
) -> None:
    deck: dict[str, int] = {}
    for card in cards + centre:
        deck[card] = deck.get(card, 0) + 1
    assert live.host("start", {"roles": deck})[0] == 200
    rig(live, cards, centre, seed)
    wait_phase(live, pages, "Look at your card")
    live.host("next")
    wait_phase(live, pages, "Night")


def test_a_daybreak_game_the_alpha_wolf_the_investigator_the_curator_the_bodyguard(
    browser: Any, shots: Path
) -> None:
    """The Alpha Wolf gives the spare werewolf to the Seer, who finds her own card in
    its place; the Investigator looks at her, becomes a werewolf and stops; the
    Curator puts an artifact on his own card, which the whole table is told at dawn;
    the Bodyguard shields the most voted, nobody else has two votes, and the
    werewolves win -- the Investigator and the Seer among them."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["alpha_wolf", "paranormal_investigator", "curator", "bodyguard", "seer"]
    with held_game("onuw") as (live, clock):
        voice = live.voice
        pages = seat_phones(browser, live, names)
        start(live, pages, cards, ["werewolf", "witch", "villager"])
        engine = live.table.engine
        assert engine is not None
        engine.tokens.stack = ["mask_of_muting", "claw_of_the_werewolf"]  # set, as the cards
        called = play_night(
            live,
            pages,
            clock,
            {
                "alpha_wolf": {0: ["seat:5"]},
                "seer": {4: ["centre:3", "centre:4"]},
                "paranormal_investigator": {1: [["seat:5"]]},
                "curator": {2: ["seat:3"]},
            },
            before=alike(live, pages),
        )
        assert len(called) >= 5  # the werewolves, the Alpha, the Seer, the P.I., the Curator
        wait_phase(live, pages, "Day")
        journal = live.table.journal
        assert journal[0][-1]["text"] == "Night 1: you swapped the cards of Eve and centre card 4."
        assert journal[4][-1]["text"] == (
            "Night 1: you looked at centre card 3: the Villager; centre card 4: the Seer."
        )
        assert [x["text"] for x in journal[1]][-2:] == [
            "Night 1: you looked at Eve: the Werewolf.",
            "Night 1: you are now the Werewolf.",
        ]
        assert journal[2][-1]["text"].startswith(
            "Night 1: an artifact lies on your card: the Mask of Muting."
        )
        assert "An artifact lies on Cy's card." in voice.said
        live.host("next")
        vote(live, pages, {0: 5, 1: 5, 2: 5, 3: 5, 4: 2}, "Vote")  # the Bodyguard: Eve
        wait_phase(live, pages, "The end")
        assert any(
            "Eve has the most votes, but the vote cannot put them to death." in line
            for line in voice.said
        )
        reveal = live.state()["reveal"]
        assert reveal["winners"] == {"teams": ["werewolves"], "seats": [1, 2, 5]}
        assert reveal["tokens"] == {"3": ["mask_of_muting"]}
        assert "(Mask of Muting)" in pages[2].inner_text("#list")  # beside Cy's card
        pages[2].screenshot(path=str(shots / "daybreak-end.png"))


def test_a_bonus_game_nostradamus_the_squire_the_beholder_and_the_prince(
    browser: Any, shots: Path
) -> None:
    """Nostradamus sees a villager then a werewolf and stops, and every phone is told
    his side at dawn; the Squire looks among the werewolves' thumbs, the Beholder
    among the seers'; the votes on the Prince do not count, the werewolf tied with him
    dies, and the village wins without Nostradamus."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
    cards = ["squire", "werewolf", "beholder", "seer", "nostradamus", "prince"]
    with held_game("onuw") as (live, clock):
        voice = live.voice
        pages = seat_phones(browser, live, names)
        start(live, pages, cards, ["thing", "aura_seer", "cursed"])
        play_night(
            live,
            pages,
            clock,
            {
                "seer": {3: ["seat:2"]},
                "nostradamus": {4: [["seat:6"], ["seat:2"]]},
                "squire": {0: ["seat:2"]},
                "beholder": {2: ["seat:4"]},
            },
            before=alike(live, pages),
        )
        wait_phase(live, pages, "Day")
        journal = live.table.journal
        assert journal[4][-1]["text"] == (
            "Night 1: your side is now that of the card you saw: Werewolves."
        )
        assert [x["text"] for x in journal[0]][-2:] == [
            "Night 1: you saw Bo.",
            "Night 1: you looked at Bo: the Werewolf.",
        ]
        assert journal[2][-1]["text"] == "Night 1: you looked at Dee: the Seer."
        assert "The Nostradamus card sides with: Werewolves." in voice.said
        live.host("next")
        vote(live, pages, {0: 6, 1: 6, 2: 2, 3: 2, 4: 6, 5: 2}, "Vote")
        wait_phase(live, pages, "The end")
        assert any(
            "Fay has the most votes, but the votes on them do not count." in line
            for line in voice.said
        )
        reveal = live.state()["reveal"]
        assert reveal["winners"] == {"teams": ["village"], "seats": [3, 4, 6]}
        pages[4].screenshot(path=str(shots / "bonus-end.png"))


def test_a_vampire_game_the_bite_the_fear_the_lovers_and_the_gremlin(
    browser: Any, shots: Path
) -> None:
    """The vampires bite Cy together, the Count gives Dee the Mark of Fear, Cupid makes
    Ann and Eve lovers; at the marks call every phone's journal says its mark, the
    lovers see each other, Dee (afraid) is not called as the Marksman, and the Gremlin
    swaps Cy's and Dee's marks. Ann, a vampire, is voted out and Eve, who loves her,
    dies with her: the village wins, and the end shows the marks beside the cards."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["vampire", "the_count", "cupid", "marksman", "gremlin"]
    with held_game("onuw") as (live, clock):
        voice = live.voice
        pages = seat_phones(browser, live, names)
        start(live, pages, cards, ["priest", "pickpocket", "villager"])
        called = play_night(
            live,
            pages,
            clock,
            {
                "vampire": {0: ["seat:3"], 1: ["seat:3"]},
                "the_count": {1: ["seat:4"]},
                "cupid": {2: ["seat:1", "seat:5"]},
                "marksman": {3: [["seat:1"], ["seat:2"]]},  # afraid: a decoy's answers
                "gremlin": {4: [["marks"], ["seat:3", "seat:4"]]},
            },
            before=alike(live, pages),
        )
        engine = live.table.engine
        assert engine is not None
        roles = [s.role for s in engine.steps()]
        assert "marks" in roles and roles.count("cupid") == 2
        assert len(called) == len(roles)  # every call had its window, the marks' too
        wait_phase(live, pages, "Day")
        journal = {i: [x["text"] for x in live.table.journal.get(i, [])] for i in range(5)}
        assert "Night 1: you gave the Mark of the Vampire to Cy." in journal[0]
        assert "Night 1: the mark in front of you is the Mark of Fear." in journal[3]
        assert not any("looked at" in line for line in journal[3])  # fear: no Marksman
        assert "Night 1: the Mark of Love lies in front of Eve." in journal[0]
        assert journal[4][-1] == "Night 1: you swapped the marks of Cy and Dee."
        live.host("next")
        vote(live, pages, {0: 2, 1: 1, 2: 1, 3: 1, 4: 1}, "Vote")
        wait_phase(live, pages, "The end")
        assert any("Eve dies together with Ann." in line for line in voice.said)
        reveal = live.state()["reveal"]
        assert reveal["winners"] == {"teams": ["village"], "seats": [3, 5]}
        assert reveal["tokens"]["4"] == ["mark_of_the_vampire"]  # Dee, by the Gremlin
        pages[3].screenshot(path=str(shots / "vampire-end.png"))


def test_an_alien_game_the_oracle_the_aliens_look_together_the_cow_and_the_psychic(
    browser: Any, shots: Path
) -> None:
    """Seed 3 draws the Oracle's "join the werewolves?", the aliens' "look at one card
    together" and the Psychic's "one player with an odd number" -- the voice says them
    and the phones play them. The Oracle says no, and every phone hears it at dawn; the
    aliens both choose Dee and both see the Cow; Cy's phone taps the Cow's fist; the
    Psychic looks at Ann. Bo, an alien, is voted out: the village wins."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["oracle", "alien", "alien", "cow", "psychic"]
    with held_game("onuw") as (live, clock):
        voice = live.voice
        pages = seat_phones(browser, live, names)
        start(live, pages, cards, ["exposer", "blob", "rascal"], seed=3)
        assert live.table.game().seed == 3  # the voice's script: the engine's draw
        heard: list[Any] = []
        check = alike(live, pages)

        def before(step: Step) -> None:
            check(step)
            if live.table.desk is not None:
                heard.append(live.table.desk.script)  # the night the voice plays

        play_night(
            live,
            pages,
            clock,
            {
                "oracle": {0: ["no"]},
                "alien": {1: ["seat:4"], 2: ["seat:4"]},
                "psychic": {4: ["seat:1"]},
            },
            before=before,
        )
        spoken = {c.role: c.text for c in heard[0].choices}  # in the phones' words
        assert spoken["oracle"].startswith(
            "Oracle, do you want to join the werewolves? Tap yes or no on your phone."
        )
        assert spoken["alien"].startswith(
            "Everyone, answer your phone. Aliens, each of you tap a player who is not an alien;"
        )
        assert spoken["psychic"] == (
            "On your phone, you may tap one other player with an odd number to see their card;"
            " your phone offers only those."
        )
        wait_phase(live, pages, "Day")
        journal = {i: [x["text"] for x in live.table.journal.get(i, [])] for i in range(5)}
        assert journal[0][0] == "Night 1: you answered: no."
        assert "Night 1: you looked at Dee: the Cow." in journal[1]
        assert "Night 1: you looked at Dee: the Cow." in journal[2]
        assert journal[3] == [  # the phones held out the fist and tapped it
            "Night 1: your phone held out your fist: an alien sits beside you, and their"
            " phone tapped it."
        ]
        assert "Night 1: your phone tapped the fist Dee held out, on your left." in journal[2]
        assert journal[4] == ["Night 1: you looked at Ann: the Oracle."]
        assert "The Oracle said no." in voice.said
        live.host("next")
        vote(live, pages, {0: 2, 1: 1, 2: 4, 3: 2, 4: 2}, "Vote")
        wait_phase(live, pages, "The end")
        reveal = live.state()["reveal"]
        assert reveal["winners"] == {"teams": ["village"], "seats": [1, 4, 5]}
        pages[0].screenshot(path=str(shots / "alien-end.png"))
