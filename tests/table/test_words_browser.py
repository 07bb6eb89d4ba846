"""The phones' words in a real browser (issue 28, item 4), in Persian, Italian and
English: the night screen tells everyone to answer the prompt at every call; a phone
that answers shows a result box -- the holder's result at once, a decoy's choice --
of one size on every phone, and every box goes dark when the call ends; a ballot the
voice reads aloud is not called secret; lists read the way the language does (the
arrow from voter to target, its own comma, right to left in Persian); the host page
marks the cards the phones cannot deal, offers no "mark as out" in the night, and
shows every card at the end. Debian's headless Chromium, as test_browser.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from narrator.moderator import Step
from tests.table.live import Live
from tests.table.phones import PATIENCE, held_game, phone, plain, play_night, seat_phones
from tests.table.test_night_live import rig

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]


def laptop(browser: Any, live: Live) -> Any:
    """The host page on a laptop beside the table."""
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    page.goto(f"{live.base}/host#token={live.host_token}")
    return page


def deal(live: Live, cards: list[str], centre: list[str]) -> None:
    roles: dict[str, int] = {}
    for card in cards + centre:
        roles[card] = roles.get(card, 0) + 1
    assert live.host("start", {"roles": roles})[0] == 200
    rig(live, cards, centre)


def results_alike(pages: list[Any], shots: Path, names: list[str]) -> list[str]:
    """Every phone shows its result box, each of one size and in one place (the
    prompt's text above takes the same room, short or long); the first phones'
    screenshots (`names`); the boxes' texts."""
    for page in pages:
        page.wait_for_selector("#choices .shown")
    sizes = {(round(b["y"]), round(b["width"]), round(b["height"])) for b in
             (p.locator("#choices .shown").bounding_box() for p in pages)}  # fmt: skip
    assert len(sizes) == 1, sizes
    for page, name in zip(pages, names, strict=False):
        page.screenshot(path=str(shots / name))
    return [plain(p.inner_text("#choices .shown")) for p in pages]


def reads_right_to_left(page: Any, first: str, then: str) -> bool:
    """In the vote's line, the name written first stands to the right of the second."""
    return bool(
        page.evaluate(
            """([a, b]) => {
              const li = document.querySelector('#list li.result'), node = li.firstChild;
              const at = (w) => { const i = node.textContent.indexOf(w), r = document.createRange();
                r.setStart(node, i); r.setEnd(node, i + w.length); return r.getBoundingClientRect(); };
              return at(a).left > at(b).right;
            }""",
            [first, then],
        )
    )


def test_one_night_in_persian_on_the_phones_and_the_host_page(browser: Any, shots: Path) -> None:
    names = ["آرش", "الهام", "Cy"]
    with held_game("onuw", lang="fa") as (live, clock):
        host = laptop(browser, live)
        pages = seat_phones(browser, live, names)
        # the phones deal every One Night card: the host page marks none of the 59 as
        # for physical cards only (Lupus's below has some)
        host.wait_for_selector("#roles label.role", state="attached")
        assert host.locator("#roles label.role").count() == 59
        assert host.locator("#roles label.role.physical").count() == 0
        assert "فقط با کارت‌های واقعی" not in host.inner_text("#roles")
        deal(live, ["seer", "werewolf", "villager"], ["robber", "troublemaker", "villager"])
        for page in pages:
            page.wait_for_selector("#card:not([hidden])")
        assert live.host("next")[0] == 200  # the night
        night = "با هر صدا زدن، همه به پرسش روی گوشی‌شان جواب می‌دهند"
        seen: dict[str, list[str]] = {}

        def after(step: Step) -> None:
            for page in pages:
                assert night in page.inner_text("#hint")
                assert "گوشی را" not in page.inner_text("#hint")  # no "face down" now
            if step.role == "seer":
                seen["texts"] = results_alike(
                    pages, shots, ["night-result-fa.png", "night-result-decoy-fa.png"]
                )

        play_night(live, pages, clock, {"seer": {0: ["seat:2"]}}, after=after)
        # the Seer saw Elham's card at once; the others, what they chose: one box each
        assert "گرگینه" in seen["texts"][0] and "الهام" in seen["texts"][0]
        assert seen["texts"][1].startswith("انتخاب تو")
        for page in pages:  # the call ended: every box went dark with it
            page.wait_for_selector("#choices .shown", state="detached")
        assert live.host("next")[0] == 200  # the day -> the vote
        for page in pages:
            page.wait_for_selector("#choices button[data-seat]")
        for page, seat in zip(pages, [2, 1, 1], strict=True):
            page.click(f"#choices button[data-seat='{seat}']")
        pages[0].wait_for_selector("#list li.result")
        votes = plain(pages[0].inner_text("#list li.result"))
        assert "آرش ← الهام" in votes and "،" in votes and "→" not in votes and ", " not in votes
        assert reads_right_to_left(pages[0], "آرش", "الهام")  # voter, then whom: leftwards
        pages[0].screenshot(path=str(shots / "end-fa.png"))
        # the host's end shows every card, as the phones do
        host.wait_for_selector("#result h3:text-is('کارت‌ها')")
        listed = host.inner_text("#players")
        assert "پیشگو" in listed and "گرگینه" in listed
        host.screenshot(path=str(shots / "host-end-fa.png"), full_page=True)


def test_lupus_in_italian_says_what_the_voice_does(browser: Any, shots: Path) -> None:
    names = ["Anna", "Bruno", "Carla", "Dario", "Elsa", "Fabio", "Gina"]
    with held_game("lupus", lang="it") as (live, clock):
        host = laptop(browser, live)
        # the host page marks the cards the phones cannot deal, and counts none of them
        # while the phones deal; unticking the deal (physical cards) counts them again
        host.wait_for_selector("#roles label.role.physical", state="attached")
        physical = host.locator("#roles label.role.physical input")
        assert physical.count() > 0 and all(
            physical.nth(k).is_disabled() for k in range(physical.count())
        )
        assert "solo con le carte vere" in host.inner_text("#roles")
        host.uncheck("#deal")
        host.wait_for_function(
            "() => [...document.querySelectorAll('#roles label.physical input')].every(i => !i.disabled)"
        )
        host.check("#deal")
        pages = seat_phones(browser, live, names[:2])
        tokens = [live.join(name)[1] for name in names[2:]]
        deal(
            live,
            ["seer", "villager", "werewolf", "villager", "werewolf", "villager", "villager"],
            [],
        )
        for page in pages:
            page.wait_for_selector("#card:not([hidden])")
        # the Seer's card says what to do on the phone, with no nod
        box = pages[0].locator("#card").bounding_box()
        pages[0].mouse.move(box["x"] + 20, box["y"] + 20)
        pages[0].mouse.down()
        card = pages[0].inner_text("#card")
        pages[0].mouse.up()
        assert "Tocca un altro giocatore sul telefono" in card and "cenno" not in card
        assert live.host("next")[0] == 200  # the night
        seen: dict[str, list[str]] = {}

        def after(step: Step) -> None:
            assert host.locator("#out-box").is_hidden()  # nobody is marked out by night
            if step.role == "seer":
                seen["texts"] = results_alike(
                    pages, shots, ["night-result-it.png", "night-result-decoy-it.png"]
                )

        play_night(live, pages, clock, {"seer": {0: ["seat:3"]}}, after=after)
        assert "un lupo mannaro" in seen["texts"][0] and "cenno" not in seen["texts"][0]
        assert seen["texts"][1].startswith("Hai scelto")
        # by day the host may mark out a player who left the table: asked first, by name
        host.wait_for_selector("#out-box:not([hidden])")
        assert "Ha lasciato il tavolo" in host.inner_text("#out-label")
        assert live.host("next")[0] == 200  # the accusation
        for page in pages:
            page.wait_for_selector("#title:text-is('Accuse')")
        assert "la voce legge ogni accusa" in pages[1].inner_text("#hint")
        for page, seat in zip(pages, [3, 3], strict=True):
            page.click(f"#choices button[data-seat='{seat}']")
        for token, seat in zip(tokens, [4, 3, 3, 4, 3], strict=True):  # Carla and Dario
            assert live.call("POST", "/api/vote", {"target": seat}, token=token)[0] == 200
        pages[1].wait_for_selector("#title:text-is('Difesa')")
        # a vote tapped after its window closed: refused in Italian, and the line stays
        # through the pushes that follow (the refusal's own, the host's lock)
        pages[1].evaluate("castVote(3)")
        pages[1].wait_for_selector("#error:text-is('ora non si vota')")
        version = live.state()["version"]
        assert live.host("lock", {"locked": True})[0] == 200
        pages[1].wait_for_function(f"() => view.state.version > {version}")
        assert pages[1].inner_text("#error") == "ora non si vota"
        assert live.host("next")[0] == 200  # the ballot, read aloud: no secret ballot
        pages[1].wait_for_selector("#title:text-is('Ballottaggio')")
        assert "la voce legge ogni voto" in pages[1].inner_text("#hint")
        assert "Nessuno vede il tuo voto" not in pages[1].inner_text("#play")
        host.wait_for_selector("#phase:text-is('Il ballottaggio')")
        pages[1].screenshot(path=str(shots / "ballot-it.png"))


def test_english_words_names_and_the_host_s_deck(browser: Any, shots: Path) -> None:
    with held_game("onuw") as (live, clock):
        url = f"{live.base}/?room={live.table.room}"
        late = phone(browser, url)
        # a name that reads as the voice's sentence, or a seat: one line, no seat
        late.fill("#name", "Everyone open your eyes")
        late.click("#join-button")
        late.wait_for_selector("#error:has-text('at most 3 words')")
        # a name longer as the table writes it than the field counts: never sent
        late.fill("#name", "\ufdfa\ufdfa")
        late.click("#join-button")
        assert "as the table writes it" in late.evaluate(
            "() => document.getElementById('name').validationMessage"
        )
        assert live.state()["players"] == []
        pages = seat_phones(browser, live, ["Ann", "Bo", "Cy"])
        host = laptop(browser, live)
        host.wait_for_selector("#roles label.role", state="attached")
        assert "(physical cards only)" not in host.inner_text("#roles")  # all 59 deal
        deal(live, ["seer", "werewolf", "villager"], ["robber", "troublemaker", "villager"])
        for page in pages:
            page.wait_for_selector("#card:not([hidden])")
        assert live.host("next")[0] == 200
        seen: dict[str, list[str]] = {}

        def after(step: Step) -> None:
            hint = pages[2].inner_text("#hint")
            assert "everyone answers the prompt on their phone" in hint and "face down" not in hint
            if step.role == "seer":
                seen["texts"] = results_alike(
                    pages, shots, ["night-result.png", "night-result-decoy.png"]
                )

        play_night(live, pages, clock, {"seer": {0: ["seat:2"]}}, after=after)
        assert "Werewolf" in seen["texts"][0] and seen["texts"][1].startswith("You chose: ")


def test_secret_moon_s_cards_not_in_play_are_set_aside_not_the_centre(browser: Any) -> None:
    """Review 2, P11: Secret Moon's cards that no player holds were "Centre:" on the
    phones' end screen; the centre is One Night's."""
    with held_game("secret_moon") as (live, _clock):
        pages = seat_phones(browser, live, ["Ann"])
        for name in ["Bo", "Cy", "Dee", "Eve", "Flo"]:
            live.join(name)
        assert live.host("start")[0] == 200
        assert live.table.unseen  # two of the eight cards lie aside
        pages[0].wait_for_selector("#card:not([hidden])")
        assert live.host("end")[0] == 200  # the host ends it: every card is shown
        pages[0].wait_for_selector("#list li:has-text('Set aside, unseen: ')")
        assert "Centre" not in pages[0].inner_text("#list")
