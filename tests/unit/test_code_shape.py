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


def test_no_two_classes_share_a_name() -> None:
    """One name per thing (issue 24): a class name says which thing it is anywhere in
    the code (private classes, `_Name`, are their module's own)."""
    defined: dict[str, list[str]] = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                defined.setdefault(node.name, []).append(str(path.relative_to(PACKAGE.parent)))
    assert len(defined) > 100
    twice = {name: where for name, where in defined.items() if len(where) > 1}
    assert twice == {}
