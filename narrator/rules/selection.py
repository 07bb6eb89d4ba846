"""Checks on a chosen set of players and roles, and the recommended decks.

Each check says, in plain words, what is wrong and how to fix it; the same messages
appear on the command line and in the app as the user edits the selection.
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.base.errors import did_you_mean
from narrator.i18n import gettext
from narrator.rules.decks import Roles, build_deck
from narrator.rules.errors import SelectionError
from narrator.rules.model import Ruleset


@dataclass(frozen=True, slots=True)
class Report:
    errors: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


def parse_roles(spec: str, ruleset: Ruleset) -> Roles:
    """`doppelganger,werewolf:2` -> (("doppelganger", 1), ("werewolf", 2))."""
    counts: dict[str, int] = {}
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        role_id, _, count_text = item.partition(":")
        role_id = role_id.strip().lower().replace("-", "_").replace(" ", "_")
        if role_id not in ruleset.role_ids:
            raise SelectionError(
                f"'{ruleset.id}' has no role '{role_id}'{did_you_mean(role_id, ruleset.role_ids)}"
                f" (see: narrator roles {ruleset.id})"
            )
        try:
            count = int(count_text) if count_text else 1
        except ValueError:
            raise SelectionError(
                f"'{item}': the count after ':' must be a whole number, as in werewolf:2"
            ) from None
        if count < 1:
            raise SelectionError(f"'{item}': the count must be 1 or more")
        counts[role_id] = counts.get(role_id, 0) + count
    if not counts:
        raise SelectionError("--roles is empty; name roles as in werewolf:2,seer")
    return tuple(counts.items())


def recommended(ruleset: Ruleset, players: int, box: str | None = None) -> tuple[Roles, int]:
    """The recommended deck for `players` (of `box`, if given) and the unseen discard."""
    check_players(ruleset, players)
    if box is not None:
        check_known(ruleset.id, "box", box, tuple(b for b, _ in ruleset.boxes))
    for deck in ruleset.setup.decks:
        if box is not None and deck.box != box:
            continue
        if deck.min_players <= players <= deck.max_players:
            counts = build_deck(ruleset, deck, players)
            ordered = tuple((r, counts[r]) for r in ruleset.role_ids if r in counts)
            return ordered, deck.discard
    which = f" from the box '{box}'" if box else ""
    raise SelectionError(
        f"'{ruleset.id}' recommends no deck{which} for {players} players; "
        "choose the roles with --roles"
    )


def check_known(ruleset_id: str, kind: str, name: str, known: tuple[str, ...]) -> None:
    """SelectionError if `name` (a box, an option) is not one of `known`."""
    if name in known:
        return
    hint = did_you_mean(name, known) or (
        f"; choose from {', '.join(known)}" if known else f"; it has no {kind}s"
    )
    raise SelectionError(f"'{ruleset_id}' has no {kind} '{name}'{hint}")


def check_players(ruleset: Ruleset, players: int) -> None:
    low, high = ruleset.setup.min_players, ruleset.setup.max_players
    if not low <= players <= high:
        raise SelectionError(
            f"'{ruleset.id}' is for {low} to {high} players, not {players}; "
            f"choose --players between {low} and {high}"
        )


def check_selection(ruleset: Ruleset, players: int, roles: Roles, lang: str = "en") -> Report:
    """Every problem with this choice of players and roles (errors) or worth a look.

    In `lang` (the app's language; the command line keeps English); role and team
    names in the ruleset's own words for it.
    """

    def t(message: str) -> str:
        return gettext(lang, message)

    def either(items: list[str]) -> str:
        if len(items) == 1:
            return items[0]
        return t("{first} or {last}").format(first=", ".join(items[:-1]), last=items[-1])

    errors: list[str] = []
    warnings: list[str] = []
    setup = ruleset.setup
    counts = dict(roles)
    code = lang if lang in ruleset.languages else "en"
    names = {r.id: r.name.get(code) for r in ruleset.roles}
    low, high = setup.min_players, setup.max_players
    if not low <= players <= high:
        errors.append(
            t(
                "'{game}' is for {low} to {high} players, not {players}; "
                "choose --players between {low} and {high}"
            ).format(game=ruleset.id, low=low, high=high, players=players)
        )
    for role_id, count in counts.items():
        if role_id not in names:
            errors.append(f"'{ruleset.id}' has no role '{role_id}'{did_you_mean(role_id, names)}")
            continue
        most = ruleset.role(role_id).max_count
        if count > most:
            errors.append(
                t("{role}: {count} chosen, but the game has at most {most}").format(
                    role=names[role_id], count=count, most=most
                )
            )
    cards = sum(counts.values())
    # A recommended deck may hold `discard` more cards, removed unseen before dealing
    # (Lupus with 7 players: the 8-card deck, one card set aside).
    discard = max(
        (d.discard for d in setup.decks if d.min_players <= players <= d.max_players), default=0
    )
    low, high = players + setup.extra_min, players + setup.extra_max + discard
    if not low <= cards <= high:
        if low == high and setup.extra_min:
            text = t("{players} players need {low} cards (players + {extra}); {cards} chosen")
        elif low == high:
            text = t("{players} players need {low} cards; {cards} chosen")
        else:
            text = t("{players} players need {low} to {high} cards; {cards} chosen")
        errors.append(
            text.format(players=players, low=low, high=high, extra=setup.extra_min, cards=cards)
        )
    if setup.warn_over_factor and cards > players * setup.warn_over_factor:
        warnings.append(
            t(
                "{cards} possible roles for {players} players is more than {factor} times "
                "the players; the game may drag"
            ).format(cards=cards, players=players, factor=f"{setup.warn_over_factor:g}")
        )
    for role_id in setup.pairs:
        count = counts.get(role_id, 0)
        if count % 2:
            errors.append(
                t("{role} cards come in pairs; choose 2 or none, not {count}").format(
                    role=names[role_id], count=count
                )
            )
    for need in setup.needs:
        if need.role in counts and not any(r in counts for r in need.any_of):
            others = either([names[r] for r in need.any_of])
            text = t("{role} is only useful with {others}; add one or drop it").format(
                role=names[need.role], others=others
            )
            (errors if need.level == "error" else warnings).append(text)
    for role_id in setup.required:
        if role_id not in counts:
            errors.append(t("{role} is required in every game; add it").format(role=names[role_id]))
    for rule in setup.must_contain:
        if any(counts.get(r, 0) for r in rule.any_of):
            continue
        members = either([names[r] for r in rule.any_of])
        if rule.what is not None:
            what = rule.what.get(code)
        elif rule.team is not None:
            what = t("card of the {team} ({members})").format(
                team=ruleset.team_name(rule.team, code), members=members
            )
        else:
            what = members
        text = t("The deck has no {what}: {because}").format(
            what=what, because=rule.because.get(code)
        )
        (errors if rule.level == "error" else warnings).append(text)
    return Report(tuple(errors), tuple(warnings))


@dataclass(frozen=True, slots=True)
class Problems:
    """What is wrong with a choice (`check_selection`'s errors, one line), said in the
    language it is asked for: a text for a phone in its table's language, English for
    the command line and the logs (`get`, as a ruleset's own texts have)."""

    ruleset: Ruleset
    players: int
    roles: Roles

    def get(self, lang: str) -> str:
        return "; ".join(check_selection(self.ruleset, self.players, self.roles, lang).errors)


_ON = {"on": 1.0, "yes": 1.0, "true": 1.0, "1": 1.0, "off": 0.0, "no": 0.0, "false": 0.0, "0": 0.0}


def parse_options(
    specs: list[str] | tuple[str, ...], ruleset: Ruleset
) -> tuple[tuple[str, float], ...]:
    """`["terse", "lone_wolf=off", "role_timer=20"]` -> (("terse", 1.0), ...)."""
    ids = tuple(o.id for o in ruleset.options)
    out: dict[str, float] = {}
    for spec in specs:
        name, has_value, text = spec.partition("=")
        option_id = name.strip().lower().replace("-", "_")
        check_known(ruleset.id, "option", option_id, ids)
        option = ruleset.option(option_id)
        text = text.strip().lower()
        if option.kind == "flag":
            if has_value and text not in _ON:
                raise SelectionError(
                    f"--option {spec}: {option_id} is on or off, as in {option_id}=off"
                )
            out[option_id] = _ON[text] if has_value else 1.0
            continue
        try:
            value = float(text)
        except ValueError:
            raise SelectionError(
                f"--option {spec}: {option_id} takes a number of seconds, as in {option_id}=20"
            ) from None
        if not 0 <= value <= 600:
            raise SelectionError(f"--option {spec}: choose 0 to 600 seconds")
        out[option_id] = value
    return tuple(out.items())
