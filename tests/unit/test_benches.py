"""Every `scripts/bench*` still runs: each in its smoke mode (`--smoke`), as a user
runs it, checked for exit 0 and for every row it measures, each with a figure.

A bench is run by hand, so nothing else notices when a change breaks it (one that
imported a test helper once failed for weeks). `--smoke` takes each measurement once
on the smallest input and prints the page's section instead of writing it. No time
is asserted here: the figures go to docs/PERFORMANCE.md when a bench is run whole.
Benches that start a sound server are `realtime` and `audio`, as the suite's own
users of it are; those that drive a terminal are `slow`, as the tmux tests are.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from narrator.audio.ambience import AMBIENCES
from narrator.audio.settings import DEFAULT_RATES
from tests.support.soundserver import missing_tools

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "PERFORMANCE.md"
LEFT_ALONE = "smoke: docs/PERFORMANCE.md left as it is"

NO_SOUND_SERVER = pytest.mark.skipif(
    bool(missing_tools()), reason="needs pulseaudio and pulseaudio-utils"
)
NO_TMUX = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
SOUND_SERVER = [pytest.mark.audio, pytest.mark.realtime, NO_SOUND_SERVER]

# bench -> the rows its smoke run must print (each a Markdown row with a figure)
BENCHES: list[tuple[str, list[str], list[pytest.MarkDecorator]]] = [
    (
        "bench_table",
        [
            "Join (`POST /api/join`, 5 at once)",
            "Join-to-dealt",
            "Vote-to-announcement",
            "The last of the 5 votes sent",
        ],
        [],
    ),
    ("bench_table_night", ["Act -> ack", "Dawn -> named"], []),
    (
        "bench_save",
        [
            "Dump the table to JSON",
            "A save as shipped",
            "The same save without the folder's sync",
            "Write and rename only",
            "The folder's sync alone",
        ],
        [],
    ),
    (
        "bench_sound",
        [
            *(f"{lang} | {DEFAULT_RATES[lang]} |" for lang in ("en", "it", "fa")),  # rate heard
            *(f"{voice} | {lang} | 150 ->" for voice, lang in (("heart", "en"), ("it", "it"))),
            *(f"`{name}`" for name in AMBIENCES),
            *(f"espeak-ng ({lang})" for lang in ("en", "it", "fa")),
        ],
        [pytest.mark.audio],
    ),
    (
        "bench_voices",
        [f"{voice} | {lang} | 1 |" for voice, lang in (("heart", "en"), ("it", "it"), ("fa", "fa"))]
        + ["if_sara | it | 1 |"],
        [pytest.mark.audio],
    ),
    (
        "bench_first_word",
        [
            "paplay of a 0.3 s clip (baseline)",
            "python, numpy and sounddevice",
            *(
                f"narrator play, {cache}, {what}"
                for cache in (
                    "warm speech cache",
                    "cold speech cache (rulesets and bed kept)",
                    "empty cache (the first run ever)",
                )
                for what in ("bed on: the first tap", "no bed: the first word")
            ),
        ],
        SOUND_SERVER,
    ),
    (
        "bench_first_frame",
        ["a shell's printf (baseline)", "a Textual app of one Static", "narrator, real audio"],
        [*SOUND_SERVER, pytest.mark.slow, NO_TMUX],
    ),
    (
        "bench_italian",
        [
            "Render the night, cold",
            "Render the night, warm",
            "Memory while rendering cold",
            "Memory while rendering warm",
            "Memory while a cold night plays whole",
            "First audible sample, cold",
            "First audible sample, warm",
            "A cold night played whole",
        ],
        SOUND_SERVER,
    ),
    (
        "bench",
        [
            "First audible sample, engine ready",
            "First audible sample, new engine",
            "First spoken word",
            "Render the whole One Night night",
            "CPU while playing",
            "Memory while playing",
            "2 | ",  # lines against render time, warm and cold
            "4 | ",
            "1 | ",  # the soak's one night
        ],
        [*SOUND_SERVER, pytest.mark.slow, NO_TMUX, pytest.mark.timeout(600)],
    ),
]


def rows_missing(out: str, labels: list[str]) -> list[str]:
    """The labels with no Markdown row that starts with them and holds a figure."""
    rows = [line[2:] for line in out.splitlines() if line.startswith("| ")]
    return [
        label
        for label in labels
        if not any(row.startswith(label) and re.search(r"\d", row[len(label) :]) for row in rows)
    ]


def page_digest() -> str:
    return hashlib.sha256(PAGE.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("bench", "labels"),
    [pytest.param(name, labels, marks=marks, id=name) for name, labels, marks in BENCHES],
)
def test_every_bench_runs_in_its_smoke_mode(bench: str, labels: list[str]) -> None:
    before = page_digest()
    done = subprocess.run(
        [str(ROOT / "scripts" / bench), "--smoke"],
        capture_output=True,
        text=True,
        timeout=550,
    )
    assert done.returncode == 0, f"{bench} --smoke: exit {done.returncode}\n{done.stderr[-3000:]}"
    assert rows_missing(done.stdout, labels) == [], done.stdout
    assert page_digest() == before, f"{bench} --smoke wrote docs/PERFORMANCE.md"
    if bench not in ("bench_voices", "bench_first_word", "bench_first_frame"):
        assert LEFT_ALONE in done.stdout  # the benches that write the page, when run whole


def test_every_bench_is_smoke_tested() -> None:
    """A new `scripts/bench*` is added here, so it too keeps running."""
    assert sorted(p.name for p in (ROOT / "scripts").glob("bench*")) == sorted(
        name for name, _, _ in BENCHES
    )


def test_a_row_with_no_figure_is_missing() -> None:
    out = "| Join | - |\n| Vote | 3.1 ms |\nDeal 4 ms"
    assert rows_missing(out, ["Join", "Vote", "Deal"]) == ["Join", "Deal"]
