"""Build the script of a night or a day from a ruleset and a plan (pure: no I/O)."""

from __future__ import annotations

from narrator.script.builder import Plan, build_script, timed_turns, turn_key
from narrator.script.model import (
    Choice,
    Cue,
    Pause,
    Say,
    Script,
    Step,
    Timer,
    TimerWarning,
    Wait,
    script_from_dict,
    script_to_dict,
    step_to_dict,
)

__all__ = [
    "Choice",
    "Cue",
    "Pause",
    "Plan",
    "Say",
    "Script",
    "Step",
    "Timer",
    "TimerWarning",
    "Wait",
    "build_script",
    "script_from_dict",
    "script_to_dict",
    "step_to_dict",
    "timed_turns",
    "turn_key",
]
