"""GamesScreen: choose the game system (shipped or the user's own rulesets).

A broken user ruleset is listed too, greyed out, with the loader's one-line error,
so a typo in somebody's YAML is found here and not by its silence.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from narrator.i18n import N_
from narrator.rules.catalog import Catalog
from narrator.tui.text import NarratorFooter, shape, t


class GamesScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", N_("Choose"), show=True),
        Binding("t", "table", N_("Table (phones)"), show=True),
    ]

    class GameChosen(Message):
        def __init__(self, ruleset_id: str) -> None:
            super().__init__()
            self.ruleset_id = ruleset_id

    class TableRequested(Message):
        """Play the highlighted game with the players' phones (the Table mode)."""

        def __init__(self, ruleset_id: str) -> None:
            super().__init__()
            self.ruleset_id = ruleset_id

    def __init__(self, catalog: Catalog, lang: str) -> None:
        super().__init__()
        self.catalog = catalog
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(shape(t("Choose the game")), id="title")
        options: list[Option] = []
        for ruleset in sorted(self.catalog.rulesets.values(), key=lambda r: r.id):
            lang = self.lang if self.lang in ruleset.languages else ruleset.languages[0]
            line = Text(shape(ruleset.name.get(lang), lang), style="bold")
            if ruleset.id in self.catalog.user_ids:
                line.append(shape("  " + t("(yours)")), style="italic")
            setup = ruleset.setup
            nights = t("one night") if ruleset.nights == 1 else t("many nights")
            if ruleset.rounds is not None:
                nights = t("{count} rounds").format(count=ruleset.rounds.count)
            players = t("{low}–{high} players").format(
                low=setup.min_players, high=setup.max_players
            )
            languages = t("languages: {codes}").format(codes=", ".join(ruleset.languages))
            line.append("\n  " + shape(f"{players} · {nights} · {languages}"), style="dim")
            options.append(Option(line, id=ruleset.id))
        for error in self.catalog.broken:
            name = error.path.name if error.path is not None else "?"
            broken = t("broken")
            line = Text(f"{name} ({broken})", style="bold red")
            line.append(f"\n  {error}", style="red")
            options.append(Option(line, disabled=True))
        yield OptionList(*options, id="games")
        yield Static("", id="about")
        yield Static(
            shape(
                t("Enter: choose · T: table (phones) · F2: settings · F1: help · Ctrl+P: commands")
            ),
            id="hint",
        )
        yield NarratorFooter()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        ruleset = self.catalog.rulesets.get(event.option.id or "")
        about = ""
        if ruleset is not None and ruleset.description is not None:
            langs = ruleset.description.languages()
            code = self.lang if self.lang in langs else sorted(langs)[0]
            about = shape(ruleset.description.get(code), code)
        self.query_one("#about", Static).update(about)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.post_message(self.GameChosen(event.option.id))

    def action_choose(self) -> None:
        option = self.query_one(OptionList).highlighted_option
        if option is not None and option.id is not None:
            self.post_message(self.GameChosen(option.id))

    def action_table(self) -> None:
        option = self.query_one(OptionList).highlighted_option
        if option is not None and option.id is not None:
            self.post_message(self.TableRequested(option.id))
