"""Hostile input: each gets one line and exit 2 within seconds, never a hang or a traceback.

Run through the real command in a subprocess with a timeout, so that a hang fails the
test instead of hanging the suite. The broken rulesets that are plain files (deep
nesting, alias bombs, NaN, huge ranges) are in the corpus, tests/unit/broken/; here
are the cases that need the file system, the user's folder or the command line.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from narrator.rules import load_catalog
from tests.support.cli import run_narrator

HERE = Path(__file__).parent
BROKEN = HERE / "broken"
HOSTILE = ["deep_nesting", "alias_bomb", "alias_cycle", "nan_action_time", "deck_range_too_large"]


def narrator(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_narrator(*argv, env=env, timeout=30)  # a hang is a failure, not a stuck suite


def one_line_exit_2(run: subprocess.CompletedProcess[str], message: str) -> None:
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"narrator: {message}\n")


def test_a_fifo_is_refused_by_its_type_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "night.yaml"
    os.mkfifo(fifo)
    one_line_exit_2(
        narrator("check", str(fifo)),
        f"{fifo}: this is a named pipe (FIFO), not a ruleset file; give a .yaml file",
    )


def test_a_device_is_refused_by_its_type() -> None:
    one_line_exit_2(
        narrator("check", "/dev/zero"),
        "/dev/zero: this is a device, not a ruleset file; give a .yaml file",
    )


def test_a_folder_is_refused(tmp_path: Path) -> None:
    one_line_exit_2(
        narrator("check", str(tmp_path)),
        f"{tmp_path}: this is a folder, not a ruleset file; give a .yaml file",
    )


def test_a_huge_file_is_refused_by_its_size_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as file:
        file.truncate(3_000_000_000)  # sparse: 3 GB that would take minutes to parse
    one_line_exit_2(
        narrator("check", str(huge)),
        f"{huge}: the file is 3000.0 MB; a ruleset file is text of at most 1 MB",
    )
    # a game to replay is judged the same way, and named for what it is
    one_line_exit_2(
        narrator("replay", str(huge)),
        f"{huge}: the file is 3000.0 MB; a scenario file is text of at most 1 MB",
    )


@pytest.fixture
def hostile_user_folder(tmp_path: Path) -> dict[str, str]:
    """A user config whose rulesets folder holds every hostile file plus a FIFO."""
    folder = tmp_path / "config" / "narrator" / "rulesets"
    folder.mkdir(parents=True)
    for name in HOSTILE:
        (folder / f"{name}.yaml").write_bytes((BROKEN / f"{name}.yaml").read_bytes())
    os.mkfifo(folder / "pipe.yaml")
    return {"XDG_CONFIG_HOME": str(tmp_path / "config")}


def test_hostile_files_in_the_users_folder_never_stop_a_command(
    hostile_user_folder: dict[str, str],
) -> None:
    run = narrator("script", "onuw", "--players", "5", env=hostile_user_folder)
    assert (run.returncode, run.stderr) == (0, "")
    assert "Werewolves" in run.stdout
    listed = narrator("rulesets", env=hostile_user_folder)
    assert listed.returncode == 0
    broken = [line for line in listed.stdout.splitlines() if line.startswith("broken: ")]
    assert len(broken) == len(HOSTILE) + 1
    assert any("pipe.yaml: this is a named pipe (FIFO)" in line for line in broken)
    assert any("nested more than 32 levels deep" in line for line in broken)


def test_asking_for_a_broken_users_ruleset_gives_its_error(
    hostile_user_folder: dict[str, str],
) -> None:
    folder = Path(hostile_user_folder["XDG_CONFIG_HOME"]) / "narrator" / "rulesets"
    one_line_exit_2(
        narrator("script", "deep_nesting", "--players", "5", env=hostile_user_folder),
        f"{folder / 'deep_nesting.yaml'}:33: nested more than 32 levels deep; "
        "a ruleset never needs that many",
    )


def test_a_loader_failure_nobody_foresaw_makes_one_file_broken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "odd.yaml").write_text("id: odd\n")
    import narrator.rules.catalog as catalog

    real = catalog.load_ruleset

    def flaky(path: Path):  # type: ignore[no-untyped-def]
        if Path(path).name == "odd.yaml":
            raise RecursionError("maximum recursion depth exceeded")
        return real(path)

    monkeypatch.setattr(catalog, "load_ruleset", flaky)
    loaded = load_catalog(tmp_path)
    assert "onuw" in loaded.rulesets
    assert [str(e) for e in loaded.broken] == [
        f"{tmp_path / 'odd.yaml'}: cannot be loaded (RecursionError); please report it"
    ]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--pace", "nan", "argument --pace: nan is out of range; choose 0.1 to 10"),
        ("--pace", "inf", "argument --pace: inf is out of range; choose 0.1 to 10"),
        ("--pace", "-inf", "argument --pace: -inf is out of range; choose 0.1 to 10"),
        ("--pace", "1e400", "argument --pace: 1e400 is out of range; choose 0.1 to 10"),
        ("--pace", "0", "argument --pace: 0 is out of range; choose 0.1 to 10"),
        ("--pace", "fast", "argument --pace: 'fast' is not a number"),
    ],
)
def test_numbers_on_the_command_line_are_finite_and_in_range(
    option: str, value: str, message: str
) -> None:
    run = narrator("script", "onuw", "--players", "5", f"{option}={value}")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"narrator script: {message} (see narrator script --help)\n"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nan", "'nan' is not a number"),
        ("79", "79 is out of range; choose 80 to 400"),
        ("401", "401 is out of range; choose 80 to 400"),
        ("100000000000000000000", "100000000000000000000 is out of range; choose 80 to 400"),
    ],
)
def test_the_speaking_rate_is_refused_outside_80_to_400(value: str, message: str) -> None:
    for command in ("render", "play"):
        extra = ("--out", "never.wav") if command == "render" else ()
        run = narrator(command, "onuw", "--players", "5", "--rate", value, *extra)
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr == (
            f"narrator {command}: argument --rate: {message} (see narrator {command} --help)\n"
        )
    assert not Path("never.wav").exists()


def test_a_newline_in_an_argument_is_escaped_in_the_one_line_error() -> None:
    run = narrator("script", "on\nuw", "--players", "5")
    assert run.returncode == 2
    assert run.stderr.startswith("narrator: no ruleset 'on\\nuw' (installed: ")
    assert run.stderr.count("\n") == 1
    run = narrator("script", "onuw", "--players", "5", "--roles", "seer,\x1b[31mwolf")
    assert run.returncode == 2
    assert "\x1b" not in run.stderr and "\\x1b[31mwolf" in run.stderr
    assert run.stderr.count("\n") == 1
    run = narrator("script", "onuw", "--players", "5\n6")
    assert run.stderr == (
        "narrator script: argument --players: invalid int value: '5\\n6' "
        "(see narrator script --help)\n"
    )


def test_a_port_out_of_range_is_bad_input_not_an_internal_error() -> None:
    run = narrator("table", "onuw", "--no-audio", "--port", "99999")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        "narrator table: argument --port: 99999 is out of range; choose 0 to 65535 "
        "(see narrator table --help)\n"
    )


def test_a_huge_value_quoted_back_keeps_the_error_line_short(tmp_path: Path) -> None:
    text = (HERE / "minimal.yaml").read_text()
    long = tmp_path / "long.yaml"
    long.write_text(text.replace("    order: 1\n", f"    order: [{', '.join(['ab'] * 5000)}]\n", 1))
    run = narrator("check", str(long))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.startswith(f"narrator: {long}:18: 'order' of role 'wolf' must look like ")
    assert " ... " in run.stderr and run.stderr.endswith("'ab', 'ab']\n")
    assert len(run.stderr) < 500 + len(str(long))
