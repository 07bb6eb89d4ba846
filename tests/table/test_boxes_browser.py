"""One Night's Daybreak and Bonus roles in whole games on phones in a real browser.

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
from tests.table.live import Live
from tests.table.phones import held_game, play_night, seat_phones, vote, wait_phase
from tests.table.test_night_live import rig

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser-games")]


def alike(live: Live, pages: list[Any]) -> Any:
    """A check run at every call, before any phone answers: every phone has the same
    prompt -- the same id, the same numbers to pick and of options -- or none."""

    def check(step: Step) -> None:
        desk = live.table.desk
        assert desk is not None
        shapes = set()
        for i in range(len(pages)):
            p = desk.prompt(i)
            shapes.add(None if p is None else (p["id"], p["min"], p["max"], len(p["options"])))
        assert len(shapes) == 1, f"{step.id} ({step.role}): the phones differ: {shapes}"

    return check


def start(live: Live, pages: list[Any], cards: list[str], centre: list[str]) -> None:
    deck: dict[str, int] = {}
    for card in cards + centre:
        deck[card] = deck.get(card, 0) + 1
    assert live.host("start", {"roles": deck})[0] == 200
    rig(live, cards, centre)
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
