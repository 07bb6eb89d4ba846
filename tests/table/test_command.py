"""`narrator table` as a user runs it: one JSON line when ready, loopback only when
asked, Ctrl-C saves and exits 0, bad input is one line and exit 2, --resume."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from narrator.table.run import choose_host, lan_address
from tests.support.unwritable import unwritable

NARRATOR = [sys.executable, "-m", "narrator.cli"]


def start(*args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    proc = subprocess.Popen(
        [*NARRATOR, "table", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait(10)
        pytest.fail(f"no JSON line; stderr: {proc.stderr.read() if proc.stderr else ''}")
    return proc, json.loads(line)


def stop(proc: subprocess.Popen[str]) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(15)


def post(url: str, body: object) -> dict[str, object]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_ready_line_serving_and_saving(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    proc, ready = start("onuw", "--lang", "fa", "--host", "127.0.0.1", "--port", "0",
                        "--no-audio", "--game", str(game))  # fmt: skip
    try:
        assert set(ready) == {"join", "room", "host_token", "host"}
        base = ready["join"].split("/?")[0]
        assert ready["join"] == f"{base}/?room={ready['room']}"
        assert ready["host"] == f"{base}/host#token={ready['host_token']}"
        assert base.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(base + "/api/state", timeout=5) as response:
            state = json.loads(response.read())
        assert state["lang"] == "fa" and state["phase"] == "lobby"
        joined = post(base + "/api/join", {"name": "سارا", "room": ready["room"]})
        assert joined["player"] == 1
        # only the interface asked for: not reachable on this machine's LAN address
        lan = lan_address()
        if lan is not None:
            port = int(base.rsplit(":", 1)[1])
            with pytest.raises(OSError), socket.create_connection((lan, port), timeout=2):
                pass
    finally:
        assert stop(proc) == 0
    saved = json.loads(game.read_text())
    assert saved["seats"][0]["name"] == "سارا"
    assert str(joined["token"]) not in game.read_text()  # only its hash is kept


def test_a_game_that_cannot_be_saved_stops_the_table_with_one_line(tmp_path: Path) -> None:
    """The saved game's folder refuses a write mid-game (as a full disk does): the
    phone's join is refused (503, a line naming no file of the host's), the command
    stops by itself with one line and exit 2, and the game as last saved is whole."""
    folder = tmp_path / "state"
    game = folder / "game.json"
    proc, ready = start("onuw", "--host", "127.0.0.1", "--port", "0", "--no-audio",
                        "--game", str(game))  # fmt: skip
    try:
        base = ready["join"].split("/?")[0]
        post(base + "/api/join", {"name": "Ann", "room": ready["room"]})
        before = game.read_bytes()
        with unwritable(folder):
            with pytest.raises(urllib.error.HTTPError) as refused:
                post(base + "/api/join", {"name": "Bo", "room": ready["room"]})
            assert refused.value.code == 503
            told = json.loads(refused.value.read())["error"]
            assert "could not be saved" in told and str(folder) not in told
            code = proc.wait(15)
    finally:
        if proc.poll() is None:
            stop(proc)
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert code == 2, err
    assert err.startswith(f"narrator: cannot save the game in {game} (") and err.count("\n") == 1
    assert "--resume" in err
    assert game.read_bytes() == before  # the game as last saved: Ann alone
    assert [s["name"] for s in json.loads(before)["seats"]] == ["Ann"]
    assert sorted(p.name for p in folder.iterdir()) == ["game.json", "game.json.lock"]


def test_a_game_in_play_is_never_overwritten_and_resumes(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    proc, ready = start(
        "onuw", "--host", "127.0.0.1", "--port", "0", "--no-audio", "--game", str(game)
    )
    try:
        base = ready["join"].split("/?")[0]
        tokens = [
            post(base + "/api/join", {"name": n, "room": ready["room"]})["token"] for n in "ABC"
        ]
        request = urllib.request.Request(
            base + "/api/host/start", data=b"{}", method="POST",
            headers={"Authorization": f"Bearer {ready['host_token']}"},
        )  # fmt: skip
        urllib.request.urlopen(request, timeout=5).close()
    finally:
        stop(proc)
    again = subprocess.run(
        [*NARRATOR, "table", "onuw", "--host", "127.0.0.1", "--port", "0", "--no-audio",
         "--game", str(game)], capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr.count("\n") == 1 and "--resume" in again.stderr
    proc, ready2 = start("onuw", "--host", "127.0.0.1", "--port", "0", "--no-audio",
                         "--game", str(game), "--resume")  # fmt: skip
    try:
        assert ready2["room"] == ready["room"] and ready2["host_token"] != ready["host_token"]
        base = ready2["join"].split("/?")[0]

        def me(token: str) -> dict[str, Any]:
            request = urllib.request.Request(
                base + "/api/me", headers={"Authorization": f"Bearer {token}"}
            )
            with urllib.request.urlopen(request, timeout=5) as response:
                return dict(json.loads(response.read()))

        # the cards are sealed in the file: one phone back does not open them...
        assert me(tokens[1])["role"] is None
        with urllib.request.urlopen(base + "/api/state", timeout=5) as response:
            assert json.loads(response.read())["sealed"] == 1
        # ...a second one does, and every phone sees its card again
        assert me(tokens[0])["role"] and me(tokens[1])["role"]
        back = me(tokens[1])
        assert back["seat"] == 2 and back["phase"] == "cards"
    finally:
        stop(proc)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["lupus", "--lang", "fa"], "not 'fa'; choose one with --lang"),
        (["nope"], "no ruleset 'nope'"),
        (["onuw", "--rate-limit", "x"], "RATE/BURST"),
        # review 2, H22: an endless number is no limit, and is not said to be under 0
        (["onuw", "--rate-limit", "1e999/1e999"], "above 0 and below 1,000,000"),
        (["onuw", "--resume"], "no saved game"),
        (["onuw", "--pace", "20"], "--pace"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    out = subprocess.run(
        [*NARRATOR, "table", *args, "--no-audio", "--host", "127.0.0.1", "--game", str(tmp_path / "g.json")],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert out.returncode == 2 and says in out.stderr and out.stderr.count("\n") == 1, out.stderr


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run(
            [*NARRATOR, "table", "onuw", "--no-audio", "--host", "127.0.0.1", "--port", str(port),
             "--game", str(tmp_path / "g.json")], capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    assert out.returncode == 2 and f"port {port} is in use" in out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_the_default_interface_is_the_local_networks_or_loopback() -> None:
    import io

    err = io.StringIO()
    assert choose_host("127.0.0.1", err) == "127.0.0.1" and err.getvalue() == ""
    chosen = choose_host(None, err)
    assert chosen == (lan_address() or "127.0.0.1") and chosen != "0.0.0.0"
    choose_host("0.0.0.0", err)
    assert "every interface" in err.getvalue()
    assert os.environ.get("NARRATOR_TABLE_HOST") is None  # nothing hidden decides it
