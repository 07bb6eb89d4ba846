"""VoicePacksScreen: the voice packs installed; use, export, import or delete one.

The list is read, and zips written and read, by the screen's workers (the same
`packzip` the command line uses: a bad zip is one line and nothing is written).
Choosing a pack as the voice is the app's: it owns the settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from narrator.i18n import N_
from narrator.tui.text import NarratorFooter, shape, t, tn

if TYPE_CHECKING:
    from narrator.audio.voicepack import Manifest


COLUMNS = (N_("voice"), N_("id"), N_("game"), N_("language"), N_("lines"), N_("recorded by"))


class VoicePacksScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "use", N_("Use")),
        Binding("e", "export", N_("Export")),
        Binding("i", "import_pack", N_("Import")),
        Binding("d", "delete", N_("Delete")),
        Binding("escape", "back", N_("Back")),
    ]

    class UseRequested(Message):
        """Make this pack the voice (the settings' voice)."""

        def __init__(self, voice: str) -> None:
            super().__init__()
            self.voice = voice

    class Deleted(Message):
        """This pack is gone: if it was the voice, the language's default says the night."""

        def __init__(self, voice: str) -> None:
            super().__init__()
            self.voice = voice

    class Listed(Message):
        def __init__(self, packs: list[Manifest]) -> None:
            super().__init__()
            self.packs = packs

    def __init__(self, voice: str | None = None) -> None:
        super().__init__()
        self.voice = voice  # the voice chosen now
        self.packs: list[Manifest] = []

    def compose(self) -> ComposeResult:
        yield Static(shape(t("Voice packs")), id="title")
        table: DataTable[str] = DataTable(id="packs", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", id="packs-hint")
        yield NarratorFooter()

    def on_mount(self) -> None:
        table: DataTable[str] = self.query_one(DataTable)
        for column in COLUMNS:
            table.add_column(shape(t(column)))
        self.load()
        table.focus()

    @work(thread=True, exclusive=True, group="packs")
    def load(self) -> None:
        from narrator.audio.voicepack import installed_packs

        self.post_message(self.Listed([manifest for _, manifest in installed_packs()]))

    def on_voice_packs_screen_listed(self, message: Listed) -> None:
        self.packs = message.packs
        table: DataTable[str] = self.query_one(DataTable)
        table.clear()
        for pack in self.packs:
            name = shape(pack.name, pack.language)
            if pack.voice == self.voice:
                name = "✓ " + name
            lines = tn("{n} line", "{n} lines", len(pack.lines)).format(n=len(pack.lines))
            table.add_row(
                name,
                pack.voice,
                pack.game,
                pack.language,
                shape(lines),
                shape(pack.recorded_by, pack.language) or "–",
                key=pack.id,
            )
        hint = (
            t("u: use as the voice · e: export to a zip · i: import a zip · d: delete")
            if self.packs
            else t(
                "No voice pack yet. Record one from a game's players and roles (v), "
                "or import a zip (i)."
            )
        )
        self.query_one("#packs-hint", Static).update(shape(hint))
        self.refresh_bindings()

    def _current(self) -> Manifest | None:
        table: DataTable[str] = self.query_one(DataTable)
        if not self.packs:
            return None
        return self.packs[min(table.cursor_row, len(self.packs) - 1)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("use", "export", "delete"):
            return True if self.packs else None
        return True

    def action_use(self) -> None:
        pack = self._current()
        if pack is not None:
            self.voice = pack.voice
            self.post_message(self.UseRequested(pack.voice))
            self.on_voice_packs_screen_listed(self.Listed(self.packs))

    def action_export(self) -> None:
        from narrator.tui.screens.pack_file import PackFileDialog

        pack = self._current()
        if pack is None:
            return

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.export(pack.id, path)

        default = Path.home() / f"narrator-voice-{pack.id}.zip"
        question = t("Export the voice pack {name} to a zip file:").format(name=pack.name)
        self.app.push_screen(PackFileDialog(question, default, t("Export")), chosen)

    def action_import_pack(self) -> None:
        from narrator.tui.screens.pack_file import PackFileDialog

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.import_zip(path)

        question = t("Import a voice pack from a zip file:")
        self.app.push_screen(PackFileDialog(question, None, t("Import")), chosen)

    @work(thread=True, exclusive=True, group="pack-file")
    def export(self, pack_id: str, path: Path) -> None:
        from narrator.audio.packzip import export_pack
        from narrator.audio.voicepack import PackError

        try:
            manifest = export_pack(pack_id, path)
        except PackError as exc:
            self.app.call_from_thread(self.app.notify, str(exc), severity="error", timeout=15)
            return
        done = t("Voice pack {name} exported to {path}").format(name=manifest.name, path=path)
        self.app.call_from_thread(self.app.notify, shape(done))

    @work(thread=True, exclusive=True, group="pack-file")
    def import_zip(self, path: Path, replace: bool = False) -> None:
        from narrator.audio.packzip import import_pack
        from narrator.audio.voicepack import PackError, PackInstalled

        try:
            manifest = import_pack(path, replace=replace)
        except PackInstalled as exc:
            self.app.call_from_thread(self.ask_to_replace, path, exc.pack_id)
            return
        except PackError as exc:
            self.app.call_from_thread(self.app.notify, str(exc), severity="error", timeout=15)
            return
        done = t("Voice pack {name} installed: u makes it the voice").format(name=manifest.name)
        self.app.call_from_thread(self.app.notify, shape(done))
        self.load()

    def action_delete(self) -> None:
        from narrator.tui.screens.confirm import ConfirmDialog

        pack = self._current()
        if pack is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.delete(pack.id)

        lines = tn("{n} line", "{n} lines", len(pack.lines)).format(n=len(pack.lines))
        question = t("Delete the voice pack {name} ({lines})? It cannot be undone.")
        self.app.push_screen(ConfirmDialog(question.format(name=pack.name, lines=lines)), answered)

    @work(thread=True, exclusive=True, group="pack-file")
    def delete(self, pack_id: str) -> None:
        from narrator.audio.voicepack import PackError, delete_pack

        try:
            manifest = delete_pack(pack_id)
        except PackError as exc:
            self.app.call_from_thread(self.app.notify, str(exc), severity="error", timeout=15)
            return
        self.post_message(self.Deleted(manifest.voice))
        done = t("Voice pack {name} deleted").format(name=manifest.name)
        self.app.call_from_thread(self.app.notify, shape(done))
        self.load()

    def ask_to_replace(self, path: Path, pack_id: str) -> None:
        from narrator.tui.screens.confirm import ConfirmDialog

        def answered(replace: bool | None) -> None:
            if replace:
                self.import_zip(path, replace=True)

        question = t("The voice pack {id} is installed already: replace it with this one?")
        self.app.push_screen(ConfirmDialog(question.format(id=pack_id)), answered)

    def action_back(self) -> None:
        self.dismiss()
