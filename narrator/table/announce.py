"""From the table's events to the sentences the voice says, with the players' names.

Pure: the same sentences are spoken by the voice and shown on every phone (the
"last announcement" line), so a player who did not hear can read it.
"""

from __future__ import annotations

from narrator.table.lines import join_names, line
from narrator.table.state import Event, Table


def _names(table: Table, seats: tuple[int, ...] | list[int]) -> str:
    return join_names([table.seat(s).name for s in seats], table.lang)


def announce(table: Table, event: Event) -> list[str]:
    """What the voice says for one event (nothing for the night: the script speaks)."""
    lang, seats = table.lang, event.seats
    vote = table.ruleset.day.vote
    if event.kind == "dealt":
        return [line("dealt", lang)] if table.dealt else []
    if event.kind == "victims":
        return [
            line("victims", lang, names=_names(table, seats)) if seats else line("no_victims", lang)
        ]
    if event.kind == "vote":
        return [line("vote_open", lang)]
    if event.kind == "accusation":
        return [line("accuse", lang)]
    if event.kind == "suspects":
        return [line("suspects", lang, names=_names(table, seats))]
    if event.kind == "ballot":
        return [line("ballot", lang, names=_names(table, seats))]
    if event.kind == "dead":
        # the ruleset's own count ends the vote ("three, two, one"): all shows at once
        count = ""
        if vote is not None:
            count = " ".join(
                [c.get(lang) for c in vote.ballot.counts]
                + [x.text.get(lang) for x in vote.ballot.go]
            )
        if not seats:
            said = line("nobody_dies", lang)
        else:
            said = line(
                "dead" if len(seats) == 1 else "dead_many", lang, names=_names(table, seats)
            )
        return [f"{count} {said}".strip()]
    if event.kind == "shot":
        return [line("shot", lang, names=_names(table, seats))]
    if event.kind == "verdict":
        return [
            line("condemned", lang, names=_names(table, seats)) if seats else line("spared", lang)
        ]
    if event.kind == "end":
        return _the_end(table)
    return []


def _role(table: Table, role_id: str | None) -> str:
    return table.ruleset.role(role_id).name.get(table.lang) if role_id else "?"


def _the_end(table: Table) -> list[str]:
    reveal = table.reveal
    if reveal is None:
        return []
    lang = table.lang
    said = []
    if table.system == "countdown":  # One Night: every card, the centre too
        said += [
            line("card_was", lang, name=s.name, role=_role(table, s.card)) for s in table.seats
        ]
        centre = [_role(table, r) for r in reveal["unseen"]]
        if centre:
            said.append(line("centre", lang, roles=join_names(centre, lang)))
    teams = [table.ruleset.team_name(t, lang) for t in reveal["winners"]["teams"]]
    said.append(
        line("winners", lang, teams=join_names(teams, lang)) if teams else line("no_winners", lang)
    )
    return said
