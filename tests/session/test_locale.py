"""An Italian machine speaks Italian without being told: the language of the calls (and
so of the app) comes from the locale when narrator speaks it, else English; the saved
setting wins; a game without that language speaks English."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.session.config import Settings, SettingsStore, locale_language


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "fa_IR.UTF-8"}, "fa"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # not a language narrator speaks
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({}, "en"),
        ({"LANG": "it_IT@euro"}, "it"),
        ({"LC_ALL": "fa_IR.UTF-8", "LC_MESSAGES": "en_US", "LANG": "it_IT"}, "fa"),
        ({"LC_MESSAGES": "it_CH.UTF-8", "LANG": "en_US.UTF-8"}, "it"),
        ({"LC_ALL": "", "LANG": "it_IT.UTF-8"}, "it"),  # set but empty: not set
    ],
)
def test_the_locale_gives_the_language(environ: dict[str, str], lang: str) -> None:
    assert locale_language(environ) == lang


def test_the_default_settings_speak_the_machines_language_and_the_saved_one_wins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert Settings().language == "it"
    store = SettingsStore(tmp_path / "settings.json")
    assert store.load()[0].language == "it"  # nothing saved: the machine's
    store.save(Settings(language="en"))
    assert store.load()[0].language == "en"  # saved: it wins
    (tmp_path / "settings.json").write_text(json.dumps({"pace": 1.5}))
    assert store.load()[0].language == "it"  # a file without the key: the machine's
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert Settings().language == "en"


def _script(*args: str, lang: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "narrator.cli", "script", *args, "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
        env={**_clean_env(), "LANG": lang},
    )
    data: dict[str, object] = json.loads(done.stdout)
    return data


def _clean_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}


def test_the_command_line_speaks_the_machines_language_when_the_game_has_it() -> None:
    assert _script("onuw", "--players", "3", lang="it_IT.UTF-8")["lang"] == "it"
    assert _script("onuw", "--players", "3", lang="fa_IR.UTF-8")["lang"] == "fa"
    assert _script("lupus", "--players", "8", lang="fa_IR.UTF-8")["lang"] == "en"  # no Persian
    assert _script("onuw", "--players", "3", "--lang", "en", lang="it_IT.UTF-8")["lang"] == "en"


def test_the_app_on_an_italian_machine_starts_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.i18n import gettext

    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    settings, problem = SettingsStore(Path("/nonexistent/settings.json")).load()
    assert problem is None and settings.language == "it" and settings.app_language == "auto"
    assert gettext(settings.language, "Choose the game") == "Scegli il gioco"
