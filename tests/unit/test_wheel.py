"""An installed wheel finds its rulesets (and sound assets) without a checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_wheel_ships_rulesets_and_assets(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("narrator-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"narrator/rulesets/{p.name}" for p in (ROOT / "rulesets").glob("*.yaml")} <= set(names)
    assert any(n.startswith("narrator/assets/") for n in names)
    # The shipped voices' measured rates (narrator/audio/rate.py).
    assert "narrator/audio/voice-rates.json" in names
    # The app's message catalogues, compiled (the app reads the .mo).
    for lang in ("it", "fa"):
        assert f"narrator/i18n/locale/{lang}/LC_MESSAGES/narrator.mo" in names
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    # The installed copy comes first on the path; run from a folder with no checkout.
    env = {**os.environ, "PYTHONPATH": str(target), "XDG_CONFIG_HOME": str(tmp_path)}
    probe = (
        "import narrator, sys; from narrator.cli import main; "
        "print(narrator.__file__, file=sys.stderr); "
        "sys.exit(main(['rulesets', '--format', 'json']))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=env,
    )
    assert run.stderr.strip().startswith(str(target))
    assert "onuw" in {r["id"] for r in json.loads(run.stdout)["rulesets"]}
