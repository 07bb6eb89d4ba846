"""Serve one table until interrupted: bind, print the one JSON line, run, save.

A game that cannot be saved (a full disk, a folder made read-only) stops the table:
one line on stderr and exit 2, the game as last saved kept for `--resume`.

Which interface: phones reach the server over the local network, so by default it
binds the address this machine uses on its local network (the interface of the
default route; found by asking the kernel for a route, no packet is sent) -- that
interface only, never every interface. `--host 127.0.0.1` keeps it on this
machine (tests, a host page on the same computer); `--host 0.0.0.0` is refused
unless typed, and then said plainly. Nothing is fetched from the internet: the
page, its script and its style are served by the table itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import sys
from pathlib import Path
from typing import TextIO

import platformdirs

from narrator.rules import Ruleset
from narrator.table.errors import TableError
from narrator.table.guard import close_door, raise_open_files_limit
from narrator.table.saved import GameLock, check_writable, load_saved, read_regular
from narrator.table.server import RateLimit, TableServer, bind
from narrator.table.service import TableService, TableVoice
from narrator.table.state import Table


def open_table(
    ruleset: Ruleset, lang: str, path: Path | None, *, resume: bool
) -> tuple[Table, Path]:
    """A new table, or the saved one with --resume; never overwrite a game in play."""
    path = path or Path(platformdirs.user_state_dir("narrator")) / "table" / f"{ruleset.id}.json"
    if resume:
        if not path.exists():
            raise TableError(f"no saved game in {path}; start a new one without --resume")
        table = load_saved(path, ruleset)
        check_writable(path)
        return table, path
    check_writable(path)
    if lang not in ruleset.languages:
        raise TableError(
            f"'{ruleset.id}' is written in {', '.join(ruleset.languages)}, not '{lang}'; "
            "choose one with --lang"
        )
    if path.exists():
        try:
            phase = json.loads(read_regular(path)).get("phase")
        except (TableError, OSError, ValueError, AttributeError):
            phase = None
        if phase not in (None, "lobby", "end"):
            raise TableError(
                f"a game in play is saved in {path} ({phase}); resume it with --resume, "
                "or keep it and start another with --game FILE"
            )
    return Table(ruleset, lang), path


def lan_address() -> str | None:
    """This machine's address on its local network, or None when it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 9))  # UDP connect: a route lookup only
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def choose_host(requested: str | None, err: TextIO) -> str:
    if requested:
        if requested in ("0.0.0.0", "::"):
            print(f"narrator: serving on every interface ({requested}), as asked", file=err)
        return requested
    found = lan_address()
    if found is None:
        print(
            "narrator: no local network found; serving on this machine only (127.0.0.1). "
            "Connect to the phones' Wi-Fi, or choose the interface with --host",
            file=err,
        )
        return "127.0.0.1"
    return found


def urls(host: str, port: int, table: Table, host_token: str) -> dict[str, str]:
    base = f"http://{host if ':' not in host else f'[{host}]'}:{port}"
    return {
        "join": f"{base}/?room={table.room}",
        "room": table.room,
        "host_token": host_token,
        # the fragment never leaves the browser: the token is not in any request line
        "host": f"{base}/host#token={host_token}",
    }


async def serve(server: TableServer, host: str, port: int, host_token: str, out: TextIO) -> None:
    raise_open_files_limit()
    runner, listening, bound = await bind(
        server.app, host, port, other_port="choose another with --port", other_host="check --host"
    )
    print(json.dumps(urls(host, bound, server.service.table, host_token)), file=out, flush=True)
    stop = asyncio.Event()
    server.service.on_unsaved = lambda why: stop.set()  # a game that cannot be saved stops
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await close_door(runner, listening)


def run_table(
    table: Table,
    voice: TableVoice,
    *,
    host: str | None,
    port: int,
    save_path: Path | None,
    rate: tuple[float, float] = (20.0, 60.0),
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
) -> int:
    lock = GameLock(save_path) if save_path is not None else contextlib.nullcontext()
    try:
        with lock:  # one server per saved game
            host_token = table.seats.new_host_token()  # a resumed game gets a new host token
            if table.vault.waiting:
                print(
                    "narrator: the saved game's cards are sealed; the game goes on when two "
                    "players open the table's page on their phones again",
                    file=err,
                )
            service = TableService(table, voice, save_path=save_path)
            server = TableServer(service, RateLimit(*rate))
            asyncio.run(serve(server, choose_host(host, err), port, host_token, out))
    finally:
        voice.close()
    if service.unsaved is not None:
        raise TableError(service.unsaved)  # one line, exit 2: the game as last saved is kept
    return 0
