"""SetupScreen: players and roles, checked as you edit.

The checks are the core's (`check_selection`), in plain words; Play stays
unavailable until they pass. For games of many nights the chosen roles are the
*possible* roles -- all of them are called every night -- and the screen says so.
"""

from __future__ import annotations

import random
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from narrator.i18n import N_
from narrator.rules import describe_dealing
from narrator.session.game import GameSetup
from narrator.tui.text import NarratorFooter, block, lang, shape, t, tn
from narrator.tui.widgets.role_picker import RolePicker


class SetupScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "players(1)", N_("+Player"), key_display="]"),
        Binding("left_square_bracket", "players(-1)", N_("-Player"), key_display="["),
        Binding("r", "recommend", N_("Deck")),
        Binding("x", "random", N_("Random")),
        Binding("o", "options", N_("Options")),
        Binding("v", "record_voice", N_("Record a voice"), show=False),
        Binding("p", "preview", N_("Preview")),
        Binding("space", "play", N_("Play")),
        Binding("escape", "back", N_("Back")),
    ]

    class PreviewRequested(Message):
        """Show the night's calls before playing."""

    class PlayRequested(Message):
        """Go straight to the night."""

    class OptionsRequested(Message):
        """Choose the boxes owned and the ruleset's options."""

    class RecordRequested(Message):
        """Record this game's lines in a friend's voice (a voice pack)."""

    class SelectionChanged(Message):
        """The night chosen changed (players, roles): the app prepares its calls."""

    def __init__(self, game: GameSetup, rng: random.Random | None = None) -> None:
        super().__init__()
        self.game = game
        self.rng = rng or random.Random()

    def compose(self) -> ComposeResult:
        game = self.game
        yield Static(shape(game.title), id="title")
        with Horizontal(id="setup"):
            with Vertical(id="left"):
                with Horizontal(id="players-row"):
                    yield Button("−", id="fewer", compact=True)
                    yield Label("", id="players")
                    yield Button("+", id="more", compact=True)
                yield RolePicker(id="roles")
            with Vertical(id="right"):
                yield Static("", id="cards")
                yield Static("", id="checks")
                yield Static("", id="voice-ready")
                if game.many_nights:
                    yield Static(
                        shape(
                            t(
                                "These are the possible roles: every one of them is called "
                                "every night, whether its card is dealt or not, so nobody "
                                "learns which roles are in play."
                            )
                        ),
                        id="possible",
                    )
        yield NarratorFooter()

    def on_mount(self) -> None:
        self.show()
        self.query_one(RolePicker).focus()

    def show(self) -> None:
        game = self.game
        setup = game.ruleset.setup
        players = tn("{n} player", "{n} players", game.players).format(n=game.players)
        self.query_one("#players", Label).update(
            shape(f" {players} ({setup.min_players}–{setup.max_players}) ")
        )
        self.query_one(RolePicker).show(game.groups(), game.counts, game.lang)
        low, high = game.players + setup.extra_min, game.players + setup.extra_max
        if setup.extra_min == setup.extra_max and setup.extra_min:
            need = t("{need} needed: {dealt} dealt + {centre} in the centre").format(
                need=low, dealt=game.players, centre=setup.extra_min
            )
        elif low == high:
            need = t("{need} needed").format(need=low)
        else:
            need = t("{low}–{high} allowed").format(low=low, high=high)
        cards = tn("{n} card", "{n} cards", game.cards).format(n=game.cards)
        lines = [shape(f"{cards} · {need}")]
        deal = game.dealing()
        # Which card a deck's removal takes, how many are dealt and set aside (the
        # line above already says it when the centre always holds the same number).
        if game.valid and (deal.discard or (deal.aside and setup.extra_min != setup.extra_max)):
            dealt = describe_dealing(game.ruleset, deal, game.roles, lang())
            lines.append(block(dealt, 46))
        self.query_one("#cards", Static).update("\n".join(lines))
        report = game.report(lang())
        lines = [f"[red]✗ {block(e, 46)}[/]" for e in report.errors]
        lines += [f"[yellow]! {block(w, 46)}[/]" for w in report.warnings]
        if report.ok:
            ready = shape(t("Ready to play."))
            lines.insert(0, f"[green]✓ {ready}[/]")
        self.query_one("#checks", Static).update("\n".join(lines))
        self.refresh_bindings()
        if game.valid:
            self.post_message(self.SelectionChanged())

    def set_voice_ready(self, line: str) -> None:
        """How far the night's calls are prepared (empty: nothing to say)."""
        ready = self.query_one("#voice-ready", Static)
        ready.update(line)
        ready.display = bool(line)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("play", "preview"):
            return True if self.game.valid else None  # shown, greyed out, until valid
        if action == "options":  # only for a ruleset with boxes or options
            return bool(self.game.ruleset.boxes or self.game.ruleset.options)
        return True

    def on_role_picker_count_changed(self, event: RolePicker.CountChanged) -> None:
        self.game.change_count(event.role_id, event.delta)
        self.show()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_players(1 if event.button.id == "more" else -1)

    def action_players(self, delta: int) -> None:
        # A recommended deck follows the player count; a hand-made one is left alone.
        follow = self.game.is_recommended()
        self.game.set_players(self.game.players + delta)
        if follow:
            self.game.recommend()
        self.show()

    def action_recommend(self) -> None:
        note = self.game.recommend()
        if note:
            self.notify(note, title=t("Recommended deck"))
        self.show()

    def action_random(self) -> None:
        if not self.game.random_pick(self.rng):
            self.notify(t("No other valid deck found for this many players."), severity="warning")
        self.show()

    def action_options(self) -> None:
        self.post_message(self.OptionsRequested())

    def action_record_voice(self) -> None:
        self.post_message(self.RecordRequested())

    def action_preview(self) -> None:
        self.post_message(self.PreviewRequested())

    def action_play(self) -> None:
        self.post_message(self.PlayRequested())

    def action_back(self) -> None:
        self.dismiss()
