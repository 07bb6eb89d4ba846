"""The deep run: the whole of what a narrowed real-time test plays.

A few real-time tests play less than their claim covers, to keep the suite's time
(issue 24; docs/PERFORMANCE.md, "The test suite"): a few calls of a night where the
claim is per call, one call per voice where the player's part does not depend on
the voice. Each says so in its docstring, and with `NARRATOR_TEST_DEEP=1` plays the
whole of it again (`NARRATOR_TEST_DEEP=1 scripts/test`, or one test by its id).
"""

from __future__ import annotations

import os

DEEP = "NARRATOR_TEST_DEEP"


def deep() -> bool:
    """Whether this run plays the narrowed tests whole (`NARRATOR_TEST_DEEP=1`)."""
    return os.environ.get(DEEP, "") not in ("", "0")
