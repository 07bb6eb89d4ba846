"""Names that read as something else, and phones asking for a seat (review 2, H10, N4,
N9): a name may not pass for a seat number, a mark the pages write beside a name, a
sentence of the voice, or a stack of marks that draws over its neighbours; a flood
of bogus requests for a seat never locks a real lost phone out."""

from __future__ import annotations

import asyncio
import random

import aiohttp
import pytest

from narrator.table import TableError
from narrator.table.names import MAX_NAME, clean_name
from narrator.table.seats import MAX_CLAIMS, Seats, index_of
from tests.table.live import live_table


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Cy (out)", "writes beside names"),  # the pages' "(out)"
        ("Dee — Werewolf", "writes beside names"),  # a card at the end
        ("Ann → Bo", "writes beside names"),  # a vote
        ("Bo: seer", "writes beside names"),
        ("«Bo»", "writes beside names"),
        ("Cy ﴾out﴿", "writes beside names"),  # another script's parentheses
        ("3. Eli", "starts with a letter"),  # a seat in the list
        ("۳ الهام", "starts with a letter"),  # Persian digits too
        ("Everyone open your eyes", "at most 3 words"),  # the voice's sentence
        ("Z" + "\u0301" * 23, "marks on one letter"),  # Zalgo
        ("Ax\u0300\u0301\u0302", "marks on one letter"),  # no letter they compose with
        ("\ufdfa" * 24, "432 characters long"),  # one ligature, eighteen letters
    ],
)
def test_a_name_that_reads_as_something_else_is_refused_in_one_line(name: str, why: str) -> None:
    with pytest.raises(TableError, match=why) as err:
        clean_name(name)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "name",
    [
        "Anne-Marie O'Brien",
        "Maria del Carmen",
        "سارا\u200cجان",
        "محمّد",
        "Zoë",
        "Jean‐Luc",
        "R2",
        "[b]Cy[/b]",
    ],
)
def test_real_names_still_join(name: str) -> None:
    assert clean_name(name) == name
    assert len(name) <= MAX_NAME


def test_a_flood_of_requests_for_a_seat_never_refuses_a_new_one() -> None:
    seats = Seats()
    for name in ["Ann", "Bo", "Cy", "Dee"]:
        seats.join(name, max_players=10)
    rng = random.Random(1)
    for k in range(MAX_CLAIMS + 20):  # as many addresses as a flood can find
        seats.claim(index_of(2), f"10.0.{k // 250}.{k % 250}", rng)
    code, token = seats.claim(index_of(2), "192.168.1.50", rng)  # the real lost phone
    assert len(seats.claims) == MAX_CLAIMS and seats.waiting(token) is not None
    seats.settle(code, True)
    assert seats.holding(token) is seats[1]


def test_twelve_addresses_asking_for_bo_s_seat_leave_room_for_bo_s_phone() -> None:
    """Review 2, N9, over the network: twelve addresses ask for Bo's seat, then Bo's
    new phone does; the host gives it the seat."""
    with live_table() as live:
        for name in ["Ann", "Bo", "Cy", "Dee"]:
            live.join(name)
        body = {"room": live.table.room, "seat": 2}

        async def ask(address: str) -> tuple[int, dict[str, str]]:
            connector = aiohttp.TCPConnector(local_addr=(address, 0))
            async with (
                aiohttp.ClientSession(connector=connector) as session,
                session.post(live.base + "/api/claim", json=body) as r,
            ):
                return r.status, await r.json()

        async def flood() -> list[tuple[int, dict[str, str]]]:
            return [await ask(f"127.0.0.{20 + k}") for k in range(13)]

        answers = asyncio.run(flood())
        assert all(status == 200 for status, _ in answers), answers
        code, token = answers[-1][1]["code"], answers[-1][1]["token"]
        assert live.host("claim", {"code": code, "confirm": True})[0] == 200
        assert live.call("GET", "/api/me", token=token)[1]["name"] == "Bo"
