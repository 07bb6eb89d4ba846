"""The night on the phones over the network: a real server on loopback, the
session's night (silent engine on a fast clock), real WebSocket phones.

The leak test records every frame and every /api/state answer from every phone
during the night: the same prompt ids and the same number of pushes on every phone
whatever its card, a public state that changes only in its clock, and a night as long
with the Robber in the centre as with the Robber dealt. A phone that never answers
and a phone that reloads mid-night do not stop the game."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import aiohttp

from narrator.moderator import Game as Engine
from narrator.table import Table
from narrator.table.voice import silent_voice
from tests.table.live import Live, live_table
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Dee"]
DECK = {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 2}
SPEED = 12.0  # the fast clock: a night of a minute passes in a few seconds


class FastClock:
    def __init__(self, speed: float = SPEED) -> None:
        self.start = time.monotonic()
        self.speed = speed

    def now(self) -> float:
        return self.start + (time.monotonic() - self.start) * self.speed


def rig(live: Live, cards: list[str], centre: list[str]) -> None:
    t = live.table
    for seat, card in zip(t.seats, cards, strict=True):
        seat.card = card
    t.unseen = centre
    t.engine = Engine.deal(t.ruleset, [s.name for s in t.seats], cards, centre)


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
    with live_table(table=table, voice=silent_voice(clock=FastClock())) as live:
        tokens = [live.join(n)[1] for n in NAMES]
        assert live.host("start", {"roles": DECK})[0] == 200
        rig(live, cards, centre)
        frames: list[list[dict[str, Any]]] = [[] for _ in NAMES]
        states: list[dict[str, Any]] = []
        prompts: list[list[str | None]] = [[] for _ in NAMES]
        answers: list[list[tuple[int, list[str]]]] = [[] for _ in NAMES]
        stop = asyncio.Event()

        async def run() -> float:
            tasks = [
                asyncio.create_task(phone(live, tok, frames[i], stop))
                for i, tok in enumerate(tokens)
            ]
            await asyncio.sleep(0.3)
            started = time.monotonic()
            assert live.host("next")[0] == 200  # cards -> night
            while live.table.phase == "night":
                states.append((await asyncio.to_thread(live.call, "GET", "/api/state"))[1])
                for i, tok in enumerate(tokens):
                    _, me = await asyncio.to_thread(live.call, "GET", "/api/me", None, tok)
                    p = me["prompt"]
                    prompts[i].append(None if p is None else p["id"])
                    if answer and p is not None and i != 3:  # Dee never answers
                        way = p["ways"][0]
                        ids = [o["id"] for o in p["options"]]
                        pick = [x for x in ids if x.startswith("seat:")][: way["seat"]]
                        pick += [x for x in ids if x.startswith("centre:")][: way["centre"]]
                        status, body = await asyncio.to_thread(
                            live.call, "POST", "/api/act", {"prompt": p["id"], "choose": pick}, tok
                        )
                        answers[i].append((status, sorted(body)))
                await asyncio.sleep(0.05)
            length = time.monotonic() - started
            await asyncio.sleep(0.5)
            stop.set()
            await asyncio.gather(*tasks)
            return length

        length = asyncio.run(run())
        assert live.table.phase in ("day", "vote"), live.voice.errors
        mes = [live.call("GET", "/api/me", token=tok)[1] for tok in tokens]
        return {
            "length": length,
            "frames": frames,
            "states": states,
            "prompts": prompts,
            "answers": answers,
            "mes": mes,
            "engine": live.table.engine,
        }


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
        # every answer (real or decoy) had the same shape
        # every answer (real or decoy) had the same shape; a 409 only when the window
        # closed between the phone's look and its answer (a race of the fast clock)
        flat = [a for ans in run["answers"] for a in ans]
        assert all(status in (200, 409) for status, _ in flat)
        assert sum(status == 200 for status, _ in flat) > len(flat) // 2
        assert len({tuple(k) for status, k in flat if status == 200}) == 1
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
    with live_table(table=table, voice=silent_voice(clock=FastClock(8))) as live:
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
            mes = [live.call("GET", "/api/me", token=tok)[1] for tok in tokens]
            ids = {None if m["prompt"] is None else m["prompt"]["id"] for m in mes}
            if len(ids) == 1 and None not in ids and not seen:
                pid = next(iter(ids))
                seen.add(str(pid))

                async def reload() -> dict[str, Any]:  # a fresh socket, as a reloaded page
                    async with aiohttp.ClientSession() as session:
                        url = live.base.replace("http", "ws") + "/ws?token=" + tokens[2]
                        async with session.ws_connect(url) as ws:
                            msg = await ws.receive(timeout=5)
                            return dict(json.loads(msg.data))

                first = asyncio.run(reload())
                assert first["me"]["prompt"] is None or first["me"]["prompt"]["id"] == pid
                again = live.call("GET", "/api/me", token=tokens[2])[1]
                assert again["prompt"] is None or again["prompt"]["id"] in (pid, *ids)
            time.sleep(0.05)
        assert seen, "no window was seen open"
        waited = time.monotonic() + 30
        while live.table.phase == "night" and time.monotonic() < waited:
            time.sleep(0.1)
        assert live.table.phase in ("day", "vote")  # nobody answered; the game went on
