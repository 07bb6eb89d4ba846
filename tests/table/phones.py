"""Phones in a real browser, for the tests of the phone and host pages: open a phone,
join, wait for a phase, and play a night on every phone with the voice's clock held
while a call's phones answer (the fixtures are in tests/table/conftest.py)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from narrator.moderator import Step
from narrator.table import Options, Table
from narrator.table.voice import silent_voice
from tests.support.clock import RunningClock
from tests.table.live import Live, live_table
from tests.table.test_night_live import rig
from tests.unit.helpers import ruleset

# Anything that could make a sound or buzz is replaced by a trap that counts calls.
TRAPS = """
window.__noise = 0;
navigator.vibrate = () => { window.__noise++; return false; };
window.AudioContext = window.webkitAudioContext = function () { window.__noise++; };
HTMLMediaElement.prototype.play = function () { window.__noise++; return Promise.reject(); };
"""


# How long a page may take to show what the test waits for. Under xdist every burner
# shares one core (tests/conftest.py), and this Chromium shares it with a second
# browser and the fuzzers: a page has stalled for over 10 s there, then caught up.
PATIENCE = 30_000  # ms


def phone(browser: Any, url: str) -> Any:
    """A phone: its own browser context (its own storage), a phone's size, touch. The
    `browser` fixture closes it when the test ends."""
    context = browser.new_context(
        viewport={"width": 390, "height": 780},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    context.add_init_script(TRAPS)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    page.goto(url)
    return page


def go_on(host: Any) -> None:
    """The host taps "Go on" at a person's pace: a tap within half a second of the
    last is taken as the second tap of a double tap (host.js, DOUBLE_TAP)."""
    host.wait_for_timeout(550)
    host.click("#next")


def seat_phones(browser: Any, live: Live, names: Sequence[str]) -> list[Any]:
    """A phone for each name, joined at the live table, in that order."""
    url = f"{live.base}/?room={live.table.room}"
    pages = [phone(browser, url) for _ in names]
    for page, name in zip(pages, names, strict=True):
        join(page, name)
    return pages


def join(page: Any, name: str) -> None:
    page.fill("#name", name)
    page.click("#join-button")
    page.wait_for_selector(f"#who:text-matches('· {re.escape(name)}$')")


def wait_phase(live: Live, pages: list[Any], title: str) -> None:
    for page in pages:
        page.wait_for_selector(f"#title:text-is('{title}')")


def plain(text: str) -> str:
    """Text as read, without the isolates the pages put around each name in a list
    (FSI ... PDI: a name in another script keeps its place in the line)."""
    return text.replace("\u2068", "").replace("\u2069", "")


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


@contextmanager
def held_game(
    game: str, pace: float = 0.2, options: Options | None = None, lang: str = "en"
) -> Iterator[tuple[Live, RunningClock]]:
    """A live table of `game` in `lang` whose voice (silent, 60 times as fast) is held
    still at every call until the test lets it go (`play_night`), and that clock."""
    clock = RunningClock(60)
    table = Table(ruleset(game), lang, options=options or Options(), rng=random.Random(0))
    with live_table(table=table, voice=silent_voice(clock=clock)) as live:
        hold_at_every_call(live, clock)
        live.table.pace = pace
        yield live, clock


def hold_at_every_call(live: Live, clock: RunningClock) -> None:
    """Hold the voice's clock the moment a call's window opens (on the server's own
    thread, as the window opens), until the test has let every phone answer."""
    table = live.table
    opened = table.night_at

    def night_at(index: int) -> bool:
        changed = opened(index)
        if changed and table.desk is not None and table.desk.open is not None:
            clock.hold()
        return changed

    table.night_at = night_at  # type: ignore[method-assign]


def play_night(
    live: Live,
    pages: list[Any],
    clock: RunningClock,
    picks: dict[str, dict[int, list[str] | list[list[str]]]],
    before: Callable[[Step], None] | None = None,
    after: Callable[[Step], None] | None = None,
) -> list[str]:
    """The voice walks the night; at each call every phone answers each of the call's
    prompts: the holders of the role called with `picks[role][page index]` (a list of
    options, or one list per prompt when the call asks twice: the Doppelganger),
    everyone else the decoy's first option. `before(step)` runs while the call is
    held open, before any phone answers; `after(step)` once every phone has answered,
    the call still open. Returns the calls' ids, in order."""
    called: list[str] = []
    deadline = time.monotonic() + 120
    while live.table.phase == "night" and time.monotonic() < deadline:
        desk = live.table.desk
        window = desk.open if desk is not None else None
        if desk is None or window is None or window.step.id in called:
            clock.release()  # between calls the voice runs on
            time.sleep(0.01)
            continue
        step = window.step
        called.append(step.id)
        if before is not None:
            before(step)
        for i, page in enumerate(pages):
            chosen = picks.get(step.role, {}).get(i) or []
            rounds = chosen if chosen and isinstance(chosen[0], list) else [chosen]
            if desk.prompt(i) is None:
                continue  # a call nobody chooses at (the Insomniac looks at her card)
            for k in range(desk.rounds(step)):
                # every phone alike: wait until this very prompt is on the screen
                expected = step.id if k == 0 else f"{step.id}/{k + 1}"
                page.wait_for_function("id => promptId === id", arg=expected)
                options = rounds[k] if k < len(rounds) else []
                if options:
                    for option in options:
                        page.click(f"#choices button[data-option='{option}']")
                else:  # a decoy, or a holder who chooses nothing: the first options
                    buttons = page.locator("#choices button[data-option]")
                    buttons.first.click()
                    ticked = 1
                    while page.locator("#send").is_disabled():  # a prompt of two: two
                        buttons.nth(ticked).click()
                        ticked += 1
                page.click("#send")
                # until the server has it (the clock is held: the call stays open)
                deadline_answer = time.monotonic() + PATIENCE / 1000
                while desk.answered.get((step.id, i), 0) <= k:
                    if i in desk.engine.group_picks(step):
                        break  # a group's pick: it may change until the call ends
                    assert time.monotonic() < deadline_answer, (
                        f"phone {i} never answered {expected}"
                    )
                    time.sleep(0.02)
                if desk.answered.get((step.id, i), 0) <= k:
                    break  # a group's pick counts once, whatever the rounds
        if after is not None:
            after(step)
        clock.release()
    assert live.table.phase != "night", "the night never ended"
    return called


def vote(live: Live, pages: list[Any], targets: dict[int, int], phase: str) -> None:
    """Each listed phone taps the seat it votes for, in a round titled `phase`."""
    wait_phase(live, [pages[i] for i in targets], phase)
    for i, seat in targets.items():
        pages[i].click(f"#choices button[data-seat='{seat}']")


def deal(live: Live, pages: list[Any], cards: list[str]) -> None:
    """The seated phones deal a deck of exactly `cards`, set in that order."""
    roles: dict[str, int] = {}
    for card in cards:
        roles[card] = roles.get(card, 0) + 1
    assert live.host("start", {"roles": roles})[0] == 200
    rig(live, cards, [])
    wait_phase(live, pages, "Look at your card")
