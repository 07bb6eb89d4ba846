"""What the table chose for a night or a day -- the `Plan` a script is built from --
and its check against the ruleset.

The plan holds only what the table chose (players, roles, night number, language,
pace, options, the table's own times) and nothing about the game's state. Its
defaults and ranges are `defaults.py`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from narrator.base.errors import did_you_mean
from narrator.rules import Ruleset, SelectionError
from narrator.rules.selection import check_known
from narrator.script.defaults import PACE, PACE_RANGE, WAKE_GAP, WAKE_GAP_RANGE
from narrator.script.model import Phase


@dataclass(frozen=True, slots=True)
class Plan:
    """What the table chose. Times are seconds; `pace` scales every night silence."""

    players: int
    roles: tuple[tuple[str, int], ...]
    night: int = 1
    lang: str = "en"
    phase: Phase = "night"
    action_times: tuple[tuple[str, float], ...] = field(default=())
    pace: float = PACE
    discussion_seconds: float | None = None
    turn_seconds: float | None = None  # rounds: None = the ruleset's; 0 = wait for the user
    # Random choices (an Alien's instruction) are drawn from this: the same seed
    # gives the same night. The caller draws a fresh one per game; None counts as 0.
    seed: int | None = None
    options: tuple[tuple[str, float], ...] = ()  # the ruleset's options: 1/0 for flags
    # Silence after "X, wake up." before the instruction (scaled by pace): eyes open first.
    wake_gap: float = WAKE_GAP
    # The cards are dealt on the players' phones and the night is played there: a line
    # with a phones' variant says that one ("tap a player on your phone"), not the
    # table's ("point at a player").
    phones: bool = False


def check_plan(ruleset: Ruleset, plan: Plan) -> None:
    """SelectionError, in one line, for a plan the ruleset cannot play."""
    if plan.lang not in ruleset.languages:
        raise SelectionError(
            f"'{ruleset.id}' has no '{plan.lang}' lines{did_you_mean(plan.lang, ruleset.languages)}"
            f"; choose --lang from {', '.join(ruleset.languages)}"
        )
    if plan.night < 1 or (ruleset.nights is not None and plan.night > ruleset.nights):
        if ruleset.nights == 1:
            raise SelectionError(f"'{ruleset.id}' has one night only; leave out --night")
        most = "1 or more" if ruleset.nights is None else f"1 to {ruleset.nights}"
        raise SelectionError(f"'{ruleset.id}' has no night {plan.night}; choose --night {most}")
    if plan.phase not in ("night", "day"):
        raise SelectionError(f"phase must be night or day, not '{plan.phase}'")
    slowest, fastest = PACE_RANGE
    if not slowest <= plan.pace <= fastest:
        raise SelectionError(
            f"pace {plan.pace:g} is out of range; choose {slowest:g} to {fastest:g} "
            "(1 = as written)"
        )
    shortest, longest = WAKE_GAP_RANGE
    if not shortest <= plan.wake_gap <= longest:
        raise SelectionError(
            f"wake gap {plan.wake_gap:g}s is out of range; choose {shortest:g} to "
            f"{longest:g} seconds"
        )
    for key, seconds in plan.action_times:
        role_id = key.split(":", 1)[0]  # "doppelganger" or "doppelganger:1b" (a follow-up)
        if role_id not in ruleset.role_ids:
            raise SelectionError(
                f"action time for unknown role '{role_id}'{did_you_mean(role_id, ruleset.role_ids)}"
            )
        if not 0 <= seconds <= 600:
            raise SelectionError(f"action time {seconds:g}s for '{key}': choose 0 to 600")
    ids = tuple(o.id for o in ruleset.options)
    for option_id, value in plan.options:
        check_known(ruleset.id, "option", option_id, ids)
        option = ruleset.option(option_id)
        if option.kind == "flag" and value not in (0.0, 1.0):
            raise SelectionError(f"option '{option_id}' is on or off (1 or 0), not {value:g}")
        if option.kind == "seconds" and not 0 <= value <= 600:
            raise SelectionError(f"option '{option_id}': choose 0 to 600 seconds, not {value:g}")
