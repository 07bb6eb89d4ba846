"""The YAML reader behind `yamlio.read_yaml` (imported only when a file is parsed:
a ruleset kept from an earlier read needs no YAML, `rules/parsed.py`).

Read YAML with a line number for every mapping and key, refusing duplicate keys.

PyYAML's safe loader forgets where things came from and silently keeps the last of
two equal keys; a ruleset author needs both: "onuw.yaml:42: unknown key 'acton_time'"
is only possible if the loader remembers line 42.

It also refuses what no ruleset needs and a hostile file uses: nesting deeper than
`MAX_DEPTH` (PyYAML composes recursively: 1,000 levels is a RecursionError) and
more than `MAX_NODES` values, and aliases that expand to more than `MAX_VALUES`
values (a "billion laughs" bomb is tiny as a tree but endless to walk, print or
copy). All three are measured while the document is composed, before anything is
built from it.

The text is scanned and parsed by libyaml where PyYAML has it (its C parser's
events, with their marks), and composed and built here in Python, so the checks
above see every node: One Night's 1,400 lines read in ~20 ms instead of ~90.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from narrator.rules.errors import RulesetError
from narrator.rules.yamlio import Located

MAX_DEPTH = 32  # the shipped rulesets nest 7 deep
MAX_NODES = 20_000  # values written in the file; the shipped ones hold < 1,000
MAX_VALUES = 100_000  # values after expanding aliases


class _Guarded(Composer, SafeConstructor):
    """The composing and building of a safe loader, with the limits and line numbers
    above; the parser below it is PyYAML's (pure Python) or libyaml's."""

    def _start(self) -> None:
        self._depth = 0
        self._nodes = 0  # values composed so far, aliases not expanded
        self._sizes: dict[int, int] = {}  # id(node) -> values under it, aliases expanded

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()  # type: ignore[attr-defined]  # the parser's
        line = event.start_mark.line + 1
        if self._depth >= MAX_DEPTH:
            raise RulesetError(
                f"nested more than {MAX_DEPTH} levels deep; a ruleset never needs that many",
                None,
                line,
            )
        if not isinstance(event, AliasEvent):
            self._nodes += 1
            if self._nodes > MAX_NODES:
                # Stop early: PyYAML is pure Python here, a million values take minutes.
                raise RulesetError(
                    f"the file holds more than {MAX_NODES:,} values; a ruleset needs far fewer",
                    None,
                    line,
                )
        self._depth += 1
        try:
            node = Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1
        if isinstance(event, AliasEvent):
            if id(node) not in self._sizes:
                raise RulesetError(
                    f"the alias '*{event.anchor}' is inside the value it names; "
                    "a value cannot contain itself",
                    None,
                    line,
                )
            return node
        size = 1
        if isinstance(node, SequenceNode):
            size += sum(self._sizes[id(item)] for item in node.value)
        elif isinstance(node, MappingNode):
            size += sum(self._sizes[id(k)] + self._sizes[id(v)] for k, v in node.value)
        if size > MAX_VALUES:
            raise RulesetError(
                f"the aliases (*name) here expand to more than {MAX_VALUES:,} values; "
                "write the values out instead",
                None,
                line,
            )
        self._sizes[id(node)] = size
        return node

    def construct_yaml_int(self, node: ScalarNode) -> int:
        try:
            return SafeConstructor.construct_yaml_int(self, node)
        except ValueError:  # Python refuses to parse ints of over 4,300 digits
            raise RulesetError(
                "this number has too many digits; write a smaller one",
                None,
                node.start_mark.line + 1,
            ) from None


def _construct_mapping(loader: _Guarded, node: MappingNode) -> Located:
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


class _PyLoader(_Guarded, yaml.SafeLoader):
    def __init__(self, stream: str) -> None:
        yaml.SafeLoader.__init__(self, stream)
        self._start()


_CParser = getattr(getattr(yaml, "_yaml", None), "CParser", None)
_Loader: Any = _PyLoader  # libyaml's parser where PyYAML was built with it
if _CParser is not None:

    class _CLoader(_Guarded, _CParser, Resolver):  # type: ignore[misc,valid-type]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)  # type: ignore[misc]
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            Composer.__init__(self)
            self._start()

    _Loader = _CLoader

_loader: Any
for _loader in (_PyLoader, _Loader):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _loader.add_constructor("tag:yaml.org,2002:int", _Guarded.construct_yaml_int)


def parse(text: str, path: Path | str) -> Any:
    """Parse `text`; any YAML error becomes a RulesetError naming `path` and the line."""
    try:
        try:
            return yaml.load(text, Loader=_Loader)
        except yaml.YAMLError:
            if _Loader is _PyLoader:
                raise
            # A broken file is read again by PyYAML's own parser, whose messages (and
            # nesting limit, ours) are the ones a ruleset author is told.
            return yaml.load(text, Loader=_PyLoader)
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
