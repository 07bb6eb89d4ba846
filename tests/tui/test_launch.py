"""How the real app is put together before it draws anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def _python(code: str, config: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh Python with its own config folder; its stderr on failure."""
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CONFIG_HOME": str(config), **env},
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return run


def test_portaudio_is_loaded_before_an_app_that_draws_on_fd_2(tmp_path: Path) -> None:
    # sounddevice silences fd 2 while PortAudio initialises: if Textual drew on fd 2
    # and PortAudio were first loaded by a thread while the app runs, screen output
    # would be lost (seen as an app drawn over the shell in tmux).
    probe = (
        "import sys\n"
        "from narrator.compose import make_app\n"
        "assert 'sounddevice' not in sys.modules\n"
        "app = make_app({})\n"
        "print('sounddevice' in sys.modules, type(app.engine).__name__)\n"
        "app.engine.close()\n"
    )
    run = _python(probe, tmp_path, XDG_CACHE_HOME=str(tmp_path))
    assert run.stdout.split() == ["True", "AudioEngine"]


def test_with_the_terminal_kept_apart_the_app_does_not_wait_for_the_engine(
    tmp_path: Path,
) -> None:
    """As `narrator` starts the app: fd 2 goes to the audio log and Textual draws on a
    copy of the terminal, so the engine is finished beside the app (`LateEngine`).
    The settings given before it is ready reach it; it plays; it closes."""
    probe = (
        "import sys\n"
        "from narrator.audio.devices import route_native_messages\n"
        "route_native_messages()\n"
        "from narrator.compose import make_app\n"
        "from narrator.audio.settings import AudioSettings\n"
        "app = make_app({})\n"
        "app.engine.settings = AudioSettings(rate=123, bed=False)\n"
        "problem = app.engine.check_output()  # a machine without a device: a line\n"
        "print(type(app.engine).__name__, problem is None or isinstance(problem, str))\n"
        "print(app.engine._real().settings.rate, type(app.engine._real()).__name__)\n"
        "app.engine.close()\n"
    )
    state = tmp_path / "state"
    run = _python(probe, tmp_path, XDG_CACHE_HOME=str(tmp_path), XDG_STATE_HOME=str(state))
    assert run.stdout.split() == ["LateEngine", "True", "123", "AudioEngine"]
    assert (state / "narrator" / "audio.log").exists()


def test_an_engine_that_cannot_be_built_is_a_sound_problem_not_a_crash() -> None:
    from narrator.compose import AudioStart, LateEngine

    def broken() -> Any:
        raise RuntimeError("no voice")

    engine = LateEngine(AudioStart(broken))
    assert engine.check_output() == "the sound could not start (RuntimeError: no voice)"
    engine.close()  # nothing was built: nothing to close, no error


def test_a_lazy_engine_is_built_at_its_first_need_and_never_just_to_be_closed() -> None:
    """The app's engine starts building when the app first needs it (the output
    check, after the first frame); an app closed before that builds nothing."""
    from narrator.compose import AudioStart, LateEngine
    from narrator.session import SilentEngine, SystemClock

    class Counted(SilentEngine):
        closed = False

        def close(self) -> None:
            super().close()
            self.closed = True

    built: list[Counted] = []

    def build() -> Counted:
        built.append(Counted(clock=SystemClock()))
        return built[-1]

    unused = LateEngine(AudioStart(build, lazy=True))
    unused.settings = unused.settings  # kept, no build
    unused.close()
    assert built == []
    used = LateEngine(AudioStart(build, lazy=True))
    assert used.check_output() is None and len(built) == 1
    used.close()
    assert built[0].closed


def test_fake_audio_loads_no_sound_library(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from narrator.compose import make_app\n"
        "app = make_app({'NARRATOR_AUDIO': 'fake'})\n"
        "print(sorted(m for m in ('sounddevice', 'soundfile', 'numpy') if m in sys.modules))\n"
    )
    assert _python(probe, tmp_path).stdout.strip() == "[]"


def test_the_app_is_built_without_the_web_server_installed(tmp_path: Path) -> None:
    """With aiohttp not importable, the composition root gives the app no table
    factory (the app then says "Table mode unavailable") and nothing imports it."""
    probe = (
        "import sys\n"
        "class Gone:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'aiohttp':\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Gone())\n"
        "from narrator.compose import make_app\n"
        "app = make_app({'NARRATOR_AUDIO': 'fake'})\n"
        "print(app.tables is None, 'aiohttp' in sys.modules, 'narrator.table' in sys.modules)\n"
    )
    assert _python(probe, tmp_path).stdout.split() == ["True", "False", "False"]


def test_with_a_kept_games_list_the_app_is_built_before_any_ruleset_is_read(
    tmp_path: Path,
) -> None:
    """The first start reads the catalogue and keeps its games list; the next builds the
    app on that list alone -- no ruleset model, loader, script builder or session
    loaded -- and reads the catalogue when the app first asks (after its first frame)."""
    probe = (
        "import sys\n"
        "from narrator.compose import make_app\n"
        "app = make_app({'NARRATOR_AUDIO': 'fake'})\n"
        "heavy = ('narrator.rules.model', 'narrator.rules.loader', 'narrator.script.builder',"
        " 'narrator.session.session')\n"
        "print(len([m for m in heavy if m in sys.modules]), app.games is not None)\n"
        "print(sorted(app.catalog.rulesets) == [game.id for game in app.games.games])\n"
    )
    cache = str(tmp_path / "cache")
    first = _python(probe, tmp_path, XDG_CACHE_HOME=cache).stdout.split()
    again = _python(probe, tmp_path, XDG_CACHE_HOME=cache).stdout.split()
    assert first == ["2", "True", "True"]  # no list kept: the model and loader read it
    assert again == ["0", "True", "True"]
