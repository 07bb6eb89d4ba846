"""Every shipped ruleset loads, and builds every night and day in every language,
for every player count it allows, from its recommended deck."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.rules import check_selection, load_ruleset, recommended
from narrator.script import Plan, Say, build_script, script_from_dict, script_to_dict

SHIPPED = sorted((Path(__file__).resolve().parents[2] / "rulesets").glob("*.yaml"))


def test_the_five_systems_are_shipped() -> None:
    ids = {load_ruleset(p).id for p in SHIPPED}
    assert {"onuw"} <= ids  # the other four land with their own tests
    assert all(p.stem == load_ruleset(p).id for p in SHIPPED)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_language_every_player_count_builds(path: Path) -> None:
    ruleset = load_ruleset(path)
    nights = [1, 2, 3] if ruleset.nights is None else list(range(1, ruleset.nights + 1))
    for players in range(ruleset.setup.min_players, ruleset.setup.max_players + 1):
        roles, _ = recommended(ruleset, players)
        assert check_selection(ruleset, players, roles).ok, (players, roles)
        for lang in ruleset.languages:
            for night in nights:
                for phase in ("night", "day"):
                    script = build_script(
                        ruleset, Plan(players, roles, night=night, lang=lang, phase=phase)
                    )
                    says = [s for s in script.steps if isinstance(s, Say)]
                    assert says, (players, lang, night, phase)
                    assert all(s.text.strip() and "{" not in s.text for s in says)
                    # The JSON of `narrator script` reads back to the same script.
                    assert script_from_dict(script_to_dict(script)) == script
