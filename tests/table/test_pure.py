"""The table's state runs headless: no web framework, no Textual, no audio library.

Checked in a fresh interpreter, because this test process may already hold them.
"""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = {"aiohttp", "textual", "sounddevice", "soundfile", "pyttsx3", "numpy", "rich"}


def test_a_whole_game_of_table_state_loads_no_web_ui_or_audio_library() -> None:
    probe = (
        "from narrator.rules import get_ruleset\n"
        "from narrator.table import Table\n"
        "t = Table(get_ruleset('onuw'), 'en')\n"
        "for n in 'ABC': t.join(n, t.room)\n"
        "t.start({}); t.advance(); t.advance(); t.advance()\n"
        "for s in t.seats: t.vote(s, 0 if s.seat != 0 else 1)\n"
        "assert t.phase == 'end'\n"
        "import sys, json; print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    loaded = {name.split(".")[0] for name in json.loads(out)}
    assert not loaded & FORBIDDEN
