"""How many examples a property test (hypothesis) tries: the suite's, or the deep run's.

The suite runs each property test with as many examples as keep it meaningful in its
time (issue 24: the suite under 7 minutes on two cores). The deep run tries ten times
as many or more, by hand or in a nightly job:
`HYPOTHESIS_PROFILE=deep .venv/bin/pytest tests/unit -n 2` (or the deep run of the whole
suite, `NARRATOR_TEST_DEEP=1 scripts/test`, tests/support/deep.py) (docs/PERFORMANCE.md, "The
test suite"). Both are hypothesis profiles, registered and loaded here -- imported by
the property tests only, so no other test pays for importing hypothesis (~0.7 s).

Used by the property tests of tests/unit; every `@given` there takes its
`max_examples` from `examples()`.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests.support.deep import deep

SUITE, DEEP = "suite", "deep"
settings.register_profile(SUITE, deadline=None)
settings.register_profile(DEEP, deadline=None)
PROFILE = DEEP if deep() else os.environ.get("HYPOTHESIS_PROFILE", SUITE)
if PROFILE not in (SUITE, DEEP):
    pytest.exit(f"HYPOTHESIS_PROFILE={PROFILE!r}: the tests know '{SUITE}' and '{DEEP}'", 4)
settings.load_profile(PROFILE)


def examples(suite: int, *, deep: int) -> int:
    """`suite` examples in the suite's run, `deep` in the deep one."""
    assert deep >= suite
    return deep if PROFILE == DEEP else suite
