"""The phones' browser spends its CPU on the phones' pages, and keeps what Playwright
asks of it (tests/table/conftest.py says why both need saying)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.table.conftest import CHROMIUM, FLAGS, NO_BROWSER_UI, playwright_disabled_features

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]


def targets(browser: Any) -> list[tuple[str, str]]:
    """What the browser runs once one page is open: (type, address) of each target."""
    page = browser.new_context().new_page()
    page.goto("data:text/html,<p>a phone</p>")
    cdp = browser.new_browser_cdp_session()
    return [(t["type"], t["url"]) for t in cdp.send("Target.getTargets")["targetInfos"]]


def test_the_browser_makes_no_pages_of_its_own_beside_a_phone(browser: Any) -> None:
    assert targets(browser) == [("page", "data:text/html,<p>a phone</p>")]


def test_without_our_features_off_each_window_makes_its_omnibox_as_pages(chromium: Any) -> None:
    """What the features turn off is still there to turn off (else NO_BROWSER_UI can go)."""
    plain = chromium.browser_type.launch(executable_path=CHROMIUM, args=FLAGS)
    try:
        own = [url for kind, url in targets(plain) if kind == "browser_ui"]
    finally:
        plain.close()
    assert own and all(url.startswith("chrome://omnibox-popup") for url in own), own


def test_every_feature_playwright_turns_off_stays_off(browser: Any) -> None:
    """Chromium keeps the last `--disable-features` it is given (Playwright's comes
    first, ours after it): the last holds Playwright's and ours."""
    page = browser.new_context().new_page()
    page.goto("chrome://version")
    line = page.locator("#command_line").inner_text().split()
    off = [a.split("=", 1)[1].split(",") for a in line if a.startswith("--disable-features=")]
    wanted = playwright_disabled_features()
    assert "PaintHolding" in wanted  # the list was found, and is Playwright's
    assert [f for f in (*wanted, *NO_BROWSER_UI) if f not in off[-1]] == []
