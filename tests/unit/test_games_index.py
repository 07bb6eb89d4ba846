"""The games list kept for the app's first frame (narrator/rules/index.py): it is the
catalogue's own list, and it is never used once a ruleset file or the rules code
has changed since it was kept."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from narrator.base.folders import catalog_folders, shipped_dir
from narrator.rules import index, load_catalog


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This module's kept list only (the suite shares a cache folder per worker)."""
    folder = tmp_path / "kept"
    monkeypatch.setattr(index, "cache_dir", lambda: folder)
    return folder


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    """A user's folder: a game of their own and a file that does not load."""
    folder = tmp_path / "mine"
    folder.mkdir()
    text = (shipped_dir() / "wherewolf.yaml").read_text(encoding="utf-8")
    (folder / "ours.yaml").write_text(text.replace("\nid: wherewolf\n", "\nid: ours\n", 1), "utf-8")
    (folder / "broken.yaml").write_text("id: broken\nname: [\n", encoding="utf-8")
    return folder


def kept(folder: Path) -> index.GamesIndex | None:
    return index.kept([where for where, _ in catalog_folders(folder)])


def test_the_kept_list_is_the_catalogues_own(mine: Path) -> None:
    assert kept(mine) is None  # nothing kept yet
    catalog = load_catalog(mine)
    games = kept(mine)
    assert games == index.GamesIndex.of(catalog)
    assert [g.id for g in games.games] == sorted(catalog.rulesets)
    assert games.get("ours").yours and not games.get("onuw").yours
    onuw, entry = catalog.rulesets["onuw"], games.get("onuw")
    assert entry.name("it") == (onuw.name.get("it"), "it")
    assert entry.name("xx") == (onuw.name.get(onuw.languages[0]), onuw.languages[0])
    assert (entry.min_players, entry.max_players) == (3, 10)
    assert [b.file for b in games.broken] == ["broken.yaml"]
    assert games.broken[0].error == str(catalog.broken[0])
    assert games.get("secret_moon").rounds == catalog.rulesets["secret_moon"].rounds.count
    assert games.get("onuw").rounds is None and games.get("onuw").nights == 1
    assert games.get("onuw").description("fa") == (onuw.description.get("fa"), "fa")


@pytest.mark.parametrize("change", ["edited", "added", "removed", "rules code"])
def test_a_changed_ruleset_or_rules_code_makes_the_kept_list_stale(
    mine: Path, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_catalog(mine)
    assert kept(mine) is not None
    ours = mine / "ours.yaml"
    if change == "edited":  # same size, one second later: a name changed in place
        text = ours.read_text(encoding="utf-8").replace("Wherewolf", "Wherewulf", 1)
        ours.write_text(text, encoding="utf-8")
        stat = ours.stat()
        os.utime(ours, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    elif change == "added":
        shutil.copy(ours, mine / "ours2.yaml")
    elif change == "removed":
        ours.unlink()
    else:
        monkeypatch.setattr(index, "code_stamp", lambda: b"other code")
    assert kept(mine) is None
    catalog = load_catalog(mine)  # read afresh: kept again, as it now is
    assert kept(mine) == index.GamesIndex.of(catalog)


def test_a_damaged_kept_list_is_not_used_and_is_replaced(mine: Path, _own_cache: Path) -> None:
    load_catalog(mine)
    (_own_cache / index.FILE).write_bytes(b'{"stamp": 1, "games": [')
    assert kept(mine) is None
    load_catalog(mine)
    assert kept(mine) is not None


def test_one_game_read_alone_keeps_no_list(mine: Path, _own_cache: Path) -> None:
    load_catalog(mine, only="onuw")
    assert not (_own_cache / index.FILE).exists()
