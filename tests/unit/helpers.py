"""Small helpers shared by the pure tests: compact views of a script."""

from __future__ import annotations

from functools import cache
from itertools import groupby
from pathlib import Path

import yaml

from narrator.moderator.board import Place, parse_place
from narrator.rules import Ruleset, load_ruleset, parse_roles
from narrator.script import Pause, Plan, Say, Script, Timer, Wait, build_script

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
# libyaml's loader and dumper where PyYAML has them: the same data and text as
# yaml.safe_load and yaml.safe_dump, several times faster (a mutant in
# tests/unit/test_flow.py is a whole ruleset; the fuzzer reads One Night at collection)
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
YAML_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@cache  # a Ruleset is frozen; One Night's file takes a noticeable time to read
def ruleset(ruleset_id: str) -> Ruleset:
    return load_ruleset(RULESETS / f"{ruleset_id}.yaml")


def script(ruleset_id: str, players: int, roles: str, **plan: object) -> Script:
    rs = ruleset(ruleset_id)
    return build_script(rs, Plan(players=players, roles=parse_roles(roles, rs), **plan))  # type: ignore[arg-type]


def seq(script: Script) -> list[tuple[str, str | None, str | float]]:
    """(kind, role, text or seconds) for every step."""
    out: list[tuple[str, str | None, str | float]] = []
    for step in script.steps:
        if isinstance(step, Say | Wait):
            out.append((step.kind, step.role, step.text))
        elif isinstance(step, Pause | Timer):
            out.append((step.kind, step.role, step.seconds))
        else:
            out.append((step.kind, step.role, step.sound))
    return out


def calls(script: Script) -> list[str]:
    """The roles called, in order; consecutive steps of one role count once."""
    return [role for role, _ in groupby(s.role for s in script.steps if s.role is not None)]


def turn(
    role: str, *lines: str, seconds: float = 10.0, close: str
) -> list[tuple[str, str | None, str | float]]:
    """The expected steps of one call: its lines, the action time, close eyes."""
    return [
        *(("say", role, line) for line in lines),
        ("pause", role, seconds),
        ("say", role, close),
    ]


def places(*ids: str) -> list[Place]:
    """The engine's places, written as the pages and the log write them (`seat:2` is
    the second seat): a test reads as the game does."""
    return [parse_place(i) for i in ids]
