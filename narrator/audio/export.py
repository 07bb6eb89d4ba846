"""Export a rendered night as a sound file a phone can play.

soundfile (libsndfile >= 1.1) writes all four formats itself, MP3 included, so
there is no ffmpeg and no pydub; the format follows the file's suffix.
"""

from __future__ import annotations

from pathlib import Path

import soundfile as sf

from narrator.audio.mixer import Timeline

BLOCK = 16384  # frames per write

# suffix -> (libsndfile format, subtype)
FORMATS = {
    ".wav": ("WAV", "PCM_16"),
    ".flac": ("FLAC", "PCM_16"),
    ".ogg": ("OGG", "VORBIS"),
    ".mp3": ("MP3", "MPEG_LAYER_III"),
}


def write_audio(timeline: Timeline, path: Path) -> None:
    """Write `timeline` to `path`; ValueError names the suffixes we know."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(FORMATS)
        raise ValueError(f"cannot write {path.name}: use one of {known}")
    if not path.parent.is_dir():
        raise ValueError(f"cannot write {path}: no folder {path.parent}")
    try:
        # In blocks: libvorbis allocates its analysis buffer on the stack, sized by
        # the frames of one write, so a whole night in one call (minutes of audio)
        # overflows it and kills the process (python-soundfile #233, #426).
        with sf.SoundFile(path, "w", timeline.sample_rate, 1, format=fmt[0], subtype=fmt[1]) as out:
            for start in range(0, len(timeline.samples), BLOCK):
                out.write(timeline.samples[start : start + BLOCK])
    except (OSError, RuntimeError) as exc:  # LibsndfileError is a RuntimeError
        raise ValueError(f"cannot write {path}: {exc}") from exc
