"""Property-based fuzzing: any mangled ruleset yields a RulesetError, never a crash.

Also any number at any numeric place (NaN, infinities, 1e300): refused with a
RulesetError, or it builds a script whose JSON is strict.

Two generators: random YAML documents (any shape at all), and the shipped One Night
ruleset with one part replaced by a random value -- the realistic mistake, which
reaches deep into the loader instead of failing at the first key.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.base.errors import NarratorError
from narrator.rules import RulesetError, parse_ruleset, recommended
from narrator.rules.yamlio import read_yaml
from narrator.script import Plan, build_script, script_to_dict

ONUW = (Path(__file__).resolve().parents[2] / "rulesets" / "onuw.yaml").read_text("utf-8")
PATH = Path("fuzz.yaml")
# libyaml's dumper where PyYAML has it: the same text as yaml.safe_dump, 5x faster
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dump(doc: object) -> str:
    return str(yaml.dump(doc, Dumper=_DUMPER, allow_unicode=True))


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
    _expect_domain_error_only(_dump(doc))


# One Night's file holds every box now (about five times the base game's): each
# example reads five times as much, so fewer examples keep the suite's time.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    _expect_domain_error_only(_dump(doc))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_gives_only_domain_errors(text: str) -> None:
    try:
        read_yaml(text, PATH)
    except RulesetError as exc:
        assert str(exc).startswith("fuzz.yaml")
    _expect_domain_error_only(text)


# Numbers as a hostile file writes them: NaN, infinities, huge and tiny values.
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("nan"), float("inf"), float("-inf"), 1e300, -0.0]),
    st.integers(-(10**30), 10**30),
)


def _at(doc: Any, place: tuple[Any, ...]) -> Any:
    for step in place:
        doc = doc[step]
    return doc


NUMERIC_PLACES = [
    p
    for p in PLACES
    if isinstance(_at(BASE, p), int | float) and not isinstance(_at(BASE, p), bool)
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NUMERIC_PLACES), numbers)
def test_any_number_anywhere_is_refused_or_gives_a_finite_script(
    place: tuple[Any, ...], value: float
) -> None:
    """A number that loads must give a script whose JSON is strict (no NaN, no Infinity)."""
    doc = copy.deepcopy(BASE)
    parent = _at(doc, place[:-1])
    parent[place[-1]] = value
    try:
        ruleset = parse_ruleset(_dump(doc), PATH)
    except RulesetError as exc:
        assert str(exc).startswith("fuzz.yaml:") and "\n" not in str(exc)
        return
    players = ruleset.setup.min_players
    try:
        roles, _ = recommended(ruleset, players)
        script = build_script(ruleset, Plan(players=players, roles=roles))
    except NarratorError:
        return
    json.dumps(script_to_dict(script), allow_nan=False)
    assert all(math.isfinite(getattr(s, "seconds", 0.0)) for s in script.steps)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 400), st.sampled_from(["[", "{k: "]))
def test_any_nesting_parses_or_is_one_line_about_depth(depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    text = "a: " + opener * depth + closer * depth + "\n"
    try:
        read_yaml(text, PATH)
    except RulesetError as exc:
        assert depth > 20
        assert (
            str(exc)
            == "fuzz.yaml:1: nested more than 32 levels deep; a ruleset never needs that many"
        )
    else:
        assert depth <= 31


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 12))
def test_aliases_parse_or_are_one_line_about_their_expansion(levels: int, fan: int) -> None:
    lines = ["l0: &l0 [" + ", ".join(["x"] * fan) + "]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * fan) + "]")
    expanded = sum(fan**k for k in range(1, levels + 1))  # every list, expanded
    try:
        read_yaml("\n".join(lines) + "\n", PATH)
    except RulesetError as exc:
        assert expanded > 100_000 // 2
        assert "expand to more than 100,000 values" in str(exc)
    else:
        assert expanded <= 100_000
