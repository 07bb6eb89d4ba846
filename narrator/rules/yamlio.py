"""YAML as the rules read it: every mapping knows its lines (`Located`), and
`read_yaml` parses a file with the guards of `yamlparse.py` -- imported there, on
the first parse, so a run whose rulesets are kept (`rules/parsed.py`) never loads
PyYAML (~12 ms of every start).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class Located(dict[str, Any]):
    """A YAML mapping that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


def read_yaml(text: str, path: Path | str) -> Any:
    """Parse `text`; any YAML error becomes a RulesetError naming `path` and the line."""
    from narrator.rules.yamlparse import parse

    return parse(text, path)
