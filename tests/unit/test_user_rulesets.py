"""The user's own rulesets load beside the shipped ones; a broken one never stops them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from narrator.base.folders import user_dir
from narrator.cli import main
from narrator.rules import UnknownRuleset, load_catalog

HERE = Path(__file__).parent


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    folder = tmp_path / "narrator" / "rulesets"
    folder.mkdir(parents=True)
    return folder


def test_user_dir_follows_xdg_config_home(config: Path) -> None:
    assert user_dir() == config


def test_a_user_ruleset_loads_beside_the_shipped_ones(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(HERE / "minimal.yaml", config / "tiny.yaml")
    catalog = load_catalog()
    assert "tiny" in catalog.rulesets and "onuw" in catalog.rulesets
    assert catalog.user_ids == {"tiny"}
    assert main(["script", "tiny", "--players", "4", "--night", "2", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["role"] for s in doc["steps"] if s["kind"] == "say"] == [
        "wolf",
        "wolf",
        "seer",
        "seer",
    ]


def test_a_broken_user_ruleset_is_named_and_the_others_still_load(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(HERE / "broken" / "typo_key.yaml", config / "typo_key.yaml")
    shutil.copy(HERE / "minimal.yaml", config / "tiny.yaml")
    catalog = load_catalog()
    assert "tiny" in catalog.rulesets and "onuw" in catalog.rulesets
    assert [e.path.name for e in catalog.broken if e.path] == ["typo_key.yaml"]
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert f"broken: {config / 'typo_key.yaml'}:24: unknown key 'ordr'" in out
    # Asking for the broken one by name gives its error, not "unknown ruleset".
    assert main(["script", "typo_key", "--players", "4"]) == 2
    assert "unknown key 'ordr'" in capsys.readouterr().err


def test_a_user_file_with_a_shipped_id_replaces_it(config: Path) -> None:
    text = (HERE.parents[1] / "rulesets" / "onuw.yaml").read_text("utf-8")
    text = text.replace("Everyone, close your eyes.", "Close your eyes, friends.")
    (config / "my_onuw.yaml").write_text(text, "utf-8")
    catalog = load_catalog()
    assert "onuw" in catalog.user_ids
    opening = catalog.get("onuw").night.opening[0]
    assert opening.text is not None and opening.text.get("en") == "Close your eyes, friends."


def test_unknown_ruleset_names_the_closest(config: Path) -> None:
    with pytest.raises(UnknownRuleset, match="did you mean 'onuw'"):
        load_catalog().get("onuv")


def test_a_command_about_one_game_parses_only_its_ruleset(tmp_path: Path) -> None:
    """`load_catalog(only=...)`: the same ruleset as a full load, the user's copy still
    replacing the shipped one, and the other files never parsed (a broken one unseen)."""
    (tmp_path / "zz_broken.yaml").write_text("id: zz_broken\nroles: [\n", encoding="utf-8")
    full = load_catalog(tmp_path)
    assert any(e.path and e.path.name == "zz_broken.yaml" for e in full.broken)
    one = load_catalog(tmp_path, only="lupus")
    assert set(one.rulesets) == {"lupus"} and one.broken == []
    assert one.get("lupus") == full.get("lupus")
    mine = (Path(__file__).resolve().parents[2] / "rulesets" / "lupus.yaml").read_text(
        encoding="utf-8"
    )
    (tmp_path / "my_lupus.yaml").write_text(
        mine.replace("name: {en: Lupus in Tabula", "name: {en: Our Lupus", 1), encoding="utf-8"
    )
    assert load_catalog(tmp_path, only="lupus").get("lupus").name.get("en") == "Our Lupus"
    # an unknown id still gets the whole catalogue's did-you-mean
    with pytest.raises(UnknownRuleset, match="did you mean 'lupus'"):
        load_catalog(tmp_path, only="lupuss").get("lupuss")
