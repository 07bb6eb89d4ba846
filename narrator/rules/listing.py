"""What `narrator roles` lists of a ruleset's roles: a row each, and when each wakes.

Pure: the rows are the command's JSON contract (README.md); the command line prints
them, as JSON or as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from narrator.rules.model import Ruleset


def role_rows(ruleset: Ruleset) -> list[dict[str, Any]]:
    """A row for each role: its id, names, team, most copies, when it wakes, its box and
    the first and last night it wakes (None: never, or no last)."""
    return [
        {
            "id": r.id,
            "name": dict(r.name.values),
            "team": r.team,
            "max": r.max_count,
            "wakes": _wakes(ruleset, r.id),
            "box": r.box or None,
            "from_night": ruleset.role_nights(r.id)[0],
            "until_night": ruleset.role_nights(r.id)[1],
        }
        for r in ruleset.roles
    ]


def _wakes(ruleset: Ruleset, role_id: str) -> str:
    role = ruleset.role(role_id)
    if role.wakes_with:
        return f"with {role.wakes_with}"
    if not role.turns:
        return "never"
    return ", ".join(str(t.order) for t in role.turns)


def nights_text(nights: tuple[int | None, int | None]) -> str:
    """(1, 1) -> "first night only"; (2, None) -> "from night 2"; and so on."""
    first, last = nights
    if first is None:
        return "never"
    if last is None:
        return "every night" if first == 1 else f"from night {first}"
    if first == last:
        return "first night only" if first == 1 else f"night {first} only"
    return f"nights {first} to {last}"
