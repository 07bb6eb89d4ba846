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
from narrator.rules.index import GamesIndex
from narrator.tui.text import NarratorFooter, shape, t


class GamesScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", N_("Choose"), show=True),
        Binding("t", "table", N_("Table (phones)"), show=True),
        Binding("v", "app.voice_packs", N_("Voice packs"), show=True),
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

    def __init__(self, games: GamesIndex, lang: str) -> None:
        super().__init__()
        self.games = games
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(shape(t("Choose the game")), id="title")
        yield OptionList(*self._options(), id="games")
        yield Static("", id="about")
        yield Static(
            shape(
                t("Enter: choose · T: table (phones) · F2: settings · F1: help · Ctrl+P: commands")
            ),
            id="hint",
        )
        yield NarratorFooter()

    def _options(self) -> list[Option]:
        options: list[Option] = []
        for game in self.games.games:
            name, lang = game.name(self.lang)
            line = Text(shape(name, lang), style="bold")
            if game.yours:
                line.append(shape("  " + t("(yours)")), style="italic")
            nights = t("one night") if game.nights == 1 else t("many nights")
            if game.rounds is not None:
                nights = t("{count} rounds").format(count=game.rounds)
            players = t("{low}–{high} players").format(low=game.min_players, high=game.max_players)
            languages = t("languages: {codes}").format(codes=", ".join(game.languages))
            line.append("\n  " + shape(f"{players} · {nights} · {languages}"), style="dim")
            options.append(Option(line, id=game.id))
        for error in self.games.broken:
            broken = t("broken")
            line = Text(f"{error.file} ({broken})", style="bold red")
            line.append(f"\n  {error.error}", style="red")
            options.append(Option(line, disabled=True))
        return options

    def show(self, games: GamesIndex) -> None:
        """List `games` instead (the catalogue read after the first frame differs from
        the kept list): the highlighted game stays highlighted."""
        if games == self.games:
            return
        self.games = games
        listing = self.query_one(OptionList)
        chosen = listing.highlighted_option.id if listing.highlighted_option else None
        listing.clear_options()
        listing.add_options(self._options())
        ids = [game.id for game in games.games]
        listing.highlighted = ids.index(chosen) if chosen in ids else (0 if ids else None)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        about = ""
        game = self.games.get(event.option.id or "")
        description = game.description(self.lang) if game is not None else None
        if description is not None:
            about = shape(*description)
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
