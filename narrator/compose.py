"""The composition root: where narrator's parts are built and wired together, for the
command line and the app alike.

Everything below takes its collaborators as arguments (the session its engine and
clock, the app its engine, settings store, catalogue and table factory, the table
server its table and voice). Only here are the real ones chosen: the audio engine or
the silent one, the user's settings with a command's overrides, the voice of a table,
and the table factory the app gets -- so the app never imports the table (nor the
web server under it), and starts, with "Table mode unavailable", without aiohttp.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from narrator.base.errors import MissingPart
from narrator.session.config import Settings, SettingsStore

if TYPE_CHECKING:
    from narrator.audio.booth import Booth
    from narrator.audio.prepare import Preparation
    from narrator.audio.settings import AudioSettings
    from narrator.rules import Ruleset
    from narrator.rules.catalog import Catalog
    from narrator.rules.index import GamesIndex
    from narrator.script import Script
    from narrator.script.model import Phase
    from narrator.session.engine import AudioChoices, NightEngine, Playing
    from narrator.session.session import Session
    from narrator.table.host import TableHost
    from narrator.table.service import TableVoice
    from narrator.table.state import Table
    from narrator.tui.app import NarratorApp
    from narrator.tui.screens.record import Studio
    from narrator.tui.screens.table import TableFactory


def machine_language(ruleset: Ruleset) -> str:
    """The language of this machine's locale if the game speaks it, else English."""
    from narrator.session.config import locale_language

    lang = locale_language()
    return lang if lang in ruleset.languages else "en"


def night_script(
    ruleset: Ruleset,
    *,
    players: int,
    roles: str | None,
    box: str | None,
    night: int,
    lang: str | None,
    phase: Phase,
    pace: float,
    wake_gap: float,
    options: Sequence[str],
    seed: int | None,
) -> Script:
    """The script a command asks for: `roles` as typed (`ID[:COUNT],...`; None: the
    recommended deck of `box`), `options` as typed (`NAME[=VALUE]`), `lang` None for this
    machine's. Random choices to make and no seed given: a fresh seed, shown in it."""
    from narrator.rules.selection import parse_options, parse_roles, recommended
    from narrator.script import Plan, build_script

    chosen = (
        parse_roles(roles, ruleset) if roles is not None else recommended(ruleset, players, box)[0]
    )
    plan = Plan(
        players=players,
        roles=chosen,
        night=night,
        lang=lang or machine_language(ruleset),
        phase=phase,
        pace=pace,
        wake_gap=wake_gap,
        options=parse_options(tuple(options), ruleset),
        seed=seed,
    )
    script = build_script(ruleset, plan)
    if script.choices and seed is None:
        script = build_script(ruleset, replace(plan, seed=secrets.randbelow(2**31)))
    return script


def audio_settings(
    *,
    voice: str | None,
    rate: int | None,
    bed: bool,
    ambience: str | None,
    device: str | int | None,
) -> AudioSettings:
    """The audio a command asks for (`ambience` None: the default bed; `device` an index
    or a name: the audio layer resolves both)."""
    from narrator.audio import AudioSettings

    settings = AudioSettings(voice=voice, rate=rate, bed=bed, device=device)
    return replace(settings, ambience=ambience) if ambience else settings


def user_settings(
    store: SettingsStore, *, lang: str | None = None, pace: float | None = None
) -> tuple[Settings, str | None]:
    """The user's settings (as the app plays them), with a command's overrides; and a
    problem with the settings file, if any (the defaults are used, the file kept)."""
    settings, problem = store.load()
    if lang is not None:
        settings = replace(settings, language=lang)
    if pace is not None:
        settings = replace(settings, pace=pace)
    return settings, problem


def audio_engine(settings: AudioSettings | None = None) -> NightEngine:
    """The real audio engine, its output checked: a missing sound device is one line."""
    from narrator.audio import AudioEngine
    from narrator.audio.settings import AudioSettings

    engine = AudioEngine(settings or AudioSettings())
    problem = engine.check_output()
    if problem is not None:
        engine.close()
        raise MissingPart(f"{problem} (or run the table silent with --no-audio)")
    return engine


def table_voice(settings: Settings, *, silent: bool) -> TableVoice:
    """The table's voice: a session of its own on the real engine, or the silent one."""
    from narrator.session.clock import SystemClock
    from narrator.session.config import audio_settings
    from narrator.session.session import Session
    from narrator.table.voice import SessionVoice, silent_voice

    if silent:
        return silent_voice(settings=settings)
    return SessionVoice(Session(audio_engine(audio_settings(settings)), SystemClock(), settings))


def command_table(
    ruleset: Ruleset,
    lang: str,
    game: Path | None,
    *,
    resume: bool,
    pace: float | None,
    silent: bool,
    warn: Any,
) -> tuple[Table, Path, TableVoice]:
    """`narrator table`: the table (new, or resumed), where it is saved, and its voice,
    playing the user's settings with --lang and --pace winning."""
    from narrator.table.run import open_table

    table, path = open_table(ruleset, lang, game, resume=resume)
    settings, problem = user_settings(SettingsStore(), lang=table.lang, pace=pace)
    if problem is not None:
        warn(f"narrator: {problem}")
    _at_users_pace(table, settings)
    return table, path, table_voice(settings, silent=silent)


def _at_users_pace(table: Table, settings: Settings) -> None:
    """The table's nights at the user's pace and pause after a wake call (not saved:
    a resumed table takes the settings of the evening it resumes in)."""
    table.pace, table.wake_gap = settings.pace, settings.wake_gap


def tables() -> TableFactory | None:
    """The app's table factory, or None when the web server is not installed."""
    try:
        if importlib.util.find_spec("aiohttp") is None:
            return None
    except (ImportError, ValueError):  # a broken install
        return None

    def table_host(
        ruleset: Ruleset, session: Session, address: str | None
    ) -> tuple[TableHost, str]:
        from narrator.table.host import TableHost
        from narrator.table.run import lan_address, open_table
        from narrator.table.voice import SessionVoice

        settings = session.settings
        lang = settings.language if settings.language in ruleset.languages else ruleset.languages[0]
        table, path = open_table(ruleset, lang, None, resume=False)
        _at_users_pace(table, settings)
        # One session per evening: the app's session (its engine, its settings) plays
        # the table's nights too, and outlives the table.
        voice = SessionVoice(session, own_engine=False)
        return TableHost(table, voice, save_path=path), address or lan_address() or "127.0.0.1"

    return table_host


def make_app(environ: Mapping[str, str] | None = None) -> NarratorApp:
    """The app with its real collaborators. `NARRATOR_AUDIO=fake` gives it the silent
    engine (no sound library loaded, no device touched): for the tmux tests, and for
    trying the app on a machine without speakers."""
    env = os.environ if environ is None else environ
    fake = env.get("NARRATOR_AUDIO", "").lower() == "fake"
    # The audio engine (numpy, PortAudio's start, the speech worker: ~110 ms) is built
    # on a thread while the app's screens are imported and the rulesets read -- or,
    # where it is safe, once the app has drawn its first frame: the app's first need
    # of it (the output check, just after that frame) starts it. Built beside the
    # frame, it cost the frame ~290 ms (the GIL). sounddevice points fd 2
    # at /dev/null while PortAudio starts (to hide ALSA's chatter), and Textual draws
    # on `sys.__stderr__`. The command line gives Textual a private copy of the
    # terminal (`route_native_messages`): then nothing PortAudio does to fd 2 can
    # swallow the app's output, and the engine may finish beside the running app.
    # Where Textual would draw on fd 2 itself, the thread is joined before the app
    # exists, or the app loses output (the alternate-screen switch among it).
    late = not fake and _draws_apart_from_fd2()
    audio = None if fake else AudioStart(lazy=late)
    try:
        from narrator.tui.app import NarratorApp

        store = SettingsStore()
        settings, notice = store.load()
        catalog, games = _catalog()
    except BaseException:
        if audio is not None:  # its speech worker must not outlive us
            with contextlib.suppress(Exception):
                audio.join().close()
        raise
    from narrator.session.clock import SystemClock

    clock = SystemClock()
    engine: NightEngine
    choices: AudioChoices
    if audio is None:
        from narrator.session.engine import NoChoices, SilentEngine

        engine, choices = SilentEngine(clock=clock), NoChoices()
    else:
        from narrator.tui.choices import RealChoices

        engine = LateEngine(audio) if late else audio.join()
        choices = RealChoices()
    return NarratorApp(
        engine,
        store,
        settings,
        catalog,
        clock,
        choices,
        notice,
        tables=tables(),
        games=games,
        studio=studio(fake=audio is None),
    )


# The lines the phones' table says whole, with no player's name in them
# (`narrator/table/announce.py`): a voice pack records them with the game's.
TABLE_SPOKEN = ("dealt", "no_victims", "vote_open", "accuse", "nobody_dies", "spared", "no_winners")


def table_lines(lang: str) -> tuple[str, ...]:
    """The table's whole lines in `lang` (none without the table installed)."""
    try:
        from narrator.table.lines import line
    except ImportError:
        return ()
    return tuple(line(key, lang) for key in TABLE_SPOKEN)


def studio(*, fake: bool) -> Studio:
    """The app's recording booth: the settings' microphone and output device; with
    `NARRATOR_AUDIO=fake`, a simulated one that touches no device."""
    from narrator.tui.screens.record import Studio

    def booth(device: str | None, microphone: str | None) -> Booth:
        from narrator.audio.booth import DeviceBooth, SimulatedBooth

        return SimulatedBooth() if fake else DeviceBooth(device=device, microphone=microphone)

    return Studio(booth=booth, table_lines=table_lines)


def _catalog() -> tuple[Catalog | Callable[[], Catalog], GamesIndex]:
    """The app's catalogue and its games list: the list kept from the last run, if
    the rulesets and the rules code are as they were, and the catalogue read when first
    needed (just after the first frame); else both read now."""
    from narrator.base.folders import catalog_folders
    from narrator.rules import index

    games = index.kept([folder for folder, _ in catalog_folders()])
    if games is not None:
        return _load_catalog, games
    catalog = _load_catalog()
    return catalog, index.GamesIndex.of(catalog)


def _load_catalog() -> Catalog:
    from narrator.rules.catalog import load_catalog

    return load_catalog()


def _draws_apart_from_fd2() -> bool:
    """Whether Textual's output (`sys.__stderr__`) is a descriptor other than 2."""
    stream = sys.__stderr__
    try:
        return stream is not None and stream.fileno() != 2
    except (OSError, ValueError):
        return False


class AudioStart:
    """The real audio engine, built on a thread: PortAudio loaded (checking the output
    loads it) and the speech worker started, so the first call is quick."""

    def __init__(
        self, build: Callable[[], NightEngine] | None = None, *, lazy: bool = False
    ) -> None:
        self._engine: NightEngine | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._build, args=(build or _started_engine,), name="narrator-audio-start"
        )
        self._begun = threading.Lock()
        if not lazy:
            self.begin()

    @property
    def begun(self) -> bool:
        return self._thread.ident is not None

    def begin(self) -> None:
        """Start building (once); a lazy start waits for this or for `join`."""
        with self._begun:
            if self._thread.ident is None:
                self._thread.start()

    def _build(self, build: Callable[[], NightEngine]) -> None:
        try:
            self._engine = build()
        except BaseException as exc:  # raised where the engine is first needed
            self._error = exc

    def join(self) -> NightEngine:
        self.begin()
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._engine is not None
        return self._engine


def _started_engine() -> NightEngine:
    from narrator.audio import AudioEngine
    from narrator.audio.settings import AudioSettings

    # The app sets the engine's real settings on mount (from the user's file).
    real = AudioEngine(AudioSettings())
    real.check_output()
    real.prewarm()
    return real


class LateEngine:
    """The real audio engine while its thread may still be building it (or not yet
    have started: a lazy `AudioStart` begins at the first need): the app's first
    frame does not wait for it. The settings given meanwhile are kept and handed
    over; whatever needs the engine (a check, a night, a line, an export) waits for
    it -- a fraction of a second after start, long before a hand reaches a key. An
    engine that could not be built is a sound problem the app reports, not a crash."""

    def __init__(self, start: AudioStart) -> None:
        self._start = start
        self._lock = threading.Lock()
        self._engine: NightEngine | None = None
        self._settings: AudioSettings | None = None

    def _real(self) -> NightEngine:
        with self._lock:
            if self._engine is None:
                engine = self._start.join()
                if self._settings is not None:
                    engine.settings = self._settings
                self._engine = engine
            return self._engine

    @property
    def settings(self) -> AudioSettings:
        with self._lock:
            if self._engine is not None:
                return self._engine.settings
            if self._settings is not None:
                return self._settings
        from narrator.audio.settings import AudioSettings

        return AudioSettings()  # what the engine is built with

    @settings.setter
    def settings(self, value: AudioSettings) -> None:
        with self._lock:
            if self._engine is not None:
                self._engine.settings = value
            else:
                self._settings = value

    def check_output(self) -> str | None:
        try:
            engine = self._real()
        except Exception as exc:
            return f"the sound could not start ({type(exc).__name__}: {exc})"
        return engine.check_output()

    def play(self, script: Script) -> Playing:
        return self._real().play(script)

    def speak(self, text: str, lang: str) -> Playing:
        return self._real().speak(text, lang)

    def preview(self, lang: str) -> Playing:
        return self._real().preview(lang)

    def export(self, script: Script, path: Path) -> None:
        self._real().export(script, path)

    def prepare(
        self, scripts: Sequence[Script], on_progress: Callable[[int, int], None] | None = None
    ) -> Preparation:
        """The night's calls made ahead (`AudioEngine.prepare`), once the engine is built."""
        from narrator.audio.engine import AudioEngine

        engine = self._real()
        assert isinstance(engine, AudioEngine)  # what AudioStart builds
        return engine.prepare(scripts, on_progress)

    def close(self) -> None:
        """Close the engine if it was begun (its speech worker must not outlive us);
        one never begun is never built just to be closed -- an app quit at once, or
        killed by its terminal, would spend its last ~0.3 s of CPU on it."""
        if not self._start.begun:
            return
        with contextlib.suppress(Exception):  # a build that failed: nothing to close
            self._real().close()


def run_app() -> int:
    """Run the app in the terminal; the exit status for `narrator` with no arguments."""
    app = make_app()
    app.handle_signals = True
    result = app.run()
    return result if isinstance(result, int) else 0
