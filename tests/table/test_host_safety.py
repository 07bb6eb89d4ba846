"""A host who cannot break the game by mistake (issue 28, item 5; review 2, N11 and
P6): with the cards on the phones nobody is marked out in the night (the engine
knows the night's deaths), only by day a player who left the table, and the voice
says so; the roles the phones cannot deal are marked on the host page and never
counted into a deck the phones deal -- read from the engine, so they follow it."""

from __future__ import annotations

from narrator.moderator import unsupported_roles
from tests.table.live import live_table

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def test_with_the_cards_on_the_phones_a_player_is_marked_out_by_day_only_and_said() -> None:
    with live_table("lupus") as live:
        for name in NAMES:
            live.join(name)
        assert live.host("start")[0] == 200
        assert live.state()["eliminate"] == "table"
        assert live.host("next")[0] == 200  # the night
        status, body = live.host("eliminate", {"seat": 3})
        assert status == 409 and "by day" in body["error"] and "\n" not in body["error"]
        assert all(p["alive"] for p in live.state()["players"])
        assert live.host("next")[0] == 200  # the day (the night cut short)
        alive = [p["seat"] for p in live.state()["players"] if p["alive"]]
        assert live.host("eliminate", {"seat": alive[0]})[0] == 200
        name = live.table.seat(alive[0] - 1).name
        assert f"{name} has left the table, and is out of the game." in live.voice.said


def test_with_physical_cards_the_host_marks_who_left_in_the_night() -> None:
    with live_table("lupus") as live:
        for name in NAMES:
            live.join(name)
        assert live.host("start", {"deal": False})[0] == 200
        assert live.state()["eliminate"] == "night"
        assert live.host("next")[0] == 200
        assert live.host("eliminate", {"seat": 3})[0] == 200


def test_one_night_offers_nobody_to_mark_out() -> None:
    with live_table("onuw") as live:
        for name in NAMES[:5]:
            live.join(name)
        assert live.host("start")[0] == 200
        assert live.state()["eliminate"] is None


def test_the_roles_the_phones_cannot_deal_are_marked_and_refused_in_the_count() -> None:
    # Lupus: One Night's roles are being taught to the engine; Lupus's booklet
    # characters have no powers in the seed, so some stay for physical cards
    with live_table("lupus") as live:
        for name in NAMES:
            live.join(name)
        rs = live.table.ruleset
        status, setup = live.call("GET", "/api/host/setup", token=live.host_token)
        assert status == 200
        dealable = {r["id"]: r["dealable"] for r in setup["roles"]}
        # the engine's word, role by role (not a list kept here)
        assert dealable == {r.id: not unsupported_roles(rs, [r.id]) for r in rs.roles}
        assert dealable["seer"] and not all(dealable.values())
        cannot = next(r.id for r in rs.roles if not dealable[r.id])
        deck = {"werewolf": 2, "seer": 1, cannot: 1, "villager": 4}
        status, count = live.host("deck", {"roles": deck})
        assert status == 200 and any("cannot run" in e for e in count["errors"]), count
        # with physical cards the same deck is fine: the voice calls every role
        status, count = live.host("deck", {"roles": deck, "deal": False})
        assert status == 200 and not any("cannot run" in e for e in count["errors"]), count
        assert live.host("deck", {"roles": deck, "deal": "no"})[0] == 400
        # and the deal itself refuses it, as the count said
        assert live.host("start", {"roles": deck})[0] == 409
