"""RecordScreen: a friend reads every line of the game, one at a time, into the pack.

The line is shown large; space records and space stops; the take is checked (a
silent, clipped or far too long one is refused with the reason), played back, and
Enter keeps it -- written into the pack at once, so leaving at any moment loses no
take that was kept -- and the next line not recorded comes up. `s` skips a line
(the default voice will say it), ← → go back and forth, `p` plays the take or the
line as recorded. The booth records and plays in workers: the screen never touches
a device or a file, it draws the `Recording` and what the workers tell it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from narrator.i18n import N_, is_rtl
from narrator.tui.text import NarratorFooter, align, block, say_problem, shape, t
from narrator.tui.widgets.call_view import CallView
from narrator.tui.widgets.level_meter import LevelMeter

if TYPE_CHECKING:
    from narrator.audio.booth import Booth
    from narrator.audio.recording import Recording
    from narrator.audio.synth import Clip


def _no_lines(lang: str) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True)
class Studio:
    """What recording needs from outside the app (the composition root makes it): a
    booth for the output device and the microphone the settings name (`booth(device,
    microphone)`, None: the default), and the lines the phones' table says whole in a
    language (a pack records them too)."""

    booth: Callable[[str | None, str | None], Booth]
    table_lines: Callable[[str], tuple[str, ...]] = field(default=_no_lines)


class RecordScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "record", N_("Record/Stop")),
        Binding("enter", "keep", N_("Keep")),
        Binding("p", "play", N_("Listen")),
        Binding("s", "skip", N_("Skip")),
        Binding("left", "line(-1)", N_("Previous"), key_display="←"),
        Binding("right", "line(1)", N_("Next"), key_display="→"),
        Binding("escape", "done", N_("Done")),
    ]

    class LevelHeard(Message):
        def __init__(self, level: float) -> None:
            super().__init__()
            self.level = level

    class TakeMade(Message):
        def __init__(self, clip: Clip | None, refused: str | None) -> None:
            super().__init__()
            self.clip = clip
            self.refused = refused

    class Played(Message):
        pass

    class Kept(Message):
        def __init__(self, problem: str | None) -> None:
            super().__init__()
            self.problem = problem

    class BoothFailed(Message):
        def __init__(self, problem: str) -> None:
            super().__init__()
            self.problem = problem

    def __init__(self, recording: Recording, booth: Booth, lang: str, title: str) -> None:
        super().__init__()
        self.recording = recording
        self.booth = booth
        self.lang = lang  # the lines' language (the app's may differ)
        self.title_text = title
        self.state = "idle"  # idle, recording, checking, review, keeping
        self.take: Clip | None = None
        # the last thing that happened (refused, kept, failed): its colour and words
        self.note: tuple[str, str] | None = None
        self._stop_recording = threading.Event()
        self._stop_playing = threading.Event()
        # One of record or play at a time: a take never starts while the last one
        # still plays (the microphone would hear it).
        self._device = threading.Lock()
        self.blocks_heard = 0  # of the take being recorded: the microphone is live

    def compose(self) -> ComposeResult:
        yield Static(shape(self.title_text), id="title")
        yield Static("", id="record-progress")
        yield CallView(id="call")
        yield LevelMeter(shape(t("Microphone")), id="level")
        yield Static("", id="take-status")
        yield NarratorFooter()

    def on_mount(self) -> None:
        self.show()

    # -- drawing -----------------------------------------------------------------
    def show(self) -> None:
        rec = self.recording
        total = len(rec.lines)
        progress = t("Line {n} of {total} · {done} recorded · tonight's deck: {deck} of {decks}")
        self.query_one("#record-progress", Static).update(
            shape(
                progress.format(
                    n=rec.index + 1,
                    total=total,
                    done=rec.done,
                    deck=rec.deck_done,
                    decks=rec.deck,
                )
            )
        )
        where = t("tonight's deck") if rec.index < rec.deck else t("the rest of the game")
        mark = t("recorded") if rec.recorded() else t("not recorded yet")
        call = self.query_one(CallView)
        # The line is in the pack's language, which the app's may not be: it is wrapped
        # and drawn (right to left for Persian) as that language is.
        width = call.content_region.width or max(20, self.app.size.width - 12)
        call.styles.text_align = "right" if is_rtl(self.lang) else "center"
        call.update(block(rec.text, width, self.lang) if is_rtl(self.lang) else rec.text)
        call.border_title = shape(f"{where} · {mark}")
        status = self.query_one("#take-status", Static)
        align(status)
        status.update(self._status(status.content_region.width or self.app.size.width - 2))
        self.refresh_bindings()

    def _status(self, width: int) -> Text:
        """The note, then what to do now; wrapped in reading order, then drawn (a
        Persian line wrapped after it was put in visual order would read backwards)."""
        lines = {
            "recording": t("● Recording… read the line, then press space."),
            "checking": t("Checking the take…"),
            "review": t("Enter keeps the take · space records it again · p plays it · s skips"),
            "playing": t("Playing the take back… Enter keeps it · space records it again"),
            "keeping": t("Keeping the take…"),
        }
        text = lines.get(self.state)
        if text is None:
            if self.recording.done == len(self.recording.lines):
                text = t("Every line is recorded. Esc when you are done.")
            elif self.recording.recorded():
                text = t("Recorded: p plays it, space records it again, s goes on")
            else:
                text = t("Press space and read the line aloud; space again when you are done.")
        shown = Text()
        if self.note is not None:
            colour, note = self.note
            shown.append(block(note, width) + "\n", style=colour)
        shown.append(block(text, width))
        return shown

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "keep":
            return True if self.take is not None and self.state in ("review", "playing") else None
        if action == "play":
            ready = self.take is not None or self.recording.recorded() is not None
            return True if ready and self.state not in ("recording", "checking") else None
        if action in ("skip", "line"):
            return True if self.state not in ("checking", "keeping") else None
        return True

    # -- keys --------------------------------------------------------------------
    def action_record(self) -> None:
        if self.state == "recording":
            self._stop_recording.set()
            self.state = "checking"
        elif self.state in ("idle", "review", "playing"):
            self._stop_playing.set()
            self.take, self.note = None, None
            self.state = "recording"
            self._stop_recording = threading.Event()
            self.blocks_heard = 0
            self.record(self._stop_recording, self.recording.text)
        self.show()

    def action_keep(self) -> None:
        if self.take is None or self.state not in ("review", "playing"):
            return
        self._stop_playing.set()
        self.state = "keeping"
        self.keep(self.take)
        self.show()

    def action_play(self) -> None:
        if self.state in ("recording", "checking", "keeping"):
            return
        self._stop_playing.set()
        self._stop_playing = threading.Event()
        if self.take is not None:
            self.state = "playing"
            self.play(self.take, self._stop_playing)
        elif self.recording.recorded() is not None:
            self.play_recorded(self._stop_playing)
        self.show()

    def action_skip(self) -> None:
        self._leave_line()
        rec = self.recording
        rec.index = rec.next_missing() if rec.done < len(rec.lines) else rec.index + 1
        rec.move(0)
        self.show()

    def action_line(self, delta: int) -> None:
        self._leave_line()
        self.recording.move(delta)
        self.show()

    def _leave_line(self) -> None:
        """Going to another line: a take not kept is dropped, a recording stopped."""
        self._stop_recording.set()
        self._stop_playing.set()
        if self.state == "recording":
            self._stop_recording = threading.Event()
        self.take, self.note, self.state = None, None, "idle"

    def action_done(self) -> None:
        self._stop_recording.set()
        self._stop_playing.set()
        self.dismiss()

    # -- workers (the booth and the disk) ---------------------------------------------
    @work(thread=True, group="booth")
    def record(self, stop: threading.Event, text: str) -> None:
        from narrator.audio.recording import TakeRefused, make_take

        try:
            with self._device:
                raw = self.booth.record(stop, self._heard)
        except Exception as exc:
            self.post_message(self.BoothFailed(str(exc)))
            return
        if stop is not self._stop_recording or self.recording.text != text:
            return  # abandoned: the screen went to another line meanwhile
        try:
            clip = make_take(raw.samples, raw.sample_rate, text)
        except TakeRefused as refused:
            self.post_message(self.TakeMade(None, refused.message(self.app_lang())))
            return
        self.post_message(self.TakeMade(clip, None))

    def _heard(self, level: float) -> None:
        self.post_message(self.LevelHeard(level))

    def app_lang(self) -> str:
        from narrator.tui.text import lang

        return lang()

    @work(thread=True, group="booth")
    def play(self, clip: Clip, stop: threading.Event) -> None:
        try:
            with self._device:
                self.booth.play(clip, stop)
        except Exception as exc:
            self.post_message(self.BoothFailed(str(exc)))
            return
        self.post_message(self.Played())

    @work(thread=True, group="booth")
    def play_recorded(self, stop: threading.Event) -> None:
        from narrator.audio.pack_voice import read_take

        line = self.recording.recorded()
        if line is None:
            return
        try:
            take = read_take(self.recording.folder, line)
            with self._device:
                self.booth.play(take, stop)
        except Exception as exc:
            self.post_message(self.BoothFailed(str(exc)))

    @work(thread=True, group="keep")
    def keep(self, clip: Clip) -> None:
        try:
            self.recording.keep(clip)
        except OSError as exc:
            self.post_message(self.Kept(str(exc.strerror or exc)))
            return
        self.post_message(self.Kept(None))

    # -- what the workers tell --------------------------------------------------------
    def on_record_screen_level_heard(self, message: LevelHeard) -> None:
        if self.state == "recording":
            self.blocks_heard += 1
            self.query_one(LevelMeter).show(message.level)

    def on_record_screen_take_made(self, message: TakeMade) -> None:
        self.query_one(LevelMeter).show(-math.inf)
        if message.clip is None:
            self.state, self.note = "idle", ("red", f"✗ {message.refused or ''}")
            self.show()
            return
        self.take, self.state = message.clip, "playing"
        self._stop_playing = threading.Event()
        self.play(message.clip, self._stop_playing)
        self.show()

    def on_record_screen_played(self) -> None:
        if self.state == "playing":
            self.state = "review"
            self.show()

    def on_record_screen_kept(self, message: Kept) -> None:
        if message.problem is not None:
            failed = t("The take could not be kept ({problem}); try again.")
            failed = failed.format(problem=say_problem(message.problem))
            self.state, self.note = "review", ("red", f"✗ {failed}")
            self.show()
            return
        rec = self.recording
        kept = t("✓ Kept: line {n}.").format(n=rec.index + 1)
        self.take, self.state, self.note = None, "idle", ("green", kept)
        rec.index = rec.next_missing()
        self.show()

    def on_record_screen_booth_failed(self, message: BoothFailed) -> None:
        self.query_one(LevelMeter).show(-math.inf)
        self.state = "review" if self.take is not None else "idle"
        self.note = ("red", f"✗ {say_problem(message.problem)}")
        self.show()
