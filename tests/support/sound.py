"""Measuring what a rendered night sounds like: masking, silence, loudness, pace.

Shared by the tests in tests/audio/test_sound_*.py and by scripts/bench_sound and
scripts/bench_voices. Every
figure is read from samples (the timeline only says where the calls and pauses are).

Renders into a shared speech cache take turns by voice (`rendering`): under xdist,
five tests asking for the same cold Italian night at once each made all of it, each
with its own Kokoro workers, on two cores; now one makes it and the others read it.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyloudnorm
from scipy.signal import butter, sosfiltfilt

from narrator.audio import AudioEngine, AudioSettings, Timeline
from narrator.rules import load_ruleset, parse_roles
from narrator.script import Plan, Script, build_script
from tests.support.cli import run_narrator
from tests.support.deep import deep

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
WINDOW = 0.05  # seconds: the windows the issue counts
MASK_LEVEL = -45.0  # dBFS: the 1-6 kHz band must reach this in the pauses
ONUW_FULL = (
    "doppelganger,werewolf:2,minion,mason:2,seer,robber,troublemaker,drunk,insomniac,hunter,tanner"
)
# Seconds a test rendering a neural night may take (its time limit): Kokoro makes the
# Italian one in about a minute, in minutes on a loaded machine -- or a test waits that
# long for another worker making it (`rendering`).
NEURAL_NIGHT = 900


# The night the suite renders in Italian, whose calls Kokoro makes at about a CPU
# second each: One Night for five with every base role that wakes but the Doppelganger
# and the Masons -- 24 calls and 171 words, against the whole night's 32 and 283 (the
# Doppelganger's follow-ups are most of the difference). Every measure of a render is
# taken over every call (the rate, the spread, the mix), so fewer calls weigh each a
# little more; the deep run (tests/support/deep.py) and the benches measure the whole.
ONUW_SMALLER = ("werewolf:2,minion,seer,robber,troublemaker,drunk,insomniac", 5)


def onuw_night(lang: str = "en", players: int = 10, **plan: object) -> Script:
    """One Night, 10 players, 13 cards with every box of the base game."""
    return _onuw(ONUW_FULL, players, lang, **plan)


def _onuw(deck: str, players: int, lang: str, **plan: object) -> Script:
    ruleset = load_ruleset(RULESETS / "onuw.yaml")
    roles = parse_roles(deck, ruleset)
    return build_script(ruleset, Plan(players=players, roles=roles, lang=lang, **plan))  # type: ignore[arg-type]


def measured_deck(lang: str) -> tuple[str, int]:
    """The deck and players of the night the sound tests render in `lang`: the whole
    base game, but Italian's smaller in the suite (`ONUW_SMALLER`, not in the deep run
    nor outside pytest: a bench measures the whole)."""
    narrowed = lang == "it" and os.environ.get("PYTEST_CURRENT_TEST") and not deep()
    return ONUW_SMALLER if narrowed else (ONUW_FULL, 10)


def measured_night(lang: str = "en", **plan: object) -> Script:
    """The night the sound tests render (`onuw_render`) in `lang`."""
    deck, players = measured_deck(lang)
    return _onuw(deck, players, lang, **plan)


@contextlib.contextmanager
def rendering(cache: Path, voice: str) -> Iterator[None]:
    """Held while a render with `voice` makes its calls into the speech cache of
    `cache` (an engine's cache folder): renders that share that cache (the run's,
    `_shared_cache`, on every xdist worker) and the voice take turns, so a call missing
    from it is made once -- the first renders, the others wait (a lock on a file in the
    cache, released if its holder dies), then find it there. The cache writes aside and
    renames (narrator/base/aside.py): a reader never sees half a file. Other voices do
    not wait: another voice's calls are other files. Not reentrant: a process holding
    it for a voice must not ask for it again (two opens of one file lock each other)."""
    speech = Path(cache) / "speech"
    speech.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w.-]", "_", voice)
    with open(speech / f".tests-rendering-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def render(script: Script, cache: Path, **settings: object) -> Timeline:
    audio = AudioSettings(**settings)  # type: ignore[arg-type]
    engine = AudioEngine(audio, cache_dir=cache)
    try:
        with rendering(cache, audio.voice_for(script.lang)):
            return engine.render(script)
    finally:
        engine.close()


@functools.cache
def _shared_cache() -> Path:
    """A cache folder for the renders these helpers make. Under pytest its speech
    is the run's shared speech cache (tests/conftest.py, `_speech_cache`), so a night
    a neural voice made for one test (Kokoro's Italian: seconds a call) is made once
    for the whole run, on every worker: `render` and `narrator` take their turn at it
    (`rendering`), so a worker asking for calls another is making waits for them."""
    folder = Path(tempfile.mkdtemp(prefix="narrator-sound-tests-"))
    atexit.register(shutil.rmtree, folder, True)
    # The run's cache as the session named it, not the test's home: a module's
    # fixture, which runs before the test's home is made, once made a worker render
    # the Italian night again (100 s of Kokoro) into a folder of its own.
    shared = os.environ.get("NARRATOR_TESTS_SPEECH_CACHE")  # tests/conftest.py
    if shared and Path(shared).is_dir():
        (folder / "cache" / "narrator").mkdir(parents=True)
        for link in (folder / "speech", folder / "cache" / "narrator" / "speech"):
            link.symlink_to(Path(shared).resolve())
    return folder


def first_steps(script: Script, count: int) -> Script:
    """`script` cut after its first `count` steps (a bench's smoke run: the same
    calls, pauses and measures, in seconds instead of minutes)."""
    return replace(script, steps=script.steps[:count], stages=script.stages[:count])


@functools.cache
def onuw_render(
    lang: str, bed: bool = True, first: int | None = None, **settings: object
) -> Timeline:
    """The measured One Night night (`measured_night`; or its `first` steps) rendered
    with the real engine, once per test session for each language and settings (the
    renders are read, never changed)."""
    script = measured_night(lang)
    if first is not None:
        script = first_steps(script, first)
    return render(script, _shared_cache(), bed=bed, **settings)


SPEAKING = ("render", "prepare", "play")  # the commands that make calls into the cache


def _voice_of(args: tuple[str, ...]) -> str:
    """The voice a command line speaks with: its --voice, else its --lang's default
    (English's without one, as the tests' locale is). Only the lock's name: a wrong
    guess costs a second making of the same calls, never a wrong result."""
    given: dict[str, str] = {}
    for at, arg in enumerate(args):
        flag, _, value = arg.partition("=")
        if flag in ("--voice", "--lang"):
            given[flag] = value or "".join(args[at + 1 : at + 2])
    return given.get("--voice") or AudioSettings().voice_for(given.get("--lang") or "en")


def narrator(*args: str, data: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the `narrator` command line; `data` (when given) is its XDG data folder
    (Piper voices) and holds its cache, else the shared speech cache is used (and a
    command that speaks takes its turn at it, `rendering`)."""
    folder = data if data is not None else _shared_cache()
    env = {"XDG_DATA_HOME": str(folder), "XDG_CACHE_HOME": str(folder / "cache")}

    def run() -> subprocess.CompletedProcess[str]:
        return run_narrator(*args, env=env, timeout=800)  # a cold neural voice, a loaded machine

    if data is not None or not args or args[0] not in SPEAKING:
        return run()
    with rendering(folder / "cache" / "narrator", _voice_of(args)):
        return run()


def render_in_chunks(track: Any, total: int, seed: int = 3) -> np.ndarray:
    """`track.render(start, n)` called on random-sized consecutive windows (as the
    player's render-ahead does), joined: must equal one render of `total` samples."""
    rng = np.random.default_rng(seed)
    parts, pos = [], 0
    while pos < total:
        n = int(rng.integers(1, 30000))
        parts.append(track.render(pos, n))
        pos += n
    return np.concatenate(parts)[:total]


def band(x: np.ndarray, rate: int, low: float = 1000.0, high: float = 6000.0) -> np.ndarray:
    """`x` band-passed to [low, high] Hz (6th-order Butterworth, zero phase)."""
    sos = butter(6, [low, high], btype="band", fs=rate, output="sos")
    return np.asarray(sosfiltfilt(sos, np.asarray(x, np.float64)))


def window_levels(x: np.ndarray, rate: int, seconds: float = WINDOW) -> np.ndarray:
    """RMS in dBFS of consecutive windows of `seconds` (a partial last one is dropped)."""
    w = round(seconds * rate)
    n = len(x) // w
    if n == 0:
        return np.zeros(0)
    rms = np.sqrt(np.mean(np.asarray(x[: n * w], np.float64).reshape(n, w) ** 2, axis=1))
    return 20 * np.log10(np.maximum(rms, 1e-12))


def pause_windows(timeline: Timeline) -> np.ndarray:
    """Band (1-6 kHz) levels of every whole 50 ms window inside the night's pauses."""
    rate = timeline.sample_rate
    filtered = band(timeline.samples, rate)
    levels = [
        window_levels(filtered[e.start : e.end], rate) for e in timeline.events if e.kind == "pause"
    ]
    return np.concatenate(levels) if levels else np.zeros(0)


def masked_share(timeline: Timeline, level: float = MASK_LEVEL) -> float:
    """The share of 50 ms windows in the pauses whose 1-6 kHz band reaches `level` dBFS."""
    levels = pause_windows(timeline)
    return float(np.mean(levels >= level)) if len(levels) else 0.0


def silent_windows(timeline: Timeline, seconds: float = WINDOW) -> int:
    """50 ms windows of digital silence (every sample under one 16-bit step) between
    the start of the first call and the end of the last."""
    says = [e for e in timeline.events if e.kind == "say"]
    x = timeline.samples[says[0].start : says[-1].end]
    w = round(seconds * timeline.sample_rate)
    n = len(x) // w
    peaks = np.max(np.abs(x[: n * w].reshape(n, w)), axis=1)
    return int(np.sum(peaks < 1 / 32768))


def lufs(x: np.ndarray, rate: int) -> float:
    """Integrated loudness (BS.1770-4) as pyloudnorm measures it; short clips looped
    to one gating block."""
    x = np.asarray(x, np.float64)
    need = int(0.4 * rate) + 1
    if len(x) < need:
        x = np.tile(x, need // len(x) + 1)
    return float(pyloudnorm.Meter(rate).integrated_loudness(x))


def call_loudness(timeline: Timeline) -> list[float]:
    """The loudness of every call in a render (render it without the bed)."""
    rate = timeline.sample_rate
    return [
        lufs(timeline.samples[e.start : e.end], rate)
        for e in timeline.events
        if e.kind == "say" and e.end > e.start
    ]


def voice_over_bed(with_bed: Timeline, voice_only: Timeline) -> list[float]:
    """dB of voice over what the bed plays under it, for every call: the bed under a
    call is the mix with the bed minus the same night without it."""
    out = []
    for a, b in zip(with_bed.events, voice_only.events, strict=True):
        if a.kind != "say":
            continue
        voice = voice_only.samples[b.start : b.end].astype(np.float64)
        bed = with_bed.samples[a.start : a.end].astype(np.float64) - voice
        out.append(10 * np.log10(np.mean(voice**2) / max(np.mean(bed**2), 1e-20)))
    return out


_WORD = re.compile(r"\w+(?:[’'\u200c-]\w+)*")


def words(text: str) -> int:
    """Words as a reader counts them (Persian half-spaced compounds count once)."""
    return len(_WORD.findall(text))


@dataclass(frozen=True)
class Rate:
    words: int
    seconds: float

    @property
    def wpm(self) -> float:
        return 60.0 * self.words / self.seconds


def speech_rate(timeline: Timeline, threshold_db: float = -50.0) -> Rate:
    """Words a minute over every call: words / seconds from the first to the last
    sample above `threshold_db` in each call (calls rendered without the bed)."""
    rate = timeline.sample_rate
    total_words, total_seconds = 0, 0.0
    for e in timeline.events:
        if e.kind != "say" or not e.text:
            continue
        x = timeline.samples[e.start : e.end]
        loud = np.flatnonzero(np.abs(x) > 10 ** (threshold_db / 20))
        if len(loud) == 0:
            continue
        total_words += words(e.text)
        total_seconds += (loud[-1] - loud[0]) / rate
    return Rate(total_words, total_seconds)
