"""The core (rules, script) loads without Textual or any audio library.

Checked in a fresh interpreter, because this test process may already hold them.
"""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = {"textual", "sounddevice", "soundfile", "pyttsx3", "numpy", "soxr", "pydub", "rich"}


def _modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return {name.split(".")[0] for name in json.loads(out)}


def test_core_imports_no_ui_or_audio_library() -> None:
    loaded = _modules_after(
        "import narrator.rules, narrator.script\n"
        "from narrator.rules import get_ruleset, recommended\n"
        "from narrator.script import Plan, build_script\n"
        "r = get_ruleset('onuw')\n"
        "build_script(r, Plan(players=5, roles=recommended(r, 5)[0]))"
    )
    assert "narrator" in loaded
    assert not loaded & FORBIDDEN


def test_script_command_does_not_load_audio_or_textual() -> None:
    loaded = _modules_after(
        "import contextlib, io\n"
        "from narrator.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['script', 'onuw', '--players', '5', '--format', 'json'])"
    )
    assert not loaded & FORBIDDEN


def test_the_engine_resolves_a_game_without_web_ui_or_audio() -> None:
    """`narrator replay` runs a whole game: nothing but the engine, rules and words load."""
    loaded = _modules_after(
        "import contextlib, io\n"
        "from narrator.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['replay', 'tests/scenarios/onuw/robber_takes_the_werewolf.yaml'])"
    )
    assert "narrator" in loaded
    assert not loaded & (FORBIDDEN | {"aiohttp", "scipy", "pyloudnorm"})


RUNTIME_HEAVY = FORBIDDEN | {"scipy", "pyloudnorm", "aiohttp", "espeakng_loader", "sounddevice"}


def test_the_session_and_the_tables_state_load_no_audio_or_ui_library_at_run_time() -> None:
    """Imports are not enough: building the audio settings from the user's settings
    (which every front end does) must not pull numpy, scipy or PortAudio in either."""
    loaded = _modules_after(
        "from narrator.session import Settings\n"
        "from narrator.session.engine import audio_settings\n"
        "audio_settings(Settings())\n"
        "import narrator.table.state, narrator.table.votes, narrator.table.outcome\n"
        "import narrator.moderator"
    )
    assert "narrator" in loaded
    assert not loaded & RUNTIME_HEAVY, sorted(loaded & RUNTIME_HEAVY)


def test_every_name_the_audio_package_offers_resolves() -> None:
    """narrator.audio loads its parts when first asked for: each name must still be there."""
    import narrator.audio as audio

    for name in audio.__all__:
        assert getattr(audio, name).__name__ == name
