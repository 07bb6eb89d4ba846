"""TableScreen: the app's Table mode -- the players' phones as the private channel.

The screen serves the table (`narrator.table.TableHost`, a web server on its own
thread) and renders it: the join URL as a QR code drawn with half blocks, the
short room code, the players as they arrive, the phase and the votes cast. Keys
send commands (deal, go on, end); the table's state lives in `narrator.table`,
never here. Leaving the screen stops the server.
"""

from __future__ import annotations

from typing import Any, ClassVar

import segno
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from narrator.i18n import N_
from narrator.table import TableError
from narrator.table.host import TableHost
from narrator.tui.text import NarratorFooter, shape, t

VOTING = ("vote", "accusation", "ballot")
# The table's phases (`narrator.table.state`), as the screen names them.
PHASES = {
    "lobby": N_("Players joining"),
    "cards": N_("Cards dealt"),
    "night": N_("Night"),
    "day": N_("Day"),
    "vote": N_("Vote"),
    "accusation": N_("Accusation"),
    "defence": N_("Defence"),
    "ballot": N_("Ballot"),
    "verdict": N_("Verdict"),
    "end": N_("Game over"),
}


def qr_text(url: str) -> Text:
    """The URL as a QR code, two modules per character cell (dark on light)."""
    rows = [list(row) for row in segno.make(url, error="m").matrix_iter(scale=1, border=2)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[0::2], rows[1::2], strict=True):
        lines.append(
            "".join(
                "█" if t and b else "▀" if t else "▄" if b else " "
                for t, b in zip(top, bottom, strict=True)
            )
        )
    return Text("\n".join(lines), style="black on white", no_wrap=True)


class TableScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "deal", N_("Deal"), show=True),
        Binding("n", "next", N_("Go on"), show=True),
        Binding("e", "end", N_("End game"), show=True),
        Binding("escape", "leave", N_("Leave the table"), show=True),
    ]

    def __init__(self, host: TableHost, address: str, port: int) -> None:
        super().__init__()
        self.host = host
        self.address = address
        self.port = port
        self.view: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        yield Static(shape(t("Table")), id="title")
        with Horizontal(id="table-top"):
            yield Static("", id="table-qr")
            with Vertical(id="table-side"):
                yield Static("", id="table-room")
                yield Static("", id="table-join")
                yield Static("", id="table-phase")
                yield Static("", id="table-players")
        yield Static("", id="table-said")
        yield NarratorFooter()

    def on_mount(self) -> None:
        try:
            urls = self.host.start(self.address, self.port)
        except TableError as exc:
            cannot = t("The table cannot start: {error}").format(error=exc)
            self.query_one("#table-phase", Static).update(Text(shape(cannot)))
            return
        self.query_one("#table-qr", Static).update(qr_text(urls["join"]))
        self.query_one("#table-room", Static).update(
            Text(shape(t("Room {room}").format(room=urls["room"])), style="bold")
        )
        self.query_one("#table-join", Static).update(Text(urls["join"], no_wrap=True))
        self.refresh_view()
        self.set_interval(0.5, self.refresh_view)

    def refresh_view(self) -> None:
        if not self.host.serving:
            return
        self.view = view = self.host.look()
        state = view["state"]
        phase = state["phase"]
        parts = [state["game"], t(PHASES.get(phase, phase))]
        if state["night"]:
            parts.append(t("Night {night}").format(night=state["night"]))
        if phase in VOTING:
            parts.append(t("{voted}/{voters} voted").format(**state))
        if phase == "lobby":
            host = view["host"]
            parts.append(
                t("{joined} joined ({low}–{high}); d deals").format(
                    joined=len(state["players"]), low=host["min_players"], high=host["max_players"]
                )
            )
        # the game's name is the players' (text, not markup)
        self.query_one("#table-phase", Static).update(Text(shape(" · ".join(parts))))
        players = Text()
        for p in state["players"]:
            players.append(f"{p['seat']:>2}. ")
            players.append(
                shape(p["name"]), style="" if p["alive"] else "dim strike"
            )  # text, not markup
            players.append("\n")
        self.query_one("#table-players", Static).update(players)
        said = shape(view["said"] or "", state["lang"])  # the voice speaks the game's language
        if view["voice_errors"]:
            said = shape(t("Voice: {error}").format(error=view["voice_errors"][-1]))
        self.query_one("#table-said", Static).update(Text(said))

    def _command(self, name: str) -> None:
        commands = {
            "deal": lambda t: t.start({}),
            "next": lambda t: t.advance(),
            "end": lambda t: t.end(),
        }
        try:
            self.host.run(commands[name])
        except TableError as exc:
            self.notify(str(exc), severity="warning")
        self.refresh_view()

    def action_deal(self) -> None:
        self._command("deal")

    def action_next(self) -> None:
        self._command("next")

    def action_end(self) -> None:
        self._command("end")

    def action_leave(self) -> None:
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.host.stop()
