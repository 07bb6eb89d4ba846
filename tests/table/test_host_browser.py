"""The host page in a real browser (Debian's headless Chromium, Playwright), beside
phones (issue 16): the door (QR code, lock), removing a player and the sitting order
before the deal, the deck grouped by side and box with its running count, phases in
words, the last vote's result, play again with the same seats; a seat moved to a new
phone mid-game when the host confirms; the page in Persian, right to left.
Screenshots of the host page go to docs/table/ with NARRATOR_SCREENSHOTS=1.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from narrator.table import Options, load_saved
from tests.table.live import Live, live_table
from tests.table.phones import (
    PATIENCE,
    go_on,
    hold_card,
    join,
    phone,
    plain,
    seat_phones,
    wait_phase,
)
from tests.unit.helpers import ruleset

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]


def laptop(browser: Any, live: Live) -> Any:
    """The host page on a laptop beside the table."""
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    page.goto(f"{live.base}/host#token={live.host_token}")
    return page


def host_and_three_phones(browser: Any, live: Live) -> tuple[str, Any, list[Any]]:
    """The join address, the host's laptop, and Ann, Bo and Cy joined on phones."""
    url = f"{live.base}/?room={live.table.room}"
    host = laptop(browser, live)
    pages = [phone(browser, url) for _ in range(3)]
    for page, name in zip(pages, ["Ann", "Bo", "Cy"], strict=True):
        join(page, name)
    return url, host, pages


def accept(dialog: Any) -> None:
    dialog.accept()


def test_the_host_page_from_the_lobby_to_play_again(browser: Any, shots: Path) -> None:
    with live_table("onuw", options=Options(vote_seconds=120)) as live:
        url, host, pages = host_and_three_phones(browser, live)
        others = {name: live.join(name)[1] for name in ("Dee", "Eli", "Flo", "Gus")}
        host.wait_for_selector("#players li:nth-child(7)")
        # the QR code is drawn by the table and shown
        host.wait_for_function("() => document.getElementById('qr').naturalWidth > 100")
        assert host.inner_text("#join") == url
        # one too many: removed before the deal (the page asks first)
        host.once("dialog", accept)
        host.click("#players li:nth-child(7) button.remove")
        host.wait_for_selector("#players li:nth-child(7)", state="detached")
        assert live.call("GET", "/api/me", token=others.pop("Gus"))[0] == 401
        host.wait_for_selector("#count:has-text('6 players · 9 cards: 6 dealt + 3 in the centre')")
        # the sitting order: Cy moves up one, and Cy's phone says seat 2
        host.click("#players li:nth-child(3) button[title='Move up: Cy']")
        pages[2].wait_for_selector("#who:text-is('Seat 2 · Cy')")
        host.wait_for_selector("#players li:nth-child(2) .name:text-is('Cy')")
        # locked: a newcomer gets one clear line
        host.click("#lock")
        host.wait_for_selector("#lock[aria-pressed='true']")
        late = phone(browser, url)
        late.fill("#name", "Hal")
        late.click("#join-button")
        late.wait_for_selector("#error:has-text('locked the table')")
        # the deck: grouped by side, each side's count beside it; boxes fold
        legends = host.locator("#roles legend").all_inner_texts()
        assert any(re.fullmatch(r"Village · \d+", x) for x in legends), legends
        assert host.locator("#roles details").count() >= 5
        assert host.inner_text("#phase") == "Waiting for players"
        host.screenshot(path=str(shots / "host-lobby.png"), full_page=True)

        host.click("#start")
        wait_phase(live, pages, "Look at your card")
        host.wait_for_selector("#phase:text-is('Everyone looks at their card')")
        assert "Next: the night" in host.inner_text("#next-hint")
        go_on(host)
        host.wait_for_selector("#phase:text-is('Night 1')")
        go_on(host)
        host.wait_for_selector("#phase:text-is('Day 1')")
        assert "Next: the vote" in host.inner_text("#next-hint")
        go_on(host)
        wait_phase(live, pages, "Vote")
        host.wait_for_selector("#progress:text-is('0 / 6 voted')")
        for page in pages:
            page.click("#choices button:text-is('Flo')")
        for name, token in others.items():
            target = 1 if name == "Flo" else 6
            assert live.call("POST", "/api/vote", {"target": target}, token=token)[0] == 200
        host.wait_for_selector("#phase:text-is('The end')")
        result = plain(host.inner_text("#result"))
        assert "Ann → Flo" in result and "Flo → Ann" in result, result
        assert "Leaves the game: Flo" in result
        host.screenshot(path=str(shots / "host-end.png"), full_page=True)
        # each phone says whether its player won (review P11)
        reveal = live.state()["reveal"]  # as the phones read it: seats from 1
        assert reveal is not None and reveal["judged"]
        for page, seat in zip(pages, [1, 3, 2], strict=True):
            own = "You won." if seat in reveal["winners"]["seats"] else "You lost."
            page.wait_for_selector(f"#list li.verdict-own:text-is('{own}')")
        assert "Votes: Ann → Flo" in plain(pages[1].inner_text("#list li.result"))  # review P5
        pages[0].screenshot(path=str(shots / "end.png"))

        # play again: the same room, phones and seats; deal again
        host.click("#again")
        wait_phase(live, pages, "Waiting for the host to deal")
        for seat, (page, name) in enumerate(zip(pages, ["Ann", "Bo", "Cy"], strict=True)):
            expected = {"Ann": 1, "Cy": 2, "Bo": 3}[name]
            assert page.inner_text("#who") == f"Seat {expected} · {name}", seat
        host.wait_for_selector("#phase:text-is('Waiting for players')")
        assert host.locator("#result").is_hidden() and host.locator("#again").is_hidden()
        assert live.table.room in url
        host.click("#start")
        wait_phase(live, pages, "Look at your card")
        assert all(s.card for s in live.table.seats)


def test_a_player_moved_to_a_new_phone_mid_game(browser: Any, shots: Path) -> None:
    with live_table("onuw", options=Options(vote_seconds=120)) as live:
        url, host, pages = host_and_three_phones(browser, live)
        host.wait_for_selector("#players li:nth-child(3)")
        host.click("#start")
        wait_phase(live, pages, "Look at your card")
        go_on(host)
        host.wait_for_selector("#phase:text-is('Night 1')")
        go_on(host)
        wait_phase(live, pages, "Day")
        card = live.table.seats[1].card  # seat 2's
        # Bo's phone lost its token (another browser): joining again is refused...
        new = phone(browser, url)
        new.fill("#name", "Bo")
        new.click("#join-button")
        new.wait_for_selector("#error:has-text('the game has started')")
        # ...so the new phone asks for Bo's seat, and shows a code
        new.click("#claim-open")
        new.click("#claim-seats button:text-is('2. Bo')")
        new.wait_for_selector("#claim-wait:has-text('Show the host this code')")
        code = re.search(r"\d{4}", new.inner_text("#claim-wait"))
        assert code is not None
        # the host page shows the request with the name and the code, never a card
        host.wait_for_selector("#claims .claim")
        request = host.inner_text("#claims")
        assert "Bo" in request and code.group() in request
        shown = host.evaluate(  # all but the game's own name (One Night Ultimate Werewolf)
            "[...document.querySelectorAll('main > :not(h1)')].map(e => e.checkVisibility() ? e.innerText : '').join('|')"
        )
        assert live.table.ruleset.role(card or "").name.get("en") not in shown
        host.screenshot(path=str(shots / "host-claim.png"), full_page=True)
        new.screenshot(path=str(shots / "claim.png"))
        host.click("#claims button.confirm")
        new.wait_for_selector("#who:text-is('Seat 2 · Bo')")
        new.wait_for_selector("#title:text-is('Day')")
        host.wait_for_selector("#claims", state="hidden")
        # the old phone's token stopped working: it is back at the join page
        pages[1].wait_for_selector("#join-form", state="visible")
        token = new.evaluate(f"localStorage.getItem('narrator-table-{live.table.room}')")
        me = live.call("GET", "/api/me", token=token)[1]
        assert me["seat"] == 2 and me["name"] == "Bo" and live.table.seats[1].card == card
        # and the new phone plays on: it votes
        go_on(host)
        wait_phase(live, [pages[0], pages[2], new], "Vote")
        new.click("#choices button:text-is('Ann')")
        new.wait_for_selector("#choices button[aria-pressed='true']:text-is('Ann')")
        assert live.table.ballot == {1: 0}  # seat 2 voted for seat 1 (indices from 0)


def test_the_host_page_in_persian(browser: Any, shots: Path) -> None:
    with live_table("onuw", "fa", options=Options(vote_seconds=120)) as live:
        for name in ("سارا", "Bo", "نیما", "Dee", "Eli"):
            live.join(name)
        asked = live.call("POST", "/api/claim", {"room": live.table.room, "seat": 4})[1]
        host = laptop(browser, live)
        host.wait_for_selector("#players li:nth-child(5)")
        assert host.evaluate("document.documentElement.dir") == "rtl"
        assert host.evaluate("document.documentElement.lang") == "fa"
        assert host.inner_text("#phase") == "در انتظار بازیکنان"
        host.wait_for_selector("#count:has-text('۸ کارت'), #count:has-text('8 کارت')")
        assert "در وسط" in host.inner_text("#count")
        assert asked["code"] in host.inner_text("#claims") and "جایگاه" in host.inner_text(
            "#claims"
        )
        assert host.inner_text("#start") == "پخش کارت‌ها و شروع"
        legends = " ".join(host.locator("#roles legend").all_inner_texts())
        assert "Village" not in legends and "Werewolves" not in legends
        host.screenshot(path=str(shots / "host-fa.png"), full_page=True)
        host.click("#claims button.refuse")
        host.click("#start")
        host.wait_for_selector("#phase:text-is('هر کس کارت خود را می‌بیند')")
        assert "بعدی: شب" in host.inner_text("#next-hint")


def test_an_old_host_link_says_what_to_do(browser: Any) -> None:
    """Review H20: a restarted table gives the host a new token; the old page says so
    instead of retrying forever. Before anyone joins, the count says the range."""
    with live_table("onuw") as live:
        host = laptop(browser, live)
        host.wait_for_selector("#count:text-is('0 players · this game is for 3 to 10 players')")

        async def restart() -> None:
            live.table.seats.new_host_token()
            for ws in list(live.server.sockets):
                await ws.close()

        loop = live.service._loop
        assert isinstance(loop, asyncio.AbstractEventLoop)
        asyncio.run_coroutine_threadsafe(restart(), loop).result(5)
        host.wait_for_selector("#error:has-text('This host link is no longer valid')")


def test_a_restarted_table_opens_when_a_second_phone_is_back(
    browser: Any, shots: Path, tmp_path: Path
) -> None:
    """Issue 16, item 4: the saved game is sealed. After a restart the first phone back
    and the host page say the game waits for one more player; the second phone back
    opens it, and each phone holds the card it held before."""
    path = tmp_path / "game.json"
    with live_table("onuw", save_path=path) as live:
        port = int(live.base.rsplit(":", 1)[1])
        pages = seat_phones(browser, live, ["Ann", "Bo", "Cy"])
        assert live.host("start")[0] == 200
        wait_phase(live, pages, "Look at your card")
        held = [hold_card(page) for page in pages]
        assert all(held)
    for page in pages[1:]:
        page.goto("about:blank")  # Bo and Cy look away; their tokens stay on their phones
    pages[0].wait_for_selector("#error:has-text('Connection lost')")
    table = load_saved(path, ruleset("onuw"))
    with live_table(table=table, save_path=path, port=port) as live:
        ann = pages[0]
        ann.wait_for_selector("#hint:has-text('one more player opens this page')")
        assert live.table.seats[0].card is None and ann.locator("#card").is_hidden()
        ann.screenshot(path=str(shots / "sealed-phone.png"))
        host = laptop(browser, live)
        host.wait_for_selector("#next-hint:has-text('still needed: 1')")
        assert host.locator("#next").is_disabled() and host.locator("#end").is_disabled()
        host.screenshot(path=str(shots / "sealed-host.png"))
        pages[1].goto(f"{live.base}/?room={live.table.room}")  # Bo is back: it opens
        pages[1].wait_for_selector("#title:text-is('Look at your card')")
        ann.wait_for_function(
            "() => !document.getElementById('hint').innerText.includes('restarted')"
        )
        assert [hold_card(page) for page in pages[:2]] == held[:2]
        host.wait_for_selector("#next:enabled")
        assert live.host("next")[0] == 200  # the game goes on
        wait_phase(live, pages[:2], "Night")
