"""Sharing a voice pack: one zip out, and the same pack back in, byte for byte.

`export_pack` writes the pack's manifest and takes, checked against their hashes
first, into a zip that depends on nothing but them: entries sorted, every
timestamp 1980-01-01, the same attributes, takes stored and the manifest deflated,
so the same pack always gives the same zip.

`import_pack` reads a zip from anyone, so it trusts nothing in it and checks
everything before it writes anything: the zip's size, the number of entries, each
entry's size and compression ratio (no zip bomb), its name (only `pack.json` and
`lines/<hash>.flac`: no path outside the pack, no absolute path, no folder of its
own), its type (no link, no device), no encryption, the manifest, that the entries
and the manifest's lines are the same files, each file's SHA-256, and that each
is FLAC audio narrator can read (one channel, a sane rate and length). A bad pack is
one `PackError` (what, and how to fix it) and the user's data folder is untouched;
a good one is unpacked into a hidden folder beside the others and renamed into
place, so a full disk or a kill halfway leaves no half pack.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import stat
import tempfile
import zipfile
import zlib
from pathlib import Path

from narrator.audio.voicepack import (
    FILE,
    LINES,
    MANIFEST,
    MAX_LINES,
    PRIVATE,
    Manifest,
    PackError,
    PackInstalled,
    find_pack,
    packs_dir,
    parse_manifest,
)
from narrator.base.errors import one_line
from narrator.base.files import sync_folder

MAX_ENTRY = 32_000_000  # bytes of one take (a minute at 96 kHz in 24 bits is 17 MB raw)
MAX_TOTAL = 1_000_000_000  # bytes of a whole pack, unpacked
MAX_ENTRIES = MAX_LINES + 1  # the takes and the manifest
MAX_RATIO = 50  # unpacked over packed: FLAC barely packs, JSON text about 5 to 1
RATIO_FROM = 100_000  # bytes: smaller entries may pack as they like
MAX_SECONDS = 120  # of one take
RATES = (8000, 192_000)
EPOCH = (1980, 1, 1, 0, 0, 0)  # the zip format's first day: every entry's timestamp
ENTRY_MODE = (stat.S_IFREG | 0o644) << 16


# How to fix a zip narrator did not make: have it made by narrator.
FIX = "ask for the pack again, exported with `narrator voicepack export`"


def export_pack(pack_id: str, out: Path, root: Path | None = None) -> Manifest:
    """Write the installed pack `pack_id` to the zip `out` (whole, or not at all)."""
    from narrator.audio.export import OutputFile

    if out.suffix.lower() != ".zip":
        raise PackError(f"{out}: a voice pack is exported as a .zip file; name it so")
    folder, manifest = find_pack(pack_id, root)
    raw = (folder / MANIFEST).read_bytes()
    entries = {MANIFEST: raw}
    for line in manifest.lines:
        if line.file in entries:  # two lines, one take (the same sound)
            continue
        try:
            data = (folder / line.file).read_bytes()
        except OSError as exc:
            raise PackError(
                f"{folder / line.file}: cannot read a take ({exc.strerror}); record the "
                f'line again ("{line.text[:40]}")'
            ) from None
        if hashlib.sha256(data).hexdigest() != line.sha256:
            raise PackError(
                f"{folder / line.file}: the take does not match its hash (the file changed); "
                f'record the line again ("{line.text[:40]}")'
            )
        entries[line.file] = data
    if out.exists() and not zipfile.is_zipfile(out):
        raise PackError(f"{out}: exists and is not a zip file; choose another name")
    try:
        with OutputFile(out) as target, zipfile.ZipFile(target.temp, "w") as archive:
            for name, data in sorted(entries.items()):
                info = zipfile.ZipInfo(name, date_time=EPOCH)
                info.create_system = 3  # Unix: the mode below is read as one
                info.external_attr = ENTRY_MODE
                packed = name == MANIFEST
                info.compress_type = zipfile.ZIP_DEFLATED if packed else zipfile.ZIP_STORED
                archive.writestr(info, data, compresslevel=9 if packed else None)
    except ValueError as exc:  # OutputFile: no such folder, not writable
        raise PackError(str(exc)) from None
    except OSError as exc:
        raise PackError(f"{out}: cannot write the zip ({exc.strerror})") from None
    return manifest


def import_pack(path: Path, root: Path | None = None, *, replace: bool = False) -> Manifest:
    """Install the pack in the zip `path`; PackError, and nothing written, if any check
    fails. `replace`: a pack of the same id installed already is replaced."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise PackError(f"{path}: cannot read the file ({exc.strerror})") from None
    if not path.is_file():
        raise PackError(f"{path}: not a file; give the .zip a voice pack was exported as")
    if size > MAX_TOTAL:
        raise PackError(f"{path}: over {MAX_TOTAL // 1_000_000} MB, too big for a voice pack")
    try:
        with zipfile.ZipFile(path) as archive:
            manifest, raw = _checked(path, archive)
            return _install(path, archive, manifest, raw, root or packs_dir(), replace)
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        EOFError,
        NotImplementedError,
        zlib.error,
    ) as exc:
        raise PackError(f"{path}: not a readable zip file ({one_line(str(exc))[:80]})") from None
    except OSError as exc:  # the disk, not the zip: reading it failed halfway
        raise PackError(f"{path}: cannot read the file ({exc.strerror or exc})") from None


def _checked(path: Path, archive: zipfile.ZipFile) -> tuple[Manifest, bytes]:
    """Every check, reading every entry once; the manifest and its bytes."""
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise PackError(
            f"{path}: {len(infos)} files, more than a voice pack holds ({MAX_ENTRIES}); {FIX}"
        )
    seen: set[str] = set()
    total = 0
    for info in infos:
        name = info.filename
        shown = one_line(name)[:80]
        if name in seen:
            raise PackError(f"{path}: '{shown}' is in the zip twice; {FIX}")
        seen.add(name)
        if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
            raise PackError(f"{path}: '{shown}' is an absolute path; {FIX}")
        parts = name.replace("\\", "/").split("/")
        if ".." in parts:
            raise PackError(f"{path}: '{shown}' points outside the pack; {FIX}")
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind == stat.S_IFLNK:
            raise PackError(f"{path}: '{shown}' is a link, not a plain file; {FIX}")
        if info.is_dir() or kind not in (0, stat.S_IFREG):
            raise PackError(f"{path}: '{shown}' is not a plain file; {FIX}")
        if name != MANIFEST and not FILE.match(name):
            raise PackError(f"{path}: '{shown}' is not a file a voice pack holds; {FIX}")
        if info.flag_bits & 0x1:
            raise PackError(f"{path}: '{shown}' is encrypted; export the pack again unencrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise PackError(f"{path}: '{shown}' is packed in a way narrator does not read")
        if info.file_size > MAX_ENTRY:
            raise PackError(
                f"{path}: '{shown}' is {info.file_size / 1e6:.1f} MB, more than a take "
                f"can be ({MAX_ENTRY / 1e6:.0f} MB)"
            )
        if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(1, info.compress_size):
            raise PackError(
                f"{path}: '{shown}' unpacks over {MAX_RATIO} times bigger than it is "
                "packed (a zip bomb): refused"
            )
        total += info.file_size
        if total > MAX_TOTAL:
            raise PackError(f"{path}: unpacks to over {MAX_TOTAL // 1_000_000} MB")
    if MANIFEST not in seen:
        raise PackError(f"{path}: no {MANIFEST}; {FIX}")
    raw = _read(archive, MANIFEST)
    manifest = parse_manifest(raw, f"{path}:{MANIFEST}")
    listed = {line.file for line in manifest.lines}
    for name in sorted(seen - listed - {MANIFEST}):
        raise PackError(f"{path}: '{name}' is in the zip but not in its manifest; {FIX}")
    for name in sorted(listed - seen):
        raise PackError(f"{path}: the manifest lists '{name}', which is not in the zip; {FIX}")
    for line in {line.file: line for line in manifest.lines}.values():
        data = _read(archive, line.file)
        if hashlib.sha256(data).hexdigest() != line.sha256:
            raise PackError(
                f"{path}: '{line.file}' does not match its hash in the manifest (damaged or "
                f"changed); {FIX}"
            )
        check_flac(data, f"{path}: '{line.file}'")
    return manifest, raw


def _read(archive: zipfile.ZipFile, name: str) -> bytes:
    """An entry's bytes, never more than its declared size (zipfile stops there and
    checks the CRC) nor more than `MAX_ENTRY`."""
    with archive.open(name) as entry:
        data = entry.read(MAX_ENTRY + 1)
    if len(data) > MAX_ENTRY:
        raise PackError(f"'{one_line(name)[:80]}' unpacks bigger than it says")
    return data


def check_flac(data: bytes, where: str) -> None:
    """That `data` is a take: FLAC, one channel, 16 or 24 bits, a sane rate and length,
    and that libsndfile decodes it whole."""
    bad = f"{where} is not FLAC audio as a voice pack holds (one channel, 16 or 24 bits); {FIX}"
    if len(data) < 42 or data[:4] != b"fLaC" or data[4] & 0x7F != 0 or data[5:8] != b"\0\0\x22":
        raise PackError(bad)
    info = int.from_bytes(data[18:26], "big")
    rate = info >> 44
    channels = ((info >> 41) & 0x7) + 1
    bits = ((info >> 36) & 0x1F) + 1
    frames = info & ((1 << 36) - 1)
    if channels != 1 or bits not in (16, 24) or not RATES[0] <= rate <= RATES[1]:
        raise PackError(bad)
    if not 0 < frames <= rate * MAX_SECONDS:
        raise PackError(f"{where}: a take of 0 or over {MAX_SECONDS} s")
    import soundfile as sf

    try:
        samples, _ = sf.read(io.BytesIO(data), dtype="float32", always_2d=False)
    except (sf.LibsndfileError, RuntimeError, ValueError) as exc:
        raise PackError(f"{bad} ({one_line(str(exc))[:60]})") from None
    if len(samples) != frames:
        raise PackError(f"{where}: the take is cut short (damaged); export the pack again")


def _install(
    path: Path,
    archive: zipfile.ZipFile,
    manifest: Manifest,
    raw: bytes,
    root: Path,
    replace: bool,
) -> Manifest:
    """Unpack the checked pack aside, then rename it into place."""
    target = root / manifest.id
    if (target.exists() or target.is_symlink()) and not replace:
        raise PackInstalled(
            f"a voice pack '{manifest.id}' is installed already ({target}); import with "
            "--replace to replace it",
            manifest.id,
        )
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=root, prefix=".import-"))
    except OSError as exc:
        raise PackError(f"cannot write in {root} ({exc.strerror})") from None
    old: Path | None = None
    try:
        (staging / LINES).mkdir(mode=PRIVATE)
        for line in {line.file: line for line in manifest.lines}.values():
            data = _read(archive, line.file)
            if hashlib.sha256(data).hexdigest() != line.sha256:  # the zip changed meanwhile
                raise PackError(f"{path}: '{line.file}' changed while it was being installed")
            _write(staging / line.file, data)
        _write(staging / MANIFEST, raw)
        sync_folder(staging / LINES)
        sync_folder(staging)
        if target.exists() or target.is_symlink():
            old = Path(tempfile.mkdtemp(dir=root, prefix=".replaced-"))
            os.replace(target, old / "pack")
        os.replace(staging, target)
        sync_folder(root)
    except OSError as exc:
        if old is not None and not target.exists():
            with contextlib.suppress(OSError):
                os.replace(old / "pack", target)  # the pack it was to replace, back
        raise PackError(f"cannot install the voice pack in {root} ({exc.strerror})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return manifest


def _write(path: Path, data: bytes) -> None:
    """A new file in the staging folder, the owner's alone (0600, as `write_whole`
    makes them) and synced; the folder's rename into place is the commit, so each file
    needs no rename of its own (nor a folder's sync each: once, before the rename)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
