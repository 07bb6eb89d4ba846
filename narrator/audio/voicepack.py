"""Voice packs: a friend's voice reading a game's lines, kept as a folder that is a voice.

A pack is a folder in the user's data folder, beside the Piper voices
(`~/.local/share/narrator/voicepacks/ID/`): `pack.json`, its manifest, and
`lines/`, one FLAC file per recorded line. The manifest says which game and
language it reads, the name the group gives it, who recorded it and under what
licence, and for each line its exact text, its file and the file's SHA-256. A
file is named by its own hash, so a take recorded again is a new file and the
manifest, rewritten whole and renamed over the old one (`base.files.write_whole`,
synced), is the one commit: a pack stopped half-way, or a machine that died
mid-write, keeps every line it had. A pack is its owner's: its folders 0700, its
files 0600 (it is shared by exporting it).

`--voice pack:ID` (and the settings) choose one; `pack_voice.PackSynthesizer`
speaks it, the language's default voice saying what it lacks. This module is
plain values and JSON (no numpy), so listing packs and counting what a night lacks
costs nothing; `packzip.py` shares them, `recording.py` records them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs

from narrator.base.errors import NarratorError, one_line
from narrator.base.files import sync_folder, write_whole
from narrator.script.lines import LineBook

FORMAT = 1  # the manifest's format; a newer one is refused with a plain reason
PREFIX = "pack:"  # a voice id naming a pack: "pack:nonna"
MANIFEST = "pack.json"
LINES = "lines"
MAX_MANIFEST = 4_000_000  # bytes: 5000 lines of long Persian text fit in well under half
MAX_LINES = 5000  # a game says a few hundred
MAX_TEXT = 2000  # characters of one line
MAX_FIELD = 200  # characters of the name, the recorder's name, the licence
PRIVATE = 0o700  # a pack's folders: a voice is its owner's (its files are 0600)
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
GAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
FILE = re.compile(r"^lines/[0-9a-f]{32}\.flac$")
REMAKE = "the pack was not made by narrator, or was changed since"


class PackError(NarratorError, ValueError):
    """A voice pack that cannot be used, made or installed: one line, what and how to fix.
    (A ValueError too: the engine's callers treat it as a voice that cannot speak.)"""


class PackInstalled(PackError):
    """The pack being imported is installed already (`import_pack(replace=True)`)."""

    def __init__(self, message: str, pack_id: str) -> None:
        super().__init__(message)
        self.pack_id = pack_id


def packs_dir() -> Path:
    """Where packs live: beside the Piper voices (`XDG_DATA_HOME` respected)."""
    return Path(platformdirs.user_data_dir("narrator")) / "voicepacks"


def pack_of(voice: str | None) -> str | None:
    """The pack id a voice id names ("pack:nonna" -> "nonna"), None for another voice."""
    if voice and voice.startswith(PREFIX):
        return voice[len(PREFIX) :]
    return None


def voice_id(pack_id: str) -> str:
    return PREFIX + pack_id


def slug(name: str) -> str:
    """A folder name and voice id for the pack called `name`: its Latin letters and
    digits, lowercase, hyphens between; a name with none (Persian) gets one from its hash."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    made = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:32].strip("-")
    if not made:
        made = "voice-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:6]
    return made


@dataclass(frozen=True, slots=True)
class PackLine:
    """One recorded line: its exact text, its file inside the pack, the file's SHA-256."""

    text: str
    file: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Manifest:
    """What `pack.json` says."""

    id: str
    name: str
    game: str
    language: str
    recorded_by: str = ""
    licence: str = ""
    lines: tuple[PackLine, ...] = field(default=())

    @property
    def voice(self) -> str:
        return voice_id(self.id)

    def with_line(self, line: PackLine) -> Manifest:
        """This manifest with `line` recorded (a take of the same text replaced)."""
        kept = [old for old in self.lines if old.text != line.text]
        return replace(self, lines=tuple(sorted([*kept, line], key=lambda x: x.text)))

    def book(self) -> LineBook:
        return LineBook(line.text for line in self.lines)

    def to_json(self) -> bytes:
        """The manifest's bytes: the same pack always gives the same bytes."""
        data = {
            "format": FORMAT,
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "language": self.language,
            "recorded_by": self.recorded_by,
            "licence": self.licence,
            "lines": [
                {"text": x.text, "file": x.file, "sha256": x.sha256}
                for x in sorted(self.lines, key=lambda x: x.text)
            ],
        }
        return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def _text(data: dict[str, Any], key: str, where: str, *, limit: int = MAX_FIELD) -> str:
    value = data.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise PackError(f"{where}: '{key}' must be text of at most {limit} characters")
    return value


def _matching(data: dict[str, Any], key: str, pattern: re.Pattern[str], where: str) -> str:
    value = _text(data, key, where)
    if not pattern.match(value):
        raise PackError(f"{where}: '{key}' is not a valid {key} ({value[:40]!r}); {REMAKE}")
    return value


def parse_manifest(raw: bytes, where: str) -> Manifest:
    """The manifest in `raw`, checked; PackError names `where` and what is wrong."""
    if len(raw) > MAX_MANIFEST:
        raise PackError(f"{where}: the manifest is over {MAX_MANIFEST // 1_000_000} MB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise PackError(f"{where}: the manifest is not UTF-8 JSON; {REMAKE}") from None
    if not isinstance(data, dict):
        raise PackError(f"{where}: the manifest is not a JSON object")
    version = data.get("format")
    if version != FORMAT:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > FORMAT
        raise PackError(
            f"{where}: format {version!r} was made by a newer narrator; update narrator"
            if newer
            else f"{where}: not a narrator voice pack (no 'format': {FORMAT})"
        )
    known = {"format", "id", "name", "game", "language", "recorded_by", "licence", "lines"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise PackError(f"{where}: unknown key '{one_line(unknown[0])[:40]}' in the manifest")
    rows = data.get("lines")
    if not isinstance(rows, list) or len(rows) > MAX_LINES:
        raise PackError(f"{where}: 'lines' must be a list of at most {MAX_LINES} lines")
    lines: list[PackLine] = []
    for n, row in enumerate(rows, 1):
        at = f"{where}: line {n}"
        if not isinstance(row, dict) or set(row) != {"text", "file", "sha256"}:
            raise PackError(f"{at}: expected exactly 'text', 'file' and 'sha256'")
        text = _text(row, "text", at, limit=MAX_TEXT)
        if not text.strip():
            raise PackError(f"{at}: empty text")
        lines.append(
            PackLine(text, _matching(row, "file", FILE, at), _matching(row, "sha256", SHA256, at))
        )
    for line in lines:
        if line.file != f"{LINES}/{line.sha256[:32]}.flac":
            raise PackError(f"{where}: {line.file} is not named by its hash {line.sha256[:32]}")
    if len({x.text for x in lines}) < len(lines):
        raise PackError(f"{where}: a line is listed twice")
    if len({x.file for x in lines}) != len({x.sha256 for x in lines}):
        raise PackError(f"{where}: two different takes have the same file name")
    return Manifest(
        id=_matching(data, "id", ID, where),
        name=_text(data, "name", where),
        game=_matching(data, "game", GAME, where),
        language=_matching(data, "language", LANGUAGE, where),
        recorded_by=_text(data, "recorded_by", where),
        licence=_text(data, "licence", where),
        lines=tuple(lines),
    )


def read_manifest(folder: Path) -> Manifest:
    """The manifest of the pack in `folder`; PackError when it is missing or broken."""
    path = folder / MANIFEST
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_MANIFEST + 1)
    except OSError as exc:
        raise PackError(f"{path}: cannot read the voice pack ({exc.strerror})") from None
    manifest = parse_manifest(raw, str(path))
    if manifest.id != folder.name:
        raise PackError(f"{path}: the pack says it is '{manifest.id}' but its folder is named so")
    return manifest


def find_pack(pack_id: str, root: Path | None = None) -> tuple[Path, Manifest]:
    """The installed pack `pack_id`: its folder and manifest."""
    folder = (root or packs_dir()) / pack_id
    if not ID.match(pack_id) or not (folder / MANIFEST).is_file():
        raise PackError(
            f"no voice pack '{one_line(pack_id)[:40]}' is installed: `narrator voices` lists "
            "the ones that are (`narrator voicepack import FILE.zip` installs one)"
        )
    return folder, read_manifest(folder)


def delete_pack(pack_id: str, root: Path | None = None) -> Manifest:
    """Remove the installed pack `pack_id`, whole or not at all: its folder is first
    renamed out of sight (one rename: it is no longer listed), then removed. PackError
    with one line when no such pack is installed or it cannot be removed."""
    folder, manifest = find_pack(pack_id, root)
    try:
        gone = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".deleted-"))
        os.replace(folder, gone / "pack")
        sync_folder(folder.parent)
    except OSError as exc:
        raise PackError(f"cannot delete the voice pack in {folder} ({exc.strerror})") from None
    shutil.rmtree(gone, ignore_errors=True)
    return manifest


def installed_packs(root: Path | None = None) -> list[tuple[Path, Manifest]]:
    """Every pack installed that can be read, by id (a broken one is left out)."""
    folder = root or packs_dir()
    found = []
    with contextlib.suppress(OSError):
        for child in sorted(folder.iterdir()):
            if child.is_dir() and ID.match(child.name) and not child.is_symlink():
                with contextlib.suppress(PackError):
                    found.append((child, read_manifest(child)))
    return found


def coverage(manifest: Manifest, texts: Iterable[str], lang: str) -> tuple[int, int]:
    """How many of `texts` (the utterances of a night or a day) the pack says itself,
    and how many there are: the rest are said by `lang`'s default voice."""
    said = [text for text in texts if text.strip()]
    if not _same_language(manifest.language, lang):
        return 0, len(said)
    book = manifest.book()
    return sum(book.split(text) is not None for text in said), len(said)


def _same_language(pack: str, lang: str) -> bool:
    return pack.split("-")[0].lower() == lang.split("-")[0].lower()


def open_pack(
    name: str,
    game: str,
    language: str,
    *,
    recorded_by: str = "",
    licence: str = "",
    root: Path | None = None,
) -> tuple[Path, Manifest]:
    """The pack called `name` for `game` in `language`: the one recorded before (to go
    on with it), else a new empty one. A pack of that name that reads another game or
    language is never touched: the new one gets the next free id."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_FIELD:
        raise PackError(f"a voice pack needs a name of 1 to {MAX_FIELD} characters")
    folder_root = root or packs_dir()
    base = slug(name)
    for n in range(1, 100):
        pack_id = base if n == 1 else f"{base[:36]}-{n}"
        folder = folder_root / pack_id
        if (folder / MANIFEST).is_file():
            old = read_manifest(folder)
            if (old.name, old.game, old.language) == (name, game, language):
                return folder, old
            continue
        if folder.exists():
            continue
        manifest = Manifest(
            id=pack_id,
            name=name,
            game=game,
            language=language,
            recorded_by=" ".join(recorded_by.split())[:MAX_FIELD],
            licence=" ".join(licence.split())[:MAX_FIELD],
        )
        try:
            folder_root.mkdir(parents=True, exist_ok=True)
            folder.mkdir(mode=PRIVATE)
        except OSError as exc:
            raise PackError(f"cannot make the voice pack in {folder} ({exc.strerror})") from None
        try:
            (folder / LINES).mkdir(mode=PRIVATE)
            write_whole(folder / MANIFEST, manifest.to_json())
        except OSError as exc:
            shutil.rmtree(folder, ignore_errors=True)  # no half-made pack left to skip
            raise PackError(f"cannot make the voice pack in {folder} ({exc.strerror})") from None
        return folder, manifest
    raise PackError(f"too many voice packs named '{name[:40]}': choose another name")
