"""`narrator render` never destroys a file and never leaves half of one.

The real command in a subprocess, with the real speech engine: a timeline that would
overwrite the audio or a file that is not a timeline is refused before anything is
written; a folder that cannot be written is one line and exit 2; a write that fails
halfway (the file-size limit of the process, as a full disk would) leaves the good
file that was there and no temporary file.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from tests.support.cli import run_narrator

NIGHT = ("render", "onuw", "--players", "3", "--no-bed")


def narrator(*argv: str, cwd: Path, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def limited() -> None:  # in the child: writes past `limit` bytes fail with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # type: ignore[arg-type]

    return run_narrator(
        *argv, cwd=cwd, timeout=120, preexec_fn=limited if limit is not None else None
    )


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_render_writes_the_audio_and_its_timeline(tmp_path: Path) -> None:
    run = narrator(*NIGHT, "--out", "n.wav", "--timeline", "n.json", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    assert sorted(files(tmp_path)) == ["n.json", "n.wav"]  # no temporary file left
    audio, rate = sf.read(tmp_path / "n.wav")
    timeline = json.loads((tmp_path / "n.json").read_text())
    assert abs(len(audio) / rate - timeline["duration"]) < 0.01
    assert np.abs(audio).max() > 0.1
    assert oct((tmp_path / "n.wav").stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    again = narrator(*NIGHT, "--out", "n.wav", "--timeline", "n.json", cwd=tmp_path)
    assert again.returncode == 0  # its own timeline is overwritten


def test_a_timeline_on_the_audio_file_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    (tmp_path / "n.wav").write_bytes(b"a good night")
    for timeline in ("n.wav", "./n.wav", str(tmp_path / "n.wav")):
        run = narrator(*NIGHT, "--out", "n.wav", "--timeline", timeline, cwd=tmp_path)
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr == (
            "narrator: --timeline and --out are the same file (n.wav); "
            "give the timeline its own .json name\n"
        )
    assert files(tmp_path) == {"n.wav": b"a good night"}


def test_a_timeline_over_a_file_that_is_not_a_timeline_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text('{"players": ["Ann", "Bo"]}')
    run = narrator(*NIGHT, "--out", "n.wav", "--timeline", "notes.json", cwd=tmp_path)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        "narrator: notes.json exists and is not a timeline; narrator overwrites only its "
        "own timelines: choose another name or remove it\n"
    )
    assert files(tmp_path) == {"notes.json": b'{"players": ["Ann", "Bo"]}'}


def test_an_unwritable_timeline_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        folder = Path("/sys")  # root may write anywhere but here: sysfs refuses new files
    else:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
    out = tmp_path / "out"
    out.mkdir()
    timeline = folder / "night.json"
    run = narrator(*NIGHT, "--out", "n.wav", "--timeline", str(timeline), cwd=out)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"narrator: cannot write {timeline}: Permission denied\n"
    assert files(out) == {}


def test_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    run = narrator(*NIGHT, "--out", "nope/n.wav", cwd=tmp_path)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == "narrator: cannot write nope/n.wav: no folder nope\n"


def test_a_write_failing_halfway_keeps_the_good_file_and_leaves_no_half(tmp_path: Path) -> None:
    good = narrator(*NIGHT, "--out", "n.wav", "--timeline", "n.json", cwd=tmp_path)
    assert good.returncode == 0
    before = files(tmp_path)
    assert len(before["n.wav"]) > 1_000_000
    run = narrator(
        *NIGHT,
        "--out",
        "n.wav",
        "--timeline",
        "n.json",
        "--rate",
        "200",
        cwd=tmp_path,
        limit=500_000,
    )
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.startswith("narrator: cannot write n.wav: ")
    assert run.stderr.count("\n") == 1
    assert files(tmp_path) == before  # the good night is still there, nothing beside it


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.usefixtures("sound_server")
def test_an_unknown_device_is_bad_input_not_a_missing_part(tmp_path: Path) -> None:
    run = narrator("play", "onuw", "--players", "3", "--device", "no such speaker", cwd=tmp_path)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        "narrator: no output device 'no such speaker'; "
        "see `narrator devices` for the ones there are\n"
    )


def test_voices_for_a_language_nobody_speaks_is_exit_2(tmp_path: Path) -> None:
    run = narrator("voices", "--lang", "xx", cwd=tmp_path)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == "narrator: no voice speaks 'xx'; `narrator voices` lists every voice\n"
    assert narrator("voices", "--lang", "it", cwd=tmp_path).returncode == 0
