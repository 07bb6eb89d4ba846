"""The shape the code keeps (STYLE.md, issue 24): no module of `narrator/` over 600
lines, and a module docstring in each, saying what it is and why.
"""

from __future__ import annotations

import ast
from pathlib import Path

import narrator

PACKAGE = Path(narrator.__file__).parent
MOST_LINES = 600


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_is_over_600_lines() -> None:
    modules = _modules()
    assert len(modules) > 100  # the walk found the package
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in modules
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}, f"split these modules by concern (at most {MOST_LINES} lines): {long}"


def test_every_module_says_what_it_is() -> None:
    bare = [
        str(p.relative_to(PACKAGE.parent))
        for p in _modules()
        if p.stat().st_size and ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) is None
    ]
    assert bare == []
