"""The `narrator` command line run as a user runs it: a fresh interpreter, its output
captured, a time limit so a hang fails the test instead of stalling the suite."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path


def run_narrator(
    *argv: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 60,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m narrator.cli ARGV...`; `env` is added to this process's environment."""
    return subprocess.run(
        [sys.executable, "-m", "narrator.cli", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        preexec_fn=preexec_fn,
        check=False,
    )
