"""The settings' lists as the real audio layer gives them (narrator/tui/choices.py):
the default device marked in the app's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import narrator.audio
from narrator.audio.devices import Device
from narrator.tui import text
from narrator.tui.choices import RealChoices

DEVICES = {
    "output": [Device(0, "Speakers", True, 2, "ALSA"), Device(3, "USB", False, 2, "ALSA")],
    "input": [Device(1, "Built-in", False, 1, "ALSA"), Device(4, "Headset", True, 1, "ALSA")],
}


@pytest.fixture
def italian() -> Iterator[None]:
    text.use("it", "it")
    yield
    text.use("auto", "en")


def test_the_default_output_and_microphone_are_marked_in_the_apps_language(
    italian: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(narrator.audio, "list_devices", lambda kind="output": DEVICES[kind])
    choices = RealChoices()
    assert choices.devices() == [("Speakers, ALSA", "Speakers (predefinito)"), ("USB, ALSA", "USB")]
    assert choices.microphones() == [
        ("Built-in, ALSA", "Built-in"),
        ("Headset, ALSA", "Headset (predefinito)"),
    ]


def test_no_sound_layer_lists_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(kind: str = "output") -> list[Device]:
        raise OSError("no PortAudio")

    monkeypatch.setattr(narrator.audio, "list_devices", unavailable)
    assert RealChoices().microphones() == [] and RealChoices().devices() == []
