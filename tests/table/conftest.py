"""The browser for the phone and host pages: one Debian Chromium per test module, and
every phone a test opened closed when it ends (a page left open keeps reconnecting to
a server that is gone, and slows the next test's phones).

Chromium's headless mode is the whole browser with its windows hidden, and each
window made its omnibox's drop-down as two web pages of the browser's own, each in a
renderer of its own: a third of what Chromium spent on a phone game (17.4 CPU s for
the Lupus game, 9.5 s without; test_chromium.py keeps them away). Turning those off
takes a `--disable-features` of our own, and Chromium keeps only the last one it is
given, so ours repeats the list Playwright passes, read from the installed Playwright.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
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
# The omnibox's drop-down, made as pages of the browser's own (chrome://omnibox-popup).
NO_BROWSER_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")


@functools.cache
def playwright_disabled_features() -> list[str]:
    """The features Playwright turns off in every Chromium it launches, as its
    installed driver lists them (packages/playwright-core/.../chromiumSwitches.ts,
    bundled into its driver's JavaScript)."""
    import playwright

    lib = Path(playwright.__file__).parent / "driver" / "package" / "lib"
    for script in sorted(lib.rglob("*.js")):
        text = script.read_text(encoding="utf-8", errors="replace")
        found = re.search(r"disabledFeatures = \[(.*?)\]", text, re.S)
        if found:
            body = re.sub(r"//[^\n]*", "", found.group(1))
            return re.findall(r'"([A-Za-z0-9]+)"', body)
    raise RuntimeError(
        f"Playwright's own --disable-features list is not in {lib} any more: "
        "tests/table/conftest.py reads it there to keep it when it adds its own"
    )


def flags() -> list[str]:
    """Chromium's arguments: FLAGS, and Playwright's features off with ours."""
    return [
        *FLAGS,
        "--disable-features=" + ",".join([*playwright_disabled_features(), *NO_BROWSER_UI]),
    ]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")
    if not os.path.exists(CHROMIUM):
        pytest.skip("no chromium: apt-get install chromium (scripts/test installs it)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=flags())
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
