"""NewPackDialog: before recording, the voice's name, who reads it, the licence and the
language; dismisses a `PackChoice` or None (a `FormDialog`).

A name recorded before for the same game and language goes on with that pack; the
app makes or finds the pack (files are the app's workers' business, not a dialog's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Label, Select, Static

from narrator.i18n import N_
from narrator.tui.screens.form import AnswerRefused, FormDialog
from narrator.tui.text import shape, t

LANGUAGE_NAMES = {"en": "English", "it": "Italiano", "fa": "فارسی"}
LICENCE = "CC BY 4.0"  # what a group that shares its pack most often means


@dataclass(frozen=True)
class PackChoice:
    name: str
    language: str
    recorded_by: str
    licence: str


class NewPackDialog(FormDialog[PackChoice]):
    FRAME: ClassVar[str] = "new-pack"
    ERROR: ClassVar[str] = "new-pack-error"

    def __init__(self, game: str, languages: tuple[str, ...], lang: str) -> None:
        super().__init__(t("Record"))
        self.game = game
        self.languages = languages
        self.lang = lang if lang in languages else languages[0]

    def _row(self, label: str, widget: Input | Select[str]) -> Horizontal:
        return Horizontal(Label(shape(t(label)), classes="field-label"), widget, classes="field")

    def fields(self) -> ComposeResult:
        languages = [(shape(LANGUAGE_NAMES.get(code, code), code), code) for code in self.languages]
        yield Static(
            shape(t("Record a voice for {game}").format(game=self.game)), id="settings-title"
        )
        yield self._row(
            N_("Name of the voice"),
            Input(placeholder=shape(t("as your group calls it")), id="pack-name", compact=True),
        )
        yield self._row(N_("Recorded by"), Input(id="pack-by", compact=True))
        yield self._row(N_("Licence"), Input(LICENCE, id="pack-licence", compact=True))
        yield self._row(
            N_("Language"),
            Select(languages, value=self.lang, id="pack-language", allow_blank=False, compact=True),
        )
        yield Static(
            shape(
                t(
                    "Every line the game can say is shown in turn, tonight's deck first. "
                    "A name recorded before goes on where it stopped."
                )
            ),
            id="new-pack-hint",
        )

    def on_mount(self) -> None:
        self.query_one("#pack-name", Input).focus()

    def answer(self) -> PackChoice:
        name = " ".join(self.query_one("#pack-name", Input).value.split())
        if not name:
            self.query_one("#pack-name", Input).focus()
            raise AnswerRefused(t("Give the voice a name."))
        language = self.query_one("#pack-language", Select).value
        return PackChoice(
            name=name,
            language=str(language) if isinstance(language, str) else self.lang,
            recorded_by=self.query_one("#pack-by", Input).value.strip(),
            licence=self.query_one("#pack-licence", Input).value.strip(),
        )
