"""What happens after the night, as data: the game's phases, read once from the ruleset.

The game past its night is walked in one place, the engine's referee
(`moderator/referee.py`), for the phones' table and for `narrator replay`; the app's
spoken day says each phase's `says`. (Each used to write the flow itself, and chose
"trial or vote" from a different key.) `build_flow(ruleset)` makes it from
the ruleset's `day:`, `outcome: vote:`, `rounds:`, `actions:` and `nights:` (every
`Ruleset` carries its own, `ruleset.flow`); `check.check_flow` refuses, in one line
with file:line, a ruleset whose parts would make two drivers disagree.

The API, for a consumer:

    flow = ruleset.flow
    flow.phases                  # Phase, in order: night, day, then the vote's, end
    phase = flow.phase("day")    # KeyError if the game has no such phase
    flow.has("accusation")
    phase.opens, phase.ends      # Trigger: "host" | "voice" | "timer" | "votes" | "rules"
    flow.next("accusation", night=n, suspects=False)   # -> "verdict" (the branch)
    flow.next("verdict", night=n)                      # -> "night", or "end" when the
                                                       #    ruleset's nights are played
    phase.timer                  # Talk (the discussion, the defence): its `Timed`
    phase.window                 # Window: the vote's key and seconds on the phones
    phase.rounds                 # Rounds: the day is its rounds of turns (Secret Moon)
    phase.says                   # the Parts the app's day script speaks in it
    flow.vote                    # DayVote: `spoken` (day.vote) and `counted`
                                 # (outcome.vote; `stated` False: the defaults of its
                                 # kind, for a ruleset with no `outcome`)
    flow.dawn                    # the night's dawn powers apply as it ends
    flow.judged                  # when the engine judges the end (None: nobody does)
    flow.turns                   # the rounds' turns are played on the phones (actions)
    script.day_timer(ruleset, plan, phase.name)   # its Timer step as the day script
                                                  # runs it (first-day length, warnings)

The referee walks it so (the phones' table and `narrator replay` drive it):

    name, night = "night", 1
    while name is not None:                      # None: after "end"
        ...play flow.phase(name) until it ends by itself (phase.ends) or the host
        goes on; after any death, if flow.judged, ask the engine whether it is over...
        name = flow.next(name, night=night, suspects=bool(the accusation's suspects))
        night += name == "night"

A phase:

- `night`: opened by the host (after the cards are seen, or after a verdict); ended
  by the voice, once it has said the night (the host may end it sooner); at its end
  the dawn: with `flow.dawn` the night's kills and arrests apply, and the game may
  end there (`judged` any_time or day_start).
- `day`: the day's opening, then the rounds of turns (`rounds`: each "go on" of the
  host plays the next round, and the last ends the day) or the discussion (`timer`:
  it ends when its seconds run out). Then the vote's first phase; with no vote the
  next night (or the end, once the nights are played).
- `vote` (a `countdown`: everyone at once, One Night): ends when every voter has voted
  or its window closes; then the end, whatever the nights.
- `accusation` -> `defence` -> `ballot` -> `verdict` (an `accusation_ballot`: Lupus,
  Mafia, Wherewolf): the accusation ends with the votes (branch `no_suspects`: the
  accusation alone decided -- one player accused by all, the final two's vote, or
  nobody accused -- and the verdict comes at once); the defence is timed; the ballot
  ends with the votes; the verdict waits for the host, then the next night (branch
  `nights_over`: the end).
- `end`: nothing follows.

Whatever the phase, the host may go on sooner, and a death may end the game when the
rules judge it (`judged`): both are the driver's, not a phase's.

The spoken day is the phases' `says`, in order (`spoken_day`): `Steps` (the day's
opening, or its closing said before the night falls), `Turns` (the rounds),
`Talk` (a timed stage: the discussion, the defence), `Accuse` (the call to accuse and
what the table does while the accusations are counted) and `Count` (the spoken
count, then what the table does after the signal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from narrator.rules.model import Call, Rounds, SpokenCount, StepSpec, Text, Timed, Vote
from narrator.rules.powers import VoteRule

if TYPE_CHECKING:
    from narrator.rules.model import Ruleset

PhaseName = Literal["night", "day", "vote", "accusation", "defence", "ballot", "verdict", "end"]
# What opens or ends a phase: the host's "go on", the voice having said its script,
# a timer's seconds run out, every vote in (or the window closed), the rules' judgement.
Trigger = Literal["host", "voice", "timer", "votes", "rules"]
WindowKey = Literal["seconds", "accusation_seconds", "ballot_seconds"]
# The style of a day's vote as the voice calls it, and the kind it is counted as.
KIND_OF_STYLE: dict[str, Literal["simultaneous", "accusation_ballot"]] = {
    "countdown": "simultaneous",
    "accusation_ballot": "accusation_ballot",
}


@dataclass(frozen=True, slots=True)
class DayVote:
    """The day's vote, one record: how the voice calls it (`spoken`, the day's `vote:`)
    and how it is counted (`counted`, `outcome: vote:`, or for a ruleset with no
    `outcome` the defaults of its style's kind)."""

    spoken: Vote
    counted: VoteRule
    # the ruleset says how it is counted (`outcome: vote:`); False: `counted` holds the
    # defaults of its kind, and a driver may count by its own (the phones' table counts
    # One Night's vote with physical cards by the seed's two votes, the referee's
    # `judges.PhysicalJudge`)
    stated: bool = True

    @property
    def style(self) -> Literal["countdown", "accusation_ballot"]:
        return self.spoken.style

    @property
    def trial(self) -> bool:
        """Accusation, defence, ballot and verdict (else everyone at once)."""
        return self.spoken.style == "accusation_ballot"


@dataclass(frozen=True, slots=True)
class Window:
    """How long the phones keep a vote open: the `VoteRule` key and its seconds (a
    table may keep its own, `table.state.Options`)."""

    key: WindowKey
    seconds: float


# -- what the app's day script says in a phase -------------------------------------


@dataclass(frozen=True, slots=True)
class Steps:
    """Steps of everyone: the day's `opening`, or its `closing` (before night falls)."""

    what: Literal["opening", "closing"]
    steps: tuple[StepSpec, ...]


@dataclass(frozen=True, slots=True)
class Turns:
    """Rounds of numbered turns (Secret Moon): the calls of each round and turn."""

    rounds: Rounds


@dataclass(frozen=True, slots=True)
class Talk:
    """A timed stage: its start, timer and warnings, its end. `name` addresses it."""

    name: Literal["discussion", "defence"]
    timed: Timed


@dataclass(frozen=True, slots=True)
class Accuse:
    """The call to accuse, then what the table does while the accusations are counted
    (`wait`; none given: one wait showing the tie rule)."""

    call: Call
    wait: tuple[StepSpec, ...]
    tie_rule: Text


@dataclass(frozen=True, slots=True)
class Count:
    """The spoken count ("three, two, one") and the signal, then what the table does
    (the result and the tie rule, shown while it waits)."""

    countdown: SpokenCount
    result: Text
    tie_rule: Text
    trial: bool  # the ballot of a trial, else everyone's vote at once


Part = Steps | Turns | Talk | Accuse | Count


@dataclass(frozen=True, slots=True)
class Branch:
    """A second way out of a phase, taken when `when` holds: `no_suspects` (the
    accusation alone decided), `nights_over` (the ruleset's last night is played)."""

    when: Literal["no_suspects", "nights_over"]
    to: PhaseName


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase after the cards are seen: what opens it, what ends it by itself (the
    host may always go on sooner), what follows, and what the app's day says in it."""

    name: PhaseName
    opens: Trigger
    ends: Trigger | None  # None: the end of the game
    then: PhaseName | None  # None: the end of the game
    branch: Branch | None = None
    says: tuple[Part, ...] = ()
    timer: Talk | None = None  # ends "timer": the timed stage that runs
    window: Window | None = None  # ends "votes": how long the phones vote
    rounds: Rounds | None = None  # the day is its rounds of turns


@dataclass(frozen=True, slots=True)
class Flow:
    """The game after the night: its phases in order, and what they share."""

    phases: tuple[Phase, ...]
    vote: DayVote | None
    nights: int | None  # None: as many as the game lasts
    dawn: bool  # the night's `dawn` powers apply as it ends (kills, arrests)
    judged: Literal["at_end", "any_time", "day_start"] | None  # None: no `outcome`
    turns: bool  # the rounds' turns are played on the phones (`actions:`)

    def phase(self, name: str) -> Phase:
        for phase in self.phases:
            if phase.name == name:
                return phase
        raise KeyError(name)

    def has(self, name: str) -> bool:
        return any(phase.name == name for phase in self.phases)

    @property
    def names(self) -> tuple[PhaseName, ...]:
        return tuple(phase.name for phase in self.phases)

    def next(self, name: str, *, night: int, suspects: bool = True) -> PhaseName | None:
        """What follows phase `name` when it ends on night `night`; `suspects`: the
        accusation named suspects for a ballot. None after the end."""
        phase = self.phase(name)
        branch = phase.branch
        if branch is not None:
            if branch.when == "no_suspects" and not suspects:
                return branch.to
            if branch.when == "nights_over" and self.nights is not None and night >= self.nights:
                return branch.to
        return phase.then

    @property
    def spoken_day(self) -> tuple[Part, ...]:
        """What the app's day script says, in order: every phase's `says`."""
        return tuple(part for phase in self.phases for part in phase.says)


def build_flow(ruleset: Ruleset) -> Flow:
    """The flow of `ruleset`. Total: a ruleset whose parts disagree still gets one (the
    loader's `check_flow` then refuses it, naming the line)."""
    day, outcome = ruleset.day, ruleset.outcome
    vote = None
    if day.vote is not None:
        kind = KIND_OF_STYLE[day.vote.style]
        counted = outcome.vote if outcome is not None else None
        if counted is None or counted.kind != kind:
            vote = DayVote(day.vote, VoteRule(kind=kind), stated=False)
        else:
            vote = DayVote(day.vote, counted)
    rounds = ruleset.rounds
    opening: list[Part] = [Steps("opening", day.opening)]
    if rounds is not None:
        opening.append(Turns(rounds))
    talk = Talk("discussion", day.discussion) if day.discussion is not None else None
    if talk is not None:
        opening.append(talk)
    closing = Steps("closing", day.closing)
    next_night = Branch("nights_over", "end") if ruleset.nights is not None else None
    day_ends: Trigger = "timer" if talk is not None else "host"
    phases = [Phase("night", opens="host", ends="voice", then="day")]
    if vote is None:
        phases.append(
            Phase(
                "day",
                opens="voice",
                ends=day_ends,
                then="night",
                branch=next_night,
                says=(*opening, closing),
                timer=talk,
                rounds=rounds,
            )
        )
    else:
        first: PhaseName = "accusation" if vote.trial else "vote"
        phases.append(
            Phase(
                "day",
                opens="voice",
                ends=day_ends,
                then=first,
                says=tuple(opening),
                timer=talk,
                rounds=rounds,
            )
        )
        phases += _vote_phases(vote, day_ends, closing, next_night)
    judged = outcome.judged if outcome is not None else None
    end_opens: Trigger = day_ends if vote is None else "host" if vote.trial else "votes"
    if judged in ("any_time", "day_start"):
        end_opens = "rules"  # a death, a capture, the dawn: the engine's judgement
    phases.append(Phase("end", opens=end_opens, ends=None, then=None))
    return Flow(
        phases=tuple(phases),
        vote=vote,
        nights=ruleset.nights,
        dawn=any(
            ability.timing == "dawn"
            for role in ruleset.roles
            for ability in (role.powers.abilities if role.powers else ())
        ),
        judged=judged,
        turns=bool(ruleset.actions) and rounds is not None,
    )


def _vote_phases(
    vote: DayVote, opens: Trigger, closing: Steps, next_night: Branch | None
) -> list[Phase]:
    spoken, rule = vote.spoken, vote.counted
    count = Count(spoken.ballot, spoken.result, spoken.tie_rule, trial=vote.trial)
    if not vote.trial:
        window = Window("seconds", rule.seconds)
        says = (count, closing)
        return [Phase("vote", opens=opens, ends="votes", then="end", says=says, window=window)]
    defence = Talk("defence", spoken.defence) if spoken.defence is not None else None
    accuse = Accuse(spoken.accusation, spoken.accusation_wait, spoken.tie_rule)
    return [
        Phase(
            "accusation",
            opens=opens,
            ends="votes",
            then="defence",
            branch=Branch("no_suspects", "verdict"),
            says=(accuse,),
            window=Window("accusation_seconds", rule.accusation_seconds),
        ),
        Phase(
            "defence",
            opens="votes",
            ends="timer" if defence is not None else "host",
            then="ballot",
            says=(defence,) if defence is not None else (),
            timer=defence,
        ),
        Phase(
            "ballot",
            opens="timer" if defence is not None else "host",
            ends="votes",
            then="verdict",
            says=(count,),
            window=Window("ballot_seconds", rule.ballot_seconds),
        ),
        Phase(
            "verdict",
            opens="votes",
            ends="host",
            then="night",
            branch=next_night,
            says=(closing,),
        ),
    ]
