"""What the table says when a death takes players along (One Night's Hunter): the
ruleset's words (a role's `on_death_line`), never a role's name written in code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator.rules import RulesetError, parse_ruleset
from narrator.table.lines import taken_along
from tests.unit.helpers import RULESETS, ruleset

ONUW = (RULESETS / "onuw.yaml").read_text("utf-8")
LINE = """    on_death_line:
      en: "The Hunter takes {names} with him."
      it: "Il Cacciatore porta con sé {names}."
      fa: "شکارچی {names} را هم با خود می‌برد."
"""


def test_every_shipped_role_whose_death_acts_says_so_in_every_language() -> None:
    found = 0
    for path in sorted(RULESETS.glob("*.yaml")):
        rs = ruleset(path.stem)
        for role in rs.roles:
            if role.powers is not None and role.powers.on_death:
                line = role.powers.on_death_line
                assert line is not None, (rs.id, role.id)
                assert line.languages() == set(rs.languages)
                assert all("{names}" in text for _, text in line.values)
                found += 1
    assert found  # One Night's Hunter


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The Hunter takes Bo with him."),
        ("it", "Il Cacciatore porta con sé Bo."),
        ("fa", "شکارچی Bo را هم با خود می‌برد."),
    ],
)
def test_the_table_says_the_rulesets_line(lang: str, said: str) -> None:
    assert taken_along(ruleset("onuw"), lang, "Bo") == said


def test_a_ruleset_that_gives_no_line_is_told_plainly() -> None:
    assert ONUW.count(LINE) == 1
    mine = parse_ruleset(ONUW.replace(LINE, ""), "mine.yaml")
    assert taken_along(mine, "en", "Bo") == "Bo leaves the game."
    assert "Hunter" not in taken_along(mine, "it", "Bo")


def test_a_line_without_a_death_that_acts_is_one_line_with_file_and_line() -> None:
    text = ONUW.replace("    on_death: shoot_vote\n", "")
    with pytest.raises(RulesetError) as info:
        parse_ruleset(text, Path("onuw.yaml"))
    line = text.splitlines().index("    on_death_line:") + 1
    assert str(info.value) == (
        f"onuw.yaml:{line}: role 'hunter' has an 'on_death_line' but no 'on_death': "
        "say what its death does"
    )
    assert re.fullmatch(r"[^\n]+", str(info.value))
