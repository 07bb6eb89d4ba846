"""Action-time overrides are keyed per turn: a role's own turn by its id (what saved
settings always used), a follow-up such as the Doppelganger's by `role:<order>`."""

from __future__ import annotations

import pytest

from narrator.rules import load_catalog
from narrator.rules.errors import SelectionError
from narrator.script import Pause, Plan, build_script, timed_turns

ROLES = (
    ("doppelganger", 1),
    ("werewolf", 2),
    ("minion", 1),
    ("seer", 1),
    ("robber", 1),
    ("troublemaker", 1),
    ("insomniac", 1),
    ("villager", 1),
)


def _timed(times: dict[str, float]) -> list[tuple[str, float]]:
    onuw = load_catalog().rulesets["onuw"]
    plan = Plan(players=6, roles=ROLES, action_times=tuple(times.items()))
    script = build_script(onuw, plan)
    pauses = [s for s in script.steps if isinstance(s, Pause) and s.role]
    keys = timed_turns(onuw, plan)
    assert [k.split(":")[0] for k in keys] == [p.role for p in pauses]
    return [(k, p.seconds) for k, p in zip(keys, pauses, strict=True)]


def test_each_timed_turn_has_its_own_key() -> None:
    assert [k for k, _ in _timed({})] == [
        "doppelganger",
        "doppelganger:-7b",  # she wakes again with the Minion
        "werewolf",
        "minion",
        "seer",
        "robber",
        "troublemaker",
        "insomniac",
        "doppelganger:9.1",  # and again right after the Insomniac
    ]


def test_a_follow_up_turn_key_changes_that_turn_only() -> None:
    before = dict(_timed({}))
    after = dict(_timed({"doppelganger:-7b": 20, "doppelganger:9.1": 8}))
    assert after["doppelganger:-7b"] == 20 and after["doppelganger:9.1"] == 8
    assert after["doppelganger"] == before["doppelganger"] == 12
    assert {k: v for k, v in after.items() if k.split(":")[0] != "doppelganger"} == {
        k: v for k, v in before.items() if k.split(":")[0] != "doppelganger"
    }


def test_a_role_key_as_saved_before_still_times_the_role_s_own_turn_only() -> None:
    after = dict(_timed({"doppelganger": 30}))
    assert after["doppelganger"] == 30
    assert after["doppelganger:-7b"] == 5 and after["doppelganger:9.1"] == 5


def test_a_turn_key_of_an_unknown_role_is_refused() -> None:
    with pytest.raises(SelectionError, match="action time for unknown role 'doppelgnger'"):
        _timed({"doppelgnger:-7b": 5})
