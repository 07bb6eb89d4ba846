"""The saved game on the host's machine: private, atomic, never following a planted
link, one server at a time, and a changed or strange file refused with one line
(TABLE_REVIEW: the saved-game attacks)."""

from __future__ import annotations

import json
import random
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.table import Table, TableError, load_saved, save
from narrator.table.saved import GameLock, dump
from narrator.table.sealed import context, open_with, secret
from tests.support.unwritable import unwritable
from tests.unit.helpers import ruleset


def back(t: Table, token: str) -> None:
    player = t.seats.holding(token)
    assert player is not None
    open_with(t, player, token)


def a_table() -> Table:
    t = Table(ruleset("onuw"), "en")
    for name in ("Ann", "Bo", "Cy"):
        t.join(name, t.room)
    t.start({})
    return t


def test_the_saved_game_is_private_and_its_new_folder_too(tmp_path: Path) -> None:
    path = tmp_path / "state" / "table" / "onuw.json"
    save(a_table(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["onuw.json"]  # no temp file left


def test_a_save_the_folder_refuses_is_one_line_and_the_last_save_stays(tmp_path: Path) -> None:
    """A save that cannot be written (a folder made read-only, as a full disk refuses)
    is one TableError that the table stops on ("unsaved"); the file is the game as
    last saved, whole, and no temporary file is left. The command's and the app's
    side: tests/table/test_command.py, tests/tui/test_table_mode.py."""
    path = tmp_path / "state" / "onuw.json"
    t = a_table()
    save(t, path)
    before = path.read_bytes()
    t.advance()  # night 1: a new step to save
    with unwritable(path.parent), pytest.raises(TableError) as refused:
        save(t, path)
    assert refused.value.kind == "unsaved"
    assert str(refused.value).startswith(f"cannot save the game in {path} (")
    assert "\n" not in str(refused.value)
    assert path.read_bytes() == before
    assert load_saved(path, t.ruleset).phase == "cards"
    assert [p.name for p in path.parent.iterdir()] == ["onuw.json"]


def test_a_planted_link_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    path = tmp_path / "game.json"
    (tmp_path / "game.json.tmp").symlink_to(victim)  # the old, guessable temp name
    save(a_table(), path)
    assert victim.read_text(encoding="utf-8") == "precious"
    path.unlink()
    path.symlink_to(victim)  # a link at the path itself is replaced, not written through
    save(a_table(), path)
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not path.is_symlink() and json.loads(path.read_text("utf-8"))["ruleset"] == "onuw"


def test_a_changed_save_is_refused_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    t = a_table()
    for change, what in [
        (lambda d: d["seats"][0].update(card="werewolf"), "a card in the clear"),
        (lambda d: d.update(sealed=None), "no sealed part"),
        (lambda d: d.update(phase="dawn"), "phase 'dawn'"),
        (lambda d: d["seats"][1].update(seat=7), "seat numbers"),
        (lambda d: d.update(suspects=[9]), "the suspects"),
    ]:
        data = dump(t)
        change(data)
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(TableError, match="does not fit together") as err:
            load_saved(path, t.ruleset)
        assert what in str(err.value) and "\n" not in str(err.value)


def test_two_servers_cannot_serve_one_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    with GameLock(path):
        with pytest.raises(TableError, match="another table is already serving"):
            GameLock(path).__enter__()
        # another process is refused too (flock is per open file, across processes)
        code = (
            "from pathlib import Path; from narrator.table.saved import GameLock\n"
            f"GameLock(Path({str(path)!r})).__enter__()"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode != 0 and "another table is already serving" in out.stderr
    with GameLock(path):  # released: the next server may serve it
        pass


def test_the_app_and_the_command_cannot_serve_one_saved_game_at_once(tmp_path: Path) -> None:
    from narrator.table.host import TableHost
    from narrator.table.voice import silent_voice

    path = tmp_path / "game.json"
    first = TableHost(Table(ruleset("onuw"), "en"), silent_voice(), save_path=path)
    first.start("127.0.0.1", 0)
    try:
        second = TableHost(Table(ruleset("onuw"), "en"), silent_voice(), save_path=path)
        with pytest.raises(TableError, match="another table is already serving"):
            second.start("127.0.0.1", 0)
    finally:
        first.stop()
    again = TableHost(Table(ruleset("onuw"), "en"), silent_voice(), save_path=path)
    again.start("127.0.0.1", 0)  # stopped: the lock is free again
    again.stop()


def test_a_restarted_table_keeps_the_engine_and_the_journals(tmp_path: Path) -> None:
    """The cards as they are, who is out, the Tombstone and each phone's journal are
    saved (sealed): after a restart, once two phones are back, the engine still counts
    the day and judges the end."""
    t = Table(ruleset("lupus"), "en", rng=random.Random(3))
    tokens = [t.join(name, t.room)[1] for name in ("Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus")]
    t.start({"werewolf": 2, "seer": 1, "villager": 4})
    assert t.engine is not None
    t.advance()  # night 1
    t.eliminate(2)  # Cy leaves the table
    t.advance()  # day
    t.journal[0] = [{"night": 1, "text": "you saw Bo."}]
    path = tmp_path / "game.json"
    save(t, path)
    resumed = load_saved(path, ruleset("lupus"))
    assert resumed.engine is None and resumed.journal == {}  # sealed until two are back
    back(resumed, tokens[4])
    back(resumed, tokens[0])
    assert resumed.engine is not None and resumed.engine.snapshot() == t.engine.snapshot()
    assert resumed.engine.tombstone == 2 and not resumed.engine.seats[2].alive
    assert resumed.last_out == 2  # the table's seats and the engine's: one numbering
    assert resumed.journal == t.journal and resumed.journal[0] == [
        {"night": 1, "text": "you saw Bo."}
    ]
    resumed.advance()  # the accusation, counted by the restored engine
    for seat in resumed.seats:
        if seat.seat in resumed.voters():
            resumed.vote(seat, 0 if seat.seat != 0 else 1)
    assert resumed.suspects
    assert resumed.engine.log[-1].kind in ("suspects", "death", "nobody_dies")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda e: e["seats"][0].update(role="dragon"), "KeyError: 'dragon'"),
        (lambda e: e.update(dead_order=[99]), "seat 99 is not at this table"),
        (lambda e: e["seats"].pop(), "does not fit together (the engine's seats)"),
        (lambda e: e.update(revealed=[["moon", 1]]), "'moon' is not a place"),
        (lambda e: e.update(tonight={"dawn": [["burn", 0, 1, None]]}), "does not wait for dawn"),
        (lambda e: e.update(tonight={"copying": [[0, "dragon"]]}), "KeyError: 'dragon'"),
        (lambda e: e.update(tonight={"last_pick": [["n1.1", 0, "moon:2"]]}), "not a place"),
    ],
)
def test_a_sealed_engine_that_does_not_fit_is_one_line(
    change: Any, why: str, tmp_path: Path
) -> None:
    """Defence in depth: the sealed part cannot be changed without the game key (its
    seal fails), but an engine sealed wrong would still be one line, never a 500."""
    t = Table(ruleset("lupus"), "en", rng=random.Random(3))
    tokens = [t.join(name, t.room)[1] for name in ("Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus")]
    t.start({"werewolf": 2, "seer": 1, "villager": 4})
    secrets = secret(t)
    change(secrets["engine"])
    data = dump(t)
    points = {s.seat + 1: s.token_hash for s in t.seats}  # a share's point is never 0
    data["sealed"] = t.vault.seal(secrets, context(t), points)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    resumed = load_saved(path, ruleset("lupus"))
    back(resumed, tokens[0])
    with pytest.raises(TableError) as info:
        back(resumed, tokens[1])
    message = str(info.value)
    assert why in message and "\n" not in message


def _mid_night() -> tuple[Table, list[str]]:
    """Lupus in the middle of its first night: the pack has picked, the Seer not yet."""
    t = Table(ruleset("lupus"), "en", rng=random.Random(3))
    tokens = [t.join(name, t.room)[1] for name in ("Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus")]
    t.start({"werewolf": 2, "seer": 1, "villager": 4})
    t.advance()  # the night falls: the table begins it on the phones, as it is saved
    assert t.desk is not None and t.engine is not None
    for index in range(len(t.desk.script.steps)):
        t.night_at(index)
        if t.desk.open is not None:
            break  # the first call is open
    for player in t.seats:
        prompt = t.desk.prompt(player.seat)
        assert prompt is not None
        t.act(player, prompt["id"], [prompt["options"][0]["id"]])
    return t, tokens


def test_a_night_is_saved_with_its_calls_and_its_answers(tmp_path: Path) -> None:
    """The night being played is in the sealed part: the call open, each phone's
    answers, the engine's picks and what waits for dawn -- read back as they were."""
    t, tokens = _mid_night()
    path = tmp_path / "game.json"
    save(t, path)
    resumed = load_saved(path, ruleset("lupus"))
    assert resumed.phase == "night" and resumed.night == 1 and resumed.desk is None
    back(resumed, tokens[3]), back(resumed, tokens[5])
    assert resumed.engine is not None and t.engine is not None and t.desk is not None
    assert resumed.engine.snapshot() == t.engine.snapshot() and resumed.engine.night == 1
    desk = resumed.desk
    assert desk is not None and desk.state() == t.desk.state()
    assert desk.open is not None and resumed.night_from() == desk.open.first
    assert resumed.engine.group_picks(desk.open.step) == t.engine.group_picks(t.desk.open.step)


def test_a_night_saved_before_nights_were_kept_is_ended_by_the_host(tmp_path: Path) -> None:
    """A game saved mid-night by an older narrator (no night in its sealed part, no
    `tonight` in its engine, no script seed) opens, plays no night again, and the
    host's "go on" ends that night: the dawn, with the choices it kept (none)."""
    t, tokens = _mid_night()
    secrets = secret(t)
    del secrets["night"], secrets["engine"]["tonight"]
    data = dump(t)
    del data["seed"]
    points = {s.seat + 1: s.token_hash for s in t.seats}
    data["sealed"] = t.vault.seal(secrets, context(t), points)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    resumed = load_saved(path, ruleset("lupus"))
    back(resumed, tokens[0]), back(resumed, tokens[1])
    assert resumed.phase == "night" and resumed.desk is None and resumed.seed == 0
    assert resumed.engine is not None and resumed.engine.night == 1
    resumed.advance()
    assert resumed.phase == "day" and resumed.night == 1 and all(p.alive for p in resumed.seats)


def test_a_night_with_physical_cards_goes_on_from_the_call_it_was_at(tmp_path: Path) -> None:
    """Nobody knows the cards, but everyone heard the voice: where it was (the call it
    was saying) is saved in the clear, and the voice goes on from that call, never
    from the night's start (a Seer called twice would look twice)."""
    t = Table(ruleset("lupus"), "en", rng=random.Random(3))
    tokens = [t.join(name, t.room)[1] for name in ("Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus")]
    t.start({"werewolf": 2, "seer": 1, "villager": 4}, deal=False)
    t.advance()
    steps = t.night_script().steps
    seer = next(i for i, step in enumerate(steps) if getattr(step, "role", None) == "seer")
    for index in range(seer + 2):  # the voice is a little way into the Seer's call
        assert t.night_at(index) is False  # no phone is told anything
    assert t.heard == seer and t.night_from() == seer
    path = tmp_path / "game.json"
    save(t, path)
    resumed = load_saved(path, ruleset("lupus"))
    back(resumed, tokens[0]), back(resumed, tokens[1])
    assert resumed.phase == "night" and resumed.night_from() == seer
