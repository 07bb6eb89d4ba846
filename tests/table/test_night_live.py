"""The night on the phones over the network: a real server on loopback, the
session's night (silent engine on a fast clock), real WebSocket phones.

The leak test records every frame and every /api/state answer from every phone
during the night: the same prompt ids and the same number of pushes on every phone
whatever its card, a public state that changes only in its clock, and a night as long
with the Robber in the centre as with the Robber dealt. A phone that never answers
and a phone that reloads mid-night do not stop the game.

The voice's clock is held at each call until every phone has seen it: the test
checks what the phones are shown, not whether a busy machine polls them in time."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import aiohttp

from narrator.moderator import Game as Engine
from narrator.session import PhaseEvent
from narrator.table import Table
from narrator.table.voice import silent_voice
from tests.support.clock import RunningClock
from tests.support.wait import wait_until_async
from tests.table.live import Live, live_table
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Dee"]
DECK = {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 2}
SPEED = 12.0  # the fast clock: a night of a minute passes in a few seconds


class Held:
    """Holds the voice's clock as each call's window begins, on the voice's own thread
    (the server opens the window a moment later: a voice twelve times as fast was past
    a short window before every phone had seen it, on a busy machine). Notes when the
    night began and ended on that clock, not the machine's."""

    def __init__(self, live: Live, clock: RunningClock) -> None:
        self.table = live.table
        self.clock = clock
        self.ids: list[str] = []  # the calls held, in order
        self.started: float | None = None
        self.ended: float | None = None
        live.voice.session.subscribe(self._event)

    def _event(self, event: PhaseEvent) -> None:
        if event.state.phase != "night":
            return
        if self.started is None:
            self.started = self.clock.now()
        if event.kind == "finished":
            self.ended = self.clock.now()
        desk, index = self.table.desk, event.state.step
        if event.kind not in ("segment", "step") or desk is None or index is None:
            return
        for window in desk.windows:
            if window.first <= index <= window.last and window.step.id not in self.ids:
                self.ids.append(window.step.id)
                self.clock.hold()

    def call(self) -> str | None:
        """The call the voice is held at, once the server has opened its window."""
        desk = self.table.desk
        if not self.clock.held or desk is None or desk.open is None:
            return None
        step_id = desk.open.step.id
        return step_id if self.ids and step_id == self.ids[-1] else None

    @property
    def length(self) -> float:
        assert self.started is not None and self.ended is not None
        return self.ended - self.started


def rig(live: Live, cards: list[str], centre: list[str], seed: int | None = None) -> None:
    """The cards set by the test, and the seed the night's instructions are drawn
    from (the voice's script is built with it: `Flow.game`)."""
    t = live.table
    for seat, card in zip(t.seats, cards, strict=True):
        seat.card = card
    t.unseen = centre
    t.engine = Engine.deal(t.ruleset, [s.name for s in t.seats], cards, centre, seed=seed)


async def phone(live: Live, token: str, frames: list[dict[str, Any]], stop: asyncio.Event) -> None:
    async with aiohttp.ClientSession() as session:
        url = live.base.replace("http", "ws") + "/ws?token=" + token
        async with session.ws_connect(url) as ws:
            while not stop.is_set():
                try:
                    msg = await asyncio.wait_for(ws.receive(), 0.2)
                except TimeoutError:
                    continue
                if msg.type != aiohttp.WSMsgType.TEXT:
                    return
                frames.append({"len": len(msg.data), "view": json.loads(msg.data)})


def night(cards: list[str], centre: list[str], answer: bool = True) -> dict[str, Any]:
    """One One Night night, every phone recorded; returns what a watcher could see."""
    table = Table(ruleset("onuw"), "en")
    table.pace = 0.1
    clock = RunningClock(SPEED)
    with live_table(table=table, voice=silent_voice(clock=clock)) as live:
        held = Held(live, clock)
        tokens = [live.join(n)[1] for n in NAMES]
        assert live.host("start", {"roles": DECK})[0] == 200
        rig(live, cards, centre)
        frames: list[list[dict[str, Any]]] = [[] for _ in NAMES]
        states: list[dict[str, Any]] = []
        prompts: list[list[str | None]] = [[] for _ in NAMES]
        answers: list[list[tuple[int, list[str]]]] = [[] for _ in NAMES]
        stop = asyncio.Event()

        async def run() -> None:
            tasks = [
                asyncio.create_task(phone(live, tok, frames[i], stop))
                for i, tok in enumerate(tokens)
            ]
            await wait_until_async(lambda: all(frames))  # every phone is connected
            assert live.host("next")[0] == 200  # cards -> night
            deadline = time.monotonic() + 120
            while live.table.phase == "night" and time.monotonic() < deadline:
                states.append((await asyncio.to_thread(live.call, "GET", "/api/state"))[1])
                for i, tok in enumerate(tokens):
                    _, me = await asyncio.to_thread(live.call, "GET", "/api/me", None, tok)
                    p = me["prompt"]
                    pid = None if p is None else p["id"]
                    answered = pid is not None and pid in prompts[i]
                    prompts[i].append(pid)
                    if answer and p is not None and i != 3 and not answered:  # Dee never does
                        way = p["ways"][0]
                        ids = [o["id"] for o in p["options"]]
                        pick = [x for x in ids if x.startswith("seat:")][: way["seat"]]
                        pick += [x for x in ids if x.startswith("centre:")][: way["centre"]]
                        status, body = await asyncio.to_thread(
                            live.call, "POST", "/api/act", {"prompt": p["id"], "choose": pick}, tok
                        )
                        answers[i].append((status, sorted(body)))
                call = held.call()
                desk = live.table.desk
                if call is not None and (
                    all(p[-1] == call for p in prompts)
                    or (desk is not None and desk.prompt(0) is None)  # a call with no choice
                ):
                    clock.release()  # every phone saw this call (and answered): go on
                await asyncio.sleep(0.05)
            # the day's first push reached every phone: each saw the whole night
            await wait_until_async(lambda: all(any(is_day(f) for f in fs) for fs in frames))
            await wait_until_async(lambda: held.ended is not None)
            stop.set()
            await asyncio.gather(*tasks)

        asyncio.run(run())
        assert live.table.phase in ("day", "vote"), live.voice.errors
        mes = [live.call("GET", "/api/me", token=tok)[1] for tok in tokens]
        return {
            "length": held.length,
            "frames": [the_night(f) for f in frames],
            "states": states,
            "prompts": prompts,
            "answers": answers,
            "mes": mes,
            "engine": live.table.engine,
        }


def phase_of(frame: dict[str, Any]) -> Any:
    return frame["view"].get("state", {}).get("phase")


def is_day(frame: dict[str, Any]) -> bool:
    return phase_of(frame) in ("day", "vote")


def the_night(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A phone's pushes from the night's first to the day's first: every phone was
    connected for all of them (one before the night may have been on its way as the
    phones connected, and the day goes on pushing after)."""
    phases = [phase_of(f) for f in frames]
    first = phases.index("night")
    last = next(i for i in range(first, len(frames)) if is_day(frames[i]))
    return frames[first : last + 1]


def opened(ids: list[str | None]) -> list[str]:
    out: list[str] = []
    for i in ids:
        if i is not None and (not out or out[-1] != i):
            out.append(i)
    return out


def test_every_phone_alike_whatever_its_card_and_the_night_as_long_either_way() -> None:
    dealt = night(
        ["robber", "werewolf", "seer", "troublemaker"], ["werewolf", "villager", "villager"]
    )
    centre = night(
        ["villager", "werewolf", "seer", "troublemaker"], ["werewolf", "robber", "villager"]
    )
    for run in (dealt, centre):
        # every phone got the same number of pushes, each of one size
        counts = {len(f) for f in run["frames"]}
        assert len(counts) == 1 and counts != {0}, counts
        for k in range(len(run["frames"][0])):
            assert len({f[k]["len"] for f in run["frames"]}) == 1
        # the same prompt ids, in the same order, on every phone
        seq = {tuple(opened(p)) for p in run["prompts"]}
        assert len(seq) == 1 and len(next(iter(seq))) >= 3, seq
        # the public state changed only in its clock during the night
        still = [
            {k: v for k, v in s.items() if k not in ("remaining", "deadline")}
            for s in run["states"]
            if s["phase"] == "night"
        ]
        assert len(still) > 10
        assert all(s == still[0] for s in still)
        for frames in run["frames"]:
            night_views = [
                f["view"] for f in frames if f["view"].get("state", {}).get("phase") == "night"
            ]
            shared = [
                {k: v for k, v in v["state"].items() if k not in ("remaining", "deadline")}
                for v in night_views
            ]
            assert all(s == shared[0] for s in shared)
        # every answer (real or decoy) was taken, in the same shape (each was sent
        # while its call was held open)
        flat = [a for ans in run["answers"] for a in ans]
        assert flat and all(status == 200 for status, _ in flat), flat
        assert len({tuple(k) for _, k in flat}) == 1
    assert opened(dealt["prompts"][0]) == opened(centre["prompts"][0])
    assert abs(dealt["length"] - centre["length"]) < 0.25 * max(dealt["length"], centre["length"])
    # the dealt Robber (Ann) took someone's card and learned it, in her journal only
    ann = dealt["mes"][0]
    assert any("Night 1" in j["text"] for j in ann["journal"])
    assert dealt["engine"].seats[0].card.role != "robber"
    # Dee never answered: the night went on to the day all the same
    assert all(me["phase"] in ("day", "vote") for me in dealt["mes"])


def test_a_phone_reloaded_mid_night_gets_the_same_prompt_and_the_night_goes_on() -> None:
    table = Table(ruleset("onuw"), "en")
    table.pace = 0.1
    clock = RunningClock(8)
    with live_table(table=table, voice=silent_voice(clock=clock)) as live:
        held = Held(live, clock)
        tokens = [live.join(n)[1] for n in NAMES]
        assert live.host("start", {"roles": DECK})[0] == 200
        rig(
            live,
            ["robber", "werewolf", "seer", "troublemaker"],
            ["werewolf", "villager", "villager"],
        )
        assert live.host("next")[0] == 200
        seen: set[str] = set()
        deadline = time.monotonic() + 60
        while live.table.phase == "night" and time.monotonic() < deadline:
            pid = held.call()
            if pid is None:  # between calls: the voice runs on
                time.sleep(0.02)
                continue
            mes = [live.call("GET", "/api/me", token=tok)[1] for tok in tokens]
            ids = {None if m["prompt"] is None else m["prompt"]["id"] for m in mes}
            if ids == {pid} and not seen:  # the first call every phone is shown
                seen.add(pid)

                async def reload() -> dict[str, Any]:  # a fresh socket, as a reloaded page
                    async with aiohttp.ClientSession() as session:
                        url = live.base.replace("http", "ws") + "/ws?token=" + tokens[2]
                        async with session.ws_connect(url) as ws:
                            msg = await ws.receive(timeout=5)
                            return dict(json.loads(msg.data))

                # the call is held open: the reloaded page and its next look show it
                first = asyncio.run(reload())
                assert first["me"]["prompt"]["id"] == pid
                again = live.call("GET", "/api/me", token=tokens[2])[1]
                assert again["prompt"]["id"] == pid
            clock.release()  # nobody answers: the voice goes on
        assert seen, "no window was seen open"
        waited = time.monotonic() + 30
        while live.table.phase == "night" and time.monotonic() < waited:
            time.sleep(0.1)
        assert live.table.phase in ("day", "vote")  # nobody answered; the game went on
