"""Build the script of a night or a day from a ruleset and a plan (pure: no I/O)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Loaded when first asked for (PEP 562), like `narrator.rules`: the model of a script
# comes without the builder (and the rules under it).
_HOME = {
    "Choice": "model",
    "Cue": "model",
    "Pause": "model",
    "Plan": "builder",
    "Say": "model",
    "Script": "model",
    "Step": "model",
    "Timer": "model",
    "TimerWarning": "model",
    "Wait": "model",
    "build_script": "builder",
    "script_from_dict": "model",
    "script_to_dict": "model",
    "step_to_dict": "model",
    "timed_turns": "builder",
    "turn_key": "builder",
}
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


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'narrator.script' has no attribute {name!r}")
    return getattr(importlib.import_module(f"narrator.script.{_HOME[name]}"), name)
