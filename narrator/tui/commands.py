"""The command palette (Ctrl+P): the actions people hunt for, by name."""

from __future__ import annotations

from collections.abc import Coroutine
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

# (name, help, action, the screen method that must exist for it to be offered)
COMMANDS: tuple[tuple[str, str, str, str | None], ...] = (
    ("Help", "Every key and what narrator does", "app.help", None),
    ("Settings", "Language, voice, pace, tapping, output device", "app.settings", None),
    ("Toggle light/dark theme", "Switch between the light and dark themes", "app.theme", None),
    ("Choose another game", "Back to the list of games", "app.choose_game", None),
    ("Test sound", "Say one line on the output device", "app.test_sound", None),
    (
        "Recommended deck",
        "Use the recommended roles for this many players",
        "screen.recommend",
        "action_recommend",
    ),
    ("Random roles", "A random deck within the rules", "screen.random", "action_random"),
    ("Preview the night", "The calls with their times", "screen.preview", "action_preview"),
    ("Play the night", "Start the night", "screen.play", "action_play"),
    ("Export the night to a sound file", "WAV, FLAC, OGG or MP3", "screen.export", "action_export"),
    ("Change language", "Cycle the languages of this game", "screen.language", "action_language"),
    ("Next night", "After the day: the next night", "screen.next_night", "action_next_night"),
    ("Table mode (phones)", "Deal and vote on the players' phones", "screen.table", "action_table"),
    ("Quit", "Stop the sound and leave", "app.quit", None),
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
            out.append((name, help_text, action))
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
