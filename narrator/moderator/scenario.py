"""A game written down -- a saved table or a scenario by hand -- resolved again.

The format (YAML; see docs/ENGINE.md):

    ruleset: onuw
    lang: en
    players: [Ann, Bo, Cy, Dee, Eve]         # seats, clockwise
    deal: {Ann: robber, Bo: werewolf, ...}   # every player's card as dealt
    centre: [werewolf, insomniac, villager]  # the cards not dealt, in order
    options: {lone_wolf: true}               # ruleset options (optional)
    seed: 7                                  # what a turn's `choices` are drawn from
    nights:                                  # one map per night: player -> choices
      - {Ann: [Bo], Cy: [centre 1, centre 2], Dee: [Cy, Eve]}
    days:                                    # one map per day
      - {vote: {Ann: Bo, Bo: Ann, ...}}

A choice is a player's name or `centre N`; `[]` is "did nothing"; a player called
twice in one night (a Doppelganger who copied a Seer) gives a list of lists, one per
call. `run()` returns what `narrator replay --format json` prints.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from narrator.base.errors import NarratorError
from narrator.moderator.board import MoveError, Place, Prompt, SeatIndex
from narrator.moderator.game import Game
from narrator.moderator.judges import EngineJudge
from narrator.moderator.referee import Referee
from narrator.moderator.support import unsupported_roles
from narrator.moderator.words import Words
from narrator.rules.model import Ruleset
from narrator.rules.selection import check_selection

_KEYS = (
    "ruleset", "lang", "players", "deal", "centre", "options", "nights", "days", "rounds",
    "artifacts", "drawn", "seed", "expect",
)  # fmt: skip


class ScenarioError(NarratorError):
    """A scenario that cannot be played: one line naming the player and the step."""


@dataclass
class Replay:
    game: Game
    lang: str
    said: list[str]
    dealt_centre: list[str]

    def to_dict(self) -> dict[str, Any]:
        game, words = self.game, Words(self.game, self.lang)
        teams, seats = game.winners()
        journal: dict[str, list[str]] = {s.name: [] for s in game.seats}
        for e in game.log:
            if e.kind == "chose":
                continue
            if e.to is not None:
                journal[game.seats[e.to].name].append(words.journal(e))
            elif e.kind in ("vote", "accuse", "ballot") and e.seat is not None:
                journal[game.seats[e.seat].name].append(words.journal(e))
        return {
            "ruleset": game.ruleset.id,
            "lang": self.lang,
            "players": [s.name for s in game.seats],
            "dealt": {s.name: s.dealt for s in game.seats},
            "dead": [game.seats[i].name for i in game.dead_order],
            "prisoners": [s.name for s in game.seats if not s.free],
            "winners": {"teams": teams, "players": [game.seats[i].name for i in seats]},
            "final": {s.name: s.card.identity for s in game.seats},
            "centre": {"dealt": self.dealt_centre, "final": [c.identity for c in game.centre]},
            "artifacts": {game.seats[i].name: a for i, a in sorted(game.tokens.artifacts.items())},
            "marks": {game.seats[i].name: m for i, m in sorted(game.tokens.marks.items())},
            "choices": drawn_choices(game),
            "journal": journal,
            "said": self.said,
            "log": [e.to_dict() for e in game.log],
        }


def drawn_choices(game: Game) -> dict[str, int]:
    """Which of each turn's `choices` the game played (the voice's draw, from the
    seed), by "role order" ("alien 1a"), counted from 1 as the ruleset lists them."""
    out: dict[str, int] = {}
    chosen = game.chosen()
    for role in game.ruleset.roles:
        main = [(0, t) for t in role.turns if t.main]
        extra = [(k + 1, t) for k, t in enumerate(t for t in role.turns if not t.main)]
        for k, turn in main + extra:
            index = game.drawn_choice(role.id, k) if role.id in chosen else None
            if index is not None:
                out[f"{role.id} {turn.order}"] = index + 1
    return out


def to_scenario(replay: Replay) -> dict[str, Any]:
    """The game as a scenario: what `run` plays back to the same end (from the log)."""
    game = replay.game
    names = [s.name for s in game.seats]

    def said(place: Place) -> str:
        if place.is_word:
            return place.kind  # a named choice (left, right)
        return names[place.index] if place.is_seat else f"centre {place.index + 1}"

    nights: list[dict[str, list[list[str]]]] = [{} for _ in range(game.night)]
    days: list[dict[str, dict[str, str | None]]] = [{} for _ in range(game.night)]
    for e in game.log:
        if e.kind == "chose" and e.seat is not None:
            calls = nights[e.night - 1].setdefault(names[e.seat], [])
            calls.append([said(t) for t in e.targets])
        elif e.kind in ("vote", "accuse", "ballot") and e.seat is not None:
            target = said(e.targets[0]) if e.targets else None
            days[e.night - 1].setdefault(e.kind, {})[names[e.seat]] = target
    while days and not days[-1]:
        days.pop()  # no day after the last night (One Night's vote, or the game's end)
    placed = [e.cards[0] for e in game.log if e.kind == "found"]
    stack = placed + list(game.tokens.stack)  # the artifacts' stack as it was dealt
    rounds: list[list[dict[str, list[str]]]] = [[] for _ in range(game.round)]
    for e in game.log:
        if e.kind == "turn" and e.seat is not None:
            rounds[e.night - 1].append({names[e.seat]: [e.why, *map(said, e.targets), *e.cards]})
    return (
        {
            "ruleset": game.ruleset.id,
            "lang": replay.lang,
            "players": names,
            "deal": {s.name: s.dealt for s in game.seats},
            "centre": list(replay.dealt_centre),
            "options": {o: True for o in sorted(game.options)}
            | {
                o.id: False
                for o in game.ruleset.options
                if o.kind == "flag" and o.id not in game.options
            },
            "nights": nights,
            "days": days,
        }
        | ({"rounds": rounds} if rounds else {})
        | ({"artifacts": stack} if stack else {})
        | ({"drawn": list(game.drawn)} if game.drawn else {})
        | ({"seed": game.seed} if game.seed is not None else {})
    )


def load(text: str) -> dict[str, Any]:
    # Imported here: the table and every other user of the engine import this
    # package, and only `narrator replay` and the tests read a scenario.
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise ScenarioError(f"{where}not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a mapping with 'ruleset', 'players', 'deal', ...")
    for key in data:
        if key not in _KEYS:
            raise ScenarioError(f"unknown key '{key}'; a scenario has {', '.join(_KEYS)}")
    return data


def run(data: dict[str, Any], ruleset_of: Callable[[str], Ruleset]) -> Replay:
    """Play the scenario `data` (from `load`) through the engine."""
    ruleset = ruleset_of(_text(data, "ruleset"))
    lang = str(data.get("lang", ruleset.languages[0]))
    if lang not in ruleset.languages:
        raise ScenarioError(f"lang '{lang}': {ruleset.id} speaks {', '.join(ruleset.languages)}")
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise ScenarioError("'players' must be a list of names, clockwise")
    if len(set(players)) != len(players):
        raise ScenarioError("'players' names someone twice; every name must be different")
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise ScenarioError("'deal' must map every player to the card dealt to them")
    for name in deal:
        if name not in players:
            raise ScenarioError(f"deal: '{name}' is not one of the players")
    missing = [p for p in players if p not in deal]
    if missing:
        raise ScenarioError(f"deal: {missing[0]} has no card; give every player one")
    centre = data.get("centre") or []
    if not isinstance(centre, list):
        raise ScenarioError("'centre' must be a list of the cards not dealt")
    cards = [str(deal[p]) for p in players]
    for role_id in (*cards, *map(str, centre)):
        if role_id not in ruleset.role_ids:
            raise ScenarioError(f"'{role_id}' is not a role of {ruleset.id}")
    not_run = unsupported_roles(ruleset, [*cards, *map(str, centre)])
    if not_run:
        raise ScenarioError(not_run)
    # the deck is checked as the app checks a selection (a single Mason, too few
    # players): a game the rules forbid is refused before it is played
    deck = Counter([*cards, *map(str, centre)])
    report = check_selection(
        ruleset, len(players), tuple((r, deck[r]) for r in ruleset.role_ids if r in deck)
    )
    if report.errors:
        raise ScenarioError(f"the deck: {report.errors[0]}")
    options = _options(ruleset, data.get("options") or {})
    artifacts = data.get("artifacts")
    if artifacts is not None and (
        not isinstance(artifacts, list) or not all(isinstance(a, str) for a in artifacts)
    ):
        raise ScenarioError("'artifacts' must be the artifacts' stack, top first: a list of ids")
    drawn = data.get("drawn") or []
    if not isinstance(drawn, list) or not all(isinstance(d, str) for d in drawn):
        raise ScenarioError("'drawn' must be what the engine drew by chance, in order: a list")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ScenarioError("'seed' must be a whole number: the seed the night was drawn with")
    try:
        game = Game.deal(
            ruleset,
            list(players),
            cards,
            [str(c) for c in centre],
            options=options,
            rng=random.Random(0),
            artifacts=artifacts,
            drawn=drawn,
            seed=seed,
        )
    except MoveError as exc:
        raise ScenarioError(f"artifacts: {exc}") from None
    nights = data.get("nights") or []
    days = data.get("days") or []
    if not isinstance(nights, list) or not isinstance(days, list):
        raise ScenarioError("'nights' and 'days' must be lists, one map per night or day")
    if ruleset.nights is not None and len(nights) > ruleset.nights:
        raise ScenarioError(f"{ruleset.id} has {ruleset.nights} night(s); the scenario gives more")
    if len(days) > len(nights):
        raise ScenarioError(f"day {len(nights) + 1} comes before its night; add the night")
    rounds = data.get("rounds") or []
    if rounds and (not isinstance(rounds, list) or not ruleset.actions or ruleset.rounds is None):
        raise ScenarioError(f"{ruleset.id} has no rounds of turns; remove 'rounds'")
    replay = Replay(game, lang, [], [str(c) for c in centre])
    # The one referee walks the flow, as on the phones: the engine judges.
    referee = Referee(ruleset.flow, EngineJudge(game), alive=[True] * len(players))
    words = Words(game, lang)
    for n, night in enumerate(nights, 1):
        if referee.at("day"):
            _day(referee, n - 1, {}, replay.said, words)  # a day not written: nobody voted
        if referee.at("end"):
            raise ScenarioError(f"night {n}: the game is already over; remove what follows")
        _go_on(referee, f"night {n}")  # the cards are seen, or the verdict is said
        before = len(game.log)
        _night(game, n, night or {})
        replay.said.extend(s for e in game.log[before:] if (s := words.dawn(e)))
        before = len(game.log)
        _go_on(referee, f"night {n}")  # the night is over: the dawn
        _tell(game.log[before:], replay.said, words)
        if n <= len(days):
            if referee.at("end"):
                raise ScenarioError(f"day {n}: the game is already over; remove what follows")
            _day(referee, n, days[n - 1] or {}, replay.said, words)
    for r, turns in enumerate(rounds, 1):
        if referee.at("end"):
            raise ScenarioError(f"round {r}: the game is already over; remove what follows")
        count = ruleset.rounds.count if ruleset.rounds else 0
        if r > count:
            raise ScenarioError(f"{ruleset.id} has {count} rounds; the scenario gives more")
        _round(referee, r, turns, replay.said, words)
        if not referee.at("end") and r == count:
            before = len(game.log)
            _go_on(referee, f"round {r}")  # the last round is over
            _tell(game.log[before:], replay.said, words)
    over = referee.at("end")
    if ruleset.nights is not None and not ruleset.actions:
        replay.said.extend(s for e in game.log if (s := words.story(e)))
        for i in range(len(game.seats)):
            replay.said.append(words.reveal(i))
            replay.said.extend(words.tokens(i))
    if (ruleset.nights is None or ruleset.actions) and not over:
        replay.said.append(words.t("The game goes on."))
    else:
        replay.said.append(words.winners(game.winners()[0]))
    return replay


def _go_on(referee: Referee, where: str) -> None:
    try:
        referee.go_on()
    except MoveError as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ScenarioError(f"'{key}' must be given, as text")
    return value


def _options(ruleset: Ruleset, raw: Any) -> frozenset[str]:
    if not isinstance(raw, dict):
        raise ScenarioError("'options' must map option names to true or false")
    on = set()
    known = [o.id for o in ruleset.options]
    for name, value in raw.items():
        if name not in known:
            raise ScenarioError(f"options: '{name}' is not an option of {ruleset.id}")
        if value is True or (not isinstance(value, bool) and value):
            on.add(str(name))
    for option in ruleset.options:
        if option.id not in raw and option.kind == "flag" and option.default:
            on.add(option.id)
    return frozenset(on)


def _night(game: Game, n: int, raw: Any) -> None:
    if not isinstance(raw, dict):
        raise ScenarioError(f"night {n}: give a map of player -> choices")
    queues: dict[int, list[list[Place]]] = {}
    for name, choices in raw.items():
        seat = _seat(game, name, f"night {n}")
        queues[seat] = _calls(game, name, choices, f"night {n}")
    for step in game.begin_night():
        where = f"night {n}, {game.call_name(step)}"
        try:
            game.open_step(step)
            for seat in list(game.actors(step)):
                while (prompt := game.prompt(step, seat)) is not None:
                    queue = queues.get(seat)
                    if not queue:
                        if prompt.min > 0:
                            raise ScenarioError(
                                f"{where}: {game.seats[seat].name} must choose "
                                f"({_ways(prompt)}); add their choice"
                            )
                        game.act(step, seat, [])
                        continue
                    game.act(step, seat, queue.pop(0))
            game.close_step(step)
        except MoveError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
    for seat, queue in queues.items():
        if queue:
            name = game.seats[seat].name
            raise ScenarioError(
                f"night {n}: {name} ({game.ruleset.role(game.seats[seat].dealt).name.get('en')})"
                " has a choice but no call of the night lets them make it"
            )


def _ways(prompt: Prompt) -> str:
    parts = []
    for p in prompt.picks:
        parts.append(f"{p.players} player(s)" if p.players else f"{p.centre} centre card(s)")
    return " or ".join(parts)


def _calls(game: Game, name: str, raw: Any, where: str) -> list[list[Place]]:
    if not isinstance(raw, list):
        raise ScenarioError(f"{where}: {name}'s choices must be a list ([] for nothing)")
    calls = raw if raw and all(isinstance(c, list) for c in raw) else [raw]
    out = []
    for call in calls:
        ids = []
        for item in call:
            ids.append(_option(game, str(item), f"{where}, {name}"))
        out.append(ids)
    return out


def _option(game: Game, text: str, where: str) -> Place:
    """A choice as the scenario writes it: a player's name, `centre N` (1-based), or
    a word a power offers by name."""
    words = text.split()
    if len(words) == 2 and words[0] in ("centre", "center") and words[1].isdigit():
        k = int(words[1])
        if not 1 <= k <= len(game.centre):
            raise ScenarioError(f"{where}: there is no {text}; the centre has {len(game.centre)}")
        return Place.centre(k - 1)
    named = {
        word
        for role in game.ruleset.roles
        for ability in (role.powers.abilities if role.powers else ())
        for pick in ability.picks
        for word in pick.named
    }
    if text in named and text not in [s.name for s in game.seats]:
        return Place.word(text)
    return Place.seat(_seat(game, text, where))


def _seat(game: Game, name: Any, where: str) -> int:
    for i, seat in enumerate(game.seats):
        if seat.name == name:
            return i
    raise ScenarioError(f"{where}: '{name}' is not one of the players")


def _round(referee: Referee, r: int, raw: Any, said: list[str], words: Words) -> None:
    """A round of turns: [{player: [action, choice..., role]}, ...], in turn order
    (the referee begins the first round as the day begins, the next on going on)."""
    game = words.game
    if not isinstance(raw, list):
        raise ScenarioError(f"round {r}: give a list of turns, each {{player: [action, ...]}}")
    if r > 1:
        _go_on(referee, f"round {r}")
    for k, turn in enumerate(raw, 1):
        where = f"round {r}, turn {k}"
        if not isinstance(turn, dict) or len(turn) != 1:
            raise ScenarioError(f"{where}: give one player and their action: {{Ann: [look, Bo]}}")
        ((name, what),) = turn.items()
        seat = _seat(game, name, where)
        if not isinstance(what, list) or not what or not all(isinstance(w, str) for w in what):
            raise ScenarioError(f"{where}: {name}'s turn must be [action, choice...]")
        action, *rest = what
        names = [s.name for s in game.seats]
        roles = [w for w in rest if w in game.ruleset.role_ids and w not in names]
        choice = [_option(game, w, where) for w in rest if w not in roles]
        if len(roles) > 1:
            raise ScenarioError(f"{where}: {name} must name one role to {action}")
        before = len(game.log)
        try:
            referee.turn(SeatIndex(seat), action, choice, roles[0] if roles else None)
        except MoveError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        _tell(game.log[before:], said, words)
        if referee.at("end") and k < len(raw):
            raise ScenarioError(f"{where}: the game is over; remove the turns that follow")


def _tell(entries: list[Any], said: list[str], words: Words) -> None:
    for e in entries:
        if (line := words.turn(e)) is not None:
            said.append(line)
            continue
        if e.kind == "death":
            said.append(words.death(e))
        elif e.kind == "arrested":
            said.append(words.arrested(e))
        elif (line := words.public(e)) is not None:
            said.append(line)


def _day(referee: Referee, n: int, raw: Any, said: list[str], words: Words) -> None:
    """Day `n`, as the flow has it: a trial ({accuse: {name: name}, ballot: {...}})
    or everyone's vote at once ({vote: {name: name}}); a name's null abstains."""
    game = words.game
    before = len(game.log)
    _go_on(referee, f"day {n}")  # the day's talk is over: the vote opens
    try:
        if referee.at("accusation"):
            accuse, ballot = _rounds(game, n, raw, ("accuse", "ballot"))
            referee.cast(accuse)
            if referee.at("defence"):
                referee.go_on()  # the defence is over: the ballot, if anyone may vote
            if referee.at("ballot"):
                referee.cast(ballot)
            elif any(t is not None for t in ballot.values()):
                raise MoveError("there is no ballot today: nobody is a suspect")
        elif referee.at("vote"):
            (vote,) = _rounds(game, n, raw, ("vote",))
            referee.cast(vote)
    except MoveError as exc:
        raise ScenarioError(f"day {n}: {exc}") from None
    _tell(game.log[before:], said, words)


def _rounds(
    game: Game, n: int, raw: Any, keys: tuple[str, ...]
) -> list[dict[SeatIndex, SeatIndex | None]]:
    """The day's rounds of votes as written: each voter's name -> the name they
    name (null: they abstain)."""
    if not isinstance(raw, dict) or set(raw) - set(keys):
        shape = ", ".join(f"{k}: {{player: player}}" for k in keys)
        raise ScenarioError(f"day {n}: give {{{shape}}}")
    out = []
    for key in keys:
        given = raw.get(key) or {}
        if not isinstance(given, dict):
            raise ScenarioError(f"day {n}: '{key}' must map each player to the one they name")
        out.append(
            {
                SeatIndex(_seat(game, voter, f"day {n}")): None
                if target is None
                else SeatIndex(_seat(game, target, f"day {n}, {voter}'s {key}"))
                for voter, target in given.items()
            }
        )
    return out
