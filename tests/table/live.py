"""A real table server on loopback (`TableHost`: its own thread), and a small client.

The tests talk to it over real sockets, as phones do (HTTP and WebSocket), never by
calling the handlers: what is tested is what a phone on the network gets.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from narrator.table import Options, Table
from narrator.table.host import TableHost
from narrator.table.server import RateLimit
from narrator.table.service import TableVoice
from narrator.table.voice import silent_voice
from tests.unit.helpers import ruleset


class Live:
    def __init__(self, host: TableHost) -> None:
        self.server = host.server
        self.service = host.service
        self.table = host.table
        self.base = host.urls["join"].split("/?")[0]
        self.host_token = host.urls["host_token"]

    @property
    def voice(self) -> Any:
        return self.service.voice

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            text = err.read()
            return err.code, json.loads(text) if text.startswith(b"{") else text.decode()

    def join(self, name: str) -> tuple[int, str]:
        status, body = self.call("POST", "/api/join", {"name": name, "room": self.table.room})
        assert status == 200, body
        return body["player"], body["token"]

    def state(self) -> Any:
        """The public state, as every phone reads it (`/api/state`)."""
        status, body = self.call("GET", "/api/state")
        assert status == 200, body
        return body

    def seated(self, names: list[str]) -> list[str]:
        """Each of `names` joins, in order: their tokens."""
        return [self.join(name)[1] for name in names]

    def host(self, action: str, body: Any = None) -> tuple[int, Any]:
        """A host command; `next` and `end` are pressed in the table's phase now."""
        body = dict(body or {})
        if action in ("next", "end"):
            body.setdefault("from", self.table.phase)
        return self.call("POST", f"/api/host/{action}", body, token=self.host_token)


@contextmanager
def live_table(
    game: str = "onuw",
    lang: str = "en",
    *,
    voice: TableVoice | None = None,
    save_path: Path | None = None,
    limit: RateLimit | None = None,
    options: Options | None = None,
    table: Table | None = None,
    port: int = 0,
    seed: int = 0,
) -> Iterator[Live]:
    """A table serving on loopback. Its deal and codes come from `seed`: a test that
    plays a game through must not depend on a deal it did not choose (a random deal
    ended an eight-phones Lupus day with its second death, one run in twenty)."""
    rng = random.Random(seed)
    table = table or Table(ruleset(game), lang, options=options or Options(), rng=rng)
    host = TableHost(
        table, voice or silent_voice(), save_path=save_path, limit=limit or RateLimit(1000, 1000)
    )
    host.start("127.0.0.1", port)
    try:
        yield Live(host)
    finally:
        host.stop()
        assert host._thread is None
