"""Checked rulesets are kept between runs (narrator/rules/parsed.py): the second load
reads nothing but the file's bytes and one small pickle; any change to the file is
read afresh; an error is never kept; a broken kept file is ignored and replaced."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from narrator.base.folders import shipped_dir
from narrator.rules import RulesetError, load_ruleset, loader, parsed


@pytest.fixture(autouse=True)
def _own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This module's kept rulesets only (the suite shares one folder per worker)."""
    monkeypatch.setattr(parsed, "cache_dir", lambda: tmp_path / "kept")


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "onuw.yaml"
    shutil.copy(shipped_dir() / "onuw.yaml", path)
    return path


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, path: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(loader, "parse_ruleset", refuse)


def test_a_ruleset_is_checked_once_and_then_recalled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _copy(tmp_path)
    first = load_ruleset(path)
    assert len(list(parsed.cache_dir().glob("*.pickle"))) == 1
    _no_parsing(monkeypatch)
    assert load_ruleset(path) == first


def test_a_changed_file_is_read_afresh_and_keeps_one_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _copy(tmp_path)
    load_ruleset(path)
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("{en: One Night Ultimate Werewolf,", "{en: One Evening,", 1), "utf-8"
    )
    assert load_ruleset(path).name.get("en") == "One Evening"
    assert len([p for p in parsed.cache_dir().glob("*.pickle")]) == 1  # the old one is gone
    _no_parsing(monkeypatch)
    assert load_ruleset(path).name.get("en") == "One Evening"


def test_an_error_is_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: broken\nroles: [\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RulesetError, match=r"broken\.yaml:"):
            load_ruleset(path)
    assert not list(parsed.cache_dir().glob("*.pickle"))


def test_a_broken_kept_file_is_ignored_and_replaced(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    first = load_ruleset(path)
    (kept,) = parsed.cache_dir().glob("*.pickle")
    kept.write_bytes(b"not a pickle")
    assert load_ruleset(path) == first
    assert kept.read_bytes() != b"not a pickle"
