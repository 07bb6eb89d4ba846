"""The phone page in a real browser: Debian's headless Chromium driven by Playwright.

Six phones play a whole One Night game (join, deal, the card held, the night, the
vote, the reveal) and eight a Lupus day (a night victim, the accusation with the
Ghost, the defence, the secret ballot, the announcement). Each phone is its own
browser context (its own storage), at a phone's size, with touch. Screenshots go to
docs/table/ when NARRATOR_SCREENSHOTS=1, else to the test's temporary folder.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from narrator.moderator import Step
from narrator.table import Options, Table
from narrator.table.voice import silent_voice
from tests.support.clock import RunningClock
from tests.table.live import live_table
from tests.table.phones import (
    PATIENCE,
    go_on,
    held_game,
    hold_at_every_call,
    hold_card,
    join,
    phone,
    play_night,
    seat_phones,
    wait_phase,
)
from tests.table.test_night_live import rig
from tests.unit.helpers import ruleset

sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")

# One Chromium per module (tests/table/conftest.py): one worker runs them under xdist
# (see tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]


def test_one_night_on_six_phones(browser: Any, shots: Path) -> None:
    names = ["Ann", "Bo", "<i>Cy</i>", "Dara", "سارا", "Flo"]
    clock = RunningClock(20)  # the voice fast, and still at its first call (every phone sees it)
    options = Options(vote_seconds=120)
    with live_table("onuw", options=options, voice=silent_voice(clock=clock)) as live:
        hold_at_every_call(live, clock)
        url = f"{live.base}/?room={live.table.room}"
        pages = [phone(browser, url) for _ in names]
        assert pages[0].input_value("#room") == live.table.room
        pages[0].fill("#name", "Ann")
        pages[0].screenshot(path=str(shots / "join.png"))
        for page, name in zip(pages, names, strict=True):
            join(page, name)
        # the host page sees them arrive, and deals the recommended deck
        host = phone(browser, f"{live.base}/host#token={live.host_token}")
        host.wait_for_selector("#players li:nth-child(6)")
        assert (
            "<i>Cy</i>" in host.inner_text("#players") and host.locator("#players i").count() == 0
        )
        host.click("#start")
        wait_phase(live, pages, "Look at your card")
        cards = {
            s.seat: live.table.ruleset.role(s.card or "").name.get("en") for s in live.table.seats
        }
        for seat, page in enumerate(pages):
            # the card's name is nowhere in the page until it is held
            assert cards[seat] not in page.inner_text("#card")
            held = hold_card(page)
            assert cards[seat] in held and ("Village" in held or "Werewolves" in held)
            assert cards[seat] not in page.inner_text("#card")
        box = pages[1].locator("#card").bounding_box()
        pages[1].mouse.move(box["x"] + 20, box["y"] + 20)
        pages[1].mouse.down()
        pages[1].screenshot(path=str(shots / "card.png"))
        pages[1].mouse.up()
        # the night: every phone gets a prompt of the same kind at the same moment
        # (the host taps in the phase its own page shows: each wait is for that page)
        host.wait_for_selector("#phase:text-is('Everyone looks at their card')")
        go_on(host)
        wait_phase(live, pages, "Night")
        for page in pages:
            page.wait_for_selector("#choices .prompt")
        assert len({p.locator("#choices button:visible").count() for p in pages}) == 1
        host.wait_for_selector("#phase:text-is('Night 1')")
        go_on(host)
        wait_phase(live, pages, "Day")
        assert pages[0].locator("#card").is_hidden()  # One Night: no looking by day
        host.wait_for_selector("#phase:text-is('Day 1')")
        go_on(host)
        wait_phase(live, pages, "Vote")
        targets = [2, 1, 2, 2, 1, 1]  # Bo and Ann tie on three: both die
        for page, target in zip(pages[:-1], targets, strict=False):
            page.click(f"#choices button[data-seat='{target}']")
            page.wait_for_selector(f"#choices button[data-seat='{target}'][aria-pressed='true']")
        pages[0].screenshot(path=str(shots / "vote.png"))
        for page in pages:  # nobody sees a vote before the reveal
            assert "voted" in page.inner_text("#list") and live.table.result is None
        pages[-1].click("#choices button[data-seat='1']")
        wait_phase(live, pages, "The end")
        for page in pages:
            text = page.inner_text("#list")
            assert all(f"{seat + 1}. " in text and cards[seat] in text for seat in cards)
            assert "Winners" in text or "Nobody wins" in text
        assert pages[0].locator("#list i").count() == 0 and "<i>Cy</i>" in pages[0].inner_text(
            "#list"
        )
        said = live.voice.said
        assert any(x.endswith("The votes are in. Ann and Bo die.") for x in said)
        assert any(line.startswith("سارا had the") for line in said)
        assert all(p.evaluate("window.__noise") == 0 for p in pages)


def test_a_one_night_night_answered_on_five_phones(browser: Any, shots: Path) -> None:
    """Nobody knows the cards: the Robber robs on her phone, the Troublemaker swaps,
    the Seer looks, the others answer decoys; the end shows the cards after and as
    dealt, and the winners follow the cards after the night."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    with held_game("onuw", pace=0.1, options=Options(vote_seconds=120)) as (live, clock):
        pages = seat_phones(browser, live, names)
        deck = {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 3}
        assert live.host("start", {"roles": deck})[0] == 200
        cards = ["robber", "werewolf", "seer", "troublemaker", "villager"]
        rig(live, cards, ["werewolf", "villager", "villager"])
        wait_phase(live, pages, "Look at your card")
        live.host("next")
        wait_phase(live, pages, "Night")
        shot: list[str] = []

        def look(step: Step) -> None:
            """While the Robber's call is held open: Ann's real prompt, and Bo's decoy
            beside it, alike but for the words. The Troublemaker's Done waits for two
            players (the server would refuse one, with a line she must read)."""
            if step.role == "troublemaker":
                dee = pages[3]
                dee.wait_for_function("id => promptId === id", arg=step.id)
                assert dee.locator("#send").is_enabled()  # nothing: she may swap no one
                dee.click("#choices button[data-option='seat:1']")
                assert dee.locator("#send").is_disabled()  # one player is no swap
                dee.click("#choices button[data-option='seat:1']")  # untick: as it was
            if step.role != "robber":
                return
            for page in pages[:2]:
                page.wait_for_function("id => promptId === id", arg=step.id)
            real, decoy = pages[0], pages[1]
            assert "Robber" in real.inner_text("#choices .prompt")
            options = "#choices button[data-option]"
            assert real.locator(options).count() == decoy.locator(options).count()
            real.screenshot(path=str(shots / "night-prompt.png"))
            decoy.screenshot(path=str(shots / "night-decoy.png"))
            shot.append(step.id)

        play_night(
            live,
            pages,
            clock,
            {
                "robber": {0: ["seat:2"]},  # Ann robs Bo
                "troublemaker": {3: ["seat:2", "seat:3"]},  # Dee swaps Bo and Cy
                "seer": {2: ["seat:1"]},  # Cy looks at Ann
            },
            before=look,
        )
        assert shot
        wait_phase(live, pages, "Day")
        # Ann the Robber took a card and learned it: in her journal, held only
        box = pages[0].locator("#journal").bounding_box()
        pages[0].mouse.move(box["x"] + 20, box["y"] + 20)
        pages[0].mouse.down()
        journal = pages[0].inner_text("#journal")
        pages[0].screenshot(path=str(shots / "journal.png"))
        pages[0].mouse.up()
        assert "Night 1" in journal and "Night 1" not in pages[0].inner_text("#journal")
        engine = live.table.engine
        assert engine is not None
        assert any(e.kind == "swap_own" and e.seat == 0 for e in engine.log)  # Ann robbed
        assert any(e.kind == "swap" and e.seat == 3 for e in engine.log)  # Dee swapped two
        live.host("next")
        wait_phase(live, pages, "Vote")
        for i, page in enumerate(pages):  # Bo (seat 2) votes for Ann, the rest for Bo
            page.click(f"#choices button[data-seat='{1 if i == 1 else 2}']")
        wait_phase(live, pages, "The end")
        text = pages[0].inner_text("#list")
        assert "Dealt: " in text  # the cards as dealt, beside the cards after the night
        pages[0].screenshot(path=str(shots / "recap.png"))
        reveal = live.state()["reveal"]  # as the phones read it: seats from 1
        assert reveal is not None and reveal["dealt"]["1"] == "robber"
        assert reveal["cards"]["1"] == engine.seats[0].card.identity
        # Ann robbed Bo's werewolf, Dee swapped Bo (now the Robber) and Cy (the Seer):
        # Bo dies holding the Seer, Ann holds a werewolf: the werewolves win
        assert [reveal["cards"][k] for k in "123"] == ["werewolf", "seer", "robber"]
        assert reveal["winners"]["teams"] == ["werewolves"]
        assert all(p.evaluate("window.__noise") == 0 for p in pages)


def test_an_answer_whose_reply_comes_after_the_next_call_leaves_that_call_its_buttons(
    browser: Any,
) -> None:
    """The last answer to a call and the next call cross on the way: the server has
    every answer and moves on, and the next call's push reaches the phone before the
    reply to its answer. The phone then shows the new call's buttons, unanswered (the
    page once took the late reply as the answer to the new call: a prompt with no
    buttons, and a player who could not act -- seen once in a run of the suite)."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    with held_game("onuw", pace=0.1) as (live, clock):
        pages = seat_phones(browser, live, names)
        deck = {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 3}
        assert live.host("start", {"roles": deck})[0] == 200
        rig(live, ["robber", "werewolf", "seer", "troublemaker", "villager"],
            ["werewolf", "villager", "villager"])  # fmt: skip
        wait_phase(live, pages, "Look at your card")
        live.host("next")
        wait_phase(live, pages, "Night")
        ann = pages[0]
        held: list[tuple[Any, Any]] = []  # Ann's first answer: at the server, its reply held

        def hold_the_first_reply(route: Any) -> None:
            if held:
                route.continue_()
            else:
                held.append((route, route.fetch()))

        ann.route("**/api/act", hold_the_first_reply)
        crossed: list[str] = []

        def cross(step: Step) -> None:
            """The second call that asks Ann, held open: its push is on her phone, then
            the reply to her first answer comes in."""
            if not held or crossed or live.table.desk is None:
                return
            if live.table.desk.prompt(0) is None:
                return
            ann.wait_for_function("id => promptId === id", arg=step.id)
            route, reply = held[0]
            with ann.expect_request(lambda r: r.url.endswith("/api/me")):
                route.fulfill(response=reply)  # the page goes on: it looks again
            assert ann.evaluate("[promptId, sent]") == [step.id, False]
            assert ann.locator("#choices button[data-option]").count() > 0
            crossed.append(step.id)

        play_night(live, pages, clock, {}, before=cross)
        assert held and crossed, "no second call asked Ann"
        wait_phase(live, pages, "Day")


def test_a_lupus_day_on_eight_phones(browser: Any, shots: Path) -> None:
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    # the ballot told voter by voter, fast; the night held still until every phone
    # has shown it (a night at 20 times its pace is over in seconds, and the voice's
    # end of the night moves the table on to the day: a slow browser missed the night)
    clock = RunningClock(20)
    voice = silent_voice(clock=clock)
    with live_table("lupus", voice=voice) as live:
        pages = seat_phones(browser, live, names)
        assert live.host("start")[0] == 200
        # the deal (live_table's seed) keeps a wolf in play after Hal's and Bo's
        # deaths: the day ends in a verdict, not in the village's win
        wolves = {s.seat for s in live.table.seats if s.card == "werewolf"}
        assert wolves - {1, 7}, wolves  # Bo and Hal: seats 2 and 8
        clock.hold()
        live.host("next")
        wait_phase(live, pages, "Night")
        # the cards are on the phones: the night's deaths are the engine's, not the
        # host's (review 2, N11); nobody answers, and the host ends the night early
        assert live.host("eliminate", {"seat": 8})[0] == 409
        live.host("next")
        clock.release()
        wait_phase(live, pages, "Day")
        # by day the host marks out Hal, who left the table; the voice says so
        assert live.host("eliminate", {"seat": 8})[0] == 200
        ghost = pages[7]
        ghost.wait_for_selector("body.ghost")
        assert "out of the game" in ghost.inner_text("#hint")
        assert voice.said[-1] == "Hal has left the table, and is out of the game."
        # a phone that reloads is back in its seat, nothing lost
        pages[2].reload()
        pages[2].wait_for_selector("#who:has-text('Cy')")
        assert pages[2].locator("#join").is_hidden()
        live.host("next")
        wait_phase(live, pages, "Accusation")
        # everyone accuses, the Ghost too; Bo 3, Cy 3 -> both suspects
        accusations = [2, 3, 2, 3, 2, 3, 1, 1]
        ghost.wait_for_selector("#choices button")
        ghost.screenshot(path=str(shots / "ghost.png"))
        for page, target in zip(pages, accusations, strict=True):
            page.click(f"#choices button[data-seat='{target}']")
        wait_phase(live, pages, "Defence")
        assert "Bo" in pages[0].inner_text("#hint") and "Cy" in pages[0].inner_text("#hint")
        assert voice.said[-1].startswith("The suspects are Bo and Cy")
        live.host("next")
        wait_phase(live, pages, "Ballot")  # Lupus's ballot is read aloud: no secret
        for page in (pages[1], pages[2], ghost):  # the suspects and the Ghost do not vote
            assert "no vote" in page.inner_text("#choices")
        for page, target in zip([pages[i] for i in (0, 3, 4, 5, 6)], [2, 2, 3, 2, 3], strict=True):
            page.click(f"#choices button[data-seat='{target}']")
        wait_phase(live, pages, "The verdict")
        # the ballot is told voter by voter, then the verdict in Lupus's own words
        assert voice.said[-2].startswith("Ann votes against Bo.")
        assert voice.said[-1] == "The village executes Bo: Bo is now a Ghost."
        pages[1].wait_for_selector("body.ghost")
        assert "Bo (out)" in pages[0].inner_text("#list")
        assert all(p.evaluate("window.__noise") == 0 for p in pages)


# Counts the writes to the page's clock from now on (a MutationObserver on #clock).
CLOCK_WRITES = """() => {
  window.clockWrites = 0;
  new MutationObserver((seen) => { window.clockWrites += seen.length; }).observe(
    document.getElementById("clock"), { childList: true, characterData: true, subtree: true });
}"""


def test_a_phone_s_clock_is_written_only_when_its_text_changes(browser: Any) -> None:
    """A phone lies on the table all evening, its page ticking its clock twice a second:
    the clock is written when what it shows changes -- never in the lobby, where no
    clock runs, and once a second through the day's discussion (the page's own clock
    run ten seconds on at once)."""
    with live_table("onuw") as live:
        ann, *_ = seat_phones(browser, live, ["Ann", "Bo", "Cy"])
        ann.clock.install()
        ann.reload()
        ann.wait_for_selector("#who:text-matches('· Ann$')")
        ann.evaluate(CLOCK_WRITES)
        ann.clock.run_for(10_000)
        assert ann.evaluate("() => clockWrites") == 0
        assert live.host("start")[0] == 200
        for _ in range(2):  # cards -> night -> day
            assert live.host("next")[0] == 200
        ann.wait_for_selector("#clock:text-matches('^[0-9]+:[0-9]{2}$')")
        ann.evaluate("() => { clockWrites = 0; }")
        ann.clock.run_for(10_000)
        assert 9 <= ann.evaluate("() => clockWrites") <= 11


def test_a_double_tap_on_go_on_moves_one_phase_and_ending_asks_first(browser: Any) -> None:
    """Each host command names the phase it was pressed in: the second tap of a double
    tap reaches a table that moved on, is refused (409) and changes nothing. "End the
    game" shows every card, so it asks first; saying no changes nothing."""
    with live_table("onuw") as live:
        pages = seat_phones(browser, live, ["Ann", "Bo", "Cy"])
        host = phone(browser, f"{live.base}/host#token={live.host_token}")
        host.clock.install()  # the page's own clock, which the test may stop
        host.reload()
        host.wait_for_selector("#players li:nth-child(3)")
        host.click("#start")
        wait_phase(live, pages, "Look at your card")
        host.dblclick("#next")  # two clicks as fast as a thumb: cards -> night, once
        wait_phase(live, pages, "Night")
        # the second request is answered (refused) -- then the table must still be at night
        host.wait_for_selector("#error:has-text('moved on')")  # no eval: the page's CSP
        assert live.table.phase == "night"
        assert "moved on" in host.inner_text("#error")
        # The race a fast table wins: the new phase reaches the page between the two
        # taps. The page's clock stopped, the second tap comes "at once" after the
        # first, though the page already shows the day: it counts for the night.
        host.clock.pause_at(time.time() + 3600)
        host.click("#next")  # night -> day
        host.wait_for_selector("#phase:has-text('Day')")
        host.click("#next")
        host.wait_for_selector("#error:has-text('moved on from “Night 1” (now: “Day 1”)')")
        assert live.table.phase == "day"
        asked: list[str] = []

        def answer(dialog: Any, accept: bool) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        host.once("dialog", lambda d: answer(d, False))
        host.click("#end")
        deadline = time.monotonic() + PATIENCE / 1000
        while not asked and time.monotonic() < deadline:  # the dialog comes in its time
            host.wait_for_timeout(50)
        assert asked == ["End the game now? Every card will be shown to everyone."]
        host.wait_for_timeout(300)  # time for a wrong request to land: none comes
        assert live.table.phase == "day"
        host.once("dialog", lambda d: answer(d, True))
        host.click("#end")
        wait_phase(live, pages, "The end")
        assert live.table.phase == "end"


def test_a_host_command_without_its_phase_or_from_an_old_phase_changes_nothing() -> None:
    with live_table("onuw") as live:
        for name in ("Ann", "Bo", "Cy"):
            live.join(name)
        host = live.host_token
        assert live.call("POST", "/api/host/start", {}, token=host)[0] == 200
        assert live.call("POST", "/api/host/next", {}, token=host)[0] == 400
        assert live.call("POST", "/api/host/next", {"from": "cards"}, token=host)[0] == 200
        status, body = live.call("POST", "/api/host/next", {"from": "cards"}, token=host)
        assert status == 409 and "moved on from “Everyone looks at their card”" in str(body)
        assert live.call("POST", "/api/host/end", {"from": "lobby"}, token=host)[0] == 409
        assert live.table.phase == "night"


def test_a_secret_moon_round_played_on_six_phones(browser: Any, shots: Path) -> None:
    """Secret Moon with the cards dealt by the phones (audit 3, finding 30): on their
    turn a Guard inspects a card in the centre (only she learns it, in her journal),
    Ann questions Dee, who answers as the Minister and is shown, and the Wanderer
    captures him: the engine ends the game and every phone shows the winners."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Flo"]
    voice = silent_voice(clock=RunningClock(20))
    table = Table(ruleset("secret_moon"), "en", rng=random.Random(0))
    table.pace = 0.1
    with live_table(table=table, voice=voice) as live:
        pages = seat_phones(browser, live, names)
        assert live.host("start")[0] == 200
        cards = ["princess", "wanderer", "priestess", "minister", "guard", "guard"]
        rig(live, cards, ["guard", "guard"])
        live.host("next")
        wait_phase(live, pages, "Day")  # the night (the Princess and the Wanderer meet)
        eve = pages[4]
        eve.click("button[data-action='inspect']")
        eve.click("button[data-option='centre:1']")
        eve.screenshot(path=str(shots / "secret-moon-turn.png"))
        eve.click("#play-turn")
        for page in pages:
            page.wait_for_selector("#said:has-text('Eve secretly inspects centre card 1.')")
        assert all("Guard" not in page.inner_text("#said") for page in pages)
        box = eve.locator("#journal").bounding_box()
        eve.mouse.move(box["x"] + 20, box["y"] + 20)
        eve.mouse.down()
        assert "you looked at centre card 1: the Guard" in eve.inner_text("#journal")
        eve.mouse.up()
        pages[0].click("button[data-action='interrogate']")
        pages[0].click("button[data-option='seat:4']")
        pages[0].click("#play-turn")
        for page in pages:
            page.wait_for_selector("#said:has-text('Dee answers: I am the Minister.')")
        pages[1].click("button[data-action='capture']")
        pages[1].click("button[data-option='seat:4']")
        pages[1].click("#play-turn")
        wait_phase(live, pages, "The end")
        assert "Winners: " in pages[2].inner_text("#list")
        assert live.table.reveal is not None and live.table.reveal.winners.teams == ("red",)
        assert all(p.evaluate("window.__noise") == 0 for p in pages)
