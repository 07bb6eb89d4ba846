"""SettingsScreen: a form over `Settings`; dismisses the new value or None.

Saving is the app's job (it owns the store); this dialog only checks the numbers
and says, next to the field, what is wrong. "Test sound" asks the app to speak one
line with the settings as they stand in the form, on the chosen device.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, Switch

from narrator.i18n import N_
from narrator.script.defaults import PACE_RANGE, WAKE_GAP_RANGE
from narrator.session.config import Settings
from narrator.session.engine import AudioChoices
from narrator.tui.text import NarratorFooter, shape, t

LANGUAGES = (("English", "en"), ("Italiano", "it"), (shape("فارسی", "fa") + " (Persian)", "fa"))
BIDI_CHOICES = ((N_("auto"), "auto"), (N_("on"), "on"), (N_("off"), "off"))


class SettingsScreen(ModalScreen[Settings | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("ctrl+s", "save", N_("Save")),
    ]

    class TestSoundRequested(Message):
        def __init__(self, settings: Settings) -> None:
            super().__init__()
            self.settings = settings

    def __init__(self, settings: Settings, choices: AudioChoices) -> None:
        super().__init__()
        self.settings = settings
        self.choices = choices
        self._voices_for = settings.language  # the language the voice list is for

    def _row(self, label: str, widget: Input | Select[str] | Switch) -> Horizontal:
        return Horizontal(Label(shape(t(label)), classes="field-label"), widget, classes="field")

    def _chosen(self, label: str, id: str, saved: str | None, unset: str) -> Horizontal:
        """A row choosing from a list the worker fills (`fill_choices`): at first only
        the saved value, or `unset` when there is none (the speech engine and the
        devices take a moment to answer)."""
        select: Select[str] = Select(
            [(saved, saved)] if saved else [],
            value=saved or Select.NULL,
            id=id,
            prompt=shape(t(unset)),
            compact=True,
        )
        return self._row(label, select)

    def compose(self) -> ComposeResult:
        s = self.settings
        beds = [(s.ambience, s.ambience)]
        with VerticalScroll(id="settings-form"):
            yield Static(shape(t("Settings")), id="settings-title")
            yield self._row(
                N_("Language of the calls"),
                Select(LANGUAGES, value=s.language, id="language", allow_blank=False, compact=True),
            )
            yield self._row(
                N_("Language of the app"),
                Select(
                    ((shape(t("the game's language")), "auto"), *LANGUAGES),
                    value=s.app_language,
                    id="app_language",
                    allow_blank=False,
                    compact=True,
                ),
            )
            yield self._row(
                N_("Persian drawn by narrator"),
                Select(
                    [(shape(t(label)), value) for label, value in BIDI_CHOICES],
                    value=s.bidi,
                    id="bidi",
                    allow_blank=False,
                    compact=True,
                ),
            )
            yield self._chosen(N_("Voice"), "voice", s.voice, N_("default for the language"))
            yield self._row(
                N_("Speaking rate (wpm)"),
                Input(
                    "" if s.rate is None else str(s.rate),
                    placeholder=shape(t("default")),
                    id="rate",
                    type="integer",
                    compact=True,
                ),
            )
            yield self._row(
                N_("Pace of the night"),
                Input(f"{s.pace:g}", id="pace", type="number", compact=True),
            )
            yield self._row(N_("Tapping"), Switch(value=s.bed, id="bed"))
            yield self._row(
                N_("Ambience"),
                Select(beds, value=s.ambience, id="ambience", allow_blank=False, compact=True),
            )
            yield self._row(
                N_("Wake-up gap (s)"),
                Input(f"{s.wake_gap:g}", id="wake_gap", type="number", compact=True),
            )
            yield self._row(
                N_("Tapping volume 0–1"),
                Input(f"{s.bed_volume:g}", id="bed_volume", type="number", compact=True),
            )
            yield self._row(
                N_("Tapping tempo"),
                Input(f"{s.bed_tempo:g}", id="bed_tempo", type="number", compact=True),
            )
            yield self._row(
                N_("Voice volume 0–1"),
                Input(f"{s.volume:g}", id="volume", type="number", compact=True),
            )
            yield self._chosen(N_("Output device"), "device", s.device, N_("system default"))
            yield self._chosen(
                N_("Microphone (voice packs)"), "microphone", s.microphone, N_("system default")
            )
            times = "; ".join(
                f"{rs}: " + ", ".join(f"{r} {t:g} s" for r, t in roles.items())
                for rs, roles in s.action_times.items()
            )
            yield Static(
                shape(
                    t("Action times (set in the preview): {times}").format(
                        times=times or t("as written")
                    )
                ),
                id="action-times",
            )
            yield Static("", id="settings-error")
            with Horizontal(id="settings-buttons"):
                yield Button(shape(t("Save")), variant="primary", id="save")
                yield Button(shape(t("Test sound")), id="test")
                yield Button(shape(t("Clear action times")), id="clear-times")
                yield Button(shape(t("Cancel")), id="cancel")
        yield NarratorFooter()

    def on_mount(self) -> None:
        self.load_choices(self.settings.language)

    @work(thread=True, exclusive=True, group="choices")
    def load_choices(self, language: str) -> None:
        voices = self.choices.voices(language)
        devices = self.choices.devices()
        beds = self.choices.beds()
        microphones = self.choices.microphones()
        self.app.call_from_thread(self.fill_choices, voices, devices, beds, microphones)

    def fill_choices(
        self,
        voices: list[tuple[str, str]],
        devices: list[tuple[str, str]],
        beds: list[tuple[str, str]] | None = None,
        microphones: list[tuple[str, str]] | None = None,
    ) -> None:
        found_by_id = {
            "#voice": voices,
            "#device": devices,
            "#ambience": beds or [],
            "#microphone": microphones or [],
        }
        for widget_id, found in found_by_id.items():
            select: Select[str] = self.query_one(widget_id, Select)
            current = select.value if isinstance(select.value, str) else None
            options = [(label, value) for value, label in found]
            if current is not None and current not in [v for _, v in options]:
                options.insert(0, (current, current))
            select.set_options(options)
            if current is not None:
                select.value = current

    def on_select_changed(self, event: Select.Changed) -> None:
        value = event.value
        # (a Select also reports its first value; the list for it is already coming)
        if event.select.id == "language" and isinstance(value, str) and value != self._voices_for:
            self._voices_for = value
            self.load_choices(value)

    def _number(self, field: str, low: float, high: float) -> float:
        text = self.query_one(f"#{field}", Input).value.strip()
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{field.replace('_', ' ')}: a number, please") from None
        if not low <= value <= high:
            raise ValueError(f"{field.replace('_', ' ')}: from {low:g} to {high:g}")
        return value

    def read_form(self) -> Settings:
        """The form as Settings; ValueError names the field that is wrong."""
        rate_text = self.query_one("#rate", Input).value.strip()
        rate = int(rate_text) if rate_text else None
        if rate is not None and not 60 <= rate <= 400:
            raise ValueError("speaking rate: from 60 to 400 words a minute")
        language = self.query_one("#language", Select).value
        app_language = self.query_one("#app_language", Select).value
        bidi = self.query_one("#bidi", Select).value
        voice = self.query_one("#voice", Select).value
        device = self.query_one("#device", Select).value
        microphone = self.query_one("#microphone", Select).value
        ambience = self.query_one("#ambience", Select).value
        return replace(
            self.settings,
            language=str(language),
            app_language=str(app_language),
            bidi=str(bidi),
            voice=voice if isinstance(voice, str) else None,
            rate=rate,
            pace=self._number("pace", *PACE_RANGE),
            bed=self.query_one("#bed", Switch).value,
            ambience=str(ambience),
            wake_gap=self._number("wake_gap", *WAKE_GAP_RANGE),
            bed_volume=self._number("bed_volume", 0, 1),
            bed_tempo=self._number("bed_tempo", 0.25, 4),
            volume=self._number("volume", 0, 1),
            device=device if isinstance(device, str) else None,
            microphone=microphone if isinstance(microphone, str) else None,
        )

    def _checked(self) -> Settings | None:
        try:
            return self.read_form()
        except ValueError as exc:
            self.query_one("#settings-error", Static).update(f"[red]{exc}[/]")
            return None

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        elif event.button.id == "cancel":
            self.action_cancel()
        elif event.button.id == "clear-times":
            self.settings = replace(self.settings, action_times={})
            self.query_one("#action-times", Static).update(shape(t("Action times: as written")))
        elif event.button.id == "test":
            settings = self._checked()
            if settings is not None:
                self.post_message(self.TestSoundRequested(settings))

    def action_save(self) -> None:
        settings = self._checked()
        if settings is not None:
            self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)
