"""The views' typed results (issue 24): the last vote and the end are frozen values on
seat indices, and the JSON the pages read -- and the saved game keeps -- is written
and read in one place, in the same form as before (seats by display number)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from narrator.table import Table, TableError, load_saved, save, views
from narrator.table.results import (
    AccusationResult,
    Reveal,
    VerdictResult,
    VoteResult,
    Winners,
    result_from_json,
    result_json,
    reveal_from_json,
    reveal_json,
)
from narrator.table.saved import dump
from tests.unit.helpers import ruleset

RESULTS = [
    (
        VoteResult(votes={0: 1, 1: 2, 2: 1}, dead=(1,), shot=(2,)),
        {"kind": "vote", "votes": {"1": 2, "2": 3, "3": 2}, "dead": [2], "shot": [3]},
    ),
    (
        AccusationResult(counts={1: 3, 2: 2}),  # a secret accusation, the suspects to come
        {"kind": "accusation", "counts": {"2": 3, "3": 2}},
    ),
    (
        AccusationResult(counts={1: 1}, votes={0: 1}, suspects=(1,)),
        {"kind": "accusation", "counts": {"2": 1}, "votes": {"1": 2}, "suspects": [2]},
    ),
    (
        AccusationResult(counts={}, votes={}),  # an open round nobody voted in
        {"kind": "accusation", "counts": {}, "votes": {}},
    ),
    (
        VerdictResult(counts={1: 3, 2: 2}, condemned=1, suspects=(1, 2), votes={0: 1, 3: 2}),
        {
            "kind": "verdict",
            "counts": {"2": 3, "3": 2},
            "condemned": 2,
            "suspects": [2, 3],
            "votes": {"1": 2, "4": 3},
        },
    ),
    (
        VerdictResult(counts={}, condemned=None, suspects=()),
        {"kind": "verdict", "counts": {}, "condemned": None, "suspects": []},
    ),
]


@pytest.mark.parametrize(("result", "wire"), RESULTS)
def test_each_result_has_the_pages_json_and_reads_back_the_same(
    result: object, wire: dict[str, object]
) -> None:
    assert result_json(result) == wire  # type: ignore[arg-type]
    assert result_from_json(json.loads(json.dumps(wire))) == result
    assert result_json(None) is None and result_from_json(None) is None


def test_the_reveal_has_the_pages_json_and_reads_back_the_same() -> None:
    reveal = Reveal(
        cards={0: "werewolf", 1: "seer"},
        dealt={0: "robber", 1: "seer"},
        unseen=("villager",),
        unseen_dealt=("werewolf",),
        removed=(),
        winners=Winners(("werewolves",), (0,)),
        judged=True,
        tokens={1: ("claw_of_the_werewolf",)},
    )
    wire = reveal_json(reveal)
    assert wire == {
        "cards": {"1": "werewolf", "2": "seer"},
        "dealt": {"1": "robber", "2": "seer"},
        "unseen": ["villager"],
        "unseen_dealt": ["werewolf"],
        "removed": [],
        "winners": {"teams": ["werewolves"], "seats": [1]},
        "judged": True,
        "tokens": {"2": ["claw_of_the_werewolf"]},  # what lies beside a card
    }
    assert reveal_from_json(json.loads(json.dumps(wire))) == reveal


def test_a_saved_game_keeps_its_typed_results(tmp_path: Path) -> None:
    t = Table(ruleset("onuw"), "en", rng=random.Random(2))
    for name in ("Ann", "Bo", "Cy", "Dee"):
        t.join(name, t.room)
    t.start({})
    t.advance(), t.advance(), t.advance()
    for player, target in zip(t.seats, [1, 0, 1, 1], strict=True):
        t.vote(player, target)
    assert t.phase == "end" and isinstance(t.result, VoteResult) and t.reveal is not None
    save(t, tmp_path / "g.json")
    back = load_saved(tmp_path / "g.json", t.ruleset)
    assert back.result == t.result and back.reveal == t.reveal
    assert views.public(back)["result"] == views.public(t)["result"]


@pytest.mark.parametrize(
    "result",
    [
        {"kind": "vote", "votes": {"1": "two"}, "dead": [], "shot": []},
        {"kind": "verdict", "counts": {"1": 1}, "condemned": "x", "suspects": []},
        {"kind": "ballot"},
        [1, 2],
    ],
)
def test_a_changed_result_in_a_saved_game_is_one_line(result: object, tmp_path: Path) -> None:
    t = Table(ruleset("onuw"), "en")
    for name in ("Ann", "Bo", "Cy"):
        t.join(name, t.room)
    data = {**dump(t), "result": result}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TableError) as err:
        load_saved(path, t.ruleset)
    assert str(err.value).startswith(str(path)) and "\n" not in str(err.value)
