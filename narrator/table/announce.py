"""From the table's announcements to the sentences the voice says, with the players' names.

Pure: the same sentences are spoken by the voice and shown on every phone (the
"last announcement" line), so a player who did not hear can read it.
"""

from __future__ import annotations

from narrator.i18n import gettext
from narrator.moderator import Cause, Words
from narrator.moderator.referee import Announcement
from narrator.script.builder import spoken_call
from narrator.script.plan import Plan
from narrator.table.lines import join_names, line, taken_along
from narrator.table.seats import SeatIndex
from narrator.table.state import Table


def _names(table: Table, seats: tuple[SeatIndex, ...] | list[SeatIndex]) -> str:
    return join_names([table.seat(s).name for s in seats], table.lang)


def announce(table: Table, event: Announcement) -> list[str]:
    """What the voice says for one event (nothing for the night: the script speaks)."""
    lang, seats = table.lang, event.seats
    if event.kind == "said":  # a line of the day script, already in the game's words
        return [event.text]
    if event.kind == "dealt":
        return [line("dealt", lang)] if table.dealt else []
    if event.kind == "victims":
        if not seats:
            return [line("no_victims", lang)]
        said = [_death(table, s) for s in seats]
        if all(said):
            return [s for s in said if s]
        return [line("victims", lang, names=_names(table, seats))]
    if event.kind == "found":  # One Night's dawn: what the table sees the night left
        return _found(table, event.night)
    if event.kind == "out":  # by day; with the cards on the phones: left the table
        key = "left_table" if table.dealt else "out"
        return [line(key, lang, names=_names(table, seats))]
    if event.kind in ("accused_by", "voted_by"):
        key = "accuses" if event.kind == "accused_by" else "votes_for"
        return [
            " ".join(
                line(key, lang, name=table.seat(v).name, who=table.seat(t).name)
                for v, t in event.votes
            )
        ]
    if event.kind == "vote":
        return [line("vote_open", lang)]
    if event.kind == "accusation":
        return [line("accuse", lang)]
    if event.kind == "suspects":
        key = "suspects" if len(seats) > 1 else "suspect"
        return [line(key, lang, names=_names(table, seats))]
    if event.kind == "ballot":
        key = "ballot_open" if table.rule.open_ballot else "ballot"
        return [line(key, lang, names=_names(table, seats))]
    if event.kind == "dead":
        # The phones' vote has closed: no "three, two, one" after it (audit 3, finding
        # 13); the ruleset's count is for a table that points with fingers.
        vote = _vote_said(table)  # whom the vote turned, who it could not kill
        if not seats:
            return [" ".join([*vote, line("nobody_dies", lang)])]
        dead = line("dead" if len(seats) == 1 else "dead_many", lang, names=_names(table, seats))
        if not table.dealt:  # physical cards: the table does not know them (finding 9)
            dead += " " + line("turn_over", lang)
        return [" ".join([*vote, dead])]
    if event.kind == "shot":
        return [_taken_along(table, seats)]
    if event.kind == "verdict":
        if not seats:
            return [line("spared", lang)]
        return [_death(table, seats[0]) or line("condemned", lang, names=_names(table, seats))]
    if event.kind == "round" and table.ruleset.rounds is not None:
        rounds, plan = table.ruleset.rounds, _plan(table)
        lines = [
            spoken_call(table.ruleset, plan, call, round_=event.night)
            for call in (rounds.round_start, rounds.reminders)
        ]
        return [" ".join(x for x in [*lines, *_turn_call(table, event.night, 1)] if x)]
    if event.kind == "turn_said" and table.engine is not None:
        words = Words(table.engine, lang)
        new = table.engine.log[event.since :]
        heard = [text for e in new if e.to is None and (text := words.turn(e))]
        if table.phase != "end":  # the next turn card, as the app calls them
            heard += _turn_call(table, table.round, table.engine.turns_played + 1)
        return [" ".join(heard)] if heard else []
    if event.kind == "rounds_over":
        return [gettext(lang, "The last round is over.")]
    if event.kind == "end":
        return _the_end(table)
    return []


# The announcements whose words are known before they are needed: said alone, or of one
# player (the voice prepares them: a slow voice must not be late with them).
FIXED = ("dealt", "no_victims", "vote_open", "accuse", "nobody_dies", "spared")
OF_ONE = ("victims", "dead")


def foreseen(table: Table) -> list[str]:
    """The announcements this table may make whose words do not depend on how the
    game goes: its fixed lines, and each player's name in the one-name lines. (Said
    or not, every one is made: preparing them tells nothing.)"""
    lang = table.lang
    said = [line(key, lang) for key in FIXED]
    for seat in table.seats:
        said += [line(key, lang, names=seat.name) for key in OF_ONE]
    return said


def _role(table: Table, role_id: str | None) -> str:
    return table.ruleset.role(role_id).name.get(table.lang) if role_id else "?"


def _plan(table: Table) -> Plan:
    """The table's game as the script builder takes it (rounds are played after the
    one night)."""
    return Plan(
        players=len(table.seats),
        roles=tuple(table.roles.items()),
        lang=table.lang,
        phones=table.engine is not None,
    )


def _turn_call(table: Table, round_: int, turn: int) -> list[str]:
    """Secret Moon's call of the next turn card ("Card 2, your turn"), as the app's
    day script calls it; nothing once the round's cards are all played, or nobody
    is left who may still play this round."""
    rounds = table.ruleset.rounds
    if rounds is None or turn > rounds.turns:
        return []
    if table.engine is not None and not any(table.has_turn(p.seat) for p in table.seats):
        return []
    plan = _plan(table)
    call = spoken_call(table.ruleset, plan, rounds.turn_call, round_=round_, turn=turn)
    return [call] if call else []


def _found(table: Table, night: int) -> list[str]:
    """What the table sees at dawn of the night's doings, in the engine's words: a
    card face up, a shield or an artifact on a card, the side a card sides with (as
    every one of them lies in the open, or as the app says it)."""
    if table.engine is None:
        return []
    words = Words(table.engine, table.lang)
    log = table.engine.log
    heard = [s for e in log if e.night == night and e.step != "day" and (s := words.dawn(e))]
    return [" ".join(heard)] if heard else []


def _vote_said(table: Table) -> list[str]:
    """What the engine's vote said besides the dead: whom it turned (the Cursed), who
    had the most votes but could not die (the Prince, a player shielded)."""
    if table.engine is None:
        return []
    words = Words(table.engine, table.lang)
    said = [e for e in table.engine.log if e.step == "day" and e.kind in ("turned", "spared")]
    return [s for e in said if (s := words.public(e))]


def _taken_along(table: Table, seats: tuple[SeatIndex, ...]) -> str:
    """The players a death took along: the ones shot in the ruleset's words (the
    Hunter's `on_death_line`), the others as the engine says why (a lover who dies
    together with the other: One Night's vote `together`)."""
    engine, lang = table.engine, table.lang
    other = []
    if engine is not None:
        words = Words(engine, lang)
        other = [
            e
            for e in engine.log
            if e.kind == "death" and e.seat in seats and e.cause not in (Cause.SHOT, Cause.VOTE)
        ]
    if not other:
        return taken_along(table.ruleset, lang, _names(table, seats), table.dealt)
    apart = {e.seat for e in other}
    shot = [s for s in seats if s not in apart]
    said = [taken_along(table.ruleset, lang, _names(table, shot), table.dealt)] if shot else []
    return " ".join(said + [words.death(e) for e in other])


def _death(table: Table, seat: SeatIndex) -> str | None:
    """A player's leaving in the game's own words (Mafia: "arrested, now a Prisoner";
    Lupus: "now a Ghost"), from the engine's log; None without an engine."""
    engine = table.engine
    if engine is None:
        return None
    words = Words(engine, table.lang)
    for e in reversed(engine.log):
        if e.seat == seat and e.kind == "death":  # by the rules' hand, not the host's
            return None if e.cause == Cause.REMOVED else words.death(e)
        if e.seat == seat and e.kind == "arrested":
            return words.arrested(e)
    return None


def _the_end(table: Table) -> list[str]:
    reveal = table.reveal
    if reveal is None:
        return []
    lang = table.lang
    said = []
    if table.countdown and table.engine is not None:
        # One Night: the night's story from the log, then every card as it ends (and
        # as dealt, where it moved), the centre after the night
        words = Words(table.engine, lang)
        said += [s for e in table.engine.log if (s := words.story(e))]
        for i in range(len(table.engine.seats)):  # with what lies beside it
            said += [words.reveal(i), *words.tokens(i)]
    elif table.countdown:
        said += [
            line("card_was", lang, name=s.name, role=_role(table, s.card)) for s in table.seats
        ]
    if table.countdown:
        centre = [_role(table, r) for r in reveal.unseen]
        if centre:
            said.append(line("centre", lang, roles=join_names(centre, lang)))
    if not reveal.judged:
        return said  # nobody judged the end: no winner is named (audit 3, finding 31)
    teams = [table.ruleset.team_name(t, lang) for t in reveal.winners.teams]
    said.append(
        line("winners", lang, teams=join_names(teams, lang)) if teams else line("no_winners", lang)
    )
    return said
