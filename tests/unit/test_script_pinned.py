"""The scripts of every shipped ruleset, pinned: the day spoken from the ruleset's flow
(`rules/flow.py`) says exactly what the day said before the flow existed.

`data/scripts_before_flow.json` holds, for every shipped ruleset, language, night
and phase, one digest of its scripts -- for each recommended deck, a few random
decks, the options all on and a discussion of the table's own length -- as the
builder made them before it walked the flow (the commit that added this file). A
script that changes fails with its group; a deliberate change of a ruleset's words
is then a new digest, written by running this file with PIN_SCRIPTS=1.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.rules.draw import random_deck
from narrator.rules.loader import load_ruleset, parse_ruleset
from narrator.rules.model import Ruleset
from narrator.rules.selection import recommended
from narrator.script import Plan, build_script, script_to_dict

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).with_name("data") / "scripts_before_flow.json"


def _decks(ruleset: Ruleset) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
    low, high = ruleset.setup.min_players, ruleset.setup.max_players
    decks = []
    for players in range(low, high + 1):
        for box in (None, *(b for b, _ in ruleset.boxes)):
            try:
                roles, _ = recommended(ruleset, players, box)
            except Exception:
                continue
            decks.append((players, roles))
    for seed in range(3):
        for players in (low, high):
            decks.append((players, random_deck(ruleset, players, (), random.Random(seed))))
    return list(dict.fromkeys(decks))


def plans() -> Iterator[tuple[str, Ruleset, Plan]]:
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        ruleset = load_ruleset(path)
        all_on = tuple((o.id, 1.0 if o.kind == "flag" else 20.0) for o in ruleset.options)
        nights = range(1, (ruleset.nights or 3) + 1)
        for players, roles in _decks(ruleset):
            for lang in ruleset.languages:
                for night in nights:
                    for phase in ("night", "day"):
                        for options in ((), all_on) if all_on else ((),):
                            for talk in (None, 90.0) if phase == "day" else (None,):
                                plan = Plan(
                                    players=players,
                                    roles=roles,
                                    night=night,
                                    lang=lang,
                                    phase=phase,
                                    options=options,
                                    discussion_seconds=talk,
                                    seed=7,
                                )
                                key = "|".join(
                                    map(
                                        str,
                                        (ruleset.id, players, roles, lang, night, phase)
                                        + (options, talk),
                                    )
                                )
                                yield key, ruleset, plan


def digest(ruleset: Ruleset, plan: Plan) -> str:
    doc = script_to_dict(build_script(ruleset, plan))
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def pinned_now() -> dict[str, str]:
    """One digest per ruleset, language, night and phase, over all its plans' scripts."""
    groups: dict[str, list[str]] = {}
    for key, ruleset, plan in plans():
        group = f"{ruleset.id} {plan.lang} night {plan.night} {plan.phase}"
        groups.setdefault(group, []).append(f"{key}={digest(ruleset, plan)}")
    return {
        group: hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()[:24]
        for group, lines in groups.items()
    }


def test_every_shipped_script_is_the_script_pinned() -> None:
    now = pinned_now()
    if os.environ.get("PIN_SCRIPTS"):
        PINNED.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", "utf-8")
    pinned = json.loads(PINNED.read_text("utf-8"))
    assert sorted(now) == sorted(pinned), "the rulesets, languages or nights differ"
    changed = [group for group in sorted(now) if now[group] != pinned[group]]
    assert not changed, f"the scripts changed of: {', '.join(changed)}"
    assert sum(1 for _ in plans()) > 1000


@pytest.mark.parametrize("phase", ["night", "day"])
def test_the_pinned_digest_sees_a_changed_line(phase: str) -> None:
    """The pin would fail: one word of a shipped day or night changed changes its digest."""
    key, ruleset, plan = next((k, r, p) for k, r, p in plans() if r.id == "lupus")
    plan = dataclasses.replace(plan, phase=phase)
    before = digest(ruleset, plan)
    text = (ROOT / "rulesets" / "lupus.yaml").read_text("utf-8")
    word = "Everyone, open your eyes." if phase == "day" else "close your eyes"
    assert word in text
    changed = parse_ruleset(text.replace(word, word.upper()), "lupus.yaml")
    assert digest(changed, plan) != before, key
