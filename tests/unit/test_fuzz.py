"""Property-based fuzzing: any mangled ruleset yields a RulesetError, never a crash.

Also any number at any numeric place (NaN, infinities, 1e300): refused with a
RulesetError, or it builds a script whose JSON is strict.

Two generators: random YAML documents (any shape at all), and the shipped One Night
ruleset with one part replaced by a random value -- the realistic mistake, which
reaches deep into the loader instead of failing at the first key.

One Night's file is 3,700 lines: writing it out and reading it back took ~80% of
each example. So the file is read once (`read_yaml`, lines and all), and each
example reads only its new value through the same reader and sets it in a copy of
the file's tree, at its place and line (`_mangled`); the loader then reads that tree
exactly as `parse_ruleset` hands it over. That this is the tree the whole mangled
file reads to is itself a property, checked over the whole text
(`test_a_part_read_alone_is_the_part_read_in_its_file`).

How many examples each test tries: `examples()` (tests/support/examples.py), ten
times more with HYPOTHESIS_PROFILE=deep (docs/PERFORMANCE.md, "The test suite").
"""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.base.errors import NarratorError
from narrator.rules import Ruleset, RulesetError, parse_ruleset, recommended
from narrator.rules.loader import _ruleset  # parse_ruleset's second half: the tree read
from narrator.rules.read_common import ReadContext
from narrator.rules.yamlio import Located, read_yaml
from narrator.script import Plan, build_script, script_to_dict
from tests.support.examples import examples
from tests.unit.helpers import YAML_DUMPER, YAML_LOADER

ONUW = (Path(__file__).resolve().parents[2] / "rulesets" / "onuw.yaml").read_text("utf-8")
PATH = Path("fuzz.yaml")


def _dump(doc: object) -> str:
    return str(yaml.dump(doc, Dumper=YAML_DUMPER, allow_unicode=True))


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

# Numbers as a hostile file writes them: NaN, infinities, huge and tiny values.
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("nan"), float("inf"), float("-inf"), 1e300, -0.0]),
    st.integers(-(10**30), 10**30),
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


BASE = yaml.load(ONUW, Loader=YAML_LOADER)
PLACES = _paths(BASE)
TREE = read_yaml(ONUW, PATH)  # the file as the loader reads it: every mapping Located


def _expect_domain_error_only(text: str) -> None:
    try:
        parse_ruleset(text, PATH)
    except RulesetError as exc:
        _one_line(exc)


def _one_line(exc: RulesetError) -> None:
    message = str(exc)
    assert message.startswith("fuzz.yaml")
    assert "\n" not in message


def _at(doc: Any, place: tuple[Any, ...]) -> Any:
    for step in place:
        doc = doc[step]
    return doc


def _mangled_plain(place: tuple[Any, ...], value: Any, delete: bool) -> Any:
    """The file's plain data with the part at `place` replaced by `value` (or gone)."""
    doc = copy.deepcopy(BASE)
    parent = _at(doc, place[:-1])
    if delete:
        del parent[place[-1]]
    else:
        parent[place[-1]] = value
    return doc


def _mangled(place: tuple[Any, ...], value: Any, delete: bool) -> Any:
    """The tree the file with the part at `place` replaced by `value` (or gone) reads
    to: the file's tree with the mappings and lists on the way to `place` copied (the
    rest is shared: the loader only reads, `_read` checks it), and `value` written and
    read by itself, its mappings' lines moved to the place's. Raises the reader's
    RulesetError for a value it refuses."""
    tree = parent = _shallow(TREE)
    for step in place[:-1]:
        parent[step] = _shallow(parent[step])
        parent = parent[step]
    key = place[-1]
    if delete:
        del parent[key]
        if isinstance(parent, Located):
            del parent.key_lines[key]
        return tree
    line = _line_of(tree, place)
    parent[key] = _moved(read_yaml(_dump({"v": value}), PATH)["v"], line - 1)
    return tree


def _shallow(node: Any) -> Any:
    if isinstance(node, Located):
        out = Located(node)
        out.line, out.key_lines = node.line, dict(node.key_lines)
        return out
    assert isinstance(node, list)
    return list(node)


def _line_of(tree: Any, place: tuple[Any, ...]) -> int:
    """The line of the part at `place`: its key's, else its nearest mapping's."""
    line, node = 1, tree
    for step in place:
        if isinstance(node, Located):
            line = node.line_of(step)
        node = node[step]
    return line


def _moved(node: Any, by: int) -> Any:
    if isinstance(node, Located):
        node.line += by
        node.key_lines = {k: n + by for k, n in node.key_lines.items()}
        for child in node.values():
            _moved(child, by)
    elif isinstance(node, list):
        for child in node:
            _moved(child, by)
    return node


def _read(tree: Any) -> Ruleset:
    """The loader on a tree read from YAML: what `parse_ruleset` does after reading.
    It leaves the tree as it found it (the file's, shared by every example)."""
    try:
        return _ruleset(ReadContext(PATH), tree)
    finally:
        assert TREE == BASE, "the loader changed the tree it was given"


@settings(
    max_examples=examples(300, deep=3000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(values)
def test_random_documents_give_only_domain_errors(doc: Any) -> None:
    _expect_domain_error_only(_dump(doc))


@settings(
    max_examples=examples(150, deep=1500),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(PLACES), values, st.booleans())
def test_one_mangled_part_of_a_real_ruleset_gives_only_domain_errors(
    place: tuple[Any, ...], value: Any, delete: bool
) -> None:
    try:
        _read(_mangled(place, value, delete))
    except RulesetError as exc:
        _one_line(exc)


@settings(
    max_examples=examples(10, deep=200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(PLACES), values | numbers, st.booleans())
def test_a_part_read_alone_is_the_part_read_in_its_file(
    place: tuple[Any, ...], value: Any, delete: bool
) -> None:
    """What the two tests around stand on: the whole mangled file, written out and
    read, is the tree `_mangled` makes, value for value and type for type (or both are
    refused), and the loader says the same of both (but for the lines it names: the
    whole file's are those of its text written out again)."""
    text = _dump(_mangled_plain(place, value, delete))
    try:
        whole = read_yaml(text, PATH)
    except RulesetError:
        whole = None
    try:
        alone = _mangled(place, value, delete)
    except RulesetError:
        alone = None
    assert _same(whole, alone)
    if whole is None:
        return
    said = []
    for tree in (whole, alone):
        try:
            said.append(_read(tree).id)
        except RulesetError as exc:
            said.append(re.sub(r"\bline \d+", "line N", exc.message))
    assert said[0] == said[1]


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


@settings(max_examples=examples(200, deep=2000), deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_gives_only_domain_errors(text: str) -> None:
    try:
        read_yaml(text, PATH)
    except RulesetError as exc:
        assert str(exc).startswith("fuzz.yaml")
    _expect_domain_error_only(text)


NUMERIC_PLACES = [
    p
    for p in PLACES
    if isinstance(_at(BASE, p), int | float) and not isinstance(_at(BASE, p), bool)
]


@settings(
    max_examples=examples(100, deep=2000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(NUMERIC_PLACES), numbers)
def test_any_number_anywhere_is_refused_or_gives_a_finite_script(
    place: tuple[Any, ...], value: float
) -> None:
    """A number that loads must give a script whose JSON is strict (no NaN, no Infinity)."""
    try:
        ruleset = _read(_mangled(place, value, delete=False))
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


@settings(max_examples=examples(60, deep=600), deadline=None)
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


@settings(max_examples=examples(60, deep=600), deadline=None)
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
