"""The gap after a wake call: in the script, so the preview, the JSON and the audio agree."""

from __future__ import annotations

import pytest

from narrator.rules import SelectionError, recommended
from narrator.script import Plan, Say, build_script
from narrator.script.model import script_from_dict, script_to_dict
from narrator.script.render_text import estimate_seconds, render_text
from tests.unit.helpers import ruleset, script


def _wakes(night: object) -> list[Say]:
    steps = night.steps  # type: ignore[attr-defined]
    return [s for s in steps if isinstance(s, Say) and s.after > 0]


def test_a_wake_call_followed_by_its_instruction_leaves_a_gap() -> None:
    night = script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3")
    steps = list(night.steps)
    wakes = _wakes(night)
    assert [w.text for w in wakes] == [
        "Werewolves, wake up and look for each other.",
        "Seer, wake up.",
        "Robber, wake up.",
        "Troublemaker, wake up.",
    ]
    for wake in wakes:
        assert wake.after == 1.0
        following = steps[steps.index(wake) + 1]
        assert isinstance(following, Say) and following.role == wake.role
    # Every other line (instructions, "close your eyes", the opening) keeps the breath.
    others = [s for s in steps if isinstance(s, Say) and s not in wakes]
    assert others and all(s.after == 0.0 for s in others)


def test_the_gap_is_a_setting_scaled_by_pace() -> None:
    slow = _wakes(
        script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3", wake_gap=1.5, pace=2.0)
    )
    assert {w.after for w in slow} == {3.0}
    assert (
        _wakes(script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3", wake_gap=0))
        == []
    )
    with pytest.raises(SelectionError, match="wake gap"):
        script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3", wake_gap=-1)


def test_the_preview_and_the_json_carry_the_gap() -> None:
    night = script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3")
    wake = _wakes(night)[0]
    assert estimate_seconds(wake) == pytest.approx(estimate_seconds(Say(wake.text)) + 1.0)
    data = script_to_dict(night)
    said = [s for s in data["steps"] if s["kind"] == "say"]
    assert [s.get("after") for s in said if "after" in s] == [1.0] * 4
    assert script_from_dict(data) == night
    assert "Seer, wake up." in render_text(night, "One Night")


@pytest.mark.parametrize(
    "ruleset_id", ["onuw", "lupus", "wherewolf", "secret_moon", "mafia_infiltrators"]
)
def test_every_ruleset_gets_wake_gaps_in_every_language(ruleset_id: str) -> None:
    rs = ruleset(ruleset_id)
    players = rs.setup.min_players + 2
    roles, _ = recommended(rs, players)
    for lang in rs.languages:
        night = build_script(rs, Plan(players=players, roles=roles, lang=lang))
        assert all(w.after == 1.0 for w in _wakes(night))
