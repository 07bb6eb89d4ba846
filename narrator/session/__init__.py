"""The headless session core: one evening's game state and run logic, no front end.

Any front end -- the Textual app (`narrator.tui`), the players' phones (a web
page) -- drives the same objects. Nothing here imports Textual, and the audio
layer only through Protocols (`NightEngine`, `Playing`): the real
`narrator.audio.AudioEngine` satisfies them, and so does `SilentEngine`, which
passes the same contract tests.

The API, in short:

    session = Session(engine, clock, settings, store)   # one per evening
    unsubscribe = session.subscribe(listener)           # every PhaseEvent, any phase
    game = session.new_game(ruleset)                    # players, roles, language...
    runner = session.open_phase("night")                # a PhaseRunner, started
    runner.toggle() / pause() / resume() / skip()       # commands: any thread, return
    runner.go_on() / adjust(+30) / stop() / retry()     #   at once, never block on audio
    runner.state()                                      # PhaseState snapshot, any time
    session.next_night(); session.close()

`PhaseState` is plain data (`to_dict()` for JSON): phase, night, status
("ready", "running", "paused", "failed", "finished", "stopped"), segment and kind
(speech, timer, wait), the step being heard, the countdown, elapsed and total
seconds, and the error when failed. `PhaseEvent(kind, state, text)` reports each
change -- "started", "segment", "step", "paused", "resumed", "adjusted",
"warning", "failed", "retried", "finished", "stopped", "notice" -- to listeners,
one at a time and in order, from the runner's own thread: a Textual app posts
them with `call_from_thread`, an asyncio server with
`loop.call_soon_threadsafe(queue.put_nowait, event)`.

A phase that cannot play stays `failed` with its one-line `error` until the
front end calls `retry()` or `stop()`; it never moves on by itself.

Also here: `GameSetup` (the game being set up), `Settings`/`SettingsStore` (the user's
settings file), the segments of a script and the day's `RunningTimer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.base.lazy import lazy_exports

if TYPE_CHECKING:
    from narrator.session.clock import Clock as Clock
    from narrator.session.clock import SystemClock as SystemClock
    from narrator.session.config import Settings as Settings
    from narrator.session.config import SettingsError as SettingsError
    from narrator.session.config import SettingsStore as SettingsStore
    from narrator.session.config import audio_settings as audio_settings
    from narrator.session.engine import AudioChoices as AudioChoices
    from narrator.session.engine import NightEngine as NightEngine
    from narrator.session.engine import NoChoices as NoChoices
    from narrator.session.engine import Playing as Playing
    from narrator.session.engine import SilentEngine as SilentEngine
    from narrator.session.engine import SilentPlayback as SilentPlayback
    from narrator.session.events import PhaseEvent as PhaseEvent
    from narrator.session.events import PhaseState as PhaseState
    from narrator.session.events import PhaseStatus as PhaseStatus
    from narrator.session.game import GameSetup as GameSetup
    from narrator.session.phase import PhaseRunner as PhaseRunner
    from narrator.session.session import Session as Session

# Loaded when first asked for, like `narrator.rules`: the app's first frame
# needs the settings, not the game, the phase runner or the script under them.
__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "clock": ("Clock", "SystemClock"),
        "config": ("Settings", "SettingsError", "SettingsStore", "audio_settings"),
        "engine": (
            "AudioChoices",
            "NightEngine",
            "NoChoices",
            "Playing",
            "SilentEngine",
            "SilentPlayback",
        ),
        "game": ("GameSetup",),
        "events": ("PhaseEvent", "PhaseState", "PhaseStatus"),
        "phase": ("PhaseRunner",),
        "session": ("Session",),
    },
)
