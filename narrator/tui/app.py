"""NarratorApp: wires the screens together; everything else is passed in.

The app receives its collaborators (engine, clock, settings store, catalog, audio
choices) so tests build it with a silent engine and a manual clock. It holds the
flow -- game, players and roles, preview, night, day, next night -- and nothing
of the game's rules or run state: those live in the headless `Session` (the game,
the settings, the phase being played), which another front end can drive too.
"""

from __future__ import annotations

import asyncio
import logging
import random
import signal
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType

from narrator.base.errors import NarratorError
from narrator.i18n import N_
from narrator.rules.index import GamesIndex
from narrator.session.config import Settings, SettingsStore, audio_settings
from narrator.tui import text
from narrator.tui.commands import NarratorCommands
from narrator.tui.pack_flow import VoicePackFlow
from narrator.tui.preparing import NightPreparer
from narrator.tui.screens.games import GamesScreen

if TYPE_CHECKING:
    from narrator.rules.catalog import Catalog
    from narrator.script import Script
    from narrator.session.clock import Clock
    from narrator.session.engine import AudioChoices, NightEngine
    from narrator.session.game import GameSetup
    from narrator.session.session import Session
    from narrator.tui.screens.game_options import GameChoices
    from narrator.tui.screens.preview import PreviewScreen
    from narrator.tui.screens.record import Studio
    from narrator.tui.screens.settings import SettingsScreen
    from narrator.tui.screens.table import TableFactory

# Every screen but the games list is imported when it is first shown: the first
# frame waits for none of them (the help's Markdown alone is ~30 ms; issue 18). Nor
# does it wait for the rules, the script or the session: given the kept games list
# (`narrator.rules.index`), the app reads the catalogue and builds its session just
# after that frame (~60 ms of imports and reading).

KEY_WORDS = (N_("space"), N_("tab"))

log = logging.getLogger(__name__)


class NarratorApp(VoicePackFlow):
    CSS_PATH = "app.tcss"
    TITLE = "narrator"
    SUB_TITLE = "calls the night"
    COMMANDS = App.COMMANDS | {NarratorCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", N_("Help")),
        Binding("f2", "settings", N_("Settings")),
        Binding("ctrl+t", "theme", N_("Theme")),
        Binding("q", "quit", N_("Quit")),
    ]

    def __init__(
        self,
        engine: NightEngine,
        store: SettingsStore,
        settings: Settings,
        catalog: Catalog | Callable[[], Catalog],
        clock: Clock,
        choices: AudioChoices,
        notice: str | None = None,
        rng: random.Random | None = None,
        tables: TableFactory | None = None,
        games: GamesIndex | None = None,
        studio: Studio | None = None,
    ) -> None:
        """`catalog`, or what reads it when first needed; `games`: the games list kept
        from the last run (`narrator.rules.index`), drawn before the catalogue is read;
        `studio`: the microphone for recording voice packs (None: no recording)."""
        super().__init__()
        self._session: Session | None = None  # built at its first need
        self._settings = settings  # until then
        self._catalog = catalog
        self.games = games
        self.engine = engine
        self.store = store
        self.clock = clock
        self.choices = choices
        self.notice = notice
        self.rng = rng or random.Random()
        # Table mode: built by the composition root's factory (None: not installed)
        self.tables = tables
        self.studio = studio
        self.audio_problem: str | None = None
        # Table mode: the interface to serve the phones on (None: the local network's).
        self.table_address: str | None = None
        self.table_port = 8765
        # `run_app` turns this on: SIGTERM and SIGHUP end the app the way q does, so
        # the terminal is given back (no alternate screen, no mouse, the cursor on).
        self.handle_signals = False
        # The chosen night's calls, made ahead while the table sets up.
        self.preparer = NightPreparer(engine, self._show_preparation)

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the app's language where they are words (space)."""
        shown = super().get_key_display(binding)
        return text.shape(text.t(shown)) if shown in KEY_WORDS else shown

    @property
    def session(self) -> Session:
        """The evening's session, built at its first need (just after the first frame)."""
        if self._session is None:
            from narrator.session.session import Session

            self._session = Session(self.engine, self.clock, self._settings, self.store)
        return self._session

    @property
    def catalog(self) -> Catalog:
        if callable(self._catalog):
            self._catalog = self._catalog()
        return self._catalog

    @property
    def settings(self) -> Settings:
        return self._settings if self._session is None else self._session.settings

    @property
    def game(self) -> GameSetup | None:
        return None if self._session is None else self._session.game

    def apply_language(self) -> None:
        """The app speaks the game's language, unless the settings fix one."""
        s = self.settings
        text.use(s.app_language, self.game.lang if self.game else s.language, s.bidi)
        self.set_class(text.rtl(), "-rtl")  # app.tcss right-aligns the text

    def on_mount(self) -> None:
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for number in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(number, self._signalled, number)
        self.theme = self.settings.theme
        self.engine.settings = audio_settings(self.settings)  # later changes: the session's
        self.apply_language()
        games = self.games or GamesIndex.of(self.catalog)
        self.push_screen(GamesScreen(games, self.settings.language))
        if self.notice:
            self.notify(self.notice, title=text.t("Settings"), severity="warning", timeout=15)
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        """What the first frame did not wait for: the session, the catalogue (the list
        redrawn if the kept one differs), and the output check -- the engine's first
        need (it may still be unbuilt, `compose.LateEngine`), and building it beside
        the frame slowed it."""
        self.session  # noqa: B018  (built now rather than at the first key)
        for screen in self.screen_stack:
            if isinstance(screen, GamesScreen):
                screen.show(GamesIndex.of(self.catalog))
        self.check_audio()

    def on_unmount(self) -> None:
        self._close()  # quitting mid-night silences the speaker at once

    def _close(self) -> None:
        self.preparer.cancel()
        if self._session is not None:
            self._session.close()
        else:
            self.engine.close()

    @work(thread=True, group="check")
    def check_audio(self) -> None:
        problem = self.engine.check_output()
        self.call_from_thread(self._audio_checked, problem)

    def _audio_checked(self, problem: str | None) -> None:
        self.audio_problem = problem
        if problem:
            self.notify(
                text.t("{problem}. You can still export nights to a sound file.").format(
                    problem=text.say_problem(problem)
                ),
                title=text.t("No sound"),
                severity="warning",
                timeout=15,
            )
        from narrator.tui.screens.preview import PreviewScreen

        for screen in self.screen_stack:
            if isinstance(screen, PreviewScreen):
                screen.set_audio_problem(problem)

    def _save(self, settings: Settings) -> None:
        problem = self.session.save_settings(settings)
        if problem:
            self.notify(problem, severity="error")

    # -- the flow --------------------------------------------------------------------
    def on_games_screen_game_chosen(self, message: GamesScreen.GameChosen) -> None:
        ruleset = self.catalog.rulesets.get(message.ruleset_id)
        if ruleset is None:  # gone since the kept list was drawn: the list is redrawn
            return
        game = self.session.new_game(ruleset)
        self.apply_language()
        from narrator.tui.screens.setup import SetupScreen

        self.push_screen(SetupScreen(game, self.rng))

    def on_games_screen_table_requested(self, message: GamesScreen.TableRequested) -> None:
        if self.tables is None:
            unavailable = text.t(
                "Table mode unavailable: its web server (aiohttp) is not installed; "
                "reinstall narrator with scripts/run"
            )
            self.notify(text.shape(unavailable), title="Table", severity="error", timeout=15)
            return
        ruleset = self.catalog.rulesets.get(message.ruleset_id)
        if ruleset is None:  # gone since the kept list was drawn: the list is redrawn
            return
        try:
            host, address = self.tables(ruleset, self.session, self.table_address)
        except (NarratorError, OSError) as exc:
            # a game in play saved, a folder we cannot write: one line, stay here,
            # and the details in the log
            log.warning("the Table mode cannot start", exc_info=True)
            self.notify(str(exc), title="Table", severity="error", timeout=15)
            return
        from narrator.tui.screens.table import TableScreen

        self.push_screen(TableScreen(host, address, self.table_port))

    def on_setup_screen_options_requested(self) -> None:
        from narrator.tui.screens.game_options import GameChoices, GameOptionsScreen
        from narrator.tui.screens.setup import SetupScreen

        game = self.game
        assert game is not None

        def chosen(choices: GameChoices | None) -> None:
            if choices is None or self.game is not game:
                return
            game.apply_choices(choices.boxes, choices.options)
            self._save(
                self.settings.with_game_choices(
                    game.ruleset.id, list(choices.boxes), choices.options
                )
            )
            if isinstance(self.screen, SetupScreen):
                self.screen.show()

        current = GameChoices(game.boxes, dict(game.options))
        self.push_screen(GameOptionsScreen(game.ruleset, current, game.lang), chosen)

    def on_setup_screen_preview_requested(self) -> None:
        assert self.game is not None
        wpm = self.engine.settings.rate_for(self.game.lang)
        from narrator.tui.screens.preview import PreviewScreen

        self.push_screen(PreviewScreen(self.game, wpm, self.audio_problem))

    # -- the night's calls, prepared while the table sets up (tui/preparing.py) -----
    def on_setup_screen_selection_changed(self) -> None:
        self.prepare_night()

    def on_preview_screen_night_changed(self) -> None:
        self.prepare_night()

    def prepare_night(self) -> None:
        game = self.game
        if game is not None and game.valid:
            self._prepare([game.script("night"), game.script("day")], self.engine.settings)

    @work(thread=True, exclusive=True, group="prepare")
    def _prepare(self, scripts: list[Script], settings: object) -> None:
        self.preparer.prepare(scripts, settings)

    def _show_preparation(self, line: str) -> None:  # from the preparation's threads
        def show() -> None:
            for screen in self.screen_stack:
                setter = getattr(screen, "set_voice_ready", None)
                if setter is not None:
                    setter(line)

        self.call_from_thread(show)

    def on_setup_screen_play_requested(self) -> None:
        self.start_night()

    def on_preview_screen_play_requested(self) -> None:
        self.start_night()

    def start_night(self) -> None:
        assert self.game is not None
        if self.audio_problem:
            problem = text.t("No sound: {problem}").format(problem=self.audio_problem)
            self.notify(problem, severity="error")
            self.on_preview_screen_export_requested()
            return
        from narrator.tui.screens.night import NightScreen

        self.tell_pack(self.game)
        runner = self.session.open_phase("night", start=False)
        self.push_screen(NightScreen(self.game, runner, autostart=True), self._night_over)

    def _night_over(self, result: str | None) -> None:
        from narrator.tui.screens.day import DayScreen

        if result == "finished" and self.game is not None:
            runner = self.session.open_phase("day", start=False)
            self.push_screen(DayScreen(self.game, runner, autostart=True))

    def on_day_screen_next_night_requested(self) -> None:
        assert self.game is not None
        self.game.next_night()
        self.pop_screen()
        self.start_night()

    def on_day_screen_new_game_requested(self) -> None:
        self.action_choose_game()

    def on_preview_screen_action_time_changed(
        self, message: PreviewScreen.ActionTimeChanged
    ) -> None:
        assert self.game is not None
        ruleset = self.game.ruleset.id
        self._save(self.settings.with_action_time(ruleset, message.role_id, message.seconds))

    def on_script_screen_export_requested(self) -> None:
        self.on_preview_screen_export_requested()

    def on_preview_screen_export_requested(self) -> None:
        game = self.game
        assert game is not None
        default = Path.home() / f"narrator-{game.ruleset.id}-night{game.night}.wav"

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.export(game, path)

        from narrator.tui.screens.export import ExportDialog

        self.push_screen(ExportDialog(default), chosen)

    @work(thread=True, exclusive=True, group="export")
    def export(self, game: GameSetup, path: Path) -> None:
        exporting = text.t("Exporting night {night} to {path} …")
        self.call_from_thread(self.notify, exporting.format(night=game.night, path=path))
        try:
            self.engine.export(game.script("night"), path)
        except Exception as exc:
            failed = text.t("Export failed: {error}").format(error=exc)
            self.call_from_thread(self.notify, failed, severity="error")
            return
        saved = text.t("Night {night} saved as {path}")
        self.call_from_thread(self.notify, saved.format(night=game.night, path=path))

    def on_settings_screen_test_sound_requested(
        self, message: SettingsScreen.TestSoundRequested
    ) -> None:
        self.test_sound(message.settings)

    @work(thread=True, exclusive=True, group="test-sound")
    def test_sound(self, settings: Settings | None = None) -> None:
        settings = settings or self.settings
        try:
            self.engine.settings = audio_settings(settings)
            # the sample call, with the chosen voice, rate and bed
            playback = self.engine.preview(settings.language)
            try:
                playback.wait(30)
                if playback.error:
                    raise RuntimeError(playback.error)
            finally:
                playback.close()
        except Exception as exc:
            failed = text.t("Test sound failed: {error}").format(error=exc)
            self.call_from_thread(self.notify, failed, severity="error")
        finally:
            self.engine.settings = audio_settings(self.settings)

    # -- actions everywhere ----------------------------------------------------------
    def action_help(self) -> None:
        from narrator.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_settings(self) -> None:
        def saved(settings: Settings | None) -> None:
            if settings is not None:
                self._save(settings)
                self.apply_language()
                self.notify(text.t("Settings saved."))
                self.prepare_night()  # another voice or rate: other calls

        from narrator.tui.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.settings, self.choices), saved)

    def action_theme(self) -> None:
        theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"
        self.theme = theme
        self._save(replace(self.settings, theme=theme))

    def action_choose_game(self) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()

    async def action_quit(self) -> None:
        self._shut_down(0)

    def _signalled(self, number: int) -> None:
        self._shut_down(128 + number)  # the shell's convention for "ended by a signal"

    def _shut_down(self, code: int) -> None:
        """Silence at once, end the speech worker, and leave (the screens' runners
        are the session's: closing it closes them)."""
        self._close()
        self.exit(code)
