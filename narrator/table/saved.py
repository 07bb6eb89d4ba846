"""The saved game: a table as JSON, written atomically after every change.

Only the tokens' SHA-256 is kept, so the file holds no key to any seat; a phone
rejoins a resumed table with the token it kept. A file that cannot be used is one
line saying so, never a traceback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from narrator.rules import Ruleset
from narrator.table.errors import TableError
from narrator.table.state import Options, Seat, Table


def dump(table: Table) -> dict[str, Any]:
    return {
        "format": 1,
        "ruleset": table.ruleset.id,
        "lang": table.lang,
        "room": table.room,
        "host_hash": table.host_hash,
        "options": asdict(table.options),
        "seats": [asdict(s) for s in table.seats],
        "phase": table.phase,
        "night": table.night,
        "deadline": table.deadline,
        "dealt": table.dealt,
        "roles": table.roles,
        "unseen": table.unseen,
        "removed": table.removed,
        "ballot": {str(k): v for k, v in table.ballot.items()},
        "suspects": table.suspects,
        "last_out": table.last_out,
        "last_arrested": table.last_arrested,
        "night_out": table.night_out,
        "result": table.result,
        "reveal": table.reveal,
        "version": table.version,
    }


def restore(data: Mapping[str, Any], ruleset: Ruleset, **kw: Any) -> Table:
    if data.get("format") != 1 or data.get("ruleset") != ruleset.id:
        raise TableError(f"this saved game is not a '{ruleset.id}' table game")
    return Table(
        ruleset,
        data["lang"],
        room=data["room"],
        host_hash=data["host_hash"],
        options=Options(**data["options"]),
        seats=[Seat(**s) for s in data["seats"]],
        phase=data["phase"],
        night=data["night"],
        deadline=data["deadline"],
        dealt=data["dealt"],
        unseen=list(data["unseen"]),
        removed=list(data.get("removed", [])),
        ballot={int(k): int(v) for k, v in data["ballot"].items()},
        suspects=list(data["suspects"]),
        last_out=data["last_out"],
        last_arrested=data["last_arrested"],
        night_out=list(data["night_out"]),
        roles={str(k): int(v) for k, v in data["roles"].items()},
        result=data["result"],
        reveal=data["reveal"],
        version=data["version"],
        **kw,
    )


def load_saved(path: Path, ruleset: Ruleset, **kw: Any) -> Table:
    """A table from its saved game file, with one clear line if it cannot be used."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return restore(data, ruleset, **kw)
    except TableError as exc:
        raise TableError(f"{path}: {exc}") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise TableError(
            f"{path}: not a saved table game ({type(exc).__name__}: {exc}); "
            "start a new game without --resume"
        ) from None


def save(table: Table, path: Path) -> None:
    """Write the saved game atomically: a crash mid-write leaves the last good file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(dump(table), ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
