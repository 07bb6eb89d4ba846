"""The pure parts of the app: settings file, game controller, script runner."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from narrator.rules import load_catalog
from narrator.script import Pause, Say, Script, Timer, TimerWarning, Wait
from narrator.session.config import Settings, SettingsStore
from narrator.session.game import GameSetup
from narrator.session.segments import RunningTimer, segments

CATALOG = load_catalog(Path("/nonexistent"))


def test_settings_round_trip(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "narrator" / "settings.json")
    assert store.load() == (Settings(), None)
    settings = Settings(language="it", rate=170, pace=1.5, bed=False, device="3").with_action_time(
        "onuw", "seer", 15
    )
    store.save(settings)
    assert store.load() == (settings, None)


@pytest.mark.parametrize(
    "content",
    ["{not json", "[1, 2]", '{"pace": "fast"}', '{"bed": 1}', '{"colour": "red"}'],
)
def test_a_corrupt_settings_file_is_moved_aside_never_deleted(tmp_path: Path, content: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(content)
    settings, notice = SettingsStore(path).load()
    assert settings == Settings()
    assert notice is not None and "kept as settings.json.corrupt-" in notice
    kept = list(tmp_path.glob("settings.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == content
    assert not path.exists()


@pytest.mark.parametrize("ruleset_id", sorted(CATALOG.rulesets))
def test_random_and_recommended_decks_pass_the_checks(ruleset_id: str) -> None:
    ruleset = CATALOG.rulesets[ruleset_id]
    rng = random.Random(1)
    game = GameSetup.start(ruleset)
    assert game.valid
    for players in range(ruleset.setup.min_players, min(ruleset.setup.max_players, 16) + 1):
        game.set_players(players)
        game.recommend()
        assert game.valid, (players, game.report())
        if game.random_pick(rng):
            assert game.valid, (players, game.roles)


def test_game_counts_pairs_and_limits() -> None:
    game = GameSetup.start(CATALOG.rulesets["onuw"])
    game.change_count("mason", +1)
    assert game.counts["mason"] == 2  # Masons come in pairs
    game.change_count("seer", +1)
    assert game.counts["seer"] == 1  # at most one Seer
    game.set_players(99)
    assert game.players == 10


def test_next_night_only_where_the_game_has_one() -> None:
    onuw = GameSetup.start(CATALOG.rulesets["onuw"])
    assert not onuw.has_next_night
    lupus = GameSetup.start(CATALOG.rulesets["lupus"])
    lupus.next_night()
    assert lupus.night == 2 and lupus.script("night").night == 2


def _script(*steps: object) -> Script:
    return Script("x", "day", 1, "en", 5, (), tuple(steps))  # type: ignore[arg-type]


def test_the_day_is_cut_into_speech_timers_and_waits() -> None:
    script = _script(Say("a"), Pause(1), Timer(60, "Discussion"), Say("b"), Wait("count"), Say("c"))
    assert [(s.kind, s.start, len(s.steps)) for s in segments(script)] == [
        ("speech", 0, 2),
        ("timer", 2, 1),
        ("speech", 3, 1),
        ("wait", 4, 1),
        ("speech", 5, 1),
    ]


def test_countdown_warnings_adjust_and_pause() -> None:
    warnings = (TimerWarning(60, "One minute"), TimerWarning(10, "Ten seconds"))
    timer = RunningTimer(120, warnings, now=0)
    assert timer.due(30) == []
    assert [w.text for w in timer.due(61)] == ["One minute"]
    assert timer.due(62) == []
    timer.adjust(+30, now=62)  # 88 s left: the one-minute warning comes again
    assert timer.remaining(62) == 88
    assert [w.text for w in timer.due(90)] == ["One minute"]
    timer.pause(100)
    assert timer.remaining(500) == 50
    timer.resume(500)
    assert [w.text for w in timer.due(541)] == ["Ten seconds"]
    assert timer.done(550)


def test_settings_json_is_plain(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "s.json")
    store.save(Settings())
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["language"] == "en" and data["bed"] is True


@pytest.mark.parametrize("package", ["narrator.tui", "narrator.session"])
def test_importing_the_app_or_the_session_loads_no_textual_and_no_audio(package: str) -> None:
    import subprocess
    import sys

    code = (
        f"import sys, {package}; "
        "bad = [m for m in ('textual', 'rich', 'numpy', 'sounddevice', 'narrator.audio') "
        "if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
