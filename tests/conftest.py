"""Fixtures shared by every test: a private home for each test, and the test sound server;
and how the suite shares the machine when pytest-xdist runs it on several workers.

Every test runs with its own HOME and XDG config, cache and data folders, so no
test reads the developer's settings or rulesets (a user `onuw.yaml` must not change
a result) and none writes into them. Only the rendered speech is shared, through
one cache folder for the whole run: it depends on nothing but the text, voice and
rate, and re-synthesising every line in every test would cost minutes.

`scripts/test` runs the suite on several xdist workers (docs/PERFORMANCE.md, "The
test suite"). Each worker is a process of its own: its own temp folder, so its own
sound server (`sound_server` below), tmux sockets and browser profile. Tests that
play into a sound server in real time are marked `realtime` (by using `sound_server`,
or by hand where they start a server themselves); every other test is a "burner",
and while a worker runs one, that worker is held off the first CPU, so a fuzzer, a
wheel build or Chromium never takes the core a real-time playback needs. The
real-time tests that measure time itself (underruns, measured silence, a signal
answered within 1 s) are also grouped (`xdist_group("timing")`): they run one at a
time, first. Where priorities may be raised (root, as in CI), the burners are held
off the first CPU only until the timing tests are done (about four minutes), each
real-time test runs above the burners, and each timing test above the other
real-time tests (`pytest_runtest_protocol`). (The kernel here groups processes by
session for the scheduler, "autogroup": a nice level counts only against processes
of the same session, and an app started in tmux is a session of its own.) A worker's
sound server rests (its sink suspended) through the tests that play nothing.
The timing tests and the long real-time ones are collected first, so neither waits
for the other and the last to finish is not a soak that started late; a night many
tests read from the shared speech cache is rendered at the start, beside the timing
tests (`SHARED_RENDERS`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.soundserver import SoundServer, missing_tools
from tests.support.soundserver import sound_server as start_sound_server
from tests.support.unwritable import unwritable

# A run started where Ctrl-C is ignored (a background job of a script: its shell
# ignores SIGINT, and every process started under it inherits that) would start
# `narrator play`, the app and the table deaf to the SIGINT the tests send them as a
# user's Ctrl-C: the tests' processes take it as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _realtime(item: pytest.Item) -> bool:
    return "sound_server" in getattr(item, "fixturenames", ()) or bool(
        item.get_closest_marker("realtime")
    )


# The order the workers take the tests in (with --no-loadscope-reorder, xdist keeps
# it): the timing tests first, on one worker, while the others run the other
# real-time tests, the soak first; then the burners, the browser's group (one
# unit, on one worker) before the rest so it does not run on alone at the end.
LONG_REALTIME = (
    "tests/tui/test_soak.py::",
    "tests/unit/test_benches.py::test_every_bench_runs_in_its_smoke_mode[bench]",  # ~80 s
    "tests/unit/test_benches.py::test_every_bench_runs_in_its_smoke_mode[bench_italian]",
    "tests/audio/test_lifecycle.py::",
)
LONG_BURNERS = (
    "tests/table/test_games_browser.py::",  # its own group: a second Chromium, in parallel
    "tests/table/test_browser.py::",
    "tests/table/test_host_browser.py::",
    "tests/unit/test_fuzz.py::",
)

# Burners that mostly wait on real time (a server's night played at a tenth of its
# pace, the app in a terminal) and hardly use the CPU. In their files' places they came
# together (the table's, one after another on every worker) and left both cores two
# thirds idle for half a minute; spread evenly through the other burners, a worker
# waiting on one leaves the cores to the others.
WAITERS = (
    "tests/table/test_restart.py::test_a_server_killed_mid_call",
    "tests/table/test_night_live.py::",
    "tests/table/test_sizes.py::test_a_long_lupus_table",
    "tests/session/test_playing_contract.py::test_preview_plays",
    "tests/tui/test_terminal_",
)

# The first render of a night that many tests read from the run's speech cache
# (tests/support/sound.py: the others wait for it, then read it): Italian's neural voice
# makes it in about a minute. Started first, beside the timing tests, so that it is
# made when its readers come (tests/audio/test_sound_*.py, test_kokoro.py) and no
# worker sits waiting for it.
SHARED_RENDERS = (
    "tests/audio/test_sound_pacing.py::test_the_rate_heard_is_the_rate_set_in_every_language[it]",
)


# scripts/test runs again, alone, each test that failed among the workers: it names
# the file the failed tests' ids go to (NUL-separated: a parameter may hold a newline),
# without xdist's "@group" suffix, which a run without xdist does not know.
FAILED_LIST = "NARRATOR_FAILED_TESTS"


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    where = os.environ.get(FAILED_LIST)
    if where and report.failed:
        with open(where, "a", encoding="utf-8") as file:
            file.write(report.nodeid.split("@")[0] + "\0")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "sound_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.realtime)

    def order(item: pytest.Item) -> float:
        if _timing(item):
            return 0
        if item.nodeid.startswith(SHARED_RENDERS):
            return 0.5
        if item.nodeid.startswith(LONG_REALTIME):
            # in order, between 1 and 2 (as 1 + its index, the third sorted with the
            # real-time tests and the fourth with the long burners)
            at = next(i for i, p in enumerate(LONG_REALTIME) if item.nodeid.startswith(p))
            return 1 + at / len(LONG_REALTIME)
        if _realtime(item):
            return 3
        if item.nodeid.startswith(LONG_BURNERS):
            return 4
        return 5

    items.sort(key=order)  # stable: the same order on every worker, as xdist requires
    items[:] = _spread(items, lambda item: order(item) == 5 and item.nodeid.startswith(WAITERS))
    global _TIMING_LEFT
    _TIMING_LEFT = sum(1 for item in items if _timing(item))


def _spread(items: list[pytest.Item], waits: Callable[[pytest.Item], bool]) -> list[pytest.Item]:
    """`items` with those that `waits` picks moved from their places to evenly spaced
    ones through the first half of the others after the first of them (the others keep
    their order). The first half: the second is mostly tests of milliseconds, so evenly
    spaced by count there is bunched up in time at the end."""
    picked = [item for item in items if waits(item)]
    if not picked:
        return items
    start = items.index(picked[0])
    rest = [item for item in items[start:] if not waits(item)]
    step = len(rest) / 2 / len(picked)
    spread = list(items[:start])
    for n, item in enumerate(picked):
        spread += [item, *rest[round(n * step) : round((n + 1) * step)]]
    return spread + rest[round(len(picked) * step) :]


_CPUS = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
# Only under xdist, with a core to spare: alone, a test has the machine to itself.
_SPARE_A_CORE = bool(os.environ.get("PYTEST_XDIST_WORKER")) and len(_CPUS) > 1


TIMING = "timing"  # the xdist_group of the tests that measure time itself
# The timing group runs first, on one worker. When its last test ends, that worker
# leaves a file in the run's folder (`_timing_done`); burners that start after it
# use every CPU: nothing left measures time itself, and the other real-time tests
# judge what is heard. A run with no timing test leaves it at once.
_TIMING_DONE: Path | None = None
_TIMING_LEFT = 0  # timing tests not yet run (counted alike on every worker)


@pytest.fixture(scope="session", autouse=True)
def _timing_done(tmp_path_factory: pytest.TempPathFactory) -> None:
    global _TIMING_DONE
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _TIMING_DONE = tmp_path_factory.getbasetemp().parent / "timing-done"
        if _TIMING_LEFT <= 0:
            _TIMING_DONE.touch()


def _timing(item: pytest.Item) -> bool:
    group = item.get_closest_marker("xdist_group")
    return group is not None and TIMING in (*group.args, group.kwargs.get("name"))


def _may_raise_priority() -> bool:
    """Whether this process may give a thread a higher priority than its own (root,
    or CAP_SYS_NICE: CI is root); tried once, on a thread of its own."""
    if not _SPARE_A_CORE:
        return False
    allowed: list[bool] = []

    def attempt() -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, 0, -1)  # on Linux: this thread only
            allowed.append(True)
        except OSError:
            allowed.append(False)

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join()
    return allowed[0]


_BOOST = _may_raise_priority()
REALTIME_NICE = -10  # a real-time test's threads against the burners': ~9 to 1 on CFS
TIMING_NICE = -15  # a timing test's against another real-time test's: ~3 to 1


@contextlib.contextmanager
def _raised(by: int) -> Iterator[None]:
    """This thread `by` nice levels up while inside (and what it starts inherits it)."""
    if not _BOOST:
        yield
        return
    before = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, max(-20, before + by))
    try:
        yield
    finally:
        os.setpriority(os.PRIO_PROCESS, 0, before)  # lowering one's priority: always allowed


# tryfirst: outside pytest-timeout's wrapper (and any other), so the whole test is inside.
@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """A burner (any test not real-time) runs on every CPU but the first, from its
    setup to its teardown (a module's browser, started by its first test, is
    included), and whatever it starts inherits that; sched_setaffinity on one's own
    thread needs no privilege. The real-time tests keep every CPU: the first has no
    burner of ours on it.

    Where priorities may be raised (root, as CI is), that holds only while the timing
    tests run: after them a burner has every CPU. And a real-time test runs at
    `REALTIME_NICE` -- it, its playback threads and what it starts (the app, a
    command) -- so a burner never starves its output: one run with the burners
    unpinned and nothing raised took 4:53 instead of 8:07, and a call ran dry. A
    timing test runs higher still (`TIMING_NICE`), over the real-time tests beside
    it. (Until 2026-11-28 the real-time tests were raised only after the timing
    tests: the soak, which starts beside them, then stalled its output for 3 s in
    each of three runs of the suite on a quiet machine, and passed alone.)

    (Tried and measured, docs/PERFORMANCE.md: a file lock that kept every burner
    off the machine while a timing test ran cost a minute here and failed as often.)
    """
    global _TIMING_LEFT
    _rest_the_sink(item, nextitem)
    if _timing(item):
        try:
            with _raised(TIMING_NICE):
                yield
        finally:
            _TIMING_LEFT -= 1
            if _TIMING_LEFT <= 0 and _TIMING_DONE is not None:
                _TIMING_DONE.touch()
        return
    if _realtime(item):
        with _raised(REALTIME_NICE):
            yield
        return
    timing_done = _TIMING_DONE is not None and _TIMING_DONE.exists()
    if not _SPARE_A_CORE or (_BOOST and timing_done):
        yield
        return
    os.sched_setaffinity(0, _CPUS[1:])
    try:
        yield
    finally:
        os.sched_setaffinity(0, _CPUS)


# Where the run's speech cache is, for the helpers that render outside a test's home
# (tests/support/sound.py): set once, by the session, before any module's fixtures run
# -- a module-scoped fixture runs before the test's private home is made.
SPEECH_CACHE = "NARRATOR_TESTS_SPEECH_CACHE"


@pytest.fixture(scope="session")
def _speech_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # Under pytest-xdist every worker's temp folder sits in the run's: the workers
        # share one cache (the cache writes aside and renames, so a reader never sees
        # half a file), as the tests of a serial run do.
        shared = tmp_path_factory.getbasetemp().parent / "speech-cache"
        shared.mkdir(exist_ok=True)
    else:
        shared = tmp_path_factory.mktemp("speech-cache")
    os.environ[SPEECH_CACHE] = str(shared)
    return shared


@pytest.fixture(scope="session")
def _rulesets_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Checked rulesets (narrator/rules/parsed.py), kept across a worker's tests as a
    user's are across runs: a test that edits a ruleset writes its own file."""
    return tmp_path_factory.mktemp("rulesets-cache")


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    _speech_cache: Path,
    _rulesets_cache: Path,
) -> Path:
    home = tmp_path_factory.mktemp("home")
    for name, folder in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_DATA_HOME", "data"),
    ):
        (home / folder).mkdir()
        monkeypatch.setenv(name, str(home / folder))
    (home / "cache" / "narrator").mkdir()
    (home / "cache" / "narrator" / "speech").symlink_to(_speech_cache)
    (home / "cache" / "narrator" / "rulesets").symlink_to(_rulesets_cache)
    monkeypatch.setenv("HOME", str(home))
    # The calls' language defaults to the machine's locale (session/config.py): every
    # test starts from an English one, whatever the developer's is.
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    return home


_SERVER: SoundServer | None = None  # this process's, while it runs


def _rest_the_sink(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """The worker's sink rests (suspended, `SoundServer.rest`) from a test that plays
    nothing, when the next plays nothing either: the order puts the players first, so
    a worker wakes its sink again rarely (2 s). A test that plays wakes it: here if it
    is known to play (real-time), else when it asks for `sound_server`."""
    if _SERVER is None:
        return
    if _realtime(item):
        _SERVER.rest(False)
    elif nextitem is None or not _realtime(nextitem):
        _SERVER.rest(True)


@pytest.fixture
def sound_server(_sound_server: SoundServer) -> SoundServer:
    """A private PulseAudio server with a null sink (see tests/support/soundserver.py),
    started once for the whole session; everything in this process plays into it. Its
    sink is awake for the test that asks for it (`_rest_the_sink`), however it asks."""
    _sound_server.rest(False)
    return _sound_server


@pytest.fixture(scope="session")
def _sound_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SoundServer]:
    global _SERVER
    missing = missing_tools()
    if missing:
        pytest.skip(f"no {', '.join(missing)}: apt-get install pulseaudio pulseaudio-utils")
    with start_sound_server(tmp_path_factory.mktemp("pulse")) as server:
        _SERVER = server
        try:
            yield server
        finally:
            _SERVER = None


@pytest.fixture(scope="session", autouse=True)
def _worker_sound_server(request: pytest.FixtureRequest) -> None:
    """Under xdist each worker starts its sound server before its first test. PortAudio
    lists the devices once, when a process first loads it: a worker whose first tests
    load it (a device list, a render) before one of them starts the server would find
    no output device for its real-time tests after. (A serial run starts the server
    with its first real-time test, and the order puts those first.)"""
    if not os.environ.get("PYTEST_XDIST_WORKER") or missing_tools():
        return
    pinned = os.sched_getaffinity(0) if _CPUS else None
    if pinned is not None:
        os.sched_setaffinity(0, _CPUS)  # the server is for the real-time tests: every CPU
    try:
        request.getfixturevalue("_sound_server")
    finally:
        if pinned is not None:
            os.sched_setaffinity(0, pinned)


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody may write in -- root included (chattr +i), as a locked-down
    config folder or a read-only mount is."""
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "settings.json").write_bytes(b"{oops")
    with unwritable(folder):
        yield folder
