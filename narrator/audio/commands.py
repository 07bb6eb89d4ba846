"""The audio commands behind `narrator render/play/voices/devices`.

Each function prints to stdout, returns an exit code and raises `AudioUnavailable`
(exit 3) when a part of the machine is missing; the CLI only parses arguments.

`python -m narrator.audio.commands play|render SCRIPT.json ...` plays or renders a
script saved by `narrator script --format json`: the audio tests drive exactly this,
with scripts they build themselves.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from narrator.audio.devices import WORDS, Kind, list_devices
from narrator.audio.engine import AudioEngine
from narrator.audio.player import Playback
from narrator.audio.settings import AudioSettings, AudioUnavailable
from narrator.audio.voices import list_voices
from narrator.base.errors import (
    EXIT_AUDIO,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    NarratorError,
    one_line,
)
from narrator.script.model import Script, script_from_dict
from narrator.script.timefmt import clock


class PlayLog:
    """Writes a finished playback's counters as JSON (for the tests and the bench)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def record(self, playback: Playback) -> None:
        feeder = playback.feeder
        data = {
            "sample_rate": playback.sample_rate,
            "duration": playback.duration,
            "underruns": feeder.underruns,
            "starved": feeder.starved,
            "first_sound": feeder.first_sound,
            "first_sound_at": feeder.first_sound_at,
            # {step: samples}: the bed waited under before a call that was late
            "waits": {str(k): v for k, v in playback.waits.items()},
            "error": playback.error,
            "finished": playback.finished,
            "events": [
                {"kind": e.kind, "step": e.step, "start": e.start, "end": e.end}
                for e in playback.events
            ],
        }
        self.path.write_text(json.dumps(data, indent=1) + "\n")


def render_command(
    script: Script, *, out: Path, timeline: Path | None, settings: AudioSettings
) -> int:
    """Render the night into `out` (.wav/.flac/.ogg/.mp3) and its events into `timeline`.

    Both files are checked and staged before the render (see export.OutputFile): a
    mistake costs no render, and a failure leaves no half file and no lost one."""
    from narrator.audio.export import OutputFile, check_outputs, write_audio, write_timeline

    engine = AudioEngine(settings)
    try:
        check_outputs(out, timeline)
        with contextlib.ExitStack() as staged:
            audio_file = staged.enter_context(OutputFile(out))
            timeline_file = staged.enter_context(OutputFile(timeline)) if timeline else None
            rendered = engine.render(script)
            write_audio(rendered, out, into=audio_file)
            if timeline_file is not None:
                write_timeline(rendered, timeline_file)
    except ValueError as exc:  # an unknown voice or sound, a file we cannot write
        print(one_line(f"narrator: {exc}"), file=sys.stderr)
        return EXIT_INPUT
    finally:
        engine.close()
    says = sum(1 for e in rendered.events if e.kind == "say")
    print(f"wrote {out} ({clock(rendered.duration, tenths=True)}, {says} calls)")
    note = pack_note(rendered.line_voices, settings.voice_for(script.lang))
    if note:
        print(note)
    if timeline is not None:
        print(f"wrote {timeline}")
    return EXIT_OK


def play_command(script: Script, *, settings: AudioSettings, log: PlayLog | None = None) -> int:
    """Play the night and return once it has been heard to the end (Ctrl-C: exit 130;
    an output that fails: exit 3 with one line, the calls heard until then printed).

    Each call is printed as it is heard. `log` (tests, the bench) receives the
    playback's counters at the end.
    """
    engine = AudioEngine(settings)
    playback = None
    try:
        try:
            note = pack_note(engine.line_voices(script), settings.voice_for(script.lang))
            if note:
                print(note, flush=True)
            playback = engine.play(script)
        except ValueError as exc:
            print(f"narrator: {exc}", file=sys.stderr)
            return EXIT_INPUT
        shown = 0
        try:
            while True:
                done = playback.wait(0.05)
                heard = playback.position * playback.sample_rate
                events = [e for e in playback.events if e.kind == "say"]
                # At a normal end the last calls are printed as they finish; after a
                # failure only what was heard: the table must not read what it missed.
                ended = done and playback.error is None
                while shown < len(events) and (ended or events[shown].start <= heard):
                    event = events[shown]
                    print(f"{clock(event.start / playback.sample_rate, tenths=True)}  {event.text}")
                    shown += 1
                sys.stdout.flush()
                if done:
                    break
        except KeyboardInterrupt:
            playback.stop()
            print("narrator: stopped", file=sys.stderr)
            return EXIT_INTERRUPTED
        if playback.error:
            at = clock(playback.position, tenths=True)
            line = f"narrator: the night stopped at {at}: {playback.error}"
            print(one_line(line), file=sys.stderr)
            return EXIT_AUDIO
        if playback.underruns:
            print(underrun_note(playback.underruns), file=sys.stderr)
        return EXIT_OK
    finally:
        if playback is not None and log is not None:
            log.record(playback)
        engine.close()


def pack_note(voices: dict[str, dict[str, str]] | None, voice: str | None) -> str | None:
    """With a voice pack (`voice`): how many of the lines it says itself and how many
    the language's default voice says for it, told before the night is heard."""
    from narrator.audio.voicepack import pack_of

    pack = pack_of(voice)
    if pack is None or voices is None:
        return None
    ours = sum(1 for v in voices.values() if v.get("engine") == "voicepack")
    if ours == len(voices):
        return f"voice pack {pack}: all {ours} lines recorded"
    return (
        f"voice pack {pack}: {ours} of {len(voices)} lines recorded; the default voice "
        f"says the other {len(voices) - ours}"
    )


def prepare_command(scripts: Sequence[Script], *, settings: AudioSettings) -> int:
    """Make every call of `scripts` into the speech cache (on two speech processes when
    there are two cores), saying how far it is; a night prepared so plays without
    synthesising anything (`narrator play`, the app, the table)."""
    import time

    engine = AudioEngine(settings)
    started = time.monotonic()
    shown = [-1]

    def progress(done: int, total: int) -> None:
        step = max(1, total // 10)
        if done == total or done // step != shown[0] // step:
            print(f"  {done}/{total}", flush=True)
        shown[0] = done

    try:
        langs = sorted({script.lang for script in scripts})
        voices = ", ".join(
            "{engine} {id}".format(**voice)
            for voice in (engine.voice_of(lang) for lang in langs)
            if voice is not None
        )
        print(f"preparing the calls in {', '.join(langs)} ({voices})", flush=True)
        preparation = engine.prepare(scripts, progress, parallel=True)
        try:
            preparation.wait()
        except KeyboardInterrupt:
            preparation.cancel()
            raise
    except ValueError as exc:  # a voice that cannot say these lines, named before any
        print(one_line(f"narrator: {exc}"), file=sys.stderr)
        return EXIT_INPUT
    finally:
        engine.close()
    if isinstance(preparation.failure, AudioUnavailable):
        raise preparation.failure  # exit 3, with the command that installs what is missing
    if preparation.failure is not None:  # a voice that cannot say these lines
        print(one_line(f"narrator: {preparation.failure}"), file=sys.stderr)
        return EXIT_INPUT
    seconds = time.monotonic() - started
    print(
        f"prepared {preparation.total} calls ({preparation.made} made now, "
        f"{preparation.total - preparation.made} already there) in {seconds:.1f} s"
    )
    return EXIT_OK


def underrun_note(count: int) -> str:
    """The one line that reports a night's output underruns, in our words."""
    times = "once" if count == 1 else f"{count} times"
    return (
        f"narrator: the sound output ran dry {times} (the computer was too busy), so some "
        "of the night may not have been heard; close other programs before the next one"
    )


def voices_command(lang: str | None, fmt: str) -> int:
    """List the speech voices (`fmt` "text" or "json"): engine, id (what `--voice`
    takes), languages, sex, name, and the licence note of a voice that has one."""
    voices = list_voices(lang)
    if lang and not voices:
        print(
            one_line(f"narrator: no voice speaks {lang!r}; `narrator voices` lists every voice"),
            file=sys.stderr,
        )
        return EXIT_INPUT
    if fmt == "json":
        print(json.dumps([v.to_dict() for v in voices], indent=2, ensure_ascii=False))
        return EXIT_OK
    if not voices:
        print("no voices")
        return EXIT_OK
    width = max(len(v.id) for v in voices)
    for v in voices:
        sex = (v.gender or "-").lower()
        note = f"  (licence: {v.licence})" if v.licence else ""
        langs = ",".join(v.languages)
        print(f"{v.engine:<9}  {v.id:<{width}}  {langs:<16}  {sex:<6}  {v.name}{note}")
    return EXIT_OK


def beds_command(fmt: str) -> int:
    """List the bed's ambiences (`fmt` "text" or "json"); the default is starred."""
    from narrator.audio.ambience import AMBIENCES
    from narrator.audio.settings import DEFAULT_AMBIENCE

    if fmt == "json":
        rows = [
            {"name": name, "description": text, "default": name == DEFAULT_AMBIENCE}
            for name, text in AMBIENCES.items()
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    for name, text in AMBIENCES.items():
        mark = "*" if name == DEFAULT_AMBIENCE else " "
        print(f"{mark} {name:<9} {text}")
    return EXIT_OK


def devices_command(fmt: str, kind: Kind = "output") -> int:
    """List the output devices, or the microphones (`kind` "input"), as "text" or
    "json" (`fmt`); the default is starred."""
    devices = list_devices(kind)
    if fmt == "json":
        print(json.dumps([d.to_dict() for d in devices], indent=2, ensure_ascii=False))
        return EXIT_OK
    if not devices:
        print(f"no {WORDS[kind].what}s")
    for d in devices:
        mark = "*" if d.default else " "
        print(f"{mark} {d.index:>3}  {d.name}  ({d.hostapi}, {d.channels} ch)")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m narrator.audio.commands")
    parser.add_argument("command", choices=("play", "render"))
    parser.add_argument("script", type=Path, help="a script saved as JSON")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--timeline", type=Path)
    parser.add_argument("--log", type=Path, help="write the playback's counters as JSON")
    parser.add_argument("--no-bed", action="store_true")
    parser.add_argument("--bed", help="the bed's ambience")
    parser.add_argument("--device")
    parser.add_argument("--voice")
    parser.add_argument("--rate", type=int)
    args = parser.parse_args(argv)
    script = script_from_dict(json.loads(args.script.read_text(encoding="utf-8")))
    settings = AudioSettings(
        voice=args.voice,
        rate=args.rate,
        bed=not args.no_bed,
        device=args.device,
        **({"ambience": args.bed} if args.bed else {}),
    )
    try:
        if args.command == "render":
            if args.out is None:
                parser.error("render needs --out")
            return render_command(script, out=args.out, timeline=args.timeline, settings=settings)
        log = PlayLog(args.log) if args.log else None
        return play_command(script, settings=settings, log=log)
    except NarratorError as exc:  # an unknown device
        print(one_line(f"narrator: {exc}"), file=sys.stderr)
        return EXIT_INPUT
    except AudioUnavailable as exc:
        print(one_line(f"narrator: {exc}"), file=sys.stderr)
        return EXIT_AUDIO


if __name__ == "__main__":
    sys.exit(main())
