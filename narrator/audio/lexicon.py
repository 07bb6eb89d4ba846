"""Pronunciation: per-language respellings applied to a line before it is spoken.

The lexicons live beside the rulesets (`rulesets/lexicon/<lang>.yaml`: `word:
respelling`), so whoever writes a ruleset's lines can fix how they sound. A
respelling is written in the language's own spelling (not in phonemes), so it
works for every engine that reads that language. Whole words only, any case;
the longest word wins where two overlap. Only the speech changes: the screen
and the script keep the original text.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from narrator.base.folders import shipped_dir


def lexicon_dir() -> Path:
    return shipped_dir() / "lexicon"


@functools.cache
def load_lexicon(lang: str, folder: Path | None = None) -> dict[str, str]:
    """The respellings of `lang` ("it", "fa"...); empty when it has none. A broken
    file raises ValueError naming it (it ships with narrator: a test loads them all)."""
    path = (folder or lexicon_dir()) / f"{lang.split('-')[0]}.yaml"
    if not path.exists():
        return {}
    import yaml  # here: a language without a lexicon never loads PyYAML

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and k.strip() and v.strip()
        for k, v in data.items()
    ):
        raise ValueError(f"{path}: expected lines of `word: respelling`")
    return {str(k): str(v) for k, v in data.items()}


@functools.cache
def _pattern(lang: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    lexicon = load_lexicon(lang)
    if not lexicon:
        return None
    words = sorted(lexicon, key=len, reverse=True)
    alternatives = "|".join(re.escape(w) for w in words)
    pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return pattern, {w.casefold(): r for w, r in lexicon.items()}


def respell(text: str, lang: str) -> str:
    """`text` as the speech engine should read it in `lang`."""
    found = _pattern(lang)
    if found is None:
        return text
    pattern, table = found
    return pattern.sub(lambda m: table[m.group(0).casefold()], text)
