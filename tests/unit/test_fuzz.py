"""Property-based fuzzing: any mangled ruleset yields a RulesetError, never a crash.

Two generators: random YAML documents (any shape at all), and the shipped One Night
ruleset with one part replaced by a random value -- the realistic mistake, which
reaches deep into the loader instead of failing at the first key.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.rules import RulesetError, parse_ruleset
from narrator.rules.yamlio import read_yaml

ONUW = (Path(__file__).resolve().parents[2] / "rulesets" / "onuw.yaml").read_text("utf-8")
PATH = Path("fuzz.yaml")

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 50),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=12),
    st.sampled_from(["every_night", "never", "9b", "werewolf", "en", "countdown", "many"]),
)
keys = st.one_of(
    st.text(min_size=1, max_size=10),
    st.sampled_from(["id", "order", "wake", "when", "chosen", "en", "it", "players", "roles"]),
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=12,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


BASE = yaml.safe_load(ONUW)
PLACES = _paths(BASE)


def _expect_domain_error_only(text: str) -> None:
    try:
        parse_ruleset(text, PATH)
    except RulesetError as exc:
        message = str(exc)
        assert message.startswith("fuzz.yaml")
        assert "\n" not in message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values)
def test_random_documents_give_only_domain_errors(doc: Any) -> None:
    _expect_domain_error_only(yaml.safe_dump(doc, allow_unicode=True))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PLACES), values, st.booleans())
def test_one_mangled_part_of_a_real_ruleset_gives_only_domain_errors(
    place: tuple[Any, ...], value: Any, delete: bool
) -> None:
    doc = copy.deepcopy(BASE)
    parent = doc
    for step in place[:-1]:
        parent = parent[step]
    if delete:
        del parent[place[-1]]
    else:
        parent[place[-1]] = value
    _expect_domain_error_only(yaml.safe_dump(doc, allow_unicode=True))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_gives_only_domain_errors(text: str) -> None:
    try:
        read_yaml(text, PATH)
    except RulesetError as exc:
        assert str(exc).startswith("fuzz.yaml")
    _expect_domain_error_only(text)
