"""A crowd of phones as WebSocket clients: join, get dealt, vote, hear the result.

Used by the load test (correctness, no timing asserted) and by scripts/bench_table (the
latencies in docs/PERFORMANCE.md). Each phone is one aiohttp session with one
WebSocket, as a browser holds it; the host is driven over HTTP with its token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp


@dataclass
class Phone:
    name: str
    seat: int = 0
    token: str = ""
    views: list[dict[str, Any]] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)  # perf_counter() of each view
    joined: float = 0.0  # seconds for POST /api/join
    dealt: float = 0.0  # from the host's deal to this phone's card on its WebSocket
    voted: float = 0.0  # from this phone's vote to the result on its WebSocket
    vote_sent: float = 0.0  # perf_counter() when its vote went out
    result_at: float = 0.0  # perf_counter() when the result reached it
    announced: float = 0.0  # from the last vote of all sent to the result on this phone
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    session: Any = None  # its own connections, from its own address


async def _listen(ws: aiohttp.ClientWebSocketResponse, phone: Phone) -> None:
    async for msg in ws:
        if msg.type == aiohttp.WSMsgType.TEXT:
            phone.arrived.append(time.perf_counter())
            phone.views.append(json.loads(msg.data))
            phone.changed.set()


async def _until(phone: Phone, test: Any, since: int = 0, timeout: float = 30) -> float:
    """When the first view from index `since` on that passes `test` arrived."""

    def first() -> float | None:
        for view, at in zip(phone.views[since:], phone.arrived[since:], strict=True):
            if test(view):
                return at
        return None

    async def wait() -> float:
        while (at := first()) is None:
            phone.changed.clear()
            await phone.changed.wait()
        return at

    return await asyncio.wait_for(wait(), timeout)


async def crowd(base: str, room: str, host_token: str, count: int) -> list[Phone]:
    """`count` phones play one accusation round of a many-night game; their timings."""
    host = {"Authorization": f"Bearer {host_token}"}
    phones = [Phone(f"Player {i + 1}") for i in range(count)]
    # Every phone from an address of its own, as phones on a Wi-Fi are (the server
    # caps the connections of one address): 127.0.0.10, .11, ... on loopback.
    for i, phone in enumerate(phones):
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + i}", 0))
        phone.session = aiohttp.ClientSession(connector=connector)
    async with aiohttp.ClientSession() as session, contextlib.AsyncExitStack() as stack:
        for phone in phones:
            await stack.enter_async_context(phone.session)

        async def join(phone: Phone) -> None:
            t0 = time.perf_counter()
            async with phone.session.post(
                f"{base}/api/join", json={"name": phone.name, "room": room}
            ) as r:
                body = await r.json()
                assert r.status == 200, body
            phone.joined = time.perf_counter() - t0
            phone.seat, phone.token = body["player"], body["token"]

        await asyncio.gather(*(join(p) for p in phones))
        sockets = [
            await p.session.ws_connect(f"{base.replace('http', 'ws')}/ws?token={p.token}")
            for p in phones
        ]
        listeners = [
            asyncio.create_task(_listen(ws, p)) for ws, p in zip(sockets, phones, strict=True)
        ]
        try:
            t0 = time.perf_counter()
            async with session.post(f"{base}/api/host/start", json={}, headers=host) as r:
                assert r.status == 200, await r.text()
            for phone in phones:
                phone.dealt = await _until(phone, lambda v: v["me"]["role"] is not None) - t0
            for phase in ("cards", "night", "day"):  # cards -> night -> day -> accusation
                body = {"from": phase}
                async with session.post(f"{base}/api/host/next", json=body, headers=host) as r:
                    assert r.status == 200, await r.text()
            await asyncio.gather(
                *(_until(p, lambda v: v["state"]["phase"] == "accusation") for p in phones)
            )

            async def vote(phone: Phone) -> None:
                # seats 1 and 30 accuse seat 2, the rest seat 1: the most accused and
                # the runner-up (not every other vote on one player: no stake at once)
                target = 2 if phone.seat in (1, 30) else 1
                headers = {"Authorization": f"Bearer {phone.token}"}
                since = len(phone.views)
                t0 = phone.vote_sent = time.perf_counter()
                async with phone.session.post(
                    f"{base}/api/vote", json={"target": target}, headers=headers
                ) as r:
                    assert r.status == 200, await r.text()
                done = await _until(phone, lambda v: v["state"]["phase"] != "accusation", since)
                phone.voted, phone.result_at = done - t0, done

            await asyncio.gather(*(vote(p) for p in phones))
            last = max(p.vote_sent for p in phones)
            for phone in phones:
                phone.announced = phone.result_at - last
        finally:
            for ws in sockets:
                await ws.close()
            for task in listeners:
                task.cancel()
    return phones
