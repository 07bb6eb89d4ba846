"""The app's voice packs: record one, list, use and share them, and tell before a
night how much of it a pack says.

A part of `NarratorApp` (it inherits this), kept apart so the app's flow stays short:
the handlers push the screens and run the workers; what is recorded and kept is
`narrator.audio`'s, what to record and the night's notice `narrator.tui.packs`'.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.app import App

from narrator.base.errors import NarratorError
from narrator.tui import text

if TYPE_CHECKING:
    from narrator.session.config import Settings
    from narrator.session.game import GameSetup
    from narrator.tui.screens.new_pack import PackChoice
    from narrator.tui.screens.packs import VoicePacksScreen
    from narrator.tui.screens.record import Studio


class VoicePackFlow(App[int]):
    """What `NarratorApp` gives it: its studio, settings, game and a way to save."""

    studio: Studio | None = None

    @property
    def settings(self) -> Settings:
        raise NotImplementedError

    @property
    def game(self) -> GameSetup | None:
        raise NotImplementedError

    def _save(self, settings: Settings) -> None:
        raise NotImplementedError

    @work(thread=True, exclusive=True, group="pack-notice")
    def tell_pack(self, game: GameSetup) -> None:
        """With a voice pack as the voice: how many lines it lacks, as the night starts."""
        from narrator.tui.packs import pack_notice

        voice = self.settings.voice
        notice = pack_notice(voice, (game.script("night"), game.script("day")), game.lang)
        if notice:
            self.call_from_thread(self.notify, text.shape(notice), title=voice, timeout=10)

    def on_setup_screen_record_requested(self) -> None:
        from narrator.tui.screens.new_pack import NewPackDialog

        game = self.game
        assert game is not None
        if self.studio is None:
            self.notify(text.t("Recording is not available here."), severity="error")
            return

        def chosen(choice: PackChoice | None) -> None:
            if choice is not None:
                self.open_recording(game, choice)

        languages = game.ruleset.languages
        self.push_screen(NewPackDialog(game.title, languages, game.lang), chosen)

    @work(thread=True, exclusive=True, group="pack")
    def open_recording(self, game: GameSetup, choice: PackChoice) -> None:
        from narrator.tui.packs import open_recording
        from narrator.tui.screens.record import RecordScreen

        assert self.studio is not None
        try:
            recording = open_recording(game, choice, self.studio.table_lines)
        except (NarratorError, OSError) as exc:
            self.call_from_thread(self.notify, str(exc), severity="error", timeout=15)
            return
        booth = self.studio.booth(self.settings.device, self.settings.microphone)
        title = text.t("Record a voice · {name} · {game}").format(
            name=recording.manifest.name, game=game.ruleset.name.get(choice.language)
        )
        screen = RecordScreen(recording, booth, choice.language, title)
        self.call_from_thread(self.push_screen, screen)

    def action_voice_packs(self) -> None:
        from narrator.tui.screens.packs import VoicePacksScreen

        if not isinstance(self.screen, VoicePacksScreen):
            self.push_screen(VoicePacksScreen(self.settings.voice))

    def on_voice_packs_screen_use_requested(self, message: VoicePacksScreen.UseRequested) -> None:
        self._save(replace(self.settings, voice=message.voice))
        self.notify(text.t("Settings saved."))

    def on_voice_packs_screen_deleted(self, message: VoicePacksScreen.Deleted) -> None:
        if self.settings.voice == message.voice:  # the voice is gone: the default speaks
            self._save(replace(self.settings, voice=None))
            self.notify(text.t("The voice is now the language's default."))
