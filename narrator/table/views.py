"""What each one may see of the table: the public view, a phone's own, the host's.

Projections of the table as JSON-ready dicts, the wire form the pages read: seats by
their display numbers (`seats.number`), the last vote and the reveal through
`results.py`. Never a card or a live vote in the public view; a phone's own view
holds its card (only while the rules let it look) and what it may do; the host's
holds the box and the seating, never a card. What the pages receive is these, as
they were: the web server adds the padding and the voice's errors.
"""

from __future__ import annotations

from typing import Any

from narrator.rules import check_selection, dealing
from narrator.table.errors import TableError
from narrator.table.flow import VOTING
from narrator.table.lines import describe
from narrator.table.results import result_json, reveal_json
from narrator.table.seats import Player, number
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
        # the host may take a player out by hand in a game of many nights
        "eliminate": table.trial,
        # after a restart: how many more phones must come back to open the game
        "sealed": table.vault.waiting,
    }


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
        "journal": list(table.journal.get(player.seat, [])),
        # the actions, while this player still has this round's turn (one each)
        "turns": turn_options(table) if table.has_turn(player.seat) else [],
    }


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
            {"id": r.id, "name": r.name.get(table.lang), "max": r.max_count} for r in ruleset.roles
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


def deck_count(table: Table, roles: dict[object, object]) -> dict[str, Any]:
    """How a deck the host is choosing would be dealt at this table now: the cards,
    the dealt, those set aside (One Night's centre) and those removed unseen, or
    why it cannot be dealt -- the host page's running count, from the ruleset."""
    players = len(table.seats)
    chosen = chosen_roles(table.ruleset, {r: n for r, n in roles.items() if n != 0})
    if not chosen:
        try:
            chosen = recommended_deck(table.ruleset, players, deal=True)
        except TableError as exc:  # too few players yet: say so, count nothing
            return {"cards": 0, "dealt": 0, "aside": 0, "removed": 0, "errors": [str(exc)]}
    report = check_selection(table.ruleset, max(players, 1), chosen)
    plan = dealing(table.ruleset, players, chosen)
    return {
        "cards": plan.cards,
        "dealt": plan.dealt,
        "aside": max(0, plan.aside),
        "removed": plan.discard,
        "errors": list(report.errors) if players else [],
    }
