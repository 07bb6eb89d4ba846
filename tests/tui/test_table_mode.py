"""The app's Table mode: the join URL as a QR code, the room code, players arriving
live from real HTTP requests, and the keys that deal and go on."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from narrator.tui.screens.help import HelpScreen
from narrator.tui.screens.table import TableScreen, qr_text
from tests.support.unwritable import unwritable
from tests.tui.conftest import settle, sync
from tests.tui.fakes import make_app, screen_text


def join(base: str, room: str, name: str) -> dict[str, object]:
    body = json.dumps({"name": name, "room": room}).encode()
    request = urllib.request.Request(f"{base}/api/join", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_the_qr_code_is_square_dark_on_light_and_holds_the_url() -> None:
    text = qr_text("http://192.168.1.20:8765/?room=KXQB")
    lines = text.plain.splitlines()
    assert len({len(line) for line in lines}) == 1
    assert len(lines[0]) in (len(lines) * 2, len(lines) * 2 - 1)  # two modules per cell
    assert str(text.style) == "black on white"
    assert set(text.plain) <= set("█▀▄ \n")


@sync
async def test_table_mode_serves_the_phones_and_shows_them_arrive(tmp_path: Path) -> None:
    app, engine, _clock = make_app(tmp_path)
    app.table_address, app.table_port = "127.0.0.1", 0
    async with app.run_test(size=(110, 44)) as pilot:
        await pilot.press("down", "down")  # lupus, mafia, onuw (sorted by id)
        await pilot.press("t")
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        game_before = app.session.game
        # one session per evening: the table's nights play in the app's session
        assert getattr(screen.host.server.voice, "session", None) is app.session
        assert screen.host.table.pace == app.settings.pace
        await settle(pilot, lambda: screen.host.serving)
        urls = screen.host.urls
        assert urls["join"].startswith("http://127.0.0.1:")
        base = urls["join"].split("/?")[0]
        for name in ("Ann", "Bo", "[b]Cy[/b]"):
            join(base, urls["room"], name)
        # told by the server as they arrive (no polling): drawn without a key pressed
        # (the count and the list are drawn in one handler, but the list's new line
        # needs a layout pass: a busy machine showed a frame with the count first)
        await settle(pilot, lambda: "3 joined" in screen_text(app))
        await settle(pilot, lambda: " 3. [b]Cy[/b]" in screen_text(app))
        text = screen_text(app)
        assert f"Room {urls['room']}" in text
        assert "[b]Cy[/b]" in text  # a name is shown as typed, never as markup
        assert "▀" in text or "▄" in text
        await pilot.press("d")
        await settle(pilot, lambda: "Cards dealt" in screen_text(app))
        assert screen.host.table.phase == "cards"
        assert all(s.card for s in screen.host.table.seats)
        await pilot.press("n")
        await settle(pilot, lambda: "Night 1" in screen_text(app))
        await pilot.press("escape")
        await settle(pilot, lambda: not isinstance(app.screen, TableScreen))
        assert not screen.host.serving
        assert not engine.closed  # the app's engine outlives the table
        assert app.session.game is game_before  # and the app's game is given back


@sync
async def test_without_the_web_server_the_app_says_table_mode_is_unavailable(
    tmp_path: Path,
) -> None:
    """The app gets its tables from the composition root; with no factory (aiohttp is
    not installed) it starts as ever and says so in one line when asked."""
    app, _engine, _clock = make_app(tmp_path)
    app.tables = None
    async with app.run_test(size=(110, 44)) as pilot:
        await pilot.press("t")
        told = lambda: [n.message for n in app._notifications]  # noqa: E731
        await settle(pilot, lambda: any("Table mode unavailable" in m for m in told()))
        assert not isinstance(app.screen, TableScreen)


@sync
async def test_a_busy_table_never_stops_the_app(tmp_path: Path) -> None:
    """The Table screen waits on the server without blocking the app: while the
    server's loop is held (until the test lets it go), a command is sent to it and the
    app still answers keys -- the help opens -- and draws."""
    import threading

    app, _engine, _clock = make_app(tmp_path)
    app.table_address, app.table_port = "127.0.0.1", 0
    async with app.run_test(size=(110, 44)) as pilot:
        await pilot.press("t")
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await settle(pilot, lambda: screen.host.serving and screen.view is not None)
        held, free = threading.Event(), threading.Event()
        busy = screen.host.submit(lambda table: (held.set(), free.wait(30)))
        try:
            await settle(pilot, held.is_set)
            await pilot.press("n")  # sent to the held server: answered later
            await pilot.press("question_mark")
            await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert not busy.done()  # the help opened while the server was still held
        finally:
            free.set()
        busy.result(10)
        await pilot.press("escape")


@sync
async def test_a_game_that_cannot_be_saved_stops_the_table_and_says_why(tmp_path: Path) -> None:
    """The saved game's folder refuses a write (as a full disk does): the server stops
    by itself, the screen says why in one line, and the game as last saved is whole."""
    app, _engine, _clock = make_app(tmp_path)
    app.table_address, app.table_port = "127.0.0.1", 0
    async with app.run_test(size=(110, 44)) as pilot:
        await pilot.press("t")
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await settle(pilot, lambda: screen.host.serving)
        urls, path = screen.host.urls, screen.host.service.save_path
        assert path is not None
        base = urls["join"].split("/?")[0]
        join(base, urls["room"], "Ann")
        await settle(pilot, lambda: "1 joined" in screen_text(app))
        before = path.read_bytes()
        with unwritable(path.parent):
            with pytest.raises(urllib.error.HTTPError, match="503"):
                join(base, urls["room"], "Bo")
            await settle(pilot, lambda: not screen.host.serving)
            await settle(
                pilot, lambda: "The table stopped: cannot save the game" in screen_text(app)
            )
        assert path.read_bytes() == before
        await pilot.press("escape")  # leaving a stopped table is as leaving any
        await settle(pilot, lambda: not isinstance(app.screen, TableScreen))
