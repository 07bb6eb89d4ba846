"""Wiring the Table mode: a table for the chosen game, served with the app's voice.

Kept out of app.py (which stays small) and imported only when the mode is chosen,
so the app starts without loading the web server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.rules import Ruleset
from narrator.session import Session
from narrator.table.host import TableHost
from narrator.table.run import lan_address, open_table
from narrator.table.voice import SessionVoice
from narrator.tui.screens.table import TableScreen

if TYPE_CHECKING:
    from narrator.tui.app import NarratorApp


def table_screen(app: NarratorApp, ruleset: Ruleset) -> TableScreen:
    lang = app.settings.language
    lang = lang if lang in ruleset.languages else ruleset.languages[0]
    table, path = open_table(ruleset, lang, None, resume=False)
    # The app's engine speaks for the table too, and outlives it.
    voice = SessionVoice(Session(app.engine, app.clock, app.settings), own_engine=False)
    address = app.table_address or lan_address() or "127.0.0.1"
    return TableScreen(TableHost(table, voice, save_path=path), address, app.table_port)
