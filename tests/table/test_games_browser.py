"""Whole games with nobody who knows the cards, on phones in a real browser.

Debian's headless Chromium (Playwright), one browser context per phone. The cards are
dealt by the phones (and set by the test, so it knows the story it expects); every
night's choice is made on the holder's phone when the voice opens its call, every
other phone answers a decoy, and the engine resolves the night, counts the day and
judges the end. The voice is the session's silent engine on a clock the test holds
still while the phones of an open call answer, so a slow browser never misses a call
(the windows themselves are the ones the night script makes).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from narrator.table import Table
from narrator.table.voice import silent_voice
from tests.support.clock import RunningClock
from tests.table.live import live_table
from tests.table.phones import (
    deal,
    held_game,
    play_night,
    seat_phones,
    vote,
    wait_phase,
)
from tests.table.test_night_live import rig
from tests.unit.helpers import ruleset

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser-games")]


def test_a_lupus_game_over_two_nights_to_the_humans_win(browser: Any, shots: Path) -> None:
    """The wolves agree on their phones, the Seer learns, the Bodyguard saves; the
    morning is named in Lupus's words; the Ghost accuses; the village wins."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Flo", "Gus"]
    cards = ["werewolf", "werewolf", "seer", "bodyguard", "villager", "villager", "villager"]
    with held_game("lupus") as (live, clock):
        voice = live.voice
        pages = seat_phones(browser, live, names)
        deal(live, pages, cards)
        live.host("next")
        wait_phase(live, pages, "Night")
        # night 1: both wolves pick Eve; the Bodyguard protects Eve; the Seer asks Ann
        play_night(
            live,
            pages,
            clock,
            {
                "werewolf": {0: ["seat:5"], 1: ["seat:5"]},
                "seer": {2: ["seat:1"]},
                "bodyguard": {3: ["seat:5"]},
            },
        )
        wait_phase(live, pages, "Day")
        assert voice.said[-1] == "Nobody left the game last night."
        assert all(s.alive for s in live.table.seats)
        journal = live.table.journal[2]
        assert journal[-1]["text"].startswith("Night 1: you asked about Ann: a werewolf")
        live.host("next")
        # day 1: five accuse Ann, the wolves Cy; told aloud voter by voter (the seed)
        vote(live, pages, {0: 3, 1: 3, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}, "Accusation")
        wait_phase(live, pages, "Defence")
        assert "Gus accuses Ann." in voice.said[-2]
        live.host("next")
        vote(live, pages, {1: 3, 3: 1, 4: 1, 5: 1, 6: 1}, "Ballot")
        wait_phase(live, pages, "The verdict")
        assert voice.said[-1] == "The village executes Ann: Ann is now a Ghost."
        live.host("next")
        wait_phase(live, pages, "Night")
        # night 2: Bo alone picks Cy; the Bodyguard guards Dee: Cy dies
        play_night(live, pages, clock, {"werewolf": {1: ["seat:3"]}, "bodyguard": {3: ["seat:4"]}})
        wait_phase(live, pages, "Day")
        assert voice.said[-1] == "The werewolves killed Cy in the night: Cy is now a Ghost."
        pages[2].wait_for_selector("body.ghost")
        live.host("next")
        # day 2: everyone, the Ghosts too, accuses Bo; the ballot executes him
        vote(live, pages, {0: 2, 1: 4, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, "Accusation")
        wait_phase(live, [pages[3]], "Defence")
        live.host("next")
        vote(live, pages, {4: 2, 5: 2, 6: 2}, "Ballot")
        wait_phase(live, pages, "The end")
        assert live.state()["reveal"]["winners"] == {"teams": ["humans"], "seats": [3, 4, 5, 6, 7]}
        pages[4].screenshot(path=str(shots / "lupus-end.png"))
        assert "Winners: " in pages[4].inner_text("#list")


def test_a_mafia_game_an_arrest_a_public_vote_a_secret_ballot_and_parity(
    browser: Any, shots: Path
) -> None:
    """The Torturer learns, the agents agree on an arrest on their phones (a Prisoner,
    alive but out of play), the public vote is told voter by voter, the ballot stays
    secret and its tie goes to the nearest to the last arrested; parity ends it."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["torturer", "gangster", "gangster", "agent", "agent"]
    with held_game("mafia_infiltrators") as (live, clock):
        voice = live.voice
        pages = seat_phones(browser, live, names)
        deal(live, pages, cards)
        live.host("next")
        wait_phase(live, pages, "Night")
        play_night(
            live,
            pages,
            clock,
            {"torturer": {0: ["seat:4"]}, "agent": {3: ["seat:2"], 4: ["seat:2"]}},
        )
        wait_phase(live, pages, "Day")
        assert voice.said[-1] == "Tonight the infiltrators arrested Bo: Bo is now a Prisoner."
        assert live.table.journal[0][-1]["text"].startswith(
            "Night 1: you asked about Dee: an agent"
        )
        live.host("next")
        # the Prisoner accuses too; the public vote is told voter by voter
        vote(live, pages, {0: 4, 1: 4, 2: 4, 3: 1, 4: 1}, "Accusation")
        wait_phase(live, pages, "Defence")
        assert voice.said[-2].startswith("Ann accuses Dee.")
        live.host("next")
        pages[1].wait_for_selector("#choices:has-text('no vote')")  # the Prisoner: no ballot
        vote(live, pages, {2: 4, 4: 1}, "Secret ballot")  # 1-1: Ann is nearer to Bo
        wait_phase(live, pages, "The end")
        state = live.state()
        assert "votes" not in state["result"]  # the ballot stays secret
        assert "The family has decided: Ann is killed and becomes a Ghost." in voice.said
        assert state["reveal"]["winners"] == {"teams": ["infiltrators"], "seats": [4, 5]}


def test_a_wherewolf_game_the_aura_the_strongest_wolf_the_healer_and_the_stake(
    browser: Any, shots: Path
) -> None:
    """The Seer's aura, the Pack Leader's pick, the Healer who sees who was struck and
    saves her, a player burned with every other accusation on him, and the end at
    the next dawn."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["pack_leader", "seer", "healer", "villager", "villager"]
    with held_game("wherewolf") as (live, clock):
        voice = live.voice
        pages = seat_phones(browser, live, names)
        deal(live, pages, cards)
        live.host("next")
        wait_phase(live, pages, "Night")
        play_night(live, pages, clock, {"seer": {1: ["seat:1"]}})
        wait_phase(live, pages, "Day")
        assert live.table.journal[1][-1]["text"].endswith("a dark aura.")
        live.host("next")  # the assembly is over: the accusation
        vote(live, pages, {0: 4, 1: 5, 2: 4, 3: 5, 4: 4}, "Accusation")  # Dee 3, Eve 2
        wait_phase(live, pages, "Defence")
        live.host("next")
        vote(live, pages, {0: 4, 1: 5, 2: 5}, "Secret ballot")
        wait_phase(live, pages, "The verdict")
        assert voice.said[-1].startswith("Eve is burned at the stake")
        live.host("next")
        wait_phase(live, pages, "Night")
        play_night(live, pages, clock, {"werewolf": {0: ["seat:2"]}, "healer": {2: ["seat:2"]}})
        wait_phase(live, pages, "Day")
        assert voice.said[-1] == "Nobody left the game last night."
        assert live.table.journal[2][-1]["text"] == "Night 2: you protected Bo."
        live.host("next")
        vote(live, pages, {0: 2, 1: 1, 2: 1, 3: 1}, "Accusation")
        wait_phase(live, pages, "The verdict")
        assert voice.said[-1].startswith("Ann is burned at the stake")
        assert live.table.reveal is None  # judged at the start of the day
        live.host("next")
        wait_phase(live, pages, "Night")
        play_night(live, pages, clock, {})
        wait_phase(live, pages, "The end")
        assert live.state()["reveal"]["winners"] == {"teams": ["village"], "seats": [2, 3, 4, 5]}
        pages[1].screenshot(path=str(shots / "wherewolf-end.png"))


def test_a_one_night_game_the_doppelganger_the_drunk_and_the_insomniac(
    browser: Any, shots: Path
) -> None:
    """The Doppelganger copies the Seer and looks at once, on her phone (a second
    prompt every phone answers); the Drunk takes a centre card blind; the Insomniac
    sees her own card; the village votes out the werewolf and wins, the Doppelganger
    with it as the Seer she became."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["doppelganger", "werewolf", "drunk", "insomniac", "seer"]
    centre = ["robber", "villager", "werewolf"]
    with held_game("onuw") as (live, clock):
        pages = seat_phones(browser, live, names)
        deck = {"doppelganger": 1, "werewolf": 2, "drunk": 1, "insomniac": 1, "seer": 1,
                "robber": 1, "villager": 1}  # fmt: skip
        assert live.host("start", {"roles": deck})[0] == 200
        rig(live, cards, centre)
        wait_phase(live, pages, "Look at your card")
        live.host("next")
        wait_phase(live, pages, "Night")
        play_night(
            live,
            pages,
            clock,
            {
                "doppelganger": {0: [["seat:5"], ["seat:2"]]},
                "seer": {4: ["centre:1", "centre:2"]},
                "drunk": {2: ["centre:1"]},
            },
        )
        wait_phase(live, pages, "Day")
        journal = live.table.journal
        assert journal[0][:2] == [
            {"night": 1, "text": "Night 1: you looked at Eve's card: you are now the Seer."},
            {"night": 1, "text": "Night 1: you looked at Bo: the Werewolf."},
        ]
        assert any("your card is now the Insomniac" in x["text"] for x in journal[3])
        live.host("next")
        vote(live, pages, {0: 2, 1: 3, 2: 2, 3: 2, 4: 2}, "Vote")
        wait_phase(live, pages, "The end")
        reveal = live.state()["reveal"]  # seats from 1, as the phones read them
        assert reveal is not None and reveal["cards"]["3"] == "robber"  # the Drunk's swap
        assert reveal["unseen"][0] == "drunk"
        assert reveal["winners"] == {"teams": ["village"], "seats": [1, 3, 4, 5]}
        pages[0].screenshot(path=str(shots / "one-night-recap.png"))


def test_the_phone_page_is_read_aloud_and_grows_with_the_phone_s_font(
    browser: Any, shots: Path
) -> None:
    """Issue 15, accessible: every control has a name a screen reader says, the
    phase and the announcements are live regions, the side is a word, and the text
    is sized from the phone's own font size (rem), so a larger setting grows it."""
    with live_table("onuw") as live:
        pages = seat_phones(browser, live, ["Ann", "Bo", "Cy"])
        assert live.host("start")[0] == 200
        wait_phase(live, pages, "Look at your card")
        page = pages[0]
        unnamed = page.evaluate(
            """() => [...document.querySelectorAll('button, input')]
                 .filter(e => !e.hidden && e.offsetParent !== null)
                 .filter(e => !(e.innerText || '').trim() && !e.getAttribute('aria-label')
                              && !(e.labels && e.labels.length))
                 .map(e => e.id || e.outerHTML)"""
        )
        assert unnamed == []
        assert page.get_attribute("#said", "aria-live") == "polite"
        assert page.get_attribute("#title", "aria-live") == "polite"
        size = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
        page.evaluate("() => { document.documentElement.style.fontSize = '24px'; }")
        bigger = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
        assert bigger == pytest.approx(size * 1.5)  # 16px -> 24px root: every text grows
        box = page.locator("#card").bounding_box()
        page.mouse.move(box["x"] + 20, box["y"] + 20)
        page.mouse.down()
        team = page.inner_text("#card .team")
        page.mouse.up()
        assert team.strip() and team.strip() in live.state()["team_names"].values()


def test_secret_moon_s_three_rounds_on_the_phones_and_the_princess_wins(
    browser: Any, shots: Path
) -> None:
    """Three rounds of turns played on the phones, each round called by the voice
    with its first turn card; nobody captures the Minister or the Princess, so when
    the last round ends the Princess's side wins."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    cards = ["princess", "priestess", "minister", "guard", "guard"]
    clock = RunningClock(20)
    voice = silent_voice(clock=clock)
    with live_table(
        table=Table(ruleset("secret_moon"), "en", rng=random.Random(0)), voice=voice
    ) as live:
        live.table.pace = 0.2
        pages = seat_phones(browser, live, names)
        assert live.host("start")[0] == 200
        rig(live, cards, ["wanderer", "guard"])
        live.host("next")
        wait_phase(live, pages, "Day")  # the night: the Princess meets nobody
        for round_ in (1, 2, 3):
            assert live.state()["round"] == round_
            assert f"Round {round_} of three" in voice.said[-1]
            assert voice.said[-1].endswith("Card 1, your turn; choose your action on your phone.")
            page = pages[round_]  # Bo, then Cy, then Dee: a look at a card set aside
            page.click("button[data-action='inspect']")
            page.click(f"button[data-option='centre:{1 + round_ % 2}']")
            page.click("#play-turn")
            pages[0].wait_for_selector(f"#said:has-text('{names[round_]} secretly inspects')")
            pages[4].click("button[data-action='pass']")
            pages[4].click("#play-turn")
            pages[0].wait_for_selector("#said:has-text('Eve passes.')")
            assert (
                voice.said[-1] == "Eve passes. Card 3, your turn; choose your action on your phone."
            )
            live.host("next")
        wait_phase(live, pages, "The end")
        assert any("The last round is over." in line for line in voice.said[-3:])
        reveal = live.state()["reveal"]
        assert reveal is not None and reveal["winners"] == {"teams": ["red"], "seats": [1, 2]}
