"""Each neural voice's natural speaking rate, measured once, so `--rate` is what is heard.

A neural voice has no words-a-minute setting, only a stretch (Piper's length scale,
hibari's speed), and voices differ: Joe speaks ~200 words a minute at its own pace,
hibari's heart about 180. A constant guess made `--rate 150` come out at ~197 wpm.
So the first time a voice is used, it says `CALIBRATION` at its own pace; its words
over the seconds from the first to the last sound of each sentence (trimmed, as
every call is) is its natural rate, kept in the user's cache folder under the voice's identity
(engine, version, model digest). It is measured at a slower and a faster speed
too, since a stretch does not lengthen speech in proportion (`NaturalRate`); a
rate R then asks for the speed that gives R.

A voice that speaks more than one language (Kokoro's) is measured in each, with
calls of that language (`CALIBRATIONS`): words a minute depend on the words.

The voices narrator ships (hibari's heart, Piper's Joe, Kokoro's) come measured: their rates,
for the versions `pyproject.toml` installs, are in `voice-rates.json` beside this
module, so the first call is not kept waiting by a calibration (hibari is seeded:
its measure is the same on every machine; Joe's varies by about 2 %, the median of
three is shipped). A test measures them again against this file.

Measured the way `scripts/bench_sound` and the tests measure what is heard.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from narrator.audio.synth import Samples
from narrator.base.files import write_cache

# Calls as the night makes them: one sentence or two, commas, a colon, a semicolon,
# and the game's long words (its role names), about 4.2 letters a word as a night's
# calls have 4.3: words a minute depend on the words, and calls of short everyday
# words made the night 6-8 % slower than set. Each is said and trimmed on its own,
# as each call is, so the pauses inside a call count as they do in the night.
CALIBRATION = (
    "Everyone, close your eyes.",
    "Werewolves, wake up and find each other. If you are alone, look at a card in the centre.",
    "Seer, wake up. You may look at another player's card, or at two of the cards in the centre.",
    "Doppelganger, look at the card of one other player: you now play that role; "
    "if it acts at once, act now.",
    "Troublemaker, wake up. You may exchange the cards of two other players, without "
    "looking at them.",
    "Werewolves, thumbs down. Insomniac, check whether your card has changed, then close "
    "your eyes.",
)
# The same kind of calls in the other languages the game speaks (ours, as the night's
# lines are): a voice speaking Italian or Persian is measured in it, since words a
# minute depend on the language's words (Italian's are longer than English's,
# Persian's longer still).
CALIBRATIONS = {
    "en": CALIBRATION,
    "it": (
        "Tutti, chiudete gli occhi.",
        "Lupi mannari, svegliatevi e cercatevi con lo sguardo. Chi è solo può guardare "
        "una carta al centro.",
        "Veggente, svegliati. Puoi guardare la carta di un altro giocatore, oppure due "
        "carte al centro.",
        "Ladro, guarda la carta di un altro giocatore: ora sei quel ruolo; se agisce "
        "subito, agisci ora.",
        "Piantagrane, svegliati. Puoi scambiare le carte di altri due giocatori, senza guardarle.",
        "Lupi mannari, giù il pollice. Insonne, guarda se la tua carta è cambiata, poi "
        "chiudi gli occhi.",
    ),
    "fa": (
        "همگی، چشم‌هایتان را ببندید.",
        "گرگینه‌ها، بیدار شوید و یکدیگر را پیدا کنید. اگر تنها هستی، به یک کارت وسط نگاه کن.",
        "پیشگو، بیدار شو. می‌توانی کارت یک بازیکن دیگر، یا دو کارت از وسط میز را ببینی.",
        "جیب‌بر، به کارت یک بازیکن دیگر نگاه کن: حالا تو همان نقش هستی؛ اگر کاری دارد، "
        "همین حالا انجامش بده.",
        "دردسرساز، بیدار شو. می‌توانی کارت‌های دو بازیکن دیگر را با هم عوض کنی، بی‌آنکه نگاهشان کنی.",
        "گرگینه‌ها، دست‌ها پایین. خوابگرد، ببین کارتت عوض شده است یا نه، بعد چشم‌هایت را ببند.",
    ),
}


def calibration(lang: str) -> tuple[str, ...]:
    """The calibration sentences for `lang` (English's for a language without its own)."""
    return CALIBRATIONS.get(lang.split("-")[0].lower(), CALIBRATION)


# Bump when the calibration changes: the speech cache keys a neural voice's lines by
# the rate asked and this, not by the speed the calibration gave. 2: night-like calls.
RATE_VERSION = 2
_EDGE = 10 ** (-48 / 20)  # as synth.postprocess: 48 dB under the peak is silence


def speech_seconds(samples: Samples, sample_rate: int) -> float:
    """Seconds from the first to the last sound (48 dB under the peak is silence)."""
    x = np.abs(np.asarray(samples, np.float32))
    loud = np.flatnonzero(x > _EDGE * float(np.max(x, initial=0.0)))
    return 0.0 if len(loud) == 0 else (int(loud[-1]) - int(loud[0]) + 1) / sample_rate


def words_a_minute(
    say: Callable[[str], tuple[Samples, int]], texts: tuple[str, ...] = CALIBRATION
) -> float:
    """The natural rate of the voice `say` is (text -> samples, sample rate): the
    calibration sentences' (`texts`) words over their seconds of speech."""
    words, seconds = 0, 0.0
    for text in texts:
        samples, sample_rate = say(text)
        words += len(text.split())
        seconds += speech_seconds(samples, sample_rate)
    if seconds <= 0:
        raise ValueError("the voice said nothing when asked to say the calibration sentences")
    return words * 60.0 / seconds


PROBES = (0.65, 1.4)  # the other speeds measured: one slower, one faster than its own


@dataclass(frozen=True, slots=True)
class NaturalRate:
    """A voice's words a minute at its own pace, and how its rate follows its speed
    control: rate = wpm * speed ** exponent, one exponent below its own pace and one
    above (a stretch does not lengthen every part of speech alike, so neither is
    exactly 1)."""

    wpm: float
    slower: float = 1.0
    faster: float = 1.0

    def speed(self, rate: int) -> float:
        """The speed (1 = the voice's own pace, 2 = twice as fast) that makes `rate` wpm."""
        exponent = self.slower if rate < self.wpm else self.faster
        if self.wpm <= 0 or rate <= 0 or exponent <= 0:
            return 1.0
        return float((rate / self.wpm) ** (1.0 / exponent))


def measure_rate(
    say: Callable[[str, float], tuple[Samples, int]], texts: tuple[str, ...] = CALIBRATION
) -> NaturalRate:
    """Measure a voice (`say(text, speed)` -> samples, sample rate) at its own pace and
    at each of `PROBES` times it, saying `texts`."""
    own = words_a_minute(lambda text: say(text, 1.0), texts)
    exponents = []
    for probe in PROBES:
        heard = words_a_minute(lambda text, probe=probe: say(text, probe), texts)  # type: ignore[misc]
        exponents.append(min(1.5, max(0.5, math.log(heard / own) / math.log(probe))))
    return NaturalRate(own, *exponents)


SHIPPED = Path(__file__).with_name("voice-rates.json")


def _parse(data: object) -> dict[str, NaturalRate]:
    rates: dict[str, NaturalRate] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            rate = NaturalRate(float(value["wpm"]), float(value["slower"]), float(value["faster"]))
            if min(rate.wpm, rate.slower, rate.faster) > 0:
                rates[str(key)] = rate
    return rates


@functools.cache
def shipped_rates() -> dict[str, NaturalRate]:
    """The natural rates of the voices narrator ships, measured before shipping."""
    try:
        return _parse(json.loads(SHIPPED.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, AttributeError, KeyError):
        return {}


def natural_rate(
    book: RateBook | None, identity: str, measure: Callable[[], NaturalRate]
) -> NaturalRate:
    """A voice's natural rate: from the user's book, shipped, or measured (and kept)."""
    if book is not None:
        return book.natural(identity, measure)
    return shipped_rates().get(identity) or measure()


class RateBook:
    """Natural rates by voice identity, in one small JSON file (thread-safe)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._rates: dict[str, NaturalRate] | None = None

    def _read(self) -> dict[str, NaturalRate]:
        if self._rates is None:
            self._rates = {}
            # a lost or broken file: measured again, a second or two
            with contextlib.suppress(OSError, ValueError, TypeError, AttributeError, KeyError):
                self._rates = _parse(json.loads(self.path.read_text(encoding="utf-8")))
        return self._rates

    def natural(self, identity: str, measure: Callable[[], NaturalRate]) -> NaturalRate:
        """The natural rate of the voice `identity`; `measure()` makes it the first time."""
        with self._lock:
            known = self._read().get(identity) or shipped_rates().get(identity)
        if known is not None:
            return known
        measured = measure()
        rate = NaturalRate(
            round(measured.wpm, 1), round(measured.slower, 3), round(measured.faster, 3)
        )
        with self._lock:
            rates = self._read()
            rates[identity] = rate
            self._write(rates)
        return rate

    def _write(self, rates: dict[str, NaturalRate]) -> None:
        data = {k: {"wpm": v.wpm, "slower": v.slower, "faster": v.faster} for k, v in rates.items()}
        text = json.dumps(data, indent=1, sort_keys=True).encode("utf-8")
        # A read-only cache: measured again next time, nothing else lost.
        write_cache(self.path, lambda file: file.write(text))
