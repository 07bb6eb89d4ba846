"""The room the padding keeps for the night (`views.night_room`) is never outgrown:
at every call of every system, with the most players and the longest names in bytes
(24 characters of four bytes each), no phone's prompt and picks take more. And the
journal of the night in progress stays off the phones' views until dawn."""

from __future__ import annotations

import contextlib
import json
import random

import pytest

from narrator.table import Table
from narrator.table.errors import TableError
from narrator.table.seats import SeatIndex
from narrator.table.views import night_room, private
from tests.table.test_night import first_way
from tests.unit.helpers import ruleset


def widest_names(count: int) -> list[str]:
    """Names of 24 characters of four bytes each (CJK, as a name may be), all different."""
    return ["".join(chr(0x20000 + 24 * i + j) for j in range(24)) for i in range(count)]


def size(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def nightfall(game: str) -> Table:
    """A table of `game` at its most players, its recommended deck dealt to the
    phones, at its first night (its script begun on the phones as the night falls)."""
    rs = ruleset(game)
    table = Table(rs, "en" if game != "onuw" else "fa", rng=random.Random(5))
    for name in widest_names(rs.setup.max_players):
        table.join(name, table.room)
    table.start({})
    table.advance()  # cards -> night: the night on the phones begins as it falls
    return table


def walk(table: Table) -> int:
    """The voice walks the night; at every step every phone answers its prompt with
    its first options (a pack: every member a different player) and the prompt and
    picks of each phone are measured. The most any took."""
    desk = table.desk
    assert desk is not None
    most = 0
    for index in range(len(desk.script.steps)):
        table.night_at(index)
        for seat in range(len(table.seats)):
            p = desk.prompt(SeatIndex(seat))
            if p is not None and p["max"]:
                ids = [o["id"] for o in p["options"]]
                seats = [i for i in ids if i.startswith("seat:")]
                seats = seats[seat % len(seats) :] + seats[: seat % len(seats)] if seats else []
                rotated = seats + [i for i in ids if not i.startswith("seat:")]
                with contextlib.suppress(TableError):  # an agent may not arrest another
                    desk.act(SeatIndex(seat), p["id"], first_way({**p, "options": [
                        {"id": i} for i in rotated]}))  # fmt: skip
        for player in table.seats:
            own = private(table, player)
            most = max(most, size(own["prompt"]) + size(own["picks"]) - size(None) - size({}))
    return most


@pytest.mark.parametrize("game", ["onuw", "lupus", "mafia_infiltrators", "wherewolf"])
def test_no_phone_s_prompt_and_picks_outgrow_the_night_s_room(game: str) -> None:
    table = nightfall(game)
    room = night_room(table)
    assert room > 0
    assert walk(table) <= room
    while table.phase != "night":  # the next night too: the pack hunts from night 2
        table.advance()
    assert walk(table) <= night_room(table)


def test_no_room_is_kept_outside_a_night_on_the_phones() -> None:
    table = nightfall("lupus")
    table.advance()  # the dawn
    assert table.phase == "day" and night_room(table) == 0


def test_what_a_card_learns_tonight_reaches_its_view_at_dawn() -> None:
    table = nightfall("lupus")
    desk = table.desk
    assert desk is not None
    before = [private(table, p)["journal"] for p in table.seats]
    walk(table)
    assert any(table.journal.values())  # the Seer asked, the pack picked
    assert [private(table, p)["journal"] for p in table.seats] == before
    table.advance()
    assert [private(table, p)["journal"] for p in table.seats] != before
