"""The command palette (Ctrl+P): the actions people hunt for, by name."""

from __future__ import annotations

from collections.abc import Coroutine
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from narrator.i18n import N_
from narrator.tui.text import t

# (name, help, action, the screen method that must exist for it to be offered)
COMMANDS: tuple[tuple[str, str, str, str | None], ...] = (
    (N_("Help"), N_("Every key and what narrator does"), "app.help", None),
    (N_("Settings"), N_("Language, voice, pace, tapping, output device"), "app.settings", None),
    (
        N_("Toggle light/dark theme"),
        N_("Switch between the light and dark themes"),
        "app.theme",
        None,
    ),
    (N_("Choose another game"), N_("Back to the list of games"), "app.choose_game", None),
    (N_("Test sound"), N_("Say one line on the output device"), "app.test_sound", None),
    (
        N_("Recommended deck"),
        N_("Use the recommended roles for this many players"),
        "screen.recommend",
        "action_recommend",
    ),
    (N_("Random roles"), N_("A random deck within the rules"), "screen.random", "action_random"),
    (N_("Preview the night"), N_("The calls with their times"), "screen.preview", "action_preview"),
    (N_("Play the night"), N_("Start the night"), "screen.play", "action_play"),
    (
        N_("Export the night to a sound file"),
        N_("WAV, FLAC, OGG or MP3"),
        "screen.export",
        "action_export",
    ),
    (
        N_("Change language"),
        N_("Cycle the languages of this game"),
        "screen.language",
        "action_language",
    ),
    (
        N_("Next night"),
        N_("After the day: the next night"),
        "screen.next_night",
        "action_next_night",
    ),
    (
        N_("Table mode (phones)"),
        N_("Deal and vote on the players' phones"),
        "screen.table",
        "action_table",
    ),
    (
        N_("Voice packs"),
        N_("Your recorded voices: use, export, import"),
        "app.voice_packs",
        None,
    ),
    (
        N_("Record a voice"),
        N_("Read this game's lines into a voice pack"),
        "screen.record_voice",
        "action_record_voice",
    ),
    (N_("Quit"), N_("Stop the sound and leave"), "app.quit", None),
)


class NarratorCommands(Provider):
    def _runner(self, action: str) -> partial[Coroutine[Any, Any, bool]]:
        # The palette is on top when a command runs: aim screen actions at the screen
        # it was opened from.
        if action.startswith("screen."):
            return partial(self.app.run_action, action.removeprefix("screen."), self.screen)
        return partial(self.app.run_action, action)

    def _available(self) -> list[tuple[str, str, str]]:
        out = []
        for name, help_text, action, needs in COMMANDS:
            if needs is not None and not hasattr(self.screen, needs):
                continue
            out.append((t(name), t(help_text), action))
        return out

    async def discover(self) -> Hits:
        for name, help_text, action in self._available():
            yield DiscoveryHit(name, self._runner(action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, action in self._available():
            score = matcher.match(name)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(name),
                    self._runner(action),
                    help=help_text,
                )
