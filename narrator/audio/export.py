"""Export a rendered night as a sound file a phone can play.

soundfile (libsndfile >= 1.1) writes all four formats itself, MP3 included, so
there is no ffmpeg and no pydub; the format follows the file's suffix.
"""

from __future__ import annotations

from pathlib import Path

import soundfile as sf

from narrator.audio.mixer import Timeline

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
        sf.write(path, timeline.samples, timeline.sample_rate, format=fmt[0], subtype=fmt[1])
    except (OSError, RuntimeError) as exc:  # LibsndfileError is a RuntimeError
        raise ValueError(f"cannot write {path}: {exc}") from exc
