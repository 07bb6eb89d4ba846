"""What a watcher of the Wi-Fi sees of each phone: the length of every push and every
answer, over a long game on a real server (review 2, L1 and L2).

`long_lupus` plays a Lupus table of many phones with long names over many nights:
the pack changes its picks again and again, the Seer asks every night, some days
accuse and vote; at every call the voice is held while each phone looks at its own
view (`/api/me`) and answers, then looks again. Every push each phone's WebSocket
receives is kept, and the bytes of every answer as they came over the socket
(status line, headers and body). `secret_moon_turns` plays Secret Moon's turns,
refused and taken. The tests (test_sizes.py) assert the lengths.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from narrator.table import Table
from narrator.table.voice import silent_voice
from tests.support.clock import RunningClock
from tests.table.live import Live, live_table
from tests.table.test_night_live import Held, rig
from tests.unit.helpers import ruleset

SPEED = 100.0  # the voice's clock: a night of a minute passes in a second or so


def long_names(count: int) -> list[str]:
    """`count` names of 24 characters each (the most a name may have, in its most
    words: three), with accents: more bytes than letters, as Italian names."""
    names = [f"Niccolò Bàrtolo Sùrdi{chr(97 + i // 26)}{chr(97 + i % 26)}o" for i in range(count)]
    assert all(len(n) == 24 and len(n.split()) == 3 for n in names)
    return names


@dataclass
class Phone:
    name: str
    seat: int = 0
    token: str = ""
    pushes: list[int] = field(default_factory=list)  # each push's bytes, in order
    phases: list[str] = field(default_factory=list)
    session: Any = None


@dataclass
class Record:
    """Every length a watcher could see, by moment: `pushes[i]` every phone's i-th
    push; `answers` a list of moments, each {what, phone: bytes} (a look at
    `/api/me` by every phone, one round of answers)."""

    pushes: list[list[int]] = field(default_factory=list)  # by phone
    answers: list[tuple[str, list[int]]] = field(default_factory=list)
    statuses: dict[str, set[int]] = field(default_factory=dict)
    nights: int = 0
    phases: list[str] = field(default_factory=list)


def wire_length(response: aiohttp.ClientResponse, body: bytes) -> int:
    """The bytes of an answer as it came over the socket: its status line, its
    headers and its body."""
    line = f"HTTP/1.1 {response.status} {response.reason}\r\n"
    headers = sum(len(k) + len(v) + 4 for k, v in response.raw_headers)
    return len(line) + headers + 2 + len(body)


class Table_:
    """The phones of one live table, from their own addresses, and the host."""

    def __init__(self, live: Live, names: list[str], record: Record) -> None:
        self.live = live
        self.phones = [Phone(n) for n in names]
        self.record = record
        self.host = {"Authorization": f"Bearer {live.host_token}"}
        self.tasks: list[asyncio.Task[None]] = []
        self.stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> Table_:
        for i, phone in enumerate(self.phones):
            connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + i}", 0))
            phone.session = await self.stack.enter_async_context(
                aiohttp.ClientSession(connector=connector)
            )
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self.tasks:
            task.cancel()
        await self.stack.aclose()

    async def call(
        self, phone: Phone | None, method: str, path: str, body: Any = None
    ) -> tuple[int, Any, int]:
        """A request as `phone` (None: the host): its status, its body and its length
        on the wire."""
        session = phone.session if phone is not None else self.phones[0].session
        headers = self.host if phone is None else {"Authorization": f"Bearer {phone.token}"}
        async with session.request(method, self.live.base + path, json=body, headers=headers) as r:
            raw = await r.read()
            return r.status, json.loads(raw or b"null"), wire_length(r, raw)

    async def join(self) -> None:
        for phone in self.phones:
            status, body, _ = await self.call(
                phone, "POST", "/api/join", {"name": phone.name, "room": self.live.table.room}
            )
            assert status == 200, body
            phone.seat, phone.token = body["player"], body["token"]

    async def listen(self) -> None:
        """Every phone's socket; back once each has its first view and one push more
        (so the pushes counted from then on are the same pushes on every phone)."""
        for phone in self.phones:
            url = self.live.base.replace("http", "ws") + "/ws?token=" + phone.token
            ws = await phone.session.ws_connect(url)
            self.tasks.append(asyncio.create_task(self._listen(ws, phone)))
        await until(lambda: all(p.pushes for p in self.phones))
        version = await self.marker()
        for phone in self.phones:  # from the push that says so on
            start = phone.phases.index(f"v{version}")
            del phone.pushes[:start], phone.phases[:start]

    async def marker(self) -> int:
        """A push every phone can tell from the others (the host locks or unlocks the
        table: a new version), once every phone has it; its version."""
        locked = self.live.table.seats.locked
        assert (await self.call(None, "POST", "/api/host/lock", {"locked": not locked}))[0] == 200
        version = self.live.table.version
        await until(lambda: all(f"v{version}" in p.phases for p in self.phones))
        return version

    @staticmethod
    async def _listen(ws: aiohttp.ClientWebSocketResponse, phone: Phone) -> None:
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                view = json.loads(msg.data)
                phone.pushes.append(len(msg.data.encode("utf-8")))
                phone.phases.append(f"v{view['state']['version']}")

    async def look(self, what: str) -> list[dict[str, Any]]:
        """Every phone looks at its own view, one after the other (nothing changes in
        between): one moment."""
        lengths, mes = [], []
        for phone in self.phones:
            status, me, length = await self.call(phone, "GET", "/api/me")
            assert status == 200, me
            lengths.append(length)
            mes.append(me)
        self.record.answers.append((what, lengths))
        return mes

    def answered(self, what: str, lengths: list[int], statuses: set[int]) -> None:
        self.record.answers.append((what, lengths))
        self.record.statuses.setdefault(what.split(" ")[0], set()).update(statuses)

    async def next(self) -> None:
        phase = self.live.table.phase
        status, body, _ = await self.call(None, "POST", "/api/host/next", {"from": phase})
        assert status == 200, body


async def until(done: Any, seconds: float = 30, what: str = "never came") -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def long_lupus(players: int = 12, nights: int = 9, changes: int = 4) -> Record:
    """A Lupus table in Italian of `players` phones with 24-character names, played
    for `nights` nights: the two werewolves change their picks `changes` times at
    every call (and mostly end apart: a tie kills nobody), the village kills on two
    days. Every length is kept (`Record`)."""
    names = long_names(players)
    cards = ["villager"] * players
    cards[1] = cards[players - 4] = "werewolf"
    cards[3], cards[4], cards[5] = "seer", "medium", "bodyguard"
    table = Table(ruleset("lupus"), "it", rng=random.Random(7))
    table.pace = 0.1
    clock = RunningClock(SPEED)
    record = Record()
    with live_table(table=table, voice=silent_voice(clock=clock)) as live:
        held = Held(live, clock)
        asyncio.run(_long_lupus(live, held, clock, names, cards, nights, changes, record))
    return record


async def _long_lupus(
    live: Live,
    held: Held,
    clock: RunningClock,
    names: list[str],
    cards: list[str],
    nights: int,
    changes: int,
    record: Record,
) -> None:
    wolves = [i for i, c in enumerate(cards) if c == "werewolf"]
    async with Table_(live, names, record) as t:
        await t.join()
        await t.listen()
        deck: dict[str, int] = {}
        for card in cards:
            deck[card] = deck.get(card, 0) + 1
        assert (await t.call(None, "POST", "/api/host/start", {"roles": deck}))[0] == 200
        rig(live, cards, [])
        await t.next()  # cards -> night
        while live.table.phase != "end" and record.nights < nights:
            record.nights += 1
            await _night(t, held, clock, wolves, record.nights in (3, 6), changes)
            if live.table.phase == "end":
                break
            await until(lambda: live.table.phase != "night")
            await _day(t, vote=record.nights in (2, 4))
        await until(lambda: len({len(p.pushes) for p in t.phones}) == 1, 10)
        record.pushes = [p.pushes for p in t.phones]
        record.phases = [live.table.phase]


async def _night(
    t: Table_, held: Held, clock: RunningClock, wolves: list[int], kill: bool, changes: int
) -> None:
    live = t.live
    night = live.table.night
    seen: set[str] = set()
    deadline = time.monotonic() + 120
    while live.table.phase == "night" and live.table.night == night:
        assert time.monotonic() < deadline, "the night never ended"
        call = held.call()
        if call is None or call in seen:
            await asyncio.sleep(0.02)
            continue
        seen.add(call)
        mes = await t.look(f"me n{night} {call} before")
        alive = [i for i, p in enumerate(live.table.seats) if p.alive]
        if any(me["prompt"] for me in mes):
            await _answer(t, mes, alive, wolves, kill, night, call, changes)
            await t.look(f"me n{night} {call} after")
        clock.release()


async def _answer(
    t: Table_,
    mes: list[dict[str, Any]],
    alive: list[int],
    wolves: list[int],
    kill: bool,
    night: int,
    call: str,
    changes: int,
) -> None:
    """Every phone answers its prompt, the first option it offers; at the pack's
    call the werewolves first change their minds `changes` times, then pick apart
    (a tie: nobody dies) or, when `kill`, together."""
    desk = t.live.table.desk
    pack = desk is not None and desk.open is not None and desk.open.step.role == "werewolf"
    villagers = [i for i in alive if i not in wolves]
    lengths: list[int] = []
    statuses: set[int] = set()
    for i, (phone, me) in enumerate(zip(t.phones, mes, strict=True)):
        prompt = me["prompt"]
        if prompt is None:
            continue
        seats = [o["id"] for o in prompt["options"] if o["id"].startswith("seat:")]
        answers = [seats[:1]]
        if pack and i in wolves:
            victim = villagers[night % len(villagers)]
            apart = villagers[(night + 1) % len(villagers)]
            last = victim if kill or i == wolves[0] else apart
            answers = [[seats[(night + k) % len(seats)]] for k in range(changes)]
            answers.append([f"seat:{last + 1}"])
        for choose in answers:
            body = {"prompt": prompt["id"], "choose": choose}
            status, answer, length = await t.call(phone, "POST", "/api/act", body)
            assert status == 200, answer
            statuses.add(status)
            lengths.append(length)
    t.answered(f"act n{night} {call}", lengths, statuses)


async def _day(t: Table_, vote: bool) -> None:
    """The host goes on through the day; on a voting day everyone accuses one villager
    (and one player another), and the ballot sends the first to the Ghosts."""
    live = t.live
    await until(lambda: live.table.phase == "day")
    await t.next()  # day -> accusation
    alive = [i for i, p in enumerate(live.table.seats) if p.alive]
    if vote:
        voters = list(range(len(live.table.seats)))  # Lupus: the Ghosts accuse too
        target, other = alive[-1], alive[-2]
        await _votes(t, "accusation", {v: (other if v == target else target) for v in voters})
        await until(lambda: live.table.phase == "defence")
        await t.next()  # defence -> ballot
        ballot = [i for i in alive if i not in (target, other)]
        await _votes(t, "ballot", {v: target for v in ballot})
    else:
        await t.next()  # nobody accuses: nobody is a suspect
    await until(lambda: live.table.phase in ("verdict", "end"))
    if live.table.phase == "verdict":
        await t.next()  # -> night


async def _votes(t: Table_, what: str, votes: dict[int, int]) -> None:
    lengths: list[int] = []
    statuses: set[int] = set()
    for voter, target in votes.items():
        status, _, length = await t.call(
            t.phones[voter], "POST", "/api/vote", {"target": target + 1}
        )
        lengths.append(length)
        statuses.add(status)
    t.answered(f"vote {what}", lengths, statuses)


def secret_moon_turns() -> Record:
    """Secret Moon on six phones: a Guard tries to capture (the rules refuse it, and
    only a Guard is refused so), then every phone in turn passes; after each turn the
    test waits for the push it brings to every phone. Each answer's bytes are kept,
    and each phone's pushes (from one marker push to another after the last turn)."""
    cards = ["guard", "princess", "minister", "wanderer", "priestess", "guard"]
    table = Table(ruleset("secret_moon"), "en", rng=random.Random(3))
    table.pace = 0.1
    record = Record()
    with live_table(table=table, voice=silent_voice(clock=RunningClock(SPEED))) as live:
        asyncio.run(_secret_moon(live, long_names(len(cards)), cards, record))
    return record


async def _secret_moon(live: Live, names: list[str], cards: list[str], record: Record) -> None:
    async with Table_(live, names, record) as t:
        await t.join()
        deck: dict[str, int] = {}
        for card in cards:
            deck[card] = deck.get(card, 0) + 1
        deck["guard"] += 2  # the ruleset's eight cards: two lie aside
        assert (await t.call(None, "POST", "/api/host/start", {"roles": deck}))[0] == 200
        live.table.unseen = ["guard", "guard"]
        rig(live, cards, ["guard", "guard"])
        await t.next()  # cards -> night; the night ends by itself
        await until(lambda: live.table.phase == "day")
        await t.listen()
        turns = [(t.phones[0], {"action": "capture", "choose": ["seat:2"]})]
        turns += [(phone, {"action": "pass", "choose": []}) for phone in t.phones[1:]]
        for phone, body in turns:
            before = sum(len(p.pushes) for p in t.phones)
            status, answer, length = await t.call(phone, "POST", "/api/turn", body)
            refused = isinstance(answer, dict) and answer.get("refused")
            t.answered(f"turn {'refused' if refused else 'taken'}", [length], {status})
            await until(
                lambda n=before: sum(len(p.pushes) for p in t.phones) >= n + len(t.phones),
                10,
                f"no push followed the turn {body} (answered {status})",
            )
        await t.marker()
        record.pushes = [p.pushes for p in t.phones]
        record.phases = [live.table.phase]
