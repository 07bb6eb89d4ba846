"""The browser for the phone and host pages: one Debian Chromium per test module, and
every phone a test opened closed when it ends (a page left open keeps reconnecting to
a server that is gone, and slows the next test's phones)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
DOCS = Path(__file__).resolve().parents[2] / "docs" / "table"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")
    if not os.path.exists(CHROMIUM):
        pytest.skip("no chromium: apt-get install chromium (scripts/test installs it)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    yield chromium
    for context in list(chromium.contexts):
        with contextlib.suppress(Exception):
            context.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: docs/table/ with NARRATOR_SCREENSHOTS=1, else the test's
    own temporary folder."""
    if os.environ.get("NARRATOR_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        return DOCS
    return tmp_path
