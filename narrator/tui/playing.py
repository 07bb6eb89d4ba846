"""ScriptScreen: the part the night and the day share -- playing a script.

Speech goes to the engine in a thread worker (`@work(thread=True, exclusive=True)`)
that polls the playback and posts messages back, so the screen answers every key at
once even while the engine is still synthesising. Timers run on the app's `Clock`
in a 10 Hz tick; waits last until the user goes on. The subclasses only lay out
the screen and decide what comes after the script.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer as IntervalTimer
from textual.worker import get_current_worker

from narrator.script import Say, Script, Timer
from narrator.script.render_text import estimate_seconds
from narrator.session.engine import Clock, NightEngine, Playing
from narrator.session.game import Game
from narrator.session.segments import Countdown, Segment, segments
from narrator.tui.screens.confirm import ConfirmDialog


class ScriptScreen(Screen[str]):
    """Plays `script` segment by segment; dismisses "finished" or "stopped"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "start_pause", "Start/Pause"),
        Binding("s", "skip", "Skip"),
        Binding("escape", "stop", "Stop"),
    ]

    class StepReached(Message):
        """The playback reached step `index` of the segment being played."""

        def __init__(self, generation: int, index: int) -> None:
            super().__init__()
            self.generation = generation
            self.index = index

    class SegmentEnded(Message):
        """The segment's speech was heard to the end (or failed with `error`)."""

        def __init__(self, generation: int, error: str | None) -> None:
            super().__init__()
            self.generation = generation
            self.error = error

    def __init__(self, game: Game, engine: NightEngine, clock: Clock, autostart: bool) -> None:
        super().__init__()
        self.game = game
        self.engine = engine
        self.clock = clock
        self.autostart = autostart
        self.script = self.build_script()
        self.segments = segments(self.script)
        self.lengths = [sum(estimate_seconds(s) for s in seg.steps) for seg in self.segments]
        self.seg_index = -1  # -1: not started; len(segments): done
        self.step_index: int | None = None
        self.playback: Playing | None = None
        self.countdown: Countdown | None = None
        self.paused = False
        self.generation = 0
        self._tick: IntervalTimer | None = None
        self._finish_pending = False

    # -- for subclasses -------------------------------------------------------------
    def build_script(self) -> Script:
        raise NotImplementedError

    def refresh_view(self) -> None:
        """Show the current step, the progress and the times."""

    def script_finished(self) -> None:
        if self.app.screen is self:
            self.dismiss("finished")
        else:  # a dialog (help, settings, "stop?") is open: go on when it closes
            self._finish_pending = True

    def on_screen_resume(self) -> None:
        if self._finish_pending:
            self._finish_pending = False
            self.dismiss("finished")

    # -- state -----------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.seg_index >= 0

    @property
    def done(self) -> bool:
        return self.seg_index >= len(self.segments)

    @property
    def segment(self) -> Segment | None:
        if 0 <= self.seg_index < len(self.segments):
            return self.segments[self.seg_index]
        return None

    def elapsed(self) -> float:
        before = sum(self.lengths[: max(0, self.seg_index)])
        if self.countdown is not None:
            return before + self.countdown.elapsed(self.clock.now())
        if self.playback is not None and self.segment is not None:
            return before + min(self.playback.position, self.lengths[self.seg_index])
        return min(before, self.total())

    def total(self) -> float:
        return sum(self.lengths)

    # -- lifecycle -------------------------------------------------------------------
    def on_mount(self) -> None:
        self._tick = self.set_interval(0.1, self.tick)
        self.refresh_view()
        if self.autostart:
            self.begin()

    def on_unmount(self) -> None:
        self.halt()

    def begin(self) -> None:
        if not self.started:
            self.seg_index = -1
            self.next_segment()

    def next_segment(self) -> None:
        self.generation += 1
        self.countdown = None
        self.playback = None
        self.seg_index += 1
        segment = self.segment
        if segment is None:
            self.refresh_view()
            self.refresh_bindings()
            self.script_finished()
            return
        self.step_index = segment.start
        if segment.kind == "speech":
            self.play(self.generation, segment.script(self.script))
        elif segment.kind == "timer":
            step = segment.steps[0]
            assert isinstance(step, Timer)
            self.countdown = Countdown(step.seconds, step.warnings, self.clock.now())
            if self.paused:
                self.countdown.pause(self.clock.now())
        self.refresh_view()
        self.refresh_bindings()

    def halt(self) -> None:
        """Silence at once: stop the playback and forget the worker's messages."""
        self.generation += 1
        if self.playback is not None:
            self.playback.stop()
        self.workers.cancel_group(self, "play")

    # -- the worker ------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="play")
    def play(self, generation: int, script: Script) -> None:
        worker = get_current_worker()
        try:
            playback = self.engine.play(script)
        except Exception as exc:  # AudioUnavailable, a speech error: shown, not raised
            self.post_message(self.SegmentEnded(generation, str(exc) or type(exc).__name__))
            return
        if generation != self.generation or worker.is_cancelled:
            playback.stop()
            return
        self.playback = playback
        if self.paused:
            playback.pause()
        last: int | None = None
        while not playback.wait(0.05):
            if worker.is_cancelled:
                playback.stop()
                return
            index = playback.current_step
            if index is not None and index != last:
                last = index
                self.post_message(self.StepReached(generation, index))
        self.post_message(self.SegmentEnded(generation, playback.error))

    @work(thread=True, group="warn")
    def speak(self, text: str) -> None:
        try:
            self.engine.speak(text, self.script.lang)
        except Exception as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")

    def on_script_screen_step_reached(self, message: StepReached) -> None:
        segment = self.segment
        if message.generation == self.generation and segment is not None:
            self.step_index = segment.start + min(message.index, len(segment.steps) - 1)
            self.refresh_view()

    def on_script_screen_segment_ended(self, message: SegmentEnded) -> None:
        if message.generation != self.generation:
            return
        if message.error:
            self.notify(message.error, title="Sound", severity="error", timeout=8)
        if self.playback is not None and self.playback.duration is not None:
            self.lengths[self.seg_index] = self.playback.duration
        self.next_segment()

    def tick(self) -> None:
        now = self.clock.now()
        playback = self.playback
        if playback is not None and playback.duration is not None and self.segment is not None:
            self.lengths[self.seg_index] = playback.duration
        countdown = self.countdown
        if countdown is not None and not self.paused:
            for warning in countdown.due(now):
                self.speak(warning.text)
            if countdown.done(now):
                self.finish_timer(spoken_end=True)
                return
        self.refresh_view()

    def finish_timer(self, spoken_end: bool) -> None:
        segment = self.segment
        assert segment is not None and self.countdown is not None
        step = segment.steps[0]
        self.lengths[self.seg_index] = self.countdown.length
        self.countdown = None
        if spoken_end and isinstance(step, Timer) and step.end:
            # "Time is up" is heard before the next call starts, never over it.
            self.generation += 1
            self.play(self.generation, replace(self.script, steps=(Say(step.end, step.role),)))
            self.refresh_view()
        else:
            self.next_segment()

    # -- actions ---------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "skip":
            return self.started and not self.done
        if action == "start_pause":
            return not self.done
        return True

    def action_start_pause(self) -> None:
        if not self.started:
            self.begin()
            return
        segment = self.segment
        if segment is not None and segment.kind == "wait" and not self.paused:
            self.next_segment()
            return
        self.paused = not self.paused
        now = self.clock.now()
        if self.playback is not None:
            self.playback.resume() if not self.paused else self.playback.pause()
        if self.countdown is not None:
            self.countdown.resume(now) if not self.paused else self.countdown.pause(now)
        self.refresh_view()

    def action_skip(self) -> None:
        segment = self.segment
        if segment is None:
            return
        if segment.kind == "speech" and self.playback is not None:
            self.playback.skip()
        elif self.countdown is not None:
            self.finish_timer(spoken_end=False)
        elif segment.kind == "wait":
            self.next_segment()

    def action_stop(self) -> None:
        if not self.started or self.done:
            self.halt()
            self.dismiss("stopped")
            return

        def answered(stop: bool | None) -> None:
            if stop:
                self.halt()
                self.dismiss("stopped")

        # The night goes on while the question is asked: nobody has to open their eyes.
        what = "night" if self.script.phase == "night" else "day"
        self.app.push_screen(ConfirmDialog(f"Stop the {what}? The calls end at once."), answered)
