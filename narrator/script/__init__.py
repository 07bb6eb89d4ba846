"""Build the script of a night or a day from a ruleset and a plan (pure: no I/O)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.base.lazy import lazy_exports

if TYPE_CHECKING:
    from narrator.script.builder import build_script as build_script
    from narrator.script.builder import day_timer as day_timer
    from narrator.script.builder import timed_turns as timed_turns
    from narrator.script.builder import turn_key as turn_key
    from narrator.script.model import Choice as Choice
    from narrator.script.model import Cue as Cue
    from narrator.script.model import Pause as Pause
    from narrator.script.model import Say as Say
    from narrator.script.model import Script as Script
    from narrator.script.model import Step as Step
    from narrator.script.model import Timer as Timer
    from narrator.script.model import TimerWarning as TimerWarning
    from narrator.script.model import Wait as Wait
    from narrator.script.model import script_from_dict as script_from_dict
    from narrator.script.model import script_to_dict as script_to_dict
    from narrator.script.model import step_to_dict as step_to_dict
    from narrator.script.plan import Plan as Plan

# Loaded when first asked for, like `narrator.rules`: the model of a script
# comes without the builder (and the rules under it).
__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "builder": ("build_script", "day_timer", "timed_turns", "turn_key"),
        "model": (
            "Choice",
            "Cue",
            "Pause",
            "Say",
            "Script",
            "Step",
            "Timer",
            "TimerWarning",
            "Wait",
            "script_from_dict",
            "script_to_dict",
            "step_to_dict",
        ),
        "plan": ("Plan",),
    },
)
