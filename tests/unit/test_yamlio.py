"""The ruleset reader: libyaml's parser (fast) and PyYAML's (its messages) agree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from narrator.rules import yamlio, yamlparse
from narrator.rules.errors import RulesetError

RULESETS = sorted((Path(__file__).resolve().parents[2] / "rulesets").glob("*.yaml"))


def _located(value: Any) -> list[Any]:
    """Every mapping's line and key lines, in order: what errors are located by."""
    out: list[Any] = []
    if isinstance(value, yamlio.Located):
        out.append((value.line, dict(value.key_lines)))
    if isinstance(value, dict):
        for item in value.values():
            out += _located(item)
    elif isinstance(value, list):
        for item in value:
            out += _located(item)
    return out


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml")
def test_libyaml_is_used_and_reads_every_shipped_ruleset_as_pyyaml_does() -> None:
    assert yamlparse._Loader is not yamlparse._PyLoader
    for path in RULESETS:
        text = path.read_text("utf-8")
        fast = yaml.load(text, Loader=yamlparse._Loader)
        slow = yaml.load(text, Loader=yamlparse._PyLoader)
        assert fast == slow, path.name
        assert _located(fast) == _located(slow), path.name
        assert len(_located(fast)) > 50


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: {b: 1 c: 2}\n", "not valid YAML: expected ',' or '}', but got ':'"),
        ("a:\n" + "".join("  " * i + "- \n" for i in range(1, 40)), "nested more than 32"),
        ("a: 1\na: 2\n", "key 'a' appears twice in one mapping (first on line 1); keep one"),
        ("x: &a [1, *a]\n", "the alias '*a' is inside the value it names"),
    ],
)
def test_a_broken_file_is_told_in_pyyaml_s_words_at_its_line(text: str, message: str) -> None:
    with pytest.raises(RulesetError) as caught:
        yamlio.read_yaml(text, "r.yaml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("r.yaml:")
