"""What each one may see of the table: the public view, a phone's own, the host's.

Projections of the table as JSON-ready dicts, the wire form the pages read: seats by
their display numbers (`seats.number`), the last vote and the reveal through
`results.py`. Never a card or a live vote in the public view; a phone's own view
holds its card (only while the rules let it look) and what it may do; the host's
holds the box and the seating, never a card. What the pages receive is these, as
they were: the web server adds the padding and the voice's errors.
"""

from __future__ import annotations

import json
from typing import Any

from narrator.i18n.phrase import Phrase
from narrator.moderator import Place, Words, unsupported_roles
from narrator.rules import check_selection, dealing
from narrator.table.errors import TableError
from narrator.table.flow import VOTING
from narrator.table.lines import describe
from narrator.table.night import prompt_text
from narrator.table.results import result_json, reveal_json
from narrator.table.seats import Player, number, option_id
from narrator.table.state import Table, chosen_roles, recommended_deck


def public(table: Table) -> dict[str, Any]:
    """What anyone may see: never a card, never a vote before it is counted."""
    lang = table.lang
    remaining = table.deadline - table.clock.now() if table.deadline is not None else None
    return {
        "room": table.room,
        "ruleset": table.ruleset.id,
        "game": table.ruleset.name.get(lang),
        "lang": lang,
        "phase": table.phase,
        "night": table.night,
        "deadline": table.deadline,
        "remaining": None if remaining is None else max(0.0, remaining),
        "players": [
            {"name": p.name, "seat": number(p.seat), "alive": p.alive} for p in table.seats
        ],
        "suspects": [number(s) for s in table.suspects],
        "voting": table.phase in VOTING,  # the one list of voting phases, for every page
        "voters": len(table.voters()),
        "voted": len(table.ballot),
        "result": result_json(table.result),
        "reveal": reveal_json(table.reveal),
        # the box's roles and sides are public: what is in the game is not
        "role_names": {r.id: r.name.get(lang) for r in table.ruleset.roles},
        "team_names": {t: n.get(lang) for t, n in table.ruleset.teams},
        "token_names": {t.id: t.name.get(lang) for t in table.ruleset.tokens if t.kind},
        "version": table.version,
        # One Night: a card may change hands in the night; it is shown before only
        "card_only_before_night": table.countdown,
        # Secret Moon's rounds on the phones: which round, and how many cards lie
        # in the centre (the "non-playing players" a turn may pick)
        "round": table.round,
        "centre": len(table.unseen) if table.rounds and table.dealt else 0,
        # the roles in the game, not who holds them: public in every seed
        # (audit 3, finding 2); One Night's centre is among them
        "deck": dict(table.roles),
        # the host may take a player out by hand in a game of many nights: with
        # physical cards who left in the night ("night"); with the cards on the
        # phones the engine knows the night's deaths, and the host marks out by day
        # only a player who leaves the table ("table"); None: never
        "eliminate": ("table" if table.dealt else "night") if table.trial else None,
        # the votes whose every vote is told aloud when they close (the pages say so)
        "told": told(table),
        # after a restart: how many more phones must come back to open the game
        "sealed": table.vault.waiting,
    }


def told(table: Table) -> list[str]:
    """The voting phases whose every vote is shown or read aloud, voter by voter, when
    they close: One Night's vote; the accusation and the ballot where the ruleset's
    are open (Lupus)."""
    if table.countdown:
        return ["vote"]
    if not table.trial:
        return []
    rule = table.rule
    return [
        p
        for p, open_ in (("accusation", rule.open_accusation), ("ballot", rule.open_ballot))
        if open_
    ]


def private(table: Table, player: Player) -> dict[str, Any]:
    """One phone's view: `/api/me`. Its own card and its own vote, nothing else.
    In a game where the cards move in the night (One Night), the card is there
    only before the night: by day nobody may look at theirs again (review H8)."""
    card = None
    hidden = table.countdown and table.phase not in ("lobby", "cards")
    if player.card is not None and not hidden:
        role = table.ruleset.role(player.card)
        card = {
            "name": role.name.get(table.lang),
            "team": table.ruleset.team_name(role.team, table.lang),
            "text": describe(table.ruleset, player.card, table.lang, frozenset(table.roles)),
        }
    can_vote = table.phase in VOTING and player.seat in table.voters()
    vote = table.ballot.get(player.seat)
    desk = table.desk
    return {
        "name": player.name,
        "seat": number(player.seat),
        "role": None if hidden else player.card,
        "card": card,
        "alive": player.alive,
        "phase": table.phase,
        "can_vote": can_vote,
        "targets": [number(s) for s in table.targets(player.seat)] if can_vote else [],
        "my_vote": None if vote is None else number(vote),
        # the night: the same prompt id on every phone (real or decoy), the group's
        # picks to its members only, and what this player learned, kept all game
        "prompt": desk.prompt(player.seat) if desk else None,
        "picks": desk.picks(player.seat) if desk else {},
        "journal": journal(table, player),
        # the actions, while this player still has this round's turn (one each)
        "turns": turn_options(table) if table.has_turn(player.seat) else [],
    }


def journal(table: Table, player: Player) -> list[dict[str, Any]]:
    """What this player did and learned, all game. The night in progress is held back
    until dawn (the phone shows an answer's result at once, from `/api/act`): a
    journal that grew when a card acted would make its phone's view grow then."""
    lines = table.journal.get(player.seat, [])
    if table.phase == "night":
        return [j for j in lines if j["night"] < table.night]
    return list(lines)


def night_room(table: Table) -> int:
    """The most bytes a phone's night prompt and a group's picks can take tonight, on
    any phone: every seat, centre card and named word offered under the longest
    label, the longest text a prompt says, every seat shown a pick. The padding
    counts this room from nightfall to dawn, so it does not move when a card's real
    prompt or a pack's picks appear (0 when no night is played on the phones)."""
    desk = table.desk
    if desk is None or table.phase != "night":
        return 0
    words = Words(desk.engine, table.lang, phones=True)
    abilities = [a for r in table.ruleset.roles if r.powers for a in r.powers.abilities]
    named = sorted({w for a in abilities for p in a.picks for w in p.named})
    places = (
        [Place.seat(p.seat) for p in table.seats]
        + [Place.centre(k) for k in range(len(desk.engine.centre))]
        + [Place.word(w) for w in named]
    )
    options = [option_id(p) for p in places]
    longest = max(_size(words.who(p)) + _size(option_id(p)) for p in places)
    texts = [prompt_text(words, None)] + [prompt_text(words, r.id) for r in table.ruleset.roles]
    ways = max(
        (_size([{"seat": 99, "centre": 99, "named": list(p.named)} for p in a.picks])
         for a in abilities),
        default=2,
    )  # fmt: skip
    prompt = (
        _size({"id": "n999.999/99", "text": "", "min": 99, "max": 99, "options": [], "ways": []})
        + max(_size(t) for t in texts)
        + len(options) * (_size({"id": "", "label": ""}) + 2 + longest)
        + ways
    )
    picks = len(table.seats) * (_size({"": ""}) + 2 + 2 * max(_size(o) for o in options))
    return prompt + picks


def _size(value: object) -> int:
    """Bytes of `value` as JSON, as the server writes it."""
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def turn_options(table: Table) -> list[dict[str, Any]]:
    """Every action and what it may pick, the same list on every phone (which of
    them this card may not take is said only when tried)."""
    if not (table.phase == "day" and table.round and table.engine is not None):
        return []
    names = {r.id: r.name.get(table.lang) for r in table.ruleset.roles}
    out = []
    for ability in table.ruleset.actions:
        picks = ability.picks
        out.append(
            {
                "id": ability.id,
                "label": ability.label.get(table.lang) if ability.label else ability.id,
                "players": max((p.players for p in picks), default=0),
                "centre": max((p.centre for p in picks), default=0),
                "self": any(p.players and not p.other for p in picks),
                "role": any(p.role for p in picks),
                "roles": names if any(p.role for p in picks) else {},
            }
        )
    return out


def host(table: Table) -> dict[str, Any]:
    """The host's view (`/api/host/setup`, the app's Table screen): the box's roles,
    the recommended deck and the player range; each role's side and box; the lock,
    and the phones asking for a seat -- never a card."""
    ruleset = table.ruleset
    try:
        deck = recommended_deck(ruleset, len(table.seats), deal=True)
    except TableError:
        deck = ()
    return {
        "roles": [
            {
                "id": r.id,
                "name": r.name.get(table.lang),
                "max": r.max_count,
                # a card the phones can deal: one the engine runs (read from the engine,
                # so it follows the engine as it learns roles); the others are for a
                # table with physical cards. A ruleset with no outcome is dealt with
                # no engine (Table.start): every card then
                "dealable": ruleset.outcome is None or not unsupported_roles(ruleset, [r.id]),
            }
            for r in ruleset.roles
        ],
        "recommended": dict(deck),
        "min_players": ruleset.setup.min_players,
        "max_players": ruleset.setup.max_players,
        "locked": table.seats.locked,
        "claims": [
            {"code": c.code, "seat": number(c.player.seat), "name": c.player.name}
            for c in table.seats.claims
        ],
        "teams": {r.id: r.team for r in ruleset.roles},
        "boxes": {r.id: r.box for r in ruleset.roles},
        "box_names": {b: n.get(table.lang) for b, n in ruleset.boxes},
    }


def no_deck(table: Table) -> str:
    """Why no deck is recommended at this table yet, to its host, in its language (the
    rules' own message names the command line's `--players` and `--roles`)."""
    setup, players = table.ruleset.setup, len(table.seats)
    if not setup.min_players <= players <= setup.max_players:
        return Phrase.counted(
            "this game is for {low} to {high} players; {n} has joined",
            "this game is for {low} to {high} players; {n} have joined",
            players,
            low=setup.min_players,
            high=setup.max_players,
        ).say(table.lang)
    return Phrase("the game recommends no deck for {n} players; choose the roles", n=players).say(
        table.lang
    )


def deck_count(table: Table, roles: dict[object, object], deal: bool = True) -> dict[str, Any]:
    """How a deck the host is choosing would be dealt at this table now: the cards,
    the dealt, those set aside (One Night's centre) and those removed unseen, or
    why it cannot be dealt -- the host page's running count, from the ruleset; dealt
    by the phones (`deal`), a role the engine cannot run is one of the reasons, as
    the deal itself would say."""
    players = len(table.seats)
    chosen = chosen_roles(table.ruleset, {r: n for r, n in roles.items() if n != 0})
    if not chosen:
        try:
            chosen = recommended_deck(table.ruleset, players, deal=True)
        except TableError:  # too few players yet: say so, count nothing
            return {"cards": 0, "dealt": 0, "aside": 0, "removed": 0, "errors": [no_deck(table)]}
    report = check_selection(table.ruleset, max(players, 1), chosen, table.lang)
    plan = dealing(table.ruleset, players, chosen)
    errors = list(report.errors) if players else []
    if deal and table.ruleset.outcome is not None:
        cannot = unsupported_roles(table.ruleset, [r for r, _ in chosen])
        errors += [cannot] if cannot else []
    return {
        "cards": plan.cards,
        "dealt": plan.dealt,
        "aside": max(0, plan.aside),
        "removed": plan.discard,
        "errors": errors,
    }
