"""The table: the players' phones as the private channel (join, deal, vote, announce).

`state` is the game at the table as pure data and commands (no web, no audio) --
`seats` who sits where, `flow` the engine's referee on the table's clock (how the
game moves on is the referee's, `moderator.referee`), `results` what a vote and the
end show, `views` what each one may see, `sealed` the saved game's secrets,
`saved` the file; `announce` and `lines` what the voice says with the players' names;
`service` the table served to any front end, `server` its web server and `host` the
same beside the app. Never imports Textual.
"""

from __future__ import annotations

from narrator.table.errors import TableError
from narrator.table.flow import Announcement, Options
from narrator.table.saved import load_saved, save
from narrator.table.seats import Player, SeatIndex
from narrator.table.state import Table

__all__ = [
    "Announcement",
    "Options",
    "Player",
    "SeatIndex",
    "Table",
    "TableError",
    "load_saved",
    "save",
]
