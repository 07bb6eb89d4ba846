"""Thirty phones on loopback join, are dealt and vote: every one gets its card and the
result, and every connection is closed afterwards. Timings go to scripts/bench."""

from __future__ import annotations

import asyncio
import time

from narrator.table.voice import silent_voice
from tests.support.crowd import crowd
from tests.table.live import live_table


def test_thirty_phones_join_are_dealt_and_vote() -> None:
    voice = silent_voice()
    with live_table("wherewolf", voice=voice) as live:
        phones = asyncio.run(crowd(live.base, live.table.room, live.host_token, 30))
        assert len({p.token for p in phones}) == 30
        assert sorted(p.seat for p in phones) == list(range(1, 31))
        for phone in phones:
            me = phone.views[-1]["me"]  # seats as the wire numbers them, from 1
            assert me["seat"] == phone.seat and me["role"] == live.table.seats[me["seat"] - 1].card
            # 28 accuse seat 1, two accuse seat 2: the most voted and the runner-up
            assert phone.views[-1]["state"]["result"]["suspects"] == [1, 2]
            assert phone.views[-1]["said"].startswith("The suspects are Player 1 and Player 2.")
        assert voice.said[-1].startswith("The suspects are Player 1 and Player 2.")
        deadline = time.monotonic() + 15  # thirty closes, on a busy machine
        while live.server.sockets and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not live.server.sockets  # every WebSocket closed on the server too
