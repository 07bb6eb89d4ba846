"""YAML text -> checked, frozen `Ruleset`. The only place that sees a raw dict.

Every mistake raises one `RulesetError` naming the file, the line and the key, and
saying what was expected. `check.py` then checks what one mapping alone cannot:
that ids refer to roles that exist, that every line exists in every language, that
every recommended deck can be built.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal, cast

from narrator.base.errors import did_you_mean
from narrator.rules import parsed
from narrator.rules.errors import RulesetError
from narrator.rules.mechanisms import MechanismsMixin, declared, parse_order
from narrator.rules.model import (
    ALWAYS,
    Call,
    Condition,
    Countdown,
    Day,
    Deck,
    Line,
    Need,
    Night,
    Order,
    Requirement,
    Role,
    Rounds,
    Ruleset,
    Setup,
    StepSpec,
    Text,
    Timed,
    TimeWarning,
    Turn,
    Vote,
)
from narrator.rules.read_powers import PowersMixin, check_powers
from narrator.rules.reader import Fields, line_of_value
from narrator.rules.yamlio import read_yaml

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_LANG = re.compile(r"^[a-z]{2}$")
MAX_BYTES = 1_000_000  # the shipped rulesets are under 16 kB
MAX_PLAYERS = 100
_NOT_A_FILE = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}
_WAKES = {
    "never": Condition(never=True),
    "every_night": ALWAYS,
    "first_night": Condition(nights=(1,)),
}


def load_ruleset(path: Path | str) -> Ruleset:
    """Read and check one ruleset file."""
    path = Path(path)
    try:
        data = read_small_file(path)
        kept = parsed.recall(path, data)  # checked before, unchanged since (parsed.py)
        if kept is not None:
            return kept
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesetError("not UTF-8 text; save the file as UTF-8", path) from None
    except OSError as exc:
        raise RulesetError(f"cannot read the file ({exc.strerror})", path) from None
    ruleset = parse_ruleset(text, path)
    parsed.keep(path, data, ruleset)
    return ruleset


def read_small_file(path: Path, what: str = "a ruleset file") -> bytes:
    """The bytes of a regular file of at most MAX_BYTES, judged before reading; `what`
    names the file expected in the error lines.

    Opened non-blocking, so a FIFO cannot hang us waiting for a writer, then judged by
    the open file itself (no window to swap in something else after a check)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    info = os.fstat(fd)
    kind = stat.S_IFMT(info.st_mode)
    if kind != stat.S_IFREG:
        os.close(fd)
        kind_name = _NOT_A_FILE.get(kind, "not a regular file")
        raise RulesetError(f"this is {kind_name}, not {what}; give a .yaml file", path)
    with os.fdopen(fd, "rb") as file:
        data = file.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            size = max(info.st_size, len(data)) / 1e6
            limit = f"{what} is text of at most {MAX_BYTES / 1e6:g} MB"
            raise RulesetError(f"the file is {size:.1f} MB; {limit}", path)
        return data


def parse_ruleset(text: str, path: Path | str) -> Ruleset:
    path = Path(path)
    data = read_yaml(text, path)
    if data is None:
        raise RulesetError("the file is empty; a ruleset needs at least 'id' and 'roles'", path)
    return _Reader(path).ruleset(data)


class _Reader(MechanismsMixin, PowersMixin):
    def __init__(self, path: Path):
        self.path = path
        self.languages: tuple[str, ...] = ()
        self.role_ids: tuple[str, ...] = ()
        self.team_ids: tuple[str, ...] = ()
        self.box_ids: tuple[str, ...] = ()
        self.option_ids: tuple[str, ...] = ()
        self.role_orders: dict[str, Order] = {}
        self.templates: dict[str, Text] = {}  # night wake/close lines with {name}
        self.team_roles: dict[str, tuple[str, ...]] = {}

    def fields(self, data: Any, what: str, line: int = 0) -> Fields:
        return Fields(data, self.path, what, line)

    # -- texts -------------------------------------------------------------------

    def text(self, value: Any, what: str, line: int) -> Text:
        f = self.fields(value, what, line)
        return self._text_of(f, what)

    def _text_of(self, f: Fields, what: str, skip: tuple[str, ...] = ()) -> Text:
        values = []
        for key, val in f.data.items():
            if key in skip:
                continue
            if not _LANG.match(str(key)):
                f.done(skip)  # unknown key: report it with did-you-mean
                raise f.error(key, f"'{key}' in {what} is not a language code like 'en' or 'it'")
            if not isinstance(val, str) or not val.strip():
                raise f.error(key, f"the '{key}' text of {what} must be non-empty text")
            f.seen.add(key)
            values.append((str(key), " ".join(val.split())))
        if not values:
            raise f.error(None, f"{what} has no text in any language")
        missing = [lang for lang in self.languages if lang not in dict(values)]
        if missing:
            raise f.error(
                None,
                f"{what} has no '{missing[0]}' text; every line needs one in "
                f"each language the ruleset declares ({', '.join(self.languages)})",
            )
        return Text(tuple(values))

    def line(self, value: Any, what: str, line: int) -> Line:
        f = self.fields(value, what, line)
        when = self.condition(f.raw("when"), f"'when' of {what}", f.line_of("when"))
        return Line(self._text_of(f, what, skip=("when",)), when)

    def call(self, f: Fields, key: str, what: str) -> Call:
        """One line (a mapping of languages) or a list of them."""
        value = f.raw(key)
        if value is None:
            return ()
        label = f"'{key}' of {what}"
        if isinstance(value, list):
            return tuple(self.line(v, label, line_of_value(v, f.line_of(key))) for v in value)
        return (self.line(value, label, f.line_of(key)),)

    # -- conditions --------------------------------------------------------------

    def condition(self, value: Any, what: str, line: int) -> Condition:
        if value is None:
            return ALWAYS
        f = self.fields(value, what, line)
        nights = f.raw("night", [])
        rounds = f.raw("round", [])
        for key in ("chosen", "not_chosen", "any_chosen", "when_chosen"):
            self.known(f, key, f.ids(key))
        cond = Condition(
            chosen=f.ids("chosen"),
            not_chosen=f.ids("not_chosen"),
            any_chosen=f.ids("any_chosen") + f.ids("when_chosen"),
            nights=self._numbers(f, "night", nights),
            from_night=f.get("from_night", int) if f.has("from_night") else None,
            until_night=f.get("until_night", int) if f.has("until_night") else None,
            rounds=self._numbers(f, "round", rounds),
            options=self.known_options(f, "option"),
            not_options=self.known_options(f, "not_option"),
        )
        f.done()
        return cond

    def known(self, f: Fields, key: str, ids: tuple[str, ...]) -> tuple[str, ...]:
        """`ids`, after checking that each names a role of this ruleset."""
        for role_id in ids:
            if role_id not in self.role_ids:
                raise f.error(
                    key,
                    f"'{key}' names the role '{role_id}', which this ruleset does "
                    f"not have{did_you_mean(role_id, self.role_ids)}",
                )
        return ids

    def _numbers(self, f: Fields, key: str, value: Any) -> tuple[int, ...]:
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,)
        if isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            return tuple(value)
        raise f.error(key, f"'{key}' in {f.what} must be a number or a list of numbers")

    def wakes(self, f: Fields, what: str) -> Condition:
        value = f.raw("wakes", "every_night")
        if isinstance(value, str):
            if value not in _WAKES:
                choices = ", ".join(_WAKES)
                raise f.error(
                    "wakes",
                    f"'wakes' of {what} is '{value}'; use one of: {choices}, "
                    "or a mapping such as {from_night: 2} or {when_chosen: [minion]}",
                )
            return _WAKES[value]
        return self.condition(value, f"'wakes' of {what}", f.line_of("wakes"))

    # -- steps of everyone -------------------------------------------------------

    def step(self, value: Any, line: int, what: str) -> StepSpec:
        f = self.fields(value, f"a step of {what}", line)
        when = self.condition(f.raw("when"), f"'when' of a step of {what}", f.line_of("when"))
        kinds = [k for k in ("say", "pause", "cue", "wait") if f.has(k)]
        if len(kinds) != 1:
            f.raw("say")
            f.raw("pause")
            f.raw("cue")
            f.raw("wait")
            f.done()
            raise f.error(None, f"a step of {what} needs exactly one of say, pause, cue, wait")
        kind = kinds[0]
        step: StepSpec
        if kind == "pause":
            step = StepSpec("pause", when, seconds=f.number("pause"))
        elif kind == "cue":
            step = StepSpec("cue", when, sound=f.get("cue", str, need=True))
        else:
            text = self.text(f.raw(kind), f"'{kind}' of a step of {what}", f.line_of(kind))
            step = StepSpec(cast(Literal["say", "wait"], kind), when, text=text)
        if kind == "wait":
            step = self._wait_extras(f, step, what)
        f.done()
        return step

    def _wait_extras(self, f: Fields, step: StepSpec, what: str) -> StepSpec:
        """`spoken: true` and `branch` + `branch_to`, which only a wait may have."""
        spoken = f.get("spoken", bool, False)
        branch = (
            self.text(f.raw("branch"), f"'branch' of a step of {what}", f.line_of("branch"))
            if f.has("branch")
            else None
        )
        target = f.get("branch_to", str) if f.has("branch_to") else None
        if (branch is None) != (target is None):
            raise f.error(
                "branch" if branch is None else "branch_to",
                "a wait with a branch needs both 'branch' (what the button says) "
                "and 'branch_to' (where it goes: closing)",
            )
        if target is not None and target != "closing":
            raise f.error("branch_to", f"'branch_to' is '{target}'; the only target is: closing")
        return replace(
            step,
            spoken=spoken,
            branch=branch,
            branch_to=cast(Literal["closing"] | None, target),
        )

    def steps(self, f: Fields, key: str, what: str) -> tuple[StepSpec, ...]:
        return f.listed(key, lambda v, ln: self.step(v, ln, f"{what} {key}"))

    # -- roles -------------------------------------------------------------------

    def turn(
        self, f: Fields, what: str, *, main: bool, default_time: float, name: Text | None = None
    ) -> Turn:
        return Turn(
            order=self.order(f, what),
            when=self.wakes(f, what),
            wake=self.call(f, "wake", what) or self.templated("wake", name),
            act=self.call(f, "act", what),
            close=self.call(f, "close", what) or self.templated("close", name),
            action_time=f.number("action_time", default_time),
            main=main,
            complex=f.get("complex", bool, False),
            choices=self.choices(f, what),
            recap=self.recap(f, what),
        )

    def templated(self, key: str, name: Text | None) -> Call:
        """The night's `wake_template`/`close_template` with the role's name filled in."""
        template = self.templates.get(key)
        if template is None or name is None:
            return ()
        return (
            Line(
                Text(
                    tuple(
                        (lang, t.replace("{name}", name.get(lang))) for lang, t in template.values
                    )
                )
            ),
        )

    def role(self, value: Any, line: int, default_time: float) -> Role:
        f = self.fields(value, "a role", line)
        role_id = f.get("id", str, need=True)
        if not _ID.match(role_id):
            raise f.error("id", f"role id '{role_id}' must be lower case letters, digits and _")
        what = f"role '{role_id}'"
        f.what = what
        turns: list[Turn] = []
        name = self.text(f.required("name"), f"the name of {what}", f.line_of("name"))
        wakes = f.raw("wakes", "every_night")
        wakes_with = f.get("wakes_with", str) if f.has("wakes_with") else None
        if wakes_with is not None:
            self.known(f, "wakes_with", (wakes_with,))
        if wakes != "never" and wakes_with is None:
            turns.append(self.turn(f, what, main=True, default_time=default_time, name=name))
        elif wakes == "never":
            for key in ("order", "wake", "act", "close", "action_time", "choices", "recap"):
                if f.has(key):
                    raise f.error(
                        key, f"{what} never wakes, so '{key}' has no use; remove it or set 'wakes'"
                    )
        for i, extra in enumerate(f.listed("turns", lambda v, ln: (v, ln))):
            tf = self.fields(extra[0], f"extra turn {i + 1} of {what}", extra[1])
            turns.append(self.turn(tf, tf.what, main=False, default_time=default_time, name=name))
            tf.done()
        role = Role(
            id=role_id,
            name=name,
            team=self.team(f),
            max_count=f.whole("max", 1, low=1),
            turns=tuple(turns),
            wakes_with=wakes_with,
            note=self.text(f.raw("note"), f"the note of {what}", f.line_of("note"))
            if f.has("note")
            else None,
            card=self.text(f.raw("card"), f"the card text of {what}", f.line_of("card"))
            if f.has("card")
            else None,
            line=f.line,
            box=self.box(f),
            powers=self.powers(f, what),
        )
        f.done()
        return role

    def team(self, f: Fields) -> str:
        return declared(f, "team", "is on team", self.team_ids, "teams")

    # -- setup -------------------------------------------------------------------

    def setup(self, value: Any, line: int) -> Setup:
        f = self.fields(value, "'setup'", line)
        pf = self.fields(f.required("players"), "'players' of setup", f.line_of("players"))
        low = pf.whole("min", low=1, high=MAX_PLAYERS)
        high = pf.whole("max", low=1, high=MAX_PLAYERS)
        pf.done()
        if high < low:
            raise f.error("players", f"players: max ({high}) is below min ({low})")
        extra = f.raw("extra_cards", 0)
        if isinstance(extra, dict):
            ef = self.fields(extra, "'extra_cards' of setup", f.line_of("extra_cards"))
            extra_min, extra_max = ef.whole("min", 0), ef.whole("max", 0)
            ef.done()
        else:
            extra_min = extra_max = f.whole("extra_cards", 0)
        if extra_max < extra_min:
            raise f.error("extra_cards", "extra_cards: max is below min")
        setup = Setup(
            min_players=low,
            max_players=high,
            extra_min=extra_min,
            extra_max=extra_max,
            warn_over_factor=f.number("warn_over_factor") if f.has("warn_over_factor") else None,
            pairs=self.known(f, "pairs", f.ids("pairs")),
            needs=f.listed("needs", self.need),
            required=self.known(f, "required", f.ids("required")),
            decks=f.listed("decks", self.deck),
            must_contain=f.listed("must_contain", self.requirement),
        )
        for deck in setup.decks:
            # Also bounds the cross-check, which builds each deck for each count.
            if deck.min_players < low or deck.max_players > high:
                raise RulesetError(
                    f"a deck for {deck.min_players} to {deck.max_players} players lies "
                    f"outside the ruleset's {low} to {high} players; narrow its 'players'",
                    self.path,
                    deck.line,
                )
        f.done()
        return setup

    def requirement(self, value: Any, line: int) -> Requirement:
        """`{team: mafia}` or `{any_of: [princess]}`, with `because` and a `level`."""
        f = self.fields(value, "a 'must_contain' rule", line)
        level = f.get("level", str, "error")
        if level not in ("error", "warning"):
            raise f.error("level", f"'level' must be error or warning, not '{level}'")
        team = f.get("team", str) if f.has("team") else None
        any_of = self.known(f, "any_of", f.ids("any_of"))
        if (team is None) == (not any_of):
            raise f.error(None, "a 'must_contain' rule names either a 'team' or 'any_of' roles")
        if team is not None:
            if team not in self.team_ids:
                raise f.error(
                    "team",
                    f"'team' is '{team}', which is not under 'teams'"
                    f"{did_you_mean(team, self.team_ids)}",
                )
            any_of = self.team_roles.get(team, ())
            if not any_of:
                raise f.error("team", f"no role is on team '{team}'")
        because = self.text(
            f.required("because"), "'because' of a must_contain rule", f.line_of("because")
        )
        what = (
            self.text(f.raw("what"), "'what' of a must_contain rule", f.line_of("what"))
            if f.has("what")
            else None
        )
        f.done()
        return Requirement(any_of, cast(Literal["error", "warning"], level), because, team, what)

    def need(self, value: Any, line: int) -> Need:
        f = self.fields(value, "a 'needs' rule", line)
        level = f.get("level", str, "error")
        if level not in ("error", "warning"):
            raise f.error("level", f"'level' must be error or warning, not '{level}'")
        self.known(f, "role", (f.get("role", str, need=True),))
        need = Need(
            f.get("role", str, need=True),
            self.known(f, "any_of", f.ids("any_of")),
            cast(Literal["error", "warning"], level),
        )
        if not need.any_of:
            raise f.error(None, "a 'needs' rule needs 'any_of': the roles it depends on")
        f.done()
        return need

    def deck(self, value: Any, line: int) -> Deck:
        f = self.fields(value, "a recommended deck", line)
        players = f.required("players")
        if isinstance(players, int) and not isinstance(players, bool):
            low = high = players
        elif (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(p, int) and not isinstance(p, bool) for p in players)
        ):
            low, high = players
        else:
            raise f.error("players", "'players' of a deck must be a number or [min, max]")
        rf = self.fields(f.required("roles"), "'roles' of a deck", f.line_of("roles"))
        base = tuple((str(k), rf.whole(str(k), low=1)) for k in list(rf.data))
        self.known(rf, "roles", tuple(k for k, _ in base))
        adds = self.known(f, "add_in_order", f.ids("add_in_order"))
        discard = f.whole("discard", 0)
        discard_from = self.known(f, "discard_from", f.ids("discard_from"))
        if discard_from and not discard:
            raise f.error("discard_from", "'discard_from' needs 'discard': how many to remove")
        deck = Deck(
            low, high, base, adds, discard, f.line, box=self.box(f), discard_from=discard_from
        )
        f.done()
        return deck

    # -- day, night, rounds --------------------------------------------------------

    def timed(self, value: Any, what: str, line: int) -> Timed:
        f = self.fields(value, what, line)
        timed = Timed(
            seconds=f.number("seconds", low=1),
            label=self.text(f.required("label"), f"'label' of {what}", f.line_of("label")),
            start=self.call(f, "start", what),
            warnings=f.listed("warnings", lambda v, ln: self.warning(v, ln, what)),
            end=self.call(f, "end", what),
            first_day_seconds=f.number("first_day_seconds", low=1)
            if f.has("first_day_seconds")
            else None,
        )
        f.done()
        return timed

    def warning(self, value: Any, line: int, what: str) -> TimeWarning:
        f = self.fields(value, f"a warning of {what}", line)
        at = f.number("at", low=1)
        return TimeWarning(at, self._text_of(f, f"a warning of {what}", skip=("at",)))

    def countdown(self, value: Any, line: int) -> Countdown:
        f = self.fields(value, "'ballot' of the vote", line)
        cd = Countdown(
            announce=self.call(f, "announce", "the ballot"),
            counts=f.listed("counts", lambda v, ln: self.text(v, "a count of the ballot", ln)),
            go=self.call(f, "go", "the ballot"),
            interval=f.number("interval", 1.0),
            ready=self.steps(f, "ready", "the ballot"),
        )
        f.done()
        return cd

    def vote(self, value: Any, line: int) -> Vote:
        f = self.fields(value, "'vote' of the day", line)
        style = f.get("style", str, need=True)
        if style not in ("countdown", "accusation_ballot"):
            raise f.error("style", f"vote style '{style}' is not countdown or accusation_ballot")
        vote = Vote(
            style=cast(Literal["countdown", "accusation_ballot"], style),
            tie_rule=self.text(f.required("tie_rule"), "'tie_rule'", f.line_of("tie_rule")),
            ballot=self.countdown(f.required("ballot"), f.line_of("ballot")),
            result=self.text(f.required("result"), "'result' of the vote", f.line_of("result")),
            accusation=self.call(f, "accusation", "the vote"),
            accusation_wait=self.accusation_wait(f),
            defence=self.timed(f.raw("defence"), "'defence'", f.line_of("defence"))
            if f.has("defence")
            else None,
        )
        if style == "accusation_ballot" and (not vote.accusation or vote.defence is None):
            raise f.error(None, "an accusation_ballot vote needs 'accusation' and 'defence'")
        f.done()
        return vote

    def accusation_wait(self, f: Fields) -> tuple[StepSpec, ...]:
        """A text (one wait, as before) or a list of steps, like a day's opening."""
        value = f.raw("accusation_wait")
        if value is None:
            return ()
        if isinstance(value, list):
            return self.steps(f, "accusation_wait", "the vote")
        text = self.text(value, "'accusation_wait'", f.line_of("accusation_wait"))
        return (StepSpec("wait", text=text),)

    def day(self, value: Any, line: int) -> Day:
        f = self.fields(value, "'day'", line)
        day = Day(
            opening=self.steps(f, "opening", "the day"),
            discussion=self.timed(f.raw("discussion"), "'discussion'", f.line_of("discussion"))
            if f.has("discussion")
            else None,
            vote=self.vote(f.raw("vote"), f.line_of("vote")) if f.has("vote") else None,
            closing=self.steps(f, "closing", "the day"),
        )
        f.done()
        return day

    def night(self, value: Any, line: int, default_time: float) -> Night:
        f = self.fields(value, "'night'", line)
        for key in ("wake", "close"):
            if f.has(f"{key}_template"):
                self.templates[key] = self.text(
                    f.raw(f"{key}_template"), f"'{key}_template'", f.line_of(f"{key}_template")
                )
        night = Night(
            opening=self.steps(f, "opening", "the night"),
            closing=self.steps(f, "closing", "the night"),
            gap=f.number("gap", 1.0),
            calls=f.listed("calls", lambda v, ln: self.table_call(v, ln, default_time)),
        )
        f.done()
        return night

    def rounds(self, value: Any, line: int) -> Rounds:
        f = self.fields(value, "'rounds'", line)
        seconds = f.raw("turn_seconds")
        if seconds is not None:
            seconds = f.number("turn_seconds", low=1)
        rounds = Rounds(
            count=f.whole("count", low=1, high=100),
            turns=f.whole("turns", low=1, high=MAX_PLAYERS),
            turn_seconds=seconds,
            round_start=self.call(f, "round_start", "the rounds"),
            turn_call=self.call(f, "turn_call", "the rounds"),
            round_end=self.call(f, "round_end", "the rounds"),
            reminders=self.call(f, "reminders", "the rounds"),
            end=self.call(f, "end", "the rounds"),
        )
        if not rounds.turn_call:
            raise f.error("turn_call", "'rounds' needs a 'turn_call' line")
        f.done()
        return rounds

    # -- the whole file ------------------------------------------------------------

    def ruleset(self, data: Any) -> Ruleset:
        f = self.fields(data, "the ruleset", 1)
        ruleset_id = f.get("id", str, need=True)
        if not _ID.match(ruleset_id):
            raise f.error("id", f"ruleset id '{ruleset_id}' must be lower case letters, digits, _")
        languages = f.raw("languages")
        if (
            not isinstance(languages, list)
            or not languages
            or not all(isinstance(x, str) and _LANG.match(x) for x in languages)
        ):
            raise f.error("languages", "'languages' must be a list of codes like [en, it]")
        self.languages = tuple(languages)
        raw_roles = f.raw("roles")
        if isinstance(raw_roles, list):
            self.role_ids = tuple(
                str(r["id"]) for r in raw_roles if isinstance(r, dict) and "id" in r
            )
            for r in raw_roles:
                order = _first_order(r)
                if order is not None:
                    self.role_orders[str(r["id"])] = order
        self.box_ids = tuple(b for b, _ in self.boxes(f))
        options = f.listed("options", self.option)
        self.option_ids = tuple(o.id for o in options)
        nights = f.raw("nights", "many")
        if nights != "many" and not (
            isinstance(nights, int) and not isinstance(nights, bool) and nights >= 1
        ):
            raise f.error("nights", f"'nights' must be a number or 'many', not {nights!r}")
        tf = self.fields(f.required("teams"), "'teams'", f.line_of("teams"))
        teams = tuple(
            (str(k), self.text(v, f"team '{k}'", tf.line_of(str(k)))) for k, v in tf.data.items()
        )
        self.team_ids = tuple(t for t, _ in teams)
        if isinstance(raw_roles, list):
            for item in raw_roles:
                if isinstance(item, dict) and "id" in item and "team" in item:
                    members = self.team_roles.setdefault(str(item["team"]), ())
                    self.team_roles[str(item["team"])] = (*members, str(item["id"]))
        default_time = f.number("action_time", 10.0)
        night = self.night(f.raw("night", {}), f.line_of("night"), default_time)
        roles = f.listed("roles", lambda v, ln: self.role(v, ln, default_time))
        if not roles:
            raise f.error("roles", "a ruleset needs at least one role under 'roles'")
        ruleset = Ruleset(
            id=ruleset_id,
            name=self.text(f.required("name"), "the ruleset name", f.line_of("name")),
            languages=tuple(languages),
            nights=None if nights == "many" else nights,
            teams=teams,
            roles=roles,
            setup=self.setup(f.required("setup"), f.line_of("setup")),
            night=night,
            day=self.day(f.required("day"), f.line_of("day")),
            rounds=self.rounds(f.raw("rounds"), f.line_of("rounds")) if f.has("rounds") else None,
            description=self.text(f.raw("description"), "'description'", f.line_of("description"))
            if f.has("description")
            else None,
            boxes=self.boxes(f),
            options=options,
            tokens=f.listed("tokens", self.token),
            outcome=self.outcome(f.raw("outcome"), f.line_of("outcome"))
            if f.has("outcome")
            else None,
            actions=f.listed("actions", lambda v, ln: self.ability(v, "an action", ln)),
            path=self.path,
        )
        f.done()
        self.cross_check(ruleset)
        check_powers(ruleset)
        return ruleset

    def cross_check(self, ruleset: Ruleset) -> None:
        """What no single mapping can tell: unique ids, group leads, buildable decks."""
        seen: dict[str, int] = {}
        by_id = {r.id: r for r in ruleset.roles}
        for role in ruleset.roles:
            if role.id in seen:
                raise RulesetError(
                    f"role id '{role.id}' is used twice (also on line "
                    f"{seen[role.id]}); ids must be unique",
                    self.path,
                    role.line,
                )
            seen[role.id] = role.line
            if role.wakes_with is not None:
                lead = by_id[role.wakes_with]
                if not lead.turns or lead.wakes_with is not None:
                    raise RulesetError(
                        f"role '{role.id}' wakes with '{lead.id}', which has no turn of its own",
                        self.path,
                        role.line,
                    )
        for deck in ruleset.setup.decks:
            for players in range(deck.min_players, deck.max_players + 1):
                try:
                    build_deck(ruleset, deck, players)
                except ValueError as exc:
                    raise RulesetError(str(exc), self.path, deck.line) from None


def build_deck(ruleset: Ruleset, deck: Deck, players: int) -> dict[str, int]:
    """The deck of `deck` for `players` players, before the discard.

    Roles from `add_in_order` are added until the deck holds players + extra_min
    (+ discard) cards; a base that already holds more is fine up to players +
    extra_max (+ discard): Secret Moon's one deck of 8 serves 5 to 8 players.
    """
    target = players + ruleset.setup.extra_min + deck.discard
    most = players + ruleset.setup.extra_max + deck.discard
    counts = dict(deck.base)
    adds = iter(deck.add_in_order)
    while sum(counts.values()) < target:
        role_id = next(adds, None)
        if role_id is None:
            raise ValueError(
                f"the deck for {players} players needs {target} cards but "
                f"'add_in_order' runs out at {sum(counts.values())}; add roles to it"
            )
        counts[role_id] = counts.get(role_id, 0) + 1
    if not target <= sum(counts.values()) <= most:
        want = f"{target}" if target == most else f"{target} to {most}"
        raise ValueError(
            f"the deck for {players} players has {sum(counts.values())} cards; it needs {want}"
        )
    for role_id, count in counts.items():
        if count > ruleset.role(role_id).max_count:
            raise ValueError(
                f"the deck for {players} players holds {count} x '{role_id}', more "
                f"than its max of {ruleset.role(role_id).max_count}"
            )
    return counts


def _first_order(raw: Any) -> Order | None:
    """A raw role's own order, or its first extra turn's (what `after:` refers to)."""
    if not isinstance(raw, dict) or "id" not in raw:
        return None
    if "order" in raw:
        return parse_order(raw["order"])
    turns = raw.get("turns")
    if isinstance(turns, list) and turns and isinstance(turns[0], dict):
        return parse_order(turns[0].get("order"))
    return None


__all__ = ["build_deck", "load_ruleset", "parse_ruleset"]
