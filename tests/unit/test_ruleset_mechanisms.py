"""The general mechanisms the audit asked for, on a tiny ruleset: what a deck must
contain, which cards a removal may take, spoken waits, branches, a first day's length."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.rules import RulesetError, SelectionError, check_selection, parse_ruleset
from narrator.script import Plan, Say, Timer, Wait, build_script

MINIMAL = (Path(__file__).parent / "minimal.yaml").read_text(encoding="utf-8")
PATH = Path("tiny.yaml")


def tiny(setup_extra: str = "", day_extra: str = "") -> str:
    text = MINIMAL.replace(
        "      add_in_order: [villager, villager, villager]\n",
        "      add_in_order: [villager, villager, villager]\n" + setup_extra,
    )
    return text.replace("day:\n", "day:\n" + day_extra)


WOLVES_NEEDED = """\
  must_contain:
    - team: wolves
      because: {en: nobody hunts without them; add one., it: senza di loro nessuno caccia; aggiungine uno.}
    - any_of: [seer]
      level: warning
      because: {en: nobody can look at a card., it: nessuno può guardare una carta.}
"""


def test_a_deck_without_a_required_side_is_an_error_in_the_rulesets_words() -> None:
    rs = parse_ruleset(tiny(WOLVES_NEEDED), PATH)
    report = check_selection(rs, 3, (("villager", 3),))
    assert report.errors == (
        "The deck has no card of the Wolves (Wolf): nobody hunts without them; add one.",
    )
    assert report.warnings == ("The deck has no Seer: nobody can look at a card.",)
    assert check_selection(rs, 3, (("wolf", 1), ("seer", 1), ("villager", 1))).ok


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            "    - {team: wolfs, because: {en: x, it: y}}\n",
            ":15: 'team' is 'wolfs', which is not under 'teams'; did you mean 'wolves'?",
        ),
        (
            "    - {team: wolves, any_of: [wolf], because: {en: x, it: y}}\n",
            ":15: a 'must_contain' rule names either a 'team' or 'any_of' roles",
        ),
        (
            "    - {any_of: [wolf]}\n",
            ":15: a 'must_contain' rule needs the key 'because'",
        ),
        (
            "    - {any_of: [wolf], level: fatal, because: {en: x, it: y}}\n",
            ":15: 'level' must be error or warning, not 'fatal'",
        ),
    ],
)
def test_must_contain_mistakes_name_the_line(rule: str, message: str) -> None:
    with pytest.raises(RulesetError) as info:
        parse_ruleset(tiny("  must_contain:\n" + rule), PATH)
    assert str(info.value).startswith(f"{PATH}{message}")


def test_discard_from_names_roles_and_needs_a_discard() -> None:
    text = MINIMAL.replace(
        "      add_in_order: [villager, villager, villager]\n",
        "      add_in_order: [villager, villager, villager]\n      discard_from: [villager]\n",
    )
    with pytest.raises(RulesetError, match="'discard_from' needs 'discard'"):
        parse_ruleset(text, PATH)
    text = text.replace("discard_from: [villager]", "discard_from: [villagr]\n      discard: 1")
    with pytest.raises(RulesetError, match="does not have; did you mean 'villager'"):
        parse_ruleset(text, PATH)


SPOKEN = """\
  opening:
    - wait: {en: Eyes closed; the wolf points., it: Occhi chiusi; il lupo indica.}
      spoken: true
    - wait: {en: Only shown., it: Solo mostrato.}
    - wait: {en: All on one, it: Tutti su uno}
      branch: {en: Skip to the end, it: Salta alla fine}
      branch_to: closing
  closing:
    - say: {en: Night falls., it: Scende la notte.}
"""


def test_a_spoken_wait_is_said_before_it_waits_and_a_branch_points_at_the_closing() -> None:
    rs = parse_ruleset(tiny(day_extra=SPOKEN), PATH)
    day = build_script(
        rs, Plan(players=3, roles=(("wolf", 1), ("seer", 1), ("villager", 1)), phase="day")
    )
    assert day.steps[:2] == (
        Say("Eyes closed; the wolf points."),
        Wait("Eyes closed; the wolf points."),
    )
    assert day.steps[2] == Wait("Only shown.")
    branch = day.steps[3]
    assert isinstance(branch, Wait) and branch.branch == "Skip to the end"
    assert branch.branch_to is not None
    assert day.steps[branch.branch_to] == Say("Night falls.")
    assert isinstance(day.steps[branch.branch_to - 1], Timer)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("      branch_to: closing\n", "a wait with a branch needs both"),
        ("      branch: {en: a, it: b}\n      branch_to: dawn\n", "the only target is: closing"),
    ],
)
def test_a_branch_needs_a_label_and_a_known_target(extra: str, message: str) -> None:
    steps = "  opening:\n    - wait: {en: x, it: y}\n" + extra
    with pytest.raises(RulesetError, match=message):
        parse_ruleset(tiny(day_extra=steps), PATH)


def test_only_a_wait_may_be_spoken() -> None:
    steps = "  opening:\n    - say: {en: x, it: y}\n      spoken: true\n"
    with pytest.raises(RulesetError, match="spoken"):
        parse_ruleset(tiny(day_extra=steps), PATH)


def test_the_first_day_may_have_its_own_length() -> None:
    text = MINIMAL.replace("    seconds: 60\n", "    seconds: 60\n    first_day_seconds: 30\n")
    rs = parse_ruleset(text, PATH)
    roles = (("wolf", 1), ("seer", 1), ("villager", 1))

    def length(night: int) -> float:
        day = build_script(rs, Plan(players=3, roles=roles, phase="day", night=night))
        return next(s.seconds for s in day.steps if isinstance(s, Timer))

    assert (length(1), length(2)) == (30.0, 60.0)


def test_a_selection_error_is_raised_for_a_missing_side() -> None:
    rs = parse_ruleset(tiny(WOLVES_NEEDED), PATH)
    with pytest.raises(SelectionError, match="no card of the Wolves"):
        build_script(rs, Plan(players=3, roles=(("villager", 3),)))
