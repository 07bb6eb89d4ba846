"""Broken rulesets: each gets its one-line error with file:line, never a traceback.

The corpus is tests/unit/broken/NAME.yaml, each with NAME.expect holding the exact
message after the path: ':LINE: what is wrong and how to fix it'.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.rules import RulesetError, load_ruleset

BROKEN = Path(__file__).parent / "broken"
CASES = sorted(BROKEN.glob("*.yaml"))


def test_the_corpus_is_not_empty() -> None:
    assert len(CASES) >= 15


def test_the_minimal_ruleset_behind_the_corpus_is_valid() -> None:
    assert load_ruleset(Path(__file__).parent / "minimal.yaml").id == "tiny"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_broken_ruleset_gets_its_one_line_error(path: Path) -> None:
    expected = path.with_suffix(".expect").read_text(encoding="utf-8").strip()
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert str(caught.value) == f"{path}{expected}"
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("path", CASES[:4], ids=lambda p: p.stem)
def test_check_command_prints_one_line_and_exits_2(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"narrator: {path}:")


def test_check_reports_every_file_and_fails_if_any_is_broken(
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = Path(__file__).parent / "minimal.yaml"
    assert main(["check", str(good), str(CASES[0]), str(CASES[1])]) == 2
    out, err = capsys.readouterr()
    assert out.startswith(f"ok {good}: 'tiny'")
    assert len(err.splitlines()) == 2


def test_a_missing_file_is_one_line_not_a_traceback() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "narrator.cli", "check", "no/such/ruleset.yaml"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr == (
        "narrator: no/such/ruleset.yaml: cannot read the file (No such file or directory)\n"
    )


def test_a_non_utf8_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("id: caff\xe8\n".encode("latin-1"))
    with pytest.raises(RulesetError, match="not UTF-8 text"):
        load_ruleset(path)
