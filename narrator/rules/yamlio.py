"""Read YAML with a line number for every mapping and key, refusing duplicate keys.

PyYAML's safe loader forgets where things came from and silently keeps the last of
two equal keys; a ruleset author needs both: "onuw.yaml:42: unknown key 'acton_time'"
is only possible if the loader remembers line 42.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode

from narrator.rules.errors import RulesetError


class Located(dict[str, Any]):
    """A YAML mapping that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _Loader, node: MappingNode) -> Located:
    loader.flatten_mapping(node)
    out = Located()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            key = str(key)
        line = key_node.start_mark.line + 1
        if key in out:
            raise RulesetError(
                f"key '{key}' appears twice in one mapping (first on line "
                f"{out.key_lines[key]}); keep one",
                None,
                line,
            )
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = line
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(text: str, path: Path | str) -> Any:
    """Parse `text`; any YAML error becomes a RulesetError naming `path` and the line."""
    try:
        return yaml.load(text, Loader=_Loader)
    except RulesetError as exc:
        raise RulesetError(exc.message, path, exc.line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "cannot be read"
        raise RulesetError(f"not valid YAML: {problem}", path, line) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise RulesetError(
            f"the character {chr(exc.character)!r} cannot appear in YAML; remove it", path, line
        ) from None
    except yaml.YAMLError as exc:
        raise RulesetError(f"not valid YAML: {' '.join(str(exc).split())}", path) from None
