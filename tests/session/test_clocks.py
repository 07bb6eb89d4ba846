"""Every clock is the session's `Clock` protocol and moves as it says: the two
production clocks (`narrator/session/clock.py`) and the tests' own
(`tests/support/clock.py`), the one home of the tests' clocks.

Nothing here is timed: each reading is bracketed by the machine's clock read just
before and just after it, so what is asserted holds however busy the machine is.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from narrator.session.clock import Clock, SystemClock, WallClock
from tests.support.clock import ManualClock, RunningClock, TurnClock
from tests.support.wait import wait_until

ROOT = Path(__file__).resolve().parents[2]
EPS = 1e-9  # float rounding in (real - base - paused) * speed

# Each clock where a `Clock` is wanted, checked by mypy (strict); and one that is not
# a clock, which it must refuse: the check can fail.
TYPED_USE = """\
from narrator.session.clock import Clock, SystemClock, WallClock
from tests.support.clock import ManualClock, RunningClock, TurnClock

clocks: list[Clock] = [SystemClock(), WallClock(), ManualClock(), RunningClock(2), TurnClock(0.5)]


class Hourglass:
    def now(self) -> str:
        return "soon"


wrong: Clock = Hourglass()
"""


def _machine_moved(seconds: float) -> None:
    """Return once the machine's monotonic clock has moved `seconds` on."""
    start = time.monotonic()
    wait_until(lambda: time.monotonic() - start > seconds, what="the machine's clock")


def test_every_clock_is_the_session_s_protocol(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\npython_version = 3.11\nstrict = True\n", encoding="utf-8")
    cache = getattr(request.config, "cache", None)  # warm from one run to the next
    folder = cache.mkdir("mypy-clocks") if cache is not None else tmp_path / "cache"
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(folder)]
        + ["--no-error-summary", "-c", TYPED_USE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    wrong = TYPED_USE.splitlines().index("wrong: Clock = Hourglass()") + 1
    assert len(errors) == 1 and errors[0].startswith(f"<string>:{wrong}: error:"), run.stdout


def test_no_clock_of_the_tests_lives_anywhere_else() -> None:
    """One home: a class with a `now` in tests/ is tests/support/clock.py's, and the
    benches use those too."""
    home = ROOT / "tests" / "support" / "clock.py"
    elsewhere = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path != home
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and any(isinstance(f, ast.FunctionDef) and f.name == "now" for f in node.body)
    ]
    clock = re.compile(r"^\s*class \w*Clock\b", re.MULTILINE)
    elsewhere += [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "scripts").iterdir())
        if path.is_file() and clock.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert elsewhere == []


@pytest.mark.parametrize(
    "make",
    [SystemClock, WallClock, ManualClock, lambda: RunningClock(3), lambda: TurnClock(0.5)],
    ids=["system", "wall", "manual", "running", "turn"],
)
def test_no_clock_goes_back(make: Callable[[], Clock]) -> None:
    clock = make()
    readings = [clock.now() for _ in range(200)]
    assert readings == sorted(readings)


def test_the_production_clocks_read_the_machine_s_and_the_wall_s_time() -> None:
    before, read, after = time.monotonic(), SystemClock().now(), time.monotonic()
    assert before <= read <= after
    before, read, after = time.time(), WallClock().now(), time.time()
    assert before <= read <= after


def test_a_manual_clock_moves_only_when_told_and_tells_its_watchers() -> None:
    clock = ManualClock(start=50.0)
    told: list[float] = []
    unwatch = clock.watch(lambda: told.append(clock.now()))
    _machine_moved(0.02)
    assert clock.now() == 50.0  # still, however long the machine runs
    clock.advance(2.5)
    clock.advance_to(60.0)
    assert clock.now() == 60.0 and told == [52.5, 60.0]
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance_to(59.0)
    assert clock.now() == 60.0
    unwatch()
    clock.advance(1)
    assert clock.now() == 61.0 and told == [52.5, 60.0]


def test_a_running_clock_runs_at_its_speed_and_stands_still_while_held() -> None:
    speed = 4.0
    made_before = time.monotonic()
    clock = RunningClock(speed)
    first, made_after = clock.now(), time.monotonic()
    assert 0 <= first <= speed * (made_after - made_before) + EPS  # from 0 when made

    a0, start, a1 = time.monotonic(), clock.now(), time.monotonic()
    _machine_moved(0.02)
    b0, later, b1 = time.monotonic(), clock.now(), time.monotonic()
    assert speed * (b0 - a1) - EPS <= later - start <= speed * (b1 - a0) + EPS

    clock.hold()
    held = clock.now()
    assert clock.held
    _machine_moved(0.02)
    assert clock.now() == held  # still while held
    r0 = time.monotonic()
    clock.release()
    r1 = time.monotonic()
    assert not clock.held
    _machine_moved(0.02)
    c0, after, c1 = time.monotonic(), clock.now(), time.monotonic()
    # on from where it was held: the time held is not counted, nothing skipped
    assert speed * (c0 - r1) - EPS <= after - held <= speed * (c1 - r0) + EPS


def test_a_turn_clock_moves_one_quantum_a_look_and_stands_still_while_held() -> None:
    clock = TurnClock(0.5)
    last = clock.now()
    assert last == 0.5  # its first look
    for _ in range(3):  # a look: one quantum on, however long since the last
        _machine_moved(TurnClock.LOOK)
        now = clock.now()
        assert now == last + 0.5
        last = now

    # the reads of one look share its time (two reads closer than a look apart; a
    # busy machine may part a pair: then another pair is taken)
    for _ in range(100):
        _machine_moved(TurnClock.LOOK)
        m0, a, b, m1 = time.monotonic(), clock.now(), clock.now(), time.monotonic()
        assert a == last + 0.5
        last = b
        if m1 - m0 <= TurnClock.LOOK:
            assert b == a
            break
    else:
        pytest.fail("no two reads came within one look")

    clock.hold()
    held = clock.now()
    assert clock.held
    for _ in range(3):
        _machine_moved(TurnClock.LOOK)
        assert clock.now() == held  # no look moves it while held
    clock.release()
    _machine_moved(TurnClock.LOOK)
    assert clock.now() == held + 0.5  # one look on: the time held is not counted
