"""Every file the README and docs/ name exists: a doc that points at a moved or
removed file is false (a bench's page once sent readers to tests/audio/sound.py
long after it moved to tests/support).

A path is a word with a slash that starts at a top folder of the repository
(`narrator/`, `tests/`, `scripts/` ...) or ends in a file's extension. The docs
name files from the repository's root, from `narrator/` (`table/state.py`) or from
inside one package (`screens/record.py`, `static/common.js`), and a module's class
as `tests/support/clock.ManualClock`: each of those counts. A word in capitals is a
placeholder (`rulesets/lexicon/LANG.yaml`).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TOP = r"\.ci|narrator|tests|scripts|docs|rulesets|audio"
EXTENSIONS = r"py|md|yaml|yml|json|js|css|html|toml|txt|wav|flac|ogg|png|onnx"
PATH = re.compile(
    rf"(?<![\w./~:-])((?:{TOP})/[\w./*-]*[\w*]|(?:[\w.-]+/)+[\w.*-]+\.(?:{EXTENSIONS})\b)"
)
# Outside the repository, named on purpose: the project's shared notes beside it
# (../shared), an installed package's source, the saved game in the user's state folder.
OUTSIDE = ("shared/", "hibari/", "narrator/table/RULESET.json")
PACKAGES = sorted(p for p in (ROOT / "narrator").iterdir() if p.is_dir())


def exists(path: str, doc: Path = ROOT / "README.md") -> bool:
    """Whether `path`, as `doc` names it, is a file or folder of the repository."""
    pattern = re.sub(r"\b[A-Z][A-Z_]+\b", "*", path.rstrip("."))
    module = re.sub(r"\.[A-Z]\w*$", ".py", pattern)  # a module's class
    bases = [ROOT, doc.parent, ROOT / "narrator", *PACKAGES]  # doc.parent: its images
    return any(next(base.glob(p), None) is not None for base in bases for p in {pattern, module})


def test_every_path_the_docs_name_exists() -> None:
    missing = [
        f"{doc.relative_to(ROOT)}:{n}: {path}"
        for doc in DOCS
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for path in PATH.findall(line)
        if not path.startswith(OUTSIDE) and not exists(path, doc)
    ]
    assert missing == []


def test_the_check_finds_paths_and_misses() -> None:
    """The pattern sees the ways the docs name files, and a wrong one fails."""
    line = "`narrator/table/state.py:372`, (`screens/record.py`), tests/support/sound.py."
    assert PATH.findall(line) == [
        "narrator/table/state.py",
        "screens/record.py",
        "tests/support/sound.py",
    ]
    assert exists("tests/support/clock.ManualClock")
    assert exists("rulesets/lexicon/LANG.yaml")
    assert exists("table/join.png", ROOT / "docs" / "TABLE.md")
    assert not exists("table/join.png")
    assert not exists("tests/audio/sound.py")
    assert not exists("tests/session/clock.ManualClock")
    assert not exists("scripts/bench_nothing")
