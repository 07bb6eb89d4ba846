"""The seats alone (`Seats`, issue 24): who sits where, with no table, no game, no web.

One numbering: a seat is a `SeatIndex` from 0, and its display number (from 1)
exists only in words and on the wire, converted in one place.
"""

from __future__ import annotations

import random
import secrets

import pytest

from narrator.table import TableError
from narrator.table.seats import Seats, index_of, number, option, token_hash


def seated(*names: str) -> tuple[Seats, list[str]]:
    seats = Seats()
    tokens = [seats.join(name, max_players=10)[1] for name in names]
    return seats, tokens


def test_seats_are_indices_from_0_and_display_numbers_from_1_on_the_wire() -> None:
    seats, _ = seated("Ann", "Bo", "Cy")
    assert [p.seat for p in seats] == [0, 1, 2]
    assert [number(p.seat) for p in seats] == [1, 2, 3]
    assert [option(p.seat) for p in seats] == ["seat:1", "seat:2", "seat:3"]
    assert [index_of(n) for n in (1, 2, 3)] == [0, 1, 2]
    for value in ("2", 2.5, True, None):
        with pytest.raises(TableError, match=f"there is no seat {value!r} at this table"):
            index_of(value)
    # a display number out of range is said as the players count: never wrapped round
    for shown in (0, -1, 4, 99):
        with pytest.raises(TableError, match=f"there is no seat {shown} at this table"):
            seats.at(index_of(shown))


def test_a_token_is_only_looked_up_and_only_its_hash_is_kept() -> None:
    seats, tokens = seated("Ann", "Bo")
    player = seats.holding(tokens[1])
    assert player is not None and player.name == "Bo"
    assert seats.held_by(token_hash(tokens[1])) is player
    assert seats.holding(secrets.token_urlsafe(32)) is None
    assert all(t not in repr(seats) for t in tokens)  # only hashes
    host = seats.new_host_token()
    assert seats.is_host(host) and not seats.is_host(tokens[0])
    assert seats.holding(host) is None  # the host holds no seat


def test_joining_a_locked_table_a_taken_name_or_a_full_one_is_refused() -> None:
    seats, _ = seated("Ann", "Bo")
    with pytest.raises(TableError, match="is taken") as taken:
        seats.join("ann", max_players=10)
    with pytest.raises(TableError, match="the table is full") as full:
        seats.join("Cy", max_players=2)
    seats.lock(True)
    with pytest.raises(TableError, match="locked the table") as locked:
        seats.join("Cy", max_players=10)
    assert {e.value.kind for e in (taken, full, locked)} == {"refused"}
    with pytest.raises(TableError, match='"locked": true'):
        seats.lock("yes")
    seats.lock(False)
    assert seats.join("Cy", max_players=10)[0].seat == 2


def test_removing_a_player_moves_the_seats_after_up_and_forgets_their_claims() -> None:
    seats, tokens = seated("Ann", "Bo", "Cy", "Dee")
    seats.claim(index_of(2), "10.0.0.2", random.Random(1))  # a phone asks for Bo's seat
    seats.claim(index_of(3), "10.0.0.3", random.Random(2))
    seats.remove(index_of(2), "Bo")
    assert [(p.seat, p.name) for p in seats] == [(0, "Ann"), (1, "Cy"), (2, "Dee")]
    assert [c.player.name for c in seats.claims] == ["Cy"]
    assert seats.holding(tokens[1]) is None  # Bo's phone holds nothing now
    # the host's second tap names Bo again: seat 2 is Cy's now, nothing changes
    with pytest.raises(TableError, match=r"^seat 2 is now Cy; nothing was changed$") as err:
        seats.remove(index_of(2), "Bo")
    assert err.value.kind == "refused" and len(seats) == 3


def test_the_sitting_order_by_name_renumbers_every_seat() -> None:
    seats, tokens = seated("Ann", "Bo", "Cy")
    seats.reorder(["Cy", "Ann", "Bo"])
    seats.reorder(["Cy", "Ann", "Bo"])  # the same order twice is the same order
    assert [(p.seat, p.name) for p in seats] == [(0, "Cy"), (1, "Ann"), (2, "Bo")]
    assert seats.holding(tokens[2]) is seats[0]  # Cy's phone holds the first seat
    for bad in (["Cy", "Ann"], ["Cy", "Ann", "Ann"], "Cy,Ann,Bo", ["Cy", "Ann", 7]):
        with pytest.raises(TableError, match="every player's name once"):
            seats.reorder(bad)


def test_a_seat_moves_to_a_new_phone_only_when_the_host_confirms() -> None:
    seats, tokens = seated("Ann", "Bo", "Cy")
    code, new = seats.claim(index_of(2), "10.0.0.9", random.Random(3))
    claim = seats.waiting(new)
    assert claim is not None and claim.code == code and claim.player.name == "Bo"
    assert seats.holding(new) is None  # not before the host says so
    with pytest.raises(TableError, match='"confirm": true'):
        seats.settle(code, "yes")
    seats.settle(code, True)
    assert seats.holding(new) is seats[1] and seats.holding(tokens[1]) is None
    assert seats.waiting(new) is None and seats.claims == []
    with pytest.raises(TableError, match="no longer waiting") as err:
        seats.settle(code, True)  # a double tap
    assert err.value.kind == "refused"
    # one waiting request per phone; refused, it is gone
    first, _ = seats.claim(index_of(1), "10.0.0.7", random.Random(4))
    second, asked = seats.claim(index_of(3), "10.0.0.7", random.Random(5))
    assert [c.code for c in seats.claims] == [second] != [first]
    seats.settle(second, False)
    assert seats.waiting(asked) is None and seats.holding(asked) is None


def test_play_again_keeps_the_seats_with_no_card_and_nobody_out() -> None:
    seats, tokens = seated("Ann", "Bo")
    seats[0].card, seats[1].alive = "werewolf", False
    seats.again()
    assert [(p.seat, p.card, p.alive) for p in seats] == [(0, None, True), (1, None, True)]
    assert seats.holding(tokens[1]) is seats[1]
