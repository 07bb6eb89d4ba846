"""The user's settings: one JSON file in the user config directory.

`Settings` is a plain frozen value; `SettingsStore` reads and writes it. A file that
cannot be read as settings is never deleted: it is renamed aside with a timestamp,
the defaults are used, and `load()` returns a sentence telling the user so.

The language of the calls (and so of the app, which follows the game's) defaults to
the machine's (`locale_language`): an Italian machine speaks Italian without being
told. A saved setting wins, as every saved setting does.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from narrator.script.defaults import PACE, PACE_RANGE, WAKE_GAP, WAKE_GAP_RANGE

if TYPE_CHECKING:
    from narrator.audio.settings import AudioSettings

THEMES = ("textual-dark", "textual-light")
RATES = (80, 400)  # words a minute, as `narrator --rate` takes them
LARGEST = 1_000_000  # bytes: a settings file is a few hundred; anything this big is not one
APP_LANGUAGES = ("auto", "en", "it", "fa")  # auto: the app speaks the game's language
BIDI = ("auto", "on", "off")  # Persian drawn by the app (on), the terminal (off) or as found
SPOKEN = ("en", "it", "fa")  # the languages narrator's calls and app speak
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # in the order POSIX reads them


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of this machine, if narrator speaks it, else English: from the
    first locale variable that is set (LC_ALL, LC_MESSAGES, LANG, as POSIX reads them
    for messages), "it_IT.UTF-8" -> "it"; "C", "POSIX" or a language narrator does not
    speak -> "en". A game without that language speaks its first (`Game.start`)."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            return code if code in SPOKEN else "en"
    return "en"


def default_path() -> Path:
    return Path(platformdirs.user_config_dir("narrator")) / "settings.json"


@dataclass(frozen=True)
class Settings:
    """Language of the calls, the voice and its pace, the tapping bed, the devices."""

    language: str = field(default_factory=locale_language)  # the machine's, when unsaved
    voice: str | None = None
    rate: int | None = None  # words a minute; None: the language's default
    pace: float = PACE  # scales every silence of the night
    # {ruleset id: {role id: seconds}}: the action times the user set in the preview
    action_times: dict[str, dict[str, float]] = field(default_factory=dict)
    bed: bool = True
    # The sound's defaults are audio.settings.AudioSettings's (the session imports no
    # narrator.audio): tests/session/test_settings.py holds the two equal.
    ambience: str = "rain"  # the bed's continuous layer (`narrator beds` lists them)
    wake_gap: float = WAKE_GAP  # seconds after "X, wake up." before the instruction
    bed_volume: float = 0.35
    bed_tempo: float = 1.0
    volume: float = 1.0
    device: str | None = None
    microphone: str | None = None  # the voice packs' (index or name); None: the default
    theme: str = "textual-dark"
    # {ruleset id: [box ids]}: the boxes the table owns (One Night's expansions);
    # the role picker shows those and a random deck is drawn from them.
    boxes: dict[str, list[str]] = field(default_factory=dict)
    # {ruleset id: {option id: value}}: the ruleset options the table set (1/0 for flags)
    game_options: dict[str, dict[str, float]] = field(default_factory=dict)

    def with_game_choices(
        self, ruleset: str, boxes: list[str], options: dict[str, float]
    ) -> Settings:
        return replace(
            self,
            boxes={**self.boxes, ruleset: list(boxes)},
            game_options={**self.game_options, ruleset: dict(options)},
        )

    app_language: str = "auto"
    bidi: str = "auto"

    def with_action_time(self, ruleset: str, role: str, seconds: float | None) -> Settings:
        times = {k: dict(v) for k, v in self.action_times.items()}
        mine = times.setdefault(ruleset, {})
        if seconds is None:
            mine.pop(role, None)
        else:
            mine[role] = seconds
        return replace(self, action_times={k: v for k, v in times.items() if v})

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n"


class SettingsError(ValueError):
    pass


def _number(data: dict[str, Any], key: str, low: float, high: float) -> float:
    value = data[key]
    # (NaN fails `low <= value <= high` too: JSON readers accept NaN and Infinity)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise SettingsError(f"'{key}' must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def _text(data: dict[str, Any], key: str, optional: bool = False) -> str | None:
    value = data[key]
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise SettingsError(f"'{key}' must be text, not {value!r}")
    return value


def settings_from_dict(data: Any) -> Settings:
    """Checked conversion; SettingsError says which key is wrong. Missing keys default."""
    if not isinstance(data, dict):
        raise SettingsError("the file does not hold a JSON object")
    base = asdict(Settings())
    unknown = sorted(set(data) - set(base))
    if unknown:
        raise SettingsError(f"unknown setting '{unknown[0]}'")
    merged = {**base, **data}
    rate = merged["rate"]
    if rate is not None and (
        isinstance(rate, bool) or not isinstance(rate, int) or not RATES[0] <= rate <= RATES[1]
    ):
        raise SettingsError(
            f"'rate' must be a whole number of words a minute from {RATES[0]} to {RATES[1]}, "
            f"not {rate!r}"
        )
    if not isinstance(merged["bed"], bool):
        raise SettingsError("'bed' must be true or false")
    times = merged["action_times"]
    if not isinstance(times, dict) or not all(
        isinstance(v, dict)
        and all(
            isinstance(s, int | float) and not isinstance(s, bool) and 0 <= s <= 600
            for s in v.values()
        )
        for v in times.values()
    ):
        raise SettingsError("'action_times' must map ruleset ids to {role: 0 to 600 seconds}")
    boxes = merged["boxes"]
    if not isinstance(boxes, dict) or not all(
        isinstance(v, list) and all(isinstance(b, str) for b in v) for v in boxes.values()
    ):
        raise SettingsError("'boxes' must map ruleset ids to a list of box ids")
    options = merged["game_options"]
    if not isinstance(options, dict) or not all(
        isinstance(v, dict)
        and all(
            isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
            for x in v.values()
        )
        for v in options.values()
    ):
        raise SettingsError("'game_options' must map ruleset ids to {option: number}")
    theme = _text(merged, "theme")
    if theme not in THEMES:
        raise SettingsError(f"'theme' must be one of {', '.join(THEMES)}")
    app_language = _text(merged, "app_language")
    if app_language not in APP_LANGUAGES:
        raise SettingsError(f"'app_language' must be one of {', '.join(APP_LANGUAGES)}")
    ambience = _text(merged, "ambience")
    if not ambience or not ambience.isidentifier():
        raise SettingsError(f"'ambience' must be the name of a bed, not {ambience!r}")
    bidi = _text(merged, "bidi")
    if bidi not in BIDI:
        raise SettingsError(f"'bidi' must be one of {', '.join(BIDI)}")
    return Settings(
        app_language=app_language,
        bidi=bidi,
        language=_text(merged, "language") or locale_language(),
        voice=_text(merged, "voice", optional=True),
        rate=rate,
        pace=_number(merged, "pace", *PACE_RANGE),
        action_times={str(k): {str(r): float(s) for r, s in v.items()} for k, v in times.items()},
        bed=merged["bed"],
        ambience=ambience,
        wake_gap=_number(merged, "wake_gap", *WAKE_GAP_RANGE),
        bed_volume=_number(merged, "bed_volume", 0, 1),
        bed_tempo=_number(merged, "bed_tempo", 0.25, 4),
        volume=_number(merged, "volume", 0, 1),
        device=_text(merged, "device", optional=True),
        microphone=_text(merged, "microphone", optional=True),
        theme=theme,
        boxes={str(k): [str(b) for b in v] for k, v in boxes.items()},
        game_options={str(k): {str(o): float(x) for o, x in v.items()} for k, v in options.items()},
    )


class SettingsStore:
    """Loads and saves `Settings` at `path` (default: the user config directory)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def load(self) -> tuple[Settings, str | None]:
        """The saved settings and None, or the defaults and what happened to the file."""
        try:
            with self.path.open("rb") as file:
                data = file.read(LARGEST + 1)
        except FileNotFoundError:
            return Settings(), None
        except OSError as exc:
            return Settings(), f"Could not read {self.path} ({exc.strerror}); using the defaults."
        try:
            if len(data) > LARGEST:
                raise SettingsError(f"it is over {LARGEST // 1000} kB")
            if data.startswith(b"\xef\xbb\xbf"):
                raise SettingsError("it starts with a byte-order mark")
            text = data.decode("utf-8")
            return settings_from_dict(json.loads(text)), None
        except UnicodeDecodeError as exc:
            why = f"it is not UTF-8 text (byte {exc.start})"
        except RecursionError:
            why = "it is nested too deeply"
        except (ValueError, SettingsError) as exc:
            why = " ".join(str(exc).split())[:200]
        try:
            kept = self._move_aside()
        except OSError as exc:
            return Settings(), (
                f"Your settings file could not be read ({why}) nor moved aside "
                f"({exc.strerror}); the defaults are used and {self.path} is left as it is."
            )
        return Settings(), (
            f"Your settings file could not be read ({why}). It was kept as {kept.name} "
            "and the defaults are used."
        )

    def _move_aside(self) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        os.replace(self.path, target)
        return target

    def save(self, settings: Settings) -> None:
        """Write whole or not at all, synced, the user's alone (`base.files.write_whole`:
        no guessable temporary name a link could be planted at). A WriteError (an
        OSError, one line) when it cannot be written: the file is then as it was."""
        from narrator.base.files import write_whole  # (tempfile: not for the first frame)

        write_whole(self.path, settings.to_json().encode("utf-8"), folder_mode=0o777)


def audio_settings(settings: Settings) -> AudioSettings:
    """The audio part of the user's settings, as the audio layer takes it."""
    from narrator.audio.settings import AudioSettings

    return AudioSettings(
        voice=settings.voice,
        rate=settings.rate,
        bed=settings.bed,
        ambience=settings.ambience,
        bed_volume=settings.bed_volume,
        bed_tempo=settings.bed_tempo,
        volume=settings.volume,
        device=int(settings.device)
        if settings.device and settings.device.isdigit()
        else settings.device,
    )
