"""The app's voice packs, without Textual: what to record, and what a night lacks.

The app's workers call these (each reads or writes the user's data folder): the
`Recording` a "Record a voice" opens -- the game's every line in the chosen
language, the deck's first, then the phones' table's own whole lines -- and the
notice the app shows before a night plays with a pack: how many of the night's and
the day's lines the default voice will say for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from narrator.script.lines import deck_lines, every_line, spoken
from narrator.tui.text import t

if TYPE_CHECKING:
    from narrator.audio.recording import Recording
    from narrator.script import Script
    from narrator.session.game import GameSetup
    from narrator.tui.screens.new_pack import PackChoice


def open_recording(
    game: GameSetup, choice: PackChoice, table_lines: Callable[[str], tuple[str, ...]]
) -> Recording:
    """The pack `choice` names for `game` (made, or found to go on with), and the lines
    to record: the deck's, every other line of the game, the table's. PackError,
    SelectionError or OSError with one line when it cannot be."""
    from narrator.audio.recording import Recording
    from narrator.audio.voicepack import open_pack

    plan = replace(game.plan("night"), lang=choice.language)
    deck = deck_lines(game.ruleset, plan)
    lines = dict.fromkeys([*every_line(game.ruleset, plan), *table_lines(choice.language)])
    folder, manifest = open_pack(
        choice.name,
        game.ruleset.id,
        choice.language,
        recorded_by=choice.recorded_by,
        licence=choice.licence,
    )
    return Recording(folder, manifest, tuple(lines), deck=len(deck))


def pack_notice(voice: str | None, scripts: Iterable[Script], lang: str) -> str | None:
    """With a voice pack as the voice: how many of the lines `scripts` say it recorded,
    and how many the default voice says for it (in the app's language). None for
    any other voice."""
    from narrator.audio.voicepack import PackError, coverage, find_pack, pack_of

    pack = pack_of(voice)
    if pack is None:
        return None
    try:
        _, manifest = find_pack(pack)
    except PackError as exc:
        return str(exc)
    texts = list(dict.fromkeys(text for script in scripts for text in spoken(script.steps)))
    ours, total = coverage(manifest, texts, lang)
    if ours == total:
        return t("Voice pack {name}: all {total} lines of tonight recorded.").format(
            name=manifest.name, total=total
        )
    return t(
        "Voice pack {name}: {ours} of {total} lines of tonight recorded; "
        "the default voice says the other {rest}."
    ).format(name=manifest.name, ours=ours, total=total, rest=total - ours)
