"""`narrator voicepack import` against hostile zips: each is one line on stderr, exit 2,
and the user's data folder exactly as it was; a good pack goes in, and out again the
same. The corpus is built here from one real pack, each zip broken one way."""

from __future__ import annotations

import hashlib
import json
import resource
import signal
import stat
import subprocess
import sys
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from narrator.audio.booth import SimulatedBooth
from narrator.audio.packzip import MAX_ENTRIES, MAX_ENTRY
from narrator.audio.recording import keep_take, make_take
from narrator.audio.voicepack import open_pack, packs_dir
from narrator.cli import main
from tests.support.cli import run_narrator

Entries = list[tuple[zipfile.ZipInfo, bytes]]


def _info(name: str, *, mode: int = stat.S_IFREG | 0o644, packed: bool = False) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.create_system = 3
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED if packed else zipfile.ZIP_STORED
    return info


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, object]]:
    """A real pack of two takes: its files by name, and its manifest as JSON."""
    root = tmp_path_factory.mktemp("made")
    folder, _ = open_pack("Shared", "onuw", "fa", recorded_by="Nava", root=root)
    for n, text in enumerate(("همزاد، بیدار شو.", "پیشگو، بیدار شو.")):
        booth = SimulatedBooth(speech=1.0 + n / 5, rate=16000)
        raw = booth._voice(0, 16000 * 2)
        keep_take(folder, text, make_take(raw, 16000, text))
    files = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    return files, json.loads(files["pack.json"])


def write_zip(path: Path, entries: Entries) -> Path:
    with warnings.catch_warnings(), zipfile.ZipFile(path, "w") as archive:
        warnings.simplefilter("ignore", UserWarning)  # an entry twice: on purpose
        for info, data in entries:
            archive.writestr(info, data)
    return path


def entries_of(files: dict[str, bytes], manifest: dict[str, object] | None = None) -> Entries:
    out = []
    for name, data in sorted(files.items()):
        if name == "pack.json" and manifest is not None:
            data = json.dumps(manifest, ensure_ascii=False).encode()
        out.append((_info(name, packed=name == "pack.json"), data))
    return out


def with_take(manifest: dict[str, object], text: str, data: bytes) -> dict[str, object]:
    digest = hashlib.sha256(data).hexdigest()
    lines = [
        *manifest["lines"],
        {"text": text, "file": f"lines/{digest[:32]}.flac", "sha256": digest},
    ]  # type: ignore[misc]
    return {**manifest, "lines": lines}


def wav_bytes() -> bytes:
    out = __import__("io").BytesIO()
    sf.write(out, np.zeros(1600, np.float32), 16000, format="WAV")
    return out.getvalue()


Case = Callable[[dict[str, bytes], dict[str, object]], Entries]


def traversal(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [*entries_of(files), (_info("../../evil.flac"), b"x")]


def traversal_inside(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [*entries_of(files), (_info("lines/../../../etc/evil"), b"x")]


def absolute(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [*entries_of(files), (_info("/tmp/evil.flac"), b"x")]


def symlink(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    target = b"/etc/passwd"
    digest = hashlib.sha256(target).hexdigest()
    name = f"lines/{digest[:32]}.flac"
    listed = {
        **manifest,
        "lines": [*manifest["lines"], {"text": "x", "file": name, "sha256": digest}],
    }  # type: ignore[misc]
    return [*entries_of(files, listed), (_info(name, mode=stat.S_IFLNK | 0o777), target)]


def bomb(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    zeros = bytes(20_000_000)  # 20 MB of zeros deflate to ~20 kB
    digest = hashlib.sha256(zeros).hexdigest()
    info = _info(f"lines/{digest[:32]}.flac", packed=True)
    return [*entries_of(files, with_take(manifest, "x", zeros)), (info, zeros)]


def huge(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    big = bytes(MAX_ENTRY + 1)
    digest = hashlib.sha256(big).hexdigest()
    info = _info(f"lines/{digest[:32]}.flac", packed=True)
    return [*entries_of(files, with_take(manifest, "x", big)), (info, big)]


def too_many(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    extra = [(_info(f"lines/{n:032x}.flac"), b"") for n in range(MAX_ENTRIES)]
    return [*entries_of(files), *extra]


def not_flac(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    wav = wav_bytes()
    digest = hashlib.sha256(wav).hexdigest()
    info = _info(f"lines/{digest[:32]}.flac")
    return [*entries_of(files, with_take(manifest, "x", wav)), (info, wav)]


def other_file(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [*entries_of(files), (_info("lines/readme.txt"), b"hello")]


def wrong_manifest(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return entries_of(files, {**manifest, "format": 7})


def not_json(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [(i, b"{oops" if i.filename == "pack.json" else d) for i, d in entries_of(files)]


def hash_mismatch(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    out = []
    for info, data in entries_of(files):
        if info.filename.endswith(".flac") and not out:
            data = data[:-1] + bytes([data[-1] ^ 1])
        out.append((info, data))
    return out


def missing_take(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [(i, d) for i, d in entries_of(files) if i.filename == "pack.json"]


def unlisted_take(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    take = next(d for n, d in files.items() if n.endswith(".flac"))
    digest = hashlib.sha256(take + b"!").hexdigest()
    return [*entries_of(files), (_info(f"lines/{digest[:32]}.flac"), take + b"!")]


def escaping_id(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return entries_of(files, {**manifest, "id": "../../evil"})


def no_manifest(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [(i, d) for i, d in entries_of(files) if i.filename != "pack.json"]


def twice(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    entries = entries_of(files)
    return [*entries, entries[0]]


def folder_entry(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return [(_info("lines/", mode=stat.S_IFDIR | 0o755), b""), *entries_of(files)]


def corrupt(path: Path) -> None:
    """Flip bytes inside the manifest's deflated data (after the zip is written)."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("pack.json")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for at in range(start + 2, start + min(12, info.compress_size)):
        data[at] ^= 0x5A
    path.write_bytes(bytes(data))


def damaged(files: dict[str, bytes], manifest: dict[str, object]) -> Entries:
    return entries_of(files)  # `corrupt` damages it once written


CASES: dict[str, Case] = {
    "path-traversal": traversal,
    "traversal-inside-lines": traversal_inside,
    "absolute-path": absolute,
    "symlink": symlink,
    "zip-bomb": bomb,
    "huge-file": huge,
    "too-many-entries": too_many,
    "not-flac": not_flac,
    "a-file-packs-do-not-hold": other_file,
    "wrong-manifest": wrong_manifest,
    "manifest-not-json": not_json,
    "hash-mismatch": hash_mismatch,
    "take-missing": missing_take,
    "take-not-in-manifest": unlisted_take,
    "id-escaping-the-folder": escaping_id,
    "no-manifest": no_manifest,
    "an-entry-twice": twice,
    "a-folder-entry": folder_entry,
    "damaged-deflate-data": damaged,
}


def snapshot(root: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every path under `root`: its mode and, for files, its bytes."""
    out: dict[str, tuple[int, bytes | None]] = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        out[str(path.relative_to(root))] = (
            info.st_mode,
            path.read_bytes() if stat.S_ISREG(info.st_mode) else None,
        )
    return out


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_a_hostile_zip_is_one_line_exit_2_and_writes_nothing(
    case: str,
    good: tuple[dict[str, bytes], dict[str, object]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files, manifest = good
    # a pack installed already: the data folder is not empty, and must stay as it is
    mine = open_pack("Mine", "lupus", "it")[0]
    data = packs_dir().parent
    before = snapshot(data)
    assert str(mine.relative_to(data)) in before
    path = write_zip(tmp_path / f"{case}.zip", CASES[case](files, manifest))
    if case == "damaged-deflate-data":
        corrupt(path)
    code = main(["voicepack", "import", str(path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("narrator: ") and str(path) in err, err
    assert snapshot(data) == before
    assert not list(tmp_path.parent.glob("**/evil*"))


def test_not_a_zip_and_no_file_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "x.zip").write_bytes(b"PK\x03\x04 not really")
    for path in (tmp_path / "x.zip", tmp_path / "none.zip", tmp_path):
        code = main(["voicepack", "import", str(path)])
        _, err = capsys.readouterr()
        assert code == 2 and err.count("\n") == 1 and err.startswith("narrator: "), err
    assert not packs_dir().exists()


def test_the_good_pack_goes_in_and_out_the_same_and_only_once(
    good: tuple[dict[str, bytes], dict[str, object]], tmp_path: Path
) -> None:
    files, _ = good
    shared = write_zip(tmp_path / "shared.zip", entries_of(files))
    narrator = [sys.executable, "-m", "narrator.cli"]
    done = subprocess.run(
        [*narrator, "voicepack", "import", str(shared)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "pack:shared" in done.stdout
    folder = packs_dir() / "shared"
    assert {
        str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    } == files
    again = subprocess.run(
        [*narrator, "voicepack", "import", str(shared)], capture_output=True, text=True
    )
    assert again.returncode == 2 and "--replace" in again.stderr and again.stderr.count("\n") == 1
    out = tmp_path / "out.zip"
    sent = subprocess.run(
        [*narrator, "voicepack", "export", "pack:shared", str(out)], capture_output=True, text=True
    )
    assert sent.returncode == 0, sent.stderr
    replaced = subprocess.run(
        [*narrator, "voicepack", "import", str(out), "--replace"], capture_output=True, text=True
    )
    assert replaced.returncode == 0, replaced.stderr
    assert {
        str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    } == files
    assert not [p for p in packs_dir().iterdir() if p.name.startswith(".")]  # nothing left aside
    listed = subprocess.run([*narrator, "voices", "--lang", "fa"], capture_output=True, text=True)
    assert "pack:shared" in listed.stdout


def test_a_pack_is_deleted_whole_and_an_unknown_one_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    mine = open_pack("Mine", "lupus", "it")[0]
    other = open_pack("Other", "onuw", "fa")[0]
    assert main(["voicepack", "delete", "pack:mine"]) == 0
    assert "deleted pack:mine" in capsys.readouterr().out
    assert not mine.exists() and other.is_dir()
    assert sorted(p.name for p in packs_dir().iterdir()) == ["other"]  # nothing left aside
    for name in ("pack:mine", "../other", ""):
        assert main(["voicepack", "delete", name]) == 2
        _, err = capsys.readouterr()
        assert err.count("\n") == 1 and err.startswith("narrator: no voice pack"), err
    assert other.is_dir()


def test_an_import_the_disk_will_not_take_is_one_line_and_the_old_pack_stays(
    good: tuple[dict[str, bytes], dict[str, object]], tmp_path: Path
) -> None:
    """A full disk half-way through the takes (the process's file-size limit, as a full
    disk refuses): one line, exit 2, and the data folder as it was -- a pack being
    replaced (--replace) included; the same import with room for it goes in."""
    files, _ = good
    shared = write_zip(tmp_path / "shared.zip", entries_of(files))
    assert run_narrator("voicepack", "import", str(shared)).returncode == 0
    data = packs_dir().parent
    before = snapshot(data)
    take = min(len(v) for k, v in files.items() if k.endswith(".flac"))

    def full_disk() -> None:  # in the child: a write past `take // 2` bytes fails
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (take // 2, take // 2))

    done = run_narrator("voicepack", "import", str(shared), "--replace", preexec_fn=full_disk)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"narrator: cannot install the voice pack in {packs_dir()} (File too large)\n"
    )
    assert snapshot(data) == before  # the old pack whole, nothing left aside
    again = run_narrator("voicepack", "import", str(shared), "--replace")
    assert again.returncode == 0, again.stderr
    folder = packs_dir() / "shared"
    modes = {str(p.relative_to(folder)): stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*")}
    assert modes == {name: 0o600 for name in files} | {"lines": 0o700}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # a voice is its owner's
