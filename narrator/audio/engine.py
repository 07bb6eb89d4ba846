"""`AudioEngine`: the one object the CLI and the TUI use to hear a script.

It owns the cached synthesizer, the sound assets and the tapping bed, and wires
them to the mixer and the player. Rendering is the same code for `render`,
`export` and `play`; `play` starts the stream at once when the bed's lead-in is
there to hear (else as soon as the first call is ready) and lets a background
thread render the rest ahead of the playhead.

Settings can be changed between nights with the `settings` setter; a night that
is already playing keeps the settings it started with.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

from narrator.audio.ambience import Ambience
from narrator.audio.bed import NightBed, load_knocks, load_sound
from narrator.audio.devices import check_output, resolve_device, sounddevice
from narrator.audio.export import write_audio
from narrator.audio.lexicon import respell
from narrator.audio.mixer import (
    SAMPLE_RATE,
    MixBuilder,
    Timeline,
    estimate_seconds,
    lines_of,
    to_rate,
)
from narrator.audio.player import OpenOutput, Playback, StreamOpener, open_output
from narrator.audio.prepare import Preparation, Progress
from narrator.audio.settings import AudioSettings
from narrator.audio.synth import (
    CachedSynthesizer,
    Samples,
    Synthesizer,
    Utterance,
)
from narrator.audio.voices import VoiceRouter
from narrator.script.model import Cue, Say, Script, Step, Timer
from narrator.script.preview import preview_script

if TYPE_CHECKING:
    from collections.abc import Sequence

AHEAD_JOIN = 10.0  # seconds: the longest a line of the night takes to synthesise, cold


def _device_output(device: str | int | None, sample_rate: int) -> StreamOpener:
    """PortAudio on the configured device, resolved (and refused if unknown) first."""
    return open_output(resolve_device(device), sample_rate)


def _line(text: str, lang: str, settings: AudioSettings) -> Utterance:
    """What the synthesizer is asked to say: the text respelled by the lexicon."""
    return Utterance(respell(text, lang), lang, settings.voice_for(lang), settings.rate_for(lang))


class AudioEngine:
    """Speech, bed, mixer and player behind one small surface."""

    def __init__(
        self,
        settings: AudioSettings,
        cache_dir: Path | None = None,
        *,
        synthesizer: Synthesizer | None = None,
        open_stream: OpenOutput | None = None,
    ) -> None:
        self._settings = settings
        # How a playback gets its device stream: PortAudio, or a test's own.
        self._open_stream: OpenOutput = open_stream or _device_output
        # platformdirs honours XDG_CACHE_HOME on Linux.
        self.cache_dir = cache_dir or Path(platformdirs.user_cache_dir("narrator"))
        self._tables = self.cache_dir / "bed"  # the ambience's noise tables, kept
        self._inner = synthesizer
        self._synth: CachedSynthesizer | None = None
        self._lock = threading.Lock()
        self._sounds: dict[str, Samples] = {}
        self._knocks: list[tuple[str, Samples]] | None = None
        self._playing: list[Playback] = []
        self._ahead: list[threading.Thread] = []  # render-ahead threads, joined on close
        self._prewarm: threading.Thread | None = None
        self._spare: VoiceRouter | None = None
        self._preparing: list[Preparation] = []

    def _prepare(self) -> None:
        with contextlib.suppress(Exception):
            self._load_knocks()
            Ambience(self._settings.ambience, SAMPLE_RATE, tables=self._tables)  # made once

    def _load_knocks(self) -> list[tuple[str, Samples]]:
        with self._lock:
            if self._knocks is None:
                self._knocks = load_knocks(SAMPLE_RATE)
            return self._knocks

    # -- settings ---------------------------------------------------------------
    @property
    def settings(self) -> AudioSettings:
        return self._settings

    @settings.setter
    def settings(self, settings: AudioSettings) -> None:
        self._settings = settings

    # -- parts, made on first use -------------------------------------------------
    @property
    def synth(self) -> CachedSynthesizer:
        with self._lock:
            if self._synth is None:
                inner = self._inner if self._inner is not None else VoiceRouter(self.cache_dir)
                self._synth = CachedSynthesizer(inner, self.cache_dir / "speech")
            return self._synth

    def prewarm(self) -> None:
        """Get ready to play at once: start the speech worker, load PortAudio (it
        scans the devices, ~50 ms) and, in the background, the knocks. The app calls
        it when it starts; `narrator render` never needs PortAudio, and with a warm
        cache not even the worker, so the engine does none of this by itself.

        sounddevice points fd 2 at /dev/null while PortAudio starts: a terminal app
        drawing on fd 2 meanwhile would lose that output. The app calls this on a
        thread beside its first frame only when Textual draws on a copy of the
        terminal (`narrator.compose.LateEngine`); else before the app exists."""
        with contextlib.suppress(Exception):  # play() reports any failure itself
            sounddevice()
        inner = self.synth.inner
        if isinstance(inner, VoiceRouter):
            inner.start()
        self._prewarm = threading.Thread(target=self._prepare, name="narrator-prewarm")
        self._prewarm.start()

    def _sound(self, name: str) -> Samples:
        with self._lock:
            if name not in self._sounds:
                self._sounds[name] = load_sound(name, SAMPLE_RATE).samples
            return self._sounds[name]

    @staticmethod
    def _has_bed(script: Script, settings: AudioSettings) -> bool:
        return settings.bed and script.phase == "night"

    def _bed(self, script: Script, settings: AudioSettings) -> NightBed | None:
        if not self._has_bed(script, settings):
            return None
        return NightBed(
            self._load_knocks(),
            SAMPLE_RATE,
            ambience=settings.ambience,
            tempo=settings.bed_tempo,
            tables=self._tables,
        )

    def _builder(self, script: Script, settings: AudioSettings) -> MixBuilder:
        seconds = estimate_seconds(script, settings.rate_for(script.lang))
        return MixBuilder(
            SAMPLE_RATE,
            bed=self._bed(script, settings),
            bed_volume=settings.bed_volume,
            volume=settings.volume,
            capacity=round(seconds * SAMPLE_RATE),
        )

    def _clips(self, step: Step, lang: str, settings: AudioSettings) -> list[Samples]:
        if isinstance(step, Cue):
            return [self._sound(step.sound)]
        return [
            to_rate(self.synth.synthesize(_line(text, lang, settings)), SAMPLE_RATE)
            for text in lines_of(step)
        ]

    # -- the public surface -------------------------------------------------------
    def check_output(self) -> str | None:
        """None when playback is possible, else a one-line reason."""
        return check_output(self._settings.device)

    def _helper(self) -> Synthesizer | None:
        """A second speech process for cold renders, when there is a core for it."""
        if self._inner is not None or (os.cpu_count() or 1) < 2:
            return None
        with self._lock:
            if self._spare is None:
                self._spare = VoiceRouter(self.cache_dir)
            return self._spare

    def render(self, script: Script) -> Timeline:
        """The whole night as one buffer and its events."""
        settings = self._settings
        lines = [_line(t, script.lang, settings) for s in script.steps for t in lines_of(s)]
        self.synth.prefetch(lines, self._helper())
        mix = self._builder(script, settings)
        for index, step in enumerate(script.steps):
            mix.add(index, step, self._clips(step, script.lang, settings))
        mix.finish()
        timeline = mix.timeline()
        timeline.voice = self.voice_of(script.lang, settings)
        timeline.line_voices = self.line_voices(script, settings)
        return timeline

    def line_voices(
        self, script: Script, settings: AudioSettings | None = None
    ) -> dict[str, dict[str, str]] | None:
        """Which engine and voice say each line of `script` (a voice pack says some
        lines, the default voice the rest); None for a synthesizer that does not say."""
        describe = getattr(self.synth.inner, "describe", None)
        if describe is None:
            return None
        chosen = settings or self._settings
        return {
            text: describe(_line(text, script.lang, chosen))
            for step in script.steps
            for text in lines_of(step)
        }

    def prepare(
        self,
        scripts: Sequence[Script],
        on_progress: Progress | None = None,
        *,
        lines: Sequence[tuple[str, str]] = (),
        parallel: bool = False,
    ) -> Preparation:
        """Make the calls of `scripts` (and `lines`, (text, lang) pairs said alone: a
        table's announcements) into the speech cache on a background thread, in the
        order they will be heard, with the settings as they are now; the returned
        `Preparation` tells how far it is and can be cancelled. Playing meanwhile is
        safe (a line is made once). `parallel`: a second speech process on a second
        core too (the command line's; the app leaves that core to itself)."""
        settings = self._settings
        wanted = [
            _line(text, script.lang, settings)
            for script in scripts
            for step in script.steps
            for text in lines_of(step)
        ]
        wanted += [_line(text, lang, settings) for text, lang in lines]
        synths: list[Synthesizer] = [self.synth.inner]
        helper = self._helper() if parallel else None
        if helper is not None:
            synths.append(helper)
        preparation = Preparation(self.synth, wanted, synths, on_progress)
        with self._lock:
            self._preparing = [p for p in self._preparing if not p.finished] + [preparation]
        return preparation.start()

    def voice_of(self, lang: str, settings: AudioSettings | None = None) -> dict[str, str] | None:
        """Which engine and voice speak `lang` with these settings (None for a
        synthesizer that does not say)."""
        describe = getattr(self.synth.inner, "describe", None)
        if describe is None:
            return None
        voice: dict[str, str] = describe(_line("", lang, settings or self._settings))
        return voice

    def export(self, script: Script, path: Path) -> None:
        """Render and write WAV, FLAC, OGG or MP3 (from the suffix)."""
        write_audio(self.render(script), path)

    def play(self, script: Script) -> Playback:
        """Start playing at once; the rest of the night renders ahead of the playhead."""
        settings = self._settings
        # A cold first call's voice loads in a worker process. Without a bed the call
        # is what is heard first, so its voice starts loading before anything else.
        # With one, the render-ahead thread starts it once the stream plays: spawned
        # earlier, it took a core from PortAudio's start and the bed's tables (cold,
        # the first sound came ~60 ms later than warm).
        lead_in = self._has_bed(script, settings)
        if not lead_in:
            self._start_voice(script, settings)
        opener = self._open_stream(settings.device, SAMPLE_RATE)  # checks the device first
        mix = self._builder(script, settings)
        steps = script.steps
        if lead_in:
            # The bed's lead-in is final the moment the mix exists: the stream starts
            # at once and the first call is made under the lead-in's taps (LEAD_IN s;
            # a cold first call takes well under one), so a cold cache no longer delays
            # the night: its first word comes when a warm one's would. A voice slower
            # than that (a busy machine) is waited for under the bed (`MixBuilder.pad`).
            ready = 0
        else:  # no bed: nothing to hear before the first call, which is made first
            first = next(
                (i for i, s in enumerate(steps) if isinstance(s, Say | Timer | Cue)), len(steps)
            )
            ready = min(first + 1, len(steps))
        for index in range(ready):
            mix.add(index, steps[index], self._clips(steps[index], script.lang, settings))
        if ready == len(steps):
            mix.finish()
        playback = Playback(mix, opener, SAMPLE_RATE)
        with self._lock:
            ended = [p for p in self._playing if p.finished]
            self._playing = [p for p in self._playing if not p.finished] + [playback]
        for old in ended:  # a caller that forgot to close them leaks nothing past this
            old.close()
        playback.start()
        if ready < len(steps):
            worker = threading.Thread(
                target=self._render_ahead,
                args=(playback, mix, script, ready, settings),
                name="narrator-render-ahead",
                daemon=True,
            )
            with self._lock:
                self._ahead = [t for t in self._ahead if t.is_alive()] + [worker]
            worker.start()
        return playback

    def _start_voice(self, script: Script, settings: AudioSettings) -> None:
        """The first line not in the cache: its voice's worker starts now and loads
        (hibari: ~0.7 s) while the stream opens (a night without a bed)."""
        inner = self.synth.inner
        text = next((t for step in script.steps for t in lines_of(step)), None)
        if not isinstance(inner, VoiceRouter) or text is None:
            return
        line = _line(text, script.lang, settings)
        with contextlib.suppress(Exception):  # play() reports any failure itself
            if not self.synth.path_for(line).exists():
                inner.start_for(line)

    def _render_ahead(
        self,
        playback: Playback,
        mix: MixBuilder,
        script: Script,
        start: int,
        settings: AudioSettings,
    ) -> None:
        try:
            for index in range(start, len(script.steps)):
                if playback.finished:
                    return
                step = script.steps[index]
                mix.add(index, step, self._clips(step, script.lang, settings))
            mix.finish()
        except Exception as exc:  # reported through Playback.error, never lost
            if not playback.finished:  # after stop() or close(), nobody is listening
                playback.fail(f"{type(exc).__name__}: {exc}")

    def preview(self, lang: str) -> Playback:
        """Play a sample call with the current voice, rate and bed (the settings'
        preview): a wake call, its gap, the instruction, the bed, the close."""
        return self.play(preview_script(lang))

    def speak(self, text: str, lang: str) -> Playback:
        """Say one line now, without the bed (day warnings, the vote countdown)."""
        line = Script("", "day", 0, lang, 0, (), (Say(text),))
        return self.play(line)

    def close(self) -> None:
        """Stop whatever plays and end the speech worker."""
        with self._lock:
            playing, self._playing = self._playing, []
            ahead, self._ahead = self._ahead, []
            synth, self._synth = self._synth, None
            spare, self._spare = self._spare, None
            preparing, self._preparing = self._preparing, []
        for preparation in preparing:  # each stops after its line (abandoned below)
            preparation.cancel()
        if spare is not None:
            spare.close()
        for playback in playing:
            playback.close()
        # A render-ahead thread ends at its next step once its playback is closed. A
        # line it is waiting for from a worker (espeak-ng, hibari) is abandoned: the
        # worker ends now, or a quit waited for a cold voice's whole line (seconds on a
        # busy machine). A line a voice in this process (Piper) is making is finished
        # first, so none is mid-inference when the process exits (onnxruntime aborted
        # the app, status 134, when SIGHUP ended it mid-night).
        if synth is not None and isinstance(synth.inner, VoiceRouter):
            synth.inner.end_workers()
        for thread in ahead:
            thread.join(AHEAD_JOIN)
        for preparation in preparing:
            preparation.wait(AHEAD_JOIN)
        if self._prewarm is not None:
            self._prewarm.join()  # never leave PortAudio half-initialised at exit
        if synth is not None:
            synth.close()
