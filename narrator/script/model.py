"""The script of a night or a day: an ordered tuple of immutable steps.

A `Script` is the one thing every front end renders: the text preview, the JSON of
`narrator script`, the audio timeline and the TUI all read the same value. Steps
are data -- a pause is a number of seconds, never a `time.sleep` -- so a script can
be compared, serialised and mixed sample-accurately.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Phase = Literal["night", "day"]


@dataclass(frozen=True, slots=True)
class Say:
    """Speak `text` aloud, then leave `after` seconds before the next sound.

    `after` is 0 for most lines (the mixer leaves a breath between two calls); the
    builder sets it on a wake call followed by its instruction, so the table has
    time to open its eyes first. It is part of the script, not of the audio, so
    the preview, the JSON and the render all agree on it.
    """

    text: str
    role: str | None = None
    round: int | None = None
    turn: int | None = None
    after: float = 0.0
    kind: Literal["say"] = field(default="say", init=False)


@dataclass(frozen=True, slots=True)
class Pause:
    """Leave `seconds` of silence (the tapping bed keeps going)."""

    seconds: float
    role: str | None = None
    round: int | None = None
    turn: int | None = None
    kind: Literal["pause"] = field(default="pause", init=False)


@dataclass(frozen=True, slots=True)
class Cue:
    """Play a named sound (for instance `chime` or `bell`)."""

    sound: str
    role: str | None = None
    round: int | None = None
    turn: int | None = None
    kind: Literal["cue"] = field(default="cue", init=False)


@dataclass(frozen=True, slots=True)
class TimerWarning:
    """A line spoken `at` seconds before a timer runs out."""

    at: float
    text: str


@dataclass(frozen=True, slots=True)
class Timer:
    """A countdown of `seconds` shown on screen, with spoken `warnings`.

    `label` names what is being timed ("Discussion"); `end` is spoken when it runs
    out. A front end may lengthen or shorten a running timer: the script only holds
    its starting length.
    """

    seconds: float
    label: str
    warnings: tuple[TimerWarning, ...] = ()
    end: str | None = None
    role: str | None = None
    round: int | None = None
    turn: int | None = None
    kind: Literal["timer"] = field(default="timer", init=False)


@dataclass(frozen=True, slots=True)
class Wait:
    """Stop until the user goes on; `text` tells them what the table is doing.

    A wait may offer a way round what follows: `branch` says what it is (Wherewolf:
    "one player got every accusation: burned at once") and `branch_to` is the
    index of the step it jumps to.
    """

    text: str
    role: str | None = None
    round: int | None = None
    turn: int | None = None
    kind: Literal["wait"] = field(default="wait", init=False)
    branch: str | None = None
    branch_to: int | None = None


Step = Say | Pause | Cue | Timer | Wait


@dataclass(frozen=True, slots=True)
class Choice:
    """One random choice a turn made (which Alien instruction, which question)."""

    role: str | None  # the role whose turn it is; None for a call of the table
    order: str  # the turn's place in the night ("1a")
    index: int  # which of the turn's choices, from 0
    text: str  # what was said


@dataclass(frozen=True, slots=True)
class Script:
    """The steps of one phase of one game, plus what they were built from."""

    ruleset: str
    phase: Phase
    night: int
    lang: str
    players: int
    roles: tuple[tuple[str, int], ...]
    steps: tuple[Step, ...]
    warnings: tuple[str, ...] = ()
    rounds: bool = False
    # The part of the night or day each step belongs to ("Accusation", "Round 2 ·
    # Turn 3"), in the script's language: what a front end shows as its stages.
    stages: tuple[str, ...] = ()
    seed: int | None = None  # what the random choices were drawn from
    choices: tuple[Choice, ...] = ()  # the random choices made for this script
    options: tuple[tuple[str, float], ...] = ()  # the options that differ from the default
    # The calls of the whole table (a ruleset's `night: calls:`, whose steps speak to
    # no role): each one's id and its first and last step, so that a front end knows
    # when it is heard (the phones' window for "everyone, look at your mark").
    calls: tuple[tuple[str, int, int], ...] = ()


def step_to_dict(step: Step, *, rounds: bool = False) -> dict[str, Any]:
    """The JSON shape of a step, as `narrator script --format json` prints it."""
    out: dict[str, Any] = {"kind": step.kind, "role": step.role}
    if isinstance(step, Say | Wait):
        out["text"] = step.text
        if isinstance(step, Say) and step.after:
            out["after"] = step.after
        if isinstance(step, Wait) and step.branch is not None:
            out["branch"] = step.branch
            out["branch_to"] = step.branch_to
    elif isinstance(step, Pause):
        out["seconds"] = step.seconds
    elif isinstance(step, Cue):
        out["sound"] = step.sound
    elif isinstance(step, Timer):
        out["seconds"] = step.seconds
        out["label"] = step.label
        out["warnings"] = [{"at": w.at, "text": w.text} for w in step.warnings]
        out["end"] = step.end
    if rounds:
        out["round"] = step.round
        if step.turn is not None:
            out["turn"] = step.turn
    return out


def script_to_dict(script: Script) -> dict[str, Any]:
    """The JSON document of `narrator script`."""
    return {
        "ruleset": script.ruleset,
        "phase": script.phase,
        "night": script.night,
        "lang": script.lang,
        "players": script.players,
        "roles": dict(script.roles),
        "warnings": list(script.warnings),
        "stages": list(script.stages),
        "seed": script.seed,
        "choices": [
            {"role": c.role, "order": c.order, "index": c.index, "text": c.text}
            for c in script.choices
        ],
        "options": dict(script.options),
        "steps": [step_to_dict(s, rounds=script.rounds) for s in script.steps],
    } | ({"calls": [list(c) for c in script.calls]} if script.calls else {})


def step_from_dict(data: dict[str, Any]) -> Step:
    """The reverse of `step_to_dict`."""
    common: dict[str, Any] = {
        "role": data.get("role"),
        "round": data.get("round"),
        "turn": data.get("turn"),
    }
    kind = data["kind"]
    if kind == "say":
        return Say(data["text"], after=float(data.get("after", 0.0)), **common)
    if kind == "pause":
        return Pause(float(data["seconds"]), **common)
    if kind == "cue":
        return Cue(data["sound"], **common)
    if kind == "wait":
        return Wait(
            data["text"], branch=data.get("branch"), branch_to=data.get("branch_to"), **common
        )
    if kind == "timer":
        warnings = tuple(TimerWarning(float(w["at"]), w["text"]) for w in data["warnings"])
        return Timer(float(data["seconds"]), data["label"], warnings, data.get("end"), **common)
    raise ValueError(f"unknown step kind {kind!r}")


def script_from_dict(data: dict[str, Any]) -> Script:
    """A `Script` from the JSON of `narrator script --format json`."""
    return Script(
        ruleset=data["ruleset"],
        phase=data["phase"],
        night=int(data["night"]),
        lang=data["lang"],
        players=int(data["players"]),
        roles=tuple((str(k), int(v)) for k, v in data["roles"].items()),
        steps=tuple(step_from_dict(s) for s in data["steps"]),
        warnings=tuple(data.get("warnings", ())),
        rounds=any("round" in s for s in data["steps"]),
        stages=tuple(str(n) for n in data.get("stages", ())),
        seed=data.get("seed"),
        choices=tuple(
            Choice(c.get("role"), str(c["order"]), int(c["index"]), str(c["text"]))
            for c in data.get("choices", ())
        ),
        options=tuple((str(k), float(v)) for k, v in data.get("options", {}).items()),
        calls=tuple((str(c), int(a), int(b)) for c, a, b in data.get("calls", ())),
    )
