"""The table: the players' phones as the private channel (join, deal, vote, announce).

`state` is the game at the table as pure data and commands (no web, no audio);
`votes` and `outcome` are each game's counting and winning rules from the seeds;
`lines` what the voice says with the players' names; `server` the local web server
and the phone page that drive it. Never imports Textual.
"""

from __future__ import annotations

from narrator.table.errors import TableError
from narrator.table.saved import load_saved, save
from narrator.table.state import Event, Options, Seat, Table

__all__ = ["Event", "Options", "Seat", "Table", "TableError", "load_saved", "save"]
