"""The games list as the app first draws it, kept between runs.

The app opens on its list of games: each ruleset's name, players, nights, languages
and description, and the files that do not load. Reading the rulesets for it (the
model's classes, the loader, the kept copies) was ~60 ms in front of the app's first
frame, so the list is kept too: JSON in the cache folder, under a stamp of the rules
code and of the ruleset folders (each file's name, size and modification time). A
list whose stamp no longer matches is never used; the catalogue, read just after
the first frame, redraws the list if it still differs (issue 18). Light on purpose:
no model, no loader.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from narrator.base.folders import cache_dir, ruleset_files
from narrator.rules.stamp import code_stamp

if TYPE_CHECKING:
    from narrator.rules.catalog import Catalog

FILE = "games.json"


@dataclass(frozen=True)
class GameEntry:
    """A ruleset as the games list shows it."""

    id: str
    names: dict[str, str]  # by language code
    languages: tuple[str, ...]
    min_players: int
    max_players: int
    nights: int | None  # None: as many nights as the game lasts
    rounds: int | None  # rounds of numbered turns, for a game played in rounds
    about: dict[str, str]  # the description by language code; may be empty
    yours: bool  # the user's own file

    def name(self, lang: str) -> tuple[str, str]:
        """The name in `lang`, or in the ruleset's first language; and that language."""
        code = lang if lang in self.languages else self.languages[0]
        return self.names[code], code

    def description(self, lang: str) -> tuple[str, str] | None:
        if not self.about:
            return None
        code = lang if lang in self.about else sorted(self.about)[0]
        return self.about[code], code


@dataclass(frozen=True)
class BrokenEntry:
    """A ruleset file that does not load: its name and the loader's one line."""

    file: str
    error: str


@dataclass(frozen=True)
class GamesIndex:
    games: tuple[GameEntry, ...]  # by id
    broken: tuple[BrokenEntry, ...]

    @classmethod
    def of(cls, catalog: Catalog) -> GamesIndex:
        games = []
        for ruleset in sorted(catalog.rulesets.values(), key=lambda r: r.id):
            about = ruleset.description
            games.append(
                GameEntry(
                    id=ruleset.id,
                    names={code: ruleset.name.get(code) for code in ruleset.languages},
                    languages=tuple(ruleset.languages),
                    min_players=ruleset.setup.min_players,
                    max_players=ruleset.setup.max_players,
                    nights=ruleset.nights,
                    rounds=ruleset.rounds.count if ruleset.rounds is not None else None,
                    about={} if about is None else {c: about.get(c) for c in about.languages()},
                    yours=ruleset.id in catalog.user_ids,
                )
            )
        broken = tuple(
            BrokenEntry(error.path.name if error.path is not None else "?", str(error))
            for error in catalog.broken
        )
        return cls(tuple(games), broken)

    def get(self, game_id: str) -> GameEntry | None:
        return next((game for game in self.games if game.id == game_id), None)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GamesIndex:
        games = tuple(GameEntry(**{**g, "languages": tuple(g["languages"])}) for g in data["games"])
        return cls(games, tuple(BrokenEntry(**b) for b in data["broken"]))


def stamp(folders: Sequence[Path]) -> str:
    """What the list depends on: the rules code, and each ruleset file's name, size
    and modification time, folder by folder in the order they are loaded."""
    digest = hashlib.sha256(code_stamp())
    for folder in folders:
        digest.update(f"\0{folder}\n".encode("utf-8", "surrogateescape"))
        for path in ruleset_files(folder):
            with contextlib.suppress(OSError):
                info = path.stat()
                line = f"{path.name} {info.st_size} {info.st_mtime_ns}\n"
                digest.update(line.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def kept(folders: Sequence[Path]) -> GamesIndex | None:
    """The list kept for these folders as they are now, or None (none kept, or stale,
    or unreadable)."""
    try:
        data = json.loads((cache_dir() / FILE).read_bytes())
        if data.get("stamp") != stamp(folders):
            return None
        return GamesIndex.from_dict(data)
    except Exception:  # a damaged or foreign file is simply not used
        return None


def keep(index: GamesIndex, at_stamp: str) -> None:
    """Keep the list read under `at_stamp` (taken before reading); a cache that cannot
    be written costs nothing."""
    from narrator.base.files import write_cache  # (tempfile: not for the first frame)

    path = cache_dir() / FILE
    text = json.dumps({"stamp": at_stamp, **asdict(index)}, ensure_ascii=False).encode()
    with contextlib.suppress(OSError):
        if path.read_bytes() == text:
            return  # kept already
    write_cache(path, lambda file: file.write(text), private=True)
