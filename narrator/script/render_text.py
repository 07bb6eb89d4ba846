"""The text preview of a script: one line per step, with estimated start times.

Speech length is not known until the audio layer renders it, so the preview
estimates it from the number of words at a speaking rate; pauses and timers are
exact. The audio timeline gives exact times when it exists.
"""

from __future__ import annotations

from collections.abc import Iterator

from narrator.script.model import Pause, Say, Script, Step, Timer, Wait
from narrator.script.timefmt import clock

WORDS_PER_MINUTE = 160


def estimate_seconds(step: Step, wpm: int = WORDS_PER_MINUTE) -> float:
    """Seconds a step lasts: exact for pauses and timers, estimated for speech."""
    if isinstance(step, Pause | Timer):
        return step.seconds
    if isinstance(step, Say):
        return max(0.6, len(step.text.split()) * 60.0 / wpm) + step.after
    if isinstance(step, Wait):
        return 0.0
    return 1.0  # a cue


def timed_steps(script: Script, wpm: int = WORDS_PER_MINUTE) -> Iterator[tuple[float, Step]]:
    """(estimated start in seconds, step) for every step."""
    clock = 0.0
    for step in script.steps:
        yield clock, step
        clock += estimate_seconds(step, wpm)


def total_seconds(script: Script, wpm: int = WORDS_PER_MINUTE) -> float:
    return sum(estimate_seconds(step, wpm) for step in script.steps)


def describe(step: Step) -> str:
    if isinstance(step, Say | Wait):
        return step.text
    if isinstance(step, Pause):
        return f"{step.seconds:g} s of silence"
    if isinstance(step, Timer):
        warn = ", ".join(f"{w.at:g} s" for w in step.warnings)
        return f"{step.label}: {clock(step.seconds)}" + (f" (warnings at {warn})" if warn else "")
    return f"sound: {step.sound}"


def render_text(script: Script, title: str) -> str:
    """The preview printed by `narrator script --format text`."""
    roles = ", ".join(f"{r} x{n}" if n > 1 else r for r, n in script.roles)
    head = f"{title}: {script.phase} {script.night}, {script.players} players, lang {script.lang}"
    lines = [head, f"roles: {roles}"]
    lines += [f"warning: {w}" for w in script.warnings]
    lines.append("")
    for start, step in timed_steps(script):
        where = ""
        if script.rounds:
            mark = f"r{step.round}" if step.round is not None else ""
            mark += f" t{step.turn}" if step.turn is not None else ""
            where = f"{mark:<7}"
        role = step.role or "everyone"
        lines.append(f"~{clock(start):>6}  {step.kind:<5}  {where}{role:<13}  {describe(step)}")
    lines.append("")
    lines.append(f"total ~{clock(total_seconds(script))} (speech estimated)")
    return "\n".join(lines)
