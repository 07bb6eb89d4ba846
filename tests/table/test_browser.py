"""The phone page in a real browser: Debian's headless Chromium driven by Playwright.

Six phones play a whole One Night game (join, deal, the card held, the night, the
vote, the reveal) and eight a Lupus day (a night victim, the accusation with the
Ghost, the defence, the secret ballot, the announcement). Each phone is its own
browser context (its own storage), at a phone's size, with touch. Screenshots go to
docs/table/ when NARRATOR_SCREENSHOTS=1, else to the test's temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.table import Options
from narrator.table.voice import silent_voice
from tests.table.live import Live, live_table

sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
DOCS = Path(__file__).resolve().parents[2] / "docs" / "table"

# Anything that could make a sound or buzz is replaced by a trap that counts calls.
TRAPS = """
window.__noise = 0;
navigator.vibrate = () => { window.__noise++; return false; };
window.AudioContext = window.webkitAudioContext = function () { window.__noise++; };
HTMLMediaElement.prototype.play = function () { window.__noise++; return Promise.reject(); };
"""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("no chromium: apt-get install chromium (scripts/test installs it)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    if os.environ.get("NARRATOR_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        return DOCS
    return tmp_path


def phone(browser: Any, url: str) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 780},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    context.add_init_script(TRAPS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(url)
    return page


def join(page: Any, name: str) -> None:
    page.fill("#name", name)
    page.click("#join-button")
    page.wait_for_selector(f"#who:text-matches('· {re.escape(name)}$')")


def wait_phase(live: Live, pages: list[Any], title: str) -> None:
    for page in pages:
        page.wait_for_selector(f"#title:text-is('{title}')")


def screen_text(page: Any) -> str:
    """What the phone shows, without its own seat and name in the corner."""
    return str(
        page.evaluate(
            "() => [...document.querySelectorAll('#play > :not(header)')].map(e => e.hidden ? '' : e.innerText).join('|')"
        )
    )


def hold_card(page: Any) -> str:
    box = page.locator("#card").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    try:
        return str(page.inner_text("#card"))
    finally:
        page.mouse.up()


def test_one_night_on_six_phones(browser: Any, shots: Path) -> None:
    names = ["Ann", "Bo", "<i>Cy</i>", "Dara", "سارا", "Flo"]
    with live_table("onuw", options=Options(vote_seconds=120)) as live:
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
        for seat, page in enumerate(pages, start=1):
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
        # the night: every phone shows the same screen, with nothing to press
        host.click("#next")
        wait_phase(live, pages, "Night")
        assert len({screen_text(p) for p in pages}) == 1
        for page in pages:
            assert page.locator("button:visible").count() == 0
        host.click("#next")
        wait_phase(live, pages, "Day")
        assert pages[0].locator("#card").is_hidden()  # One Night: no looking by day
        host.click("#next")
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
            assert all(f"{seat}. " in text and cards[seat] in text for seat in cards)
            assert "Winners" in text or "Nobody wins" in text
        assert pages[0].locator("#list i").count() == 0 and "<i>Cy</i>" in pages[0].inner_text(
            "#list"
        )
        said = live.voice.said
        assert any(x.endswith("The votes are in. Ann and Bo die.") for x in said)
        assert any(line.startswith("سارا had the") for line in said)
        assert all(p.evaluate("window.__noise") == 0 for p in pages)


def test_a_lupus_day_on_eight_phones(browser: Any, shots: Path) -> None:
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    voice = silent_voice()
    with live_table("lupus", voice=voice) as live:
        url = f"{live.base}/?room={live.table.room}"
        pages = [phone(browser, url) for _ in names]
        for page, name in zip(pages, names, strict=True):
            join(page, name)
        assert live.host("start")[0] == 200
        live.host("next")
        wait_phase(live, pages, "Night")
        assert live.host("eliminate", {"seat": 8})[0] == 200  # the wolves' victim
        live.host("next")
        wait_phase(live, pages, "Day")
        ghost = pages[7]
        ghost.wait_for_selector("body.ghost")
        assert "out of the game" in ghost.inner_text("#hint")
        assert voice.said[-1] == "Last night Hal left the game."
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
        wait_phase(live, pages, "Secret ballot")
        for page in (pages[1], pages[2], ghost):  # the suspects and the Ghost do not vote
            assert "no vote" in page.inner_text("#choices")
        for page, target in zip([pages[i] for i in (0, 3, 4, 5, 6)], [2, 2, 3, 2, 3], strict=True):
            page.click(f"#choices button[data-seat='{target}']")
        wait_phase(live, pages, "The verdict")
        assert voice.said[-1] == "By the votes of the village, Bo leaves the game."
        pages[1].wait_for_selector("body.ghost")
        assert "Bo (out)" in pages[0].inner_text("#list")
        assert all(p.evaluate("window.__noise") == 0 for p in pages)
