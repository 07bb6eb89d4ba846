"""Files written whole or not at all (narrator/base/files.py): the one writer.

A write that fails -- a folder nobody may write in, a full disk (the process's
file-size limit, as a full disk refuses, in a child process), a writer that raises
half-way -- leaves the file as it was, no temporary file beside it, and raises one
error that is one line; the cache's writer swallows the same failures. What the user
keeps is private and synced, file and folder; the cache is not synced.
"""

from __future__ import annotations

import errno
import os
import pickle
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import BinaryIO

import pytest

from narrator.base import files
from narrator.base.errors import NarratorError, WriteError
from narrator.base.files import check_writable, write_cache, write_whole

GOOD = b'{"the game": "as it was"}'


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_file_is_written_private_in_a_private_new_folder(tmp_path: Path) -> None:
    path = tmp_path / "state" / "table" / "game.json"
    write_whole(path, GOOD)
    assert path.read_bytes() == GOOD
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    write_whole(path, lambda file: file.write(b"the next step"))  # over the old one
    assert path.read_bytes() == b"the next step"
    assert names(path.parent) == ["game.json"]  # no temporary file left


def test_an_old_file_of_another_mode_becomes_private(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b"old")
    path.chmod(0o644)
    write_whole(path, b"new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_link_at_the_path_is_replaced_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    path = tmp_path / "game.json"
    path.symlink_to(victim)
    write_whole(path, GOOD)
    assert victim.read_bytes() == b"precious"
    assert not path.is_symlink() and path.read_bytes() == GOOD


def test_a_folder_nobody_may_write_in_is_one_error_and_the_file_as_it_was(
    read_only_folder: Path,
) -> None:
    path = read_only_folder / "settings.json"
    before = path.read_bytes()
    with pytest.raises(WriteError) as caught:
        write_whole(path, GOOD)
    error = caught.value
    assert isinstance(error, OSError) and isinstance(error, NarratorError)
    assert error.errno in (errno.EACCES, errno.EPERM)
    assert str(error) == f"cannot write {path} ({error.strerror})"
    assert path.read_bytes() == before
    assert names(read_only_folder) == ["settings.json"]
    with pytest.raises(WriteError, match="cannot write"):  # a folder it cannot make
        write_whole(read_only_folder / "new" / "game.json", GOOD)


@pytest.mark.parametrize("raised", [ValueError("no"), KeyboardInterrupt()], ids=type)
def test_a_writer_that_raises_half_way_leaves_the_old_file_and_no_temporary_one(
    tmp_path: Path, raised: BaseException
) -> None:
    path = tmp_path / "pack.json"
    path.write_bytes(GOOD)

    def half(file: BinaryIO) -> None:
        file.write(b'{"half": ')
        raise raised

    with pytest.raises(type(raised)):  # not ours: passed on as it was
        write_whole(path, half)
    assert path.read_bytes() == GOOD
    assert names(tmp_path) == ["pack.json"]


def test_a_writer_the_disk_refuses_half_way_is_a_write_error(tmp_path: Path) -> None:
    path = tmp_path / "pack.json"
    path.write_bytes(GOOD)

    def full(file: BinaryIO) -> None:
        file.write(b'{"half": ')
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(WriteError) as caught:
        write_whole(path, full)
    assert caught.value.errno == errno.ENOSPC
    assert str(caught.value) == f"cannot write {path} (No space left on device)"
    assert path.read_bytes() == GOOD and names(tmp_path) == ["pack.json"]


def test_a_full_disk_half_way_leaves_the_old_file_whole(tmp_path: Path) -> None:
    """The real thing: a child process whose writes stop at 64 kB (RLIMIT_FSIZE, as a
    full disk refuses) saves a 1 MB file over a good one."""
    path = tmp_path / "game.json"
    path.write_bytes(GOOD)
    child = textwrap.dedent(
        f"""
        import resource, signal, sys
        from pathlib import Path
        from narrator.base.errors import WriteError
        from narrator.base.files import write_whole
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
        try:
            write_whole(Path({str(path)!r}), b"x" * 1_000_000)
        except WriteError as exc:
            print(exc)
            sys.exit(2)
        """
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (2, "")
    assert done.stdout == f"cannot write {path} (File too large)\n"
    assert path.read_bytes() == GOOD
    assert names(tmp_path) == ["game.json"]


def test_what_the_user_keeps_is_synced_file_and_folder_and_the_cache_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decision (module docstring): a durable save syncs the file before the rename
    and the folder after it; a cache file is never synced."""
    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(files.os, "fsync", fsync)
    write_whole(tmp_path / "game.json", GOOD)
    assert synced == ["file", "folder"]
    synced.clear()
    assert write_cache(tmp_path / "cache" / "call.wav", lambda file: file.write(b"RIFF"))
    assert synced == []


def test_the_cache_writer_swallows_what_the_writer_raises_the_saves_writer_does_not(
    read_only_folder: Path, tmp_path: Path
) -> None:
    assert not write_cache(read_only_folder / "rates.json", lambda file: file.write(b"{}"))
    assert names(read_only_folder) == ["settings.json"]

    def unpicklable(file: BinaryIO) -> None:
        file.write(b"\x80")
        raise pickle.PicklingError("a lambda")

    kept = tmp_path / "kept" / "onuw.pickle"
    assert not write_cache(kept, unpicklable, errors=(pickle.PicklingError,))
    assert names(kept.parent) == []
    with pytest.raises(pickle.PicklingError):  # a bug is not a cache miss
        write_cache(kept, unpicklable)
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o777 & ~_umask()  # a shared cache
    private = tmp_path / "rulesets" / "onuw.pickle"
    assert write_cache(private, lambda file: file.write(b"ok"), private=True)
    assert stat.S_IMODE(private.parent.stat().st_mode) == 0o700


def test_a_path_that_cannot_be_written_is_found_before_anything_is_written(
    read_only_folder: Path, tmp_path: Path
) -> None:
    with pytest.raises(WriteError, match=r"^cannot write .*settings\.json \("):
        check_writable(read_only_folder / "settings.json")
    with pytest.raises(WriteError, match=r"\(Is a directory\)"):
        check_writable(tmp_path)
    new = tmp_path / "state" / "table"
    check_writable(new / "game.json")
    assert names(new) == []  # made (0700), and nothing left in it
    assert stat.S_IMODE(new.stat().st_mode) == 0o700
