"""The app's Table mode: the join URL as a QR code, the room code, players arriving
live from real HTTP requests, and the keys that deal and go on."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from narrator.tui.screens.table import TableScreen, qr_text
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
        await settle(pilot, lambda: screen.host.serving)
        urls = screen.host.urls
        assert urls["join"].startswith("http://127.0.0.1:")
        base = urls["join"].split("/?")[0]
        for name in ("Ann", "Bo", "[b]Cy[/b]"):
            join(base, urls["room"], name)
        await pilot.pause(1.2)
        text = screen_text(app)
        assert f"Room {urls['room']}" in text and "3 joined" in text
        assert "[b]Cy[/b]" in text  # a name is shown as typed, never as markup
        assert "▀" in text or "▄" in text
        await pilot.press("d")
        assert screen.host.table.phase == "cards"
        assert all(s.card for s in screen.host.table.seats)
        await pilot.press("n")
        await settle(pilot, lambda: "Night 1" in screen_text(app))
        await pilot.press("escape")
        await settle(pilot, lambda: not isinstance(app.screen, TableScreen))
        assert not screen.host.serving
        assert not engine.closed  # the app's engine outlives the table
