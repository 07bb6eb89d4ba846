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
