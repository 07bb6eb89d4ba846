"""TableScreen: the app's Table mode -- the players' phones as the private channel.

The screen serves the table (`narrator.table.TableHost`, a web server on its own
thread) and renders it: the join URL as a QR code drawn with half blocks, the
short room code, the players as they arrive, the phase and the votes cast. Keys
send commands (deal, go on, end); the table's state lives in `narrator.table`,
never here. Leaving the screen stops the server; so does a game that cannot be
saved, and the screen says why.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, ClassVar, Protocol

import segno
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from narrator.base.errors import NarratorError
from narrator.i18n import N_
from narrator.rules import Ruleset
from narrator.session.session import Session
from narrator.tui.text import NarratorFooter, say_problem, shape, t


class TableLink(Protocol):
    """A table served beside the app (`narrator.table.host.TableHost`): the screen
    starts it, is told of every change, and sends it the host's commands, never
    waiting on the server's thread."""

    urls: dict[str, str]

    @property
    def serving(self) -> bool: ...

    def start(self, host: str, port: int) -> dict[str, str]: ...

    def watch(self, callback: Callable[[dict[str, Any]], None]) -> None: ...

    def command(self, name: str, pressed_in: str | None = None) -> Future[None]: ...

    def stop(self) -> None: ...


# What the composition root gives the app (`narrator.compose.tables`): a table for a
# game, played by the app's session, and the address to serve it on.
TableFactory = Callable[[Ruleset, Session, str | None], tuple[TableLink, str]]

DOUBLE_PRESS = 0.5  # seconds: a second press this soon belongs to the first
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
    """The table's room code, QR code, phase and players, redrawn whenever the table
    changes (the server tells the screen; the screen never waits on the server)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "deal", N_("Deal"), show=True),
        Binding("n", "next", N_("Go on"), show=True),
        Binding("e", "end", N_("End game"), show=True),
        Binding("escape", "leave", N_("Leave the table"), show=True),
    ]

    class Changed(Message):
        """The table changed: its view, read on the server's own thread."""

        def __init__(self, view: dict[str, Any]) -> None:
            super().__init__()
            self.view = view

    def __init__(self, host: TableLink, address: str, port: int) -> None:
        super().__init__()
        self.host = host
        self.address = address
        self.port = port
        self.view: dict[str, Any] | None = None
        self._pressed: tuple[float, str, str] = (-DOUBLE_PRESS, "", "")  # when, what, in

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

    async def on_mount(self) -> None:
        try:  # binding starts the server's thread: not on the app's loop
            urls = await asyncio.to_thread(self.host.start, self.address, self.port)
        except NarratorError as exc:
            cannot = t("The table cannot start: {error}").format(error=exc)
            self.query_one("#table-phase", Static).update(Text(shape(cannot)))
            return
        self.query_one("#table-qr", Static).update(qr_text(urls["join"]))
        self.query_one("#table-room", Static).update(
            Text(shape(t("Room {room}").format(room=urls["room"])), style="bold")
        )
        self.query_one("#table-join", Static).update(Text(urls["join"], no_wrap=True))

        # post_message is safe from any thread: the server's calls it after each change
        def changed(view: dict[str, Any]) -> None:
            self.post_message(self.Changed(view))

        self.host.watch(changed)

    def on_table_screen_changed(self, message: Changed) -> None:
        self.view = view = message.view
        state = view["state"]
        phase = state["phase"]
        parts = [state["game"], t(PHASES.get(phase, phase))]
        if state["night"]:
            parts.append(t("Night {night}").format(night=state["night"]))
        if state["voting"]:
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
            said = shape(t("Voice: {error}").format(error=say_problem(view["voice_errors"][-1])))
        if view.get("unsaved"):  # the server stopped: the game as last saved is kept
            stopped = shape(t("The table stopped: {error}").format(error=view["unsaved"]))
            self.query_one("#table-said", Static).update(Text(stopped, style="bold red"))
            return
        self.query_one("#table-said", Static).update(Text(said))

    def _command(self, name: str) -> None:
        """Send a host command, with the phase it was pressed in (the same key again
        within DOUBLE_PRESS was pressed in the first press's phase: the new phase may
        be drawn between two quick presses); a worker awaits the answer, so the screen
        goes on taking keys (and drawing) while the server is busy."""
        if not self.host.serving or self.view is None:
            return
        now = time.monotonic()
        last_at, last_name, last_in = self._pressed
        again = name == last_name and now - last_at < DOUBLE_PRESS
        pressed_in = last_in if again else self.view["state"]["phase"]
        self._pressed = (now, name, pressed_in)

        async def send() -> None:
            try:  # run on the server's loop; the change comes back through `watch`
                await asyncio.wrap_future(self.host.command(name, pressed_in))
            except NarratorError as exc:
                self.notify(str(exc), severity="warning")

        self.run_worker(send(), group="table-commands")

    def action_deal(self) -> None:
        self._command("deal")

    def action_next(self) -> None:
        self._command("next")

    def action_end(self) -> None:
        self._command("end")

    async def action_leave(self) -> None:
        await asyncio.to_thread(self.host.stop)  # closes the phones' sockets: a moment
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.host.stop()  # the app quits with the table open; safe to call twice
