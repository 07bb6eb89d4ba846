"""The core (rules, script) loads without Textual or any audio library.

Checked in a fresh interpreter, because this test process may already hold them.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

FORBIDDEN = {"textual", "sounddevice", "soundfile", "pyttsx3", "numpy", "soxr", "pydub", "rich"}


def _modules_after(code: str, *, whole: bool = False) -> set[str]:
    """The packages (or, `whole`, the modules) a fresh Python holds after `code`."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return {name if whole else name.split(".")[0] for name in json.loads(out)}


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
        "from narrator.session.config import audio_settings\n"
        "audio_settings(Settings())\n"
        "import narrator.table.state, narrator.moderator.referee\n"
        "import narrator.moderator"
    )
    assert "narrator" in loaded
    assert not loaded & RUNTIME_HEAVY, sorted(loaded & RUNTIME_HEAVY)


@pytest.mark.parametrize("package", ["audio", "rules", "script", "session"])
def test_every_name_a_package_offers_resolves(package: str) -> None:
    """These packages load their parts when first asked for (PEP 562, through
    `base.lazy.lazy_exports`): each name must still be there, and be what its module
    defines; an unknown name is an AttributeError."""
    module = importlib.import_module(f"narrator.{package}")
    lazy = module.__dict__["__getattr__"]  # base.lazy.LazyNames: where each name lives
    assert sorted(module.__all__) == lazy.names
    for name in module.__all__:
        home = importlib.import_module(lazy.home(name))
        assert getattr(module, name) is getattr(home, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        module.nothing  # noqa: B018


@pytest.mark.parametrize("package", ["audio", "rules", "script", "session"])
def test_what_type_checkers_see_of_a_package_is_what_it_offers(package: str) -> None:
    """A package lists its names twice: imported under TYPE_CHECKING (for mypy and the
    reader) and given to `lazy_exports` (for the run): the two lists must agree, name
    for name and module for module."""
    module = importlib.import_module(f"narrator.{package}")
    tree = ast.parse(Path(module.__file__ or "").read_text("utf-8"))
    seen = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom), ast.unparse(imp)
                for alias in imp.names:
                    assert alias.asname == alias.name, f"{alias.name}: import it 'as' itself"
                    seen[alias.name] = imp.module
    lazy = module.__dict__["__getattr__"]
    assert seen == {name: lazy.home(name) for name in lazy.names}


def test_a_module_of_the_rules_comes_without_the_rest() -> None:
    """`narrator.rules.errors` (every command's error lines) and the kept games list load
    without the ruleset model, the loader or the script builder."""
    loaded = _modules_after("import narrator.rules.errors, narrator.rules.index", whole=True)
    assert "narrator.rules.index" in loaded
    assert not {"narrator.rules.model", "narrator.rules.loader", "narrator.script"} & loaded
