"""Phones in a real browser, for the tests of the phone and host pages: open a phone,
join, wait for a phase, and play a night on every phone with the voice's clock held
while a call's phones answer (the fixtures are in tests/table/conftest.py).

The night and the votes are tapped with `tap`: the finger goes where the button is
(scrolled into view, enabled, the topmost thing at its centre) and presses there
with the browser's own mouse events -- two calls to Playwright (a look, a press),
where its `click` makes about ten round trips to the page (it waits for two frames
to see the button still, and watches that the press lands on it). That is what made a game's night
slow on a busy machine: each round trip waits for the browser's processes to get
the CPU. `tap` is for a button nothing moves while the finger is on its way: at a
call nothing is added above a phone's options or its Done until it has answered (its
result, its group's picks come after), and a vote's tally is below its buttons. Where
a page may change under the finger, a test uses Playwright's `click`."""

from __future__ import annotations

import random
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from narrator.moderator import Step
from narrator.session import PhaseEvent
from narrator.table import Options, Table
from narrator.table.night import NightDesk
from narrator.table.voice import silent_voice
from tests.support.clock import RunningClock
from tests.support.wait import wait_until
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


# Where a finger would press `selector`: the element scrolled into view, its centre
# once it is shown, enabled and the topmost element there (what a press on it would
# hit) -- looked for at each frame, until `patience` ms have passed: then why not.
AIM = """async ([selector, patience]) => {
  const until = performance.now() + patience;
  for (;;) {
    const e = document.querySelector(selector);
    let why = "not on the page";
    if (e) {
      e.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = r.width && r.height ? document.elementFromPoint(x, y) : null;
      if (!r.width || !r.height || getComputedStyle(e).visibility !== "visible") why = "not shown";
      else if (e.disabled) why = "disabled";
      else if (hit !== e && !e.contains(hit)) why = "under " + (hit ? hit.outerHTML.slice(0, 80) : "nothing");
      else return [x, y];
    }
    if (performance.now() > until) return why;
    await new Promise((frame) => requestAnimationFrame(frame));
  }
}"""


# What a phone shows, for a failure: its prompt's id and every button's text.
SHOWN = """() => "the phone shows " + JSON.stringify({
  prompt: typeof promptId === "undefined" ? null : promptId,
  buttons: [...document.querySelectorAll("#choices button")].map(
    (b) => (b.dataset.option || b.dataset.seat || b.id) + (b.disabled ? " (disabled)" : "")),
})"""


def tap(page: Any, selector: str, where: str = "") -> None:
    """A finger pressed on the button `selector` (a CSS selector), with the browser's
    own mouse events at its centre, once it is there to press: for a button that stays
    where it is until the press (see the module). It fails, saying why (and `where`,
    and what the phone shows), if the button never is."""
    aim = page.evaluate(AIM, [selector, PATIENCE])
    if not isinstance(aim, list):
        shown = page.evaluate(SHOWN)
        raise AssertionError(
            f"cannot tap {selector} {where} in {PATIENCE / 1000:g} s: {aim}; {shown}"
        )
    page.mouse.click(aim[0], aim[1])


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


class CallHolds:
    """The calls a held clock was held at, in order, as (night, step id); its lock
    makes a hold and `release_between_calls` one after the other, never interleaved
    (a hold placed while the test decided to let the voice run on was let go)."""

    def __init__(self, clock: RunningClock) -> None:
        self.clock = clock
        self.calls: list[tuple[int, str]] = []
        self.lock = threading.Lock()

    def hold(self, night: int, step_id: str, again: bool = False) -> None:
        """Hold the clock at call `step_id`, once (`again`: even if held there before)."""
        with self.lock:
            if (night, step_id) in self.calls and not again:
                return
            if (night, step_id) not in self.calls:
                self.calls.append((night, step_id))
            self.clock.hold()

    def release_between_calls(self, table: Table, answered: list[str]) -> None:
        """Let the voice run on, unless it is held at a call of tonight's not yet
        `answered` that the server is opening."""
        with self.lock:
            night, coming = self.calls[-1] if self.calls else (0, "")
            desk = table.desk
            if (
                night == table.night
                and coming not in answered
                and (desk is None or coming not in desk.closed)
            ):
                return
            self.clock.release()


_HOLDS: weakref.WeakKeyDictionary[RunningClock, CallHolds] = weakref.WeakKeyDictionary()


def hold_at_every_call(live: Live, clock: RunningClock) -> None:
    """Hold the voice's clock at every call until the test has let every phone answer
    (`play_night`). It is held on the voice's own thread, the moment the voice is on a
    step of the call: the server opens the call's window a moment later, and a call
    lasts about 150 ms of a voice 60 times as fast -- on a busy machine the server
    was that late, the voice past the call before it opened, and the call was never
    made. It is held too as a window opens on the server's thread, whatever opened it."""
    table, voice = live.table, live.voice
    holds = _HOLDS.setdefault(clock, CallHolds(clock))
    opened = table.night_at

    def night_at(index: int) -> bool:
        changed = opened(index)
        desk = table.desk
        if changed and desk is not None and desk.open is not None:
            holds.hold(table.night, desk.open.step.id, again=True)
        return changed

    def on_step(event: PhaseEvent) -> None:
        desk, step = table.desk, event.state.step
        if event.kind not in ("segment", "step") or desk is None or step is None:
            return
        index = step + voice.first  # the script's own step (a night resumed mid-way)
        for window in desk.windows:
            if window.first <= index <= window.last:
                holds.hold(table.night, window.step.id)

    table.night_at = night_at  # type: ignore[method-assign]
    voice.session.subscribe(on_step)


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
    everyone else the decoy's first options. Every phone shows the prompt before any
    phone answers it. `before(step)` runs while the call is held open, before any
    phone answers; `after(step)` once every phone has answered, the call still open.
    Returns the calls' ids, in order."""
    called: list[str] = []
    holds = _HOLDS.get(clock) or CallHolds(clock)
    deadline = time.monotonic() + 120
    while live.table.phase == "night" and time.monotonic() < deadline:
        desk = live.table.desk
        window = desk.open if desk is not None else None
        if desk is None or window is None or window.step.id in called:
            # between calls the voice runs on -- unless held at one the server is opening
            holds.release_between_calls(live.table, called)
            time.sleep(0.005)
            continue
        step = window.step
        called.append(step.id)
        if before is not None:
            before(step)
        answer_call(desk, pages, step, picks.get(step.role, {}))
        if after is not None:
            after(step)
        clock.release()
    assert live.table.phase != "night", "the night never ended"
    return called


# A decoy's answer, or a holder's who chooses nothing: the first options, as few as
# make one of the prompt's ways to answer (what the page's own check lets Done send).
FIRST_OPTIONS = """() => {
  const p = view.me.prompt, ids = p.options.map((o) => o.id);
  for (let n = 1; n <= ids.length; n++) if (answers(p, ids.slice(0, n))) return ids.slice(0, n);
  return null;
}"""


def answer_call(
    desk: NightDesk, pages: list[Any], step: Step, chosen: dict[int, list[str] | list[list[str]]]
) -> None:
    """Every phone answers each prompt of the open call `step` (see `play_night`), the
    voice held: each prompt on every phone's screen first, then every answer, then
    the server has them all."""
    asked = [i for i in range(len(pages)) if desk.prompt(i) is not None]
    # (a call nobody chooses at -- the Insomniac looks at her card -- asks no phone)
    for k in range(desk.rounds(step)):
        expected = step.id if k == 0 else f"{step.id}/{k + 1}"
        for i in asked:  # every phone alike: this very prompt on the screen
            pages[i].wait_for_function("id => promptId === id", arg=expected)
        for i in asked:
            mine = chosen.get(i) or []
            rounds = mine if mine and isinstance(mine[0], list) else [mine]
            options = rounds[k] if k < len(rounds) else []
            if not options:
                options = pages[i].evaluate(FIRST_OPTIONS)
                assert options, f"phone {i}: no first options answer {expected}"
            where = f"phone {i} at {expected} ({step.role}), to answer {options}"
            for option in options:
                tap(pages[i], f"#choices button[data-option='{option}']", where)
            tap(pages[i], "#send", where)

        # until the server has them (the clock is held: the call stays open)
        wait_until(
            lambda k=k, asked=asked: all(answered(desk, step, i, k) for i in asked),
            PATIENCE / 1000,
            f"every answer to {expected}",
        )
        # a group's pick counts once, whatever the rounds
        asked = [i for i in asked if desk.answered.get((step.id, i), 0) > k]


def answered(desk: NightDesk, step: Step, i: int, k: int) -> bool:
    """Whether the server has phone `i`'s answer to prompt `k` of `step`: a group's
    pick (the wolves' victim), which may change until the call ends, is in the
    group's picks, not counted as an answer."""
    return desk.answered.get((step.id, i), 0) > k or i in desk.engine.group_picks(step)


def vote(live: Live, pages: list[Any], targets: dict[int, int], phase: str) -> None:
    """Each listed phone taps the seat it votes for, in a round titled `phase` (the
    buttons stay put while others vote: the tally is in the list below them)."""
    wait_phase(live, [pages[i] for i in targets], phase)
    for i, seat in targets.items():
        tap(pages[i], f"#choices button[data-seat='{seat}']")


def deal(live: Live, pages: list[Any], cards: list[str]) -> None:
    """The seated phones deal a deck of exactly `cards`, set in that order."""
    roles: dict[str, int] = {}
    for card in cards:
        roles[card] = roles.get(card, 0) + 1
    assert live.host("start", {"roles": roles})[0] == 200
    rig(live, cards, [])
    wait_phase(live, pages, "Look at your card")
