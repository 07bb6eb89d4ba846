"""Export a rendered night as a sound file a phone can play.

soundfile (libsndfile >= 1.1) writes all four formats itself, MP3 included, so
there is no ffmpeg and no pydub; the format follows the file's suffix.

Every file is written under a temporary name in its own folder and renamed over
the target only once complete (`OutputFile`): a full disk, a kill or an error
halfway never leaves half a file, and never costs the user a good file that was
already there. Creating the temporary file is also the test that the folder is
writable, so a command can make it before any slow work.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path
from types import TracebackType

import soundfile as sf

from narrator.audio.mixer import Timeline

BLOCK = 16384  # frames per write
TIMELINE_KEYS = {"sample_rate", "duration", "events"}  # what Timeline.to_dict() always has
MAX_TIMELINE_BYTES = 64_000_000  # a timeline we would overwrite is read to be sure

# suffix -> (libsndfile format, subtype)
FORMATS = {
    ".wav": ("WAV", "PCM_16"),
    ".flac": ("FLAC", "PCM_16"),
    ".ogg": ("OGG", "VORBIS"),
    ".mp3": ("MP3", "MPEG_LAYER_III"),
}


class OutputFile:
    """`path`, written as a temporary file beside it and renamed into place on success.

    A context manager: leaving it normally renames `temp` over `path`; leaving it
    with an exception deletes `temp` and leaves `path` as it was. ValueError (one
    line) when the folder does not exist or cannot be written.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        folder = path.parent
        if not folder.is_dir():
            raise ValueError(f"cannot write {path}: no folder {folder}")
        if path.is_dir():
            raise ValueError(f"cannot write {path}: it is a folder")
        try:
            fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
        except OSError as exc:
            raise ValueError(f"cannot write {path}: {exc.strerror}") from None
        os.close(fd)
        self.temp = Path(temp)

    def commit(self) -> None:
        """Give the file the mode a new file would have (or the old file's), and rename."""
        try:
            mode = stat.S_IMODE(self.path.stat().st_mode)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(self.temp, mode)
        os.replace(self.temp, self.path)

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.temp.unlink()

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is not None:
            self.discard()
            return
        try:
            self.commit()
        except OSError as error:
            self.discard()
            raise ValueError(f"cannot write {self.path}: {error.strerror}") from None


def audio_format(path: Path) -> tuple[str, str]:
    """(format, subtype) for `path`'s suffix; ValueError names the suffixes we know."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(FORMATS)
        raise ValueError(f"cannot write {path.name}: use one of {known}")
    return fmt


def write_audio(timeline: Timeline, path: Path, *, into: OutputFile | None = None) -> None:
    """Write `timeline` to `path` (or into the staged `into`, which the caller commits)."""
    fmt = audio_format(path)
    if into is None:
        with OutputFile(path) as staged:
            write_audio(timeline, path, into=staged)
        return
    try:
        # In blocks: libvorbis allocates its analysis buffer on the stack, sized by
        # the frames of one write, so a whole night in one call (minutes of audio)
        # overflows it and kills the process (python-soundfile #233, #426).
        with sf.SoundFile(
            into.temp, "w", timeline.sample_rate, 1, format=fmt[0], subtype=fmt[1]
        ) as out:
            for start in range(0, len(timeline.samples), BLOCK):
                out.write(timeline.samples[start : start + BLOCK])
    except (OSError, RuntimeError) as exc:  # LibsndfileError is a RuntimeError
        raise ValueError(f"cannot write {path}: {_reason(exc)}") from exc


def write_timeline(timeline: Timeline, into: OutputFile) -> None:
    """The `--timeline` JSON of `timeline`, into the staged file."""
    text = json.dumps(timeline.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    try:
        into.temp.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot write {into.path}: {exc.strerror}") from exc


def check_outputs(out: Path, timeline: Path | None) -> None:
    """Refuse, before anything is written, outputs that would destroy something:
    a timeline on the audio file itself, or over a file that is not a timeline."""
    audio_format(out)
    if timeline is None:
        return
    if timeline.resolve() == out.resolve() or (
        timeline.exists() and out.exists() and timeline.samefile(out)
    ):
        raise ValueError(
            f"--timeline and --out are the same file ({out}); give the timeline its own .json name"
        )
    if timeline.exists() and not is_timeline(timeline):
        raise ValueError(
            f"{timeline} exists and is not a timeline; narrator overwrites only its own "
            "timelines: choose another name or remove it"
        )


def is_timeline(path: Path) -> bool:
    """Whether `path` is a regular file holding a timeline narrator wrote."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_TIMELINE_BYTES:
            return False
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return False
    return isinstance(data, dict) and set(data) >= TIMELINE_KEYS


def _reason(exc: BaseException) -> str:
    text = str(exc)
    # libsndfile's messages start with the file name we gave it: the temporary one.
    return text.split(": ", 1)[-1] if ": " in text else text
