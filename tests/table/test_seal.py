"""Issue 16, item 4 (review H5): the saved game on the host's machine shows no card
and no live vote. The secrets are sealed under a game key split two-of-n among the
seats' tokens; after a restart the game opens when two phones are back, and not
before -- one player alone (the host too) cannot open it."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest

from narrator.table import Options, Player, Table, TableError, load_saved, save, views
from narrator.table.seal import GameKey, SealError, Vault, seat_key
from narrator.table.sealed import open_with, secret
from tests.support.clock import ManualClock
from tests.unit.helpers import ruleset

NAMES = ("Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus")


def a_ballot(clock: ManualClock | None = None) -> tuple[Table, list[str]]:
    """Lupus with dealt cards at its secret ballot: two votes cast, a journal kept."""
    t = Table(
        ruleset("lupus"),
        "en",
        rng=random.Random(5),
        clock=clock or ManualClock(),
        options=Options(),
    )
    tokens = [t.join(name, t.room)[1] for name in NAMES]
    t.start({"werewolf": 2, "seer": 1, "villager": 4})
    t.advance()  # night
    t.journal[2] = [{"night": 1, "text": "Night 1: you asked about Bo: a werewolf."}]
    t.advance()  # day
    t.advance()  # accusation
    for seat in t.seats:
        t.vote(seat, 1 if seat.seat != 1 else 2)
    assert t.phase == "defence", t.phase
    t.advance()  # the secret ballot
    t.vote(t.seats[0], 1)
    t.vote(t.seats[3], 1)
    assert t.phase == "ballot" and len(t.ballot) == 2
    return t, tokens


def back(t: Table, token: str) -> Player:
    """A phone back after a restart: its token opens its share (`open_with`)."""
    player = t.seats.holding(token)
    if player is None:
        raise TableError("unknown token", "unknown")
    open_with(t, player, token)
    return player


def test_the_file_holds_no_card_no_centre_no_journal_and_no_live_vote(tmp_path: Path) -> None:
    t, _ = a_ballot()
    path = tmp_path / "game.json"
    save(t, path)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert all(seat["card"] is None for seat in data["seats"])
    assert not {"engine", "journal", "ballot", "unseen", "removed"} & set(data)
    public = json.dumps({k: v for k, v in data.items() if k not in ("roles", "sealed")})
    for hidden in ("werewolf", "seer", "villager", "you asked"):
        assert hidden not in public, hidden
    sealed = json.dumps(data["sealed"])
    assert "werewolf" not in sealed and "you asked" not in sealed  # ciphertext only
    assert sorted(data["sealed"]["shares"]) == [str(n) for n in range(1, 8)]


def test_one_phone_alone_cannot_open_it_the_second_does(tmp_path: Path) -> None:
    t, tokens = a_ballot()
    path = tmp_path / "game.json"
    save(t, path)
    resumed = load_saved(path, ruleset("lupus"))
    host = resumed.seats.new_host_token()
    assert resumed.seats.is_host(host) and views.public(resumed)["sealed"] == 2  # not a share
    player = resumed.seats.holding(tokens[6])
    assert player is not None and player.seat == 6
    assert not open_with(resumed, player, tokens[6])  # one phone back: still sealed
    assert views.public(resumed)["sealed"] == 1
    assert resumed.seats[6].card is None and not resumed.ballot
    assert views.private(resumed, resumed.seats[6])["role"] is None
    for refused in (resumed.advance, lambda: resumed.vote(resumed.seats[6], 1), resumed.end):
        with pytest.raises(TableError, match="opens when 1 more player open") as err:
            refused()
        assert "\n" not in str(err.value)
    assert not open_with(resumed, player, tokens[6])  # the same phone twice is still one
    assert views.public(resumed)["sealed"] == 1
    second = resumed.seats.holding(tokens[1])
    assert second is not None and open_with(resumed, second, tokens[1])  # this one opens it
    assert views.public(resumed)["sealed"] == 0
    assert not open_with(resumed, second, tokens[1])  # open: nothing more opens
    assert secret(resumed) == secret(t)  # every card, the engine, the journal, the ballot
    assert views.private(resumed, resumed.seats[2])["journal"] == t.journal[2]
    for seat in (0, 1, 3, 4, 5, 6):  # the ballot goes on where it was
        if seat in resumed.voters() and seat not in resumed.ballot:
            resumed.vote(resumed.seats[seat], 1)
    assert resumed.phase == "verdict"


def test_a_sealed_game_s_clock_stands_still_until_it_opens(tmp_path: Path) -> None:
    clock = ManualClock()
    t, tokens = a_ballot(clock)
    left = (t.deadline or 0) - clock.now()
    save(t, tmp_path / "g.json")
    resumed = load_saved(tmp_path / "g.json", t.ruleset, clock=clock)
    clock.advance(3600)  # an hour before two phones are back: the ballot does not close
    assert not resumed.tick() and resumed.phase == "ballot"
    back(resumed, tokens[0])
    back(resumed, tokens[1])
    assert resumed.deadline == pytest.approx(clock.now() + left)


def test_restarted_twice_with_one_phone_back_in_between(tmp_path: Path) -> None:
    """The seats whose phones did not come back keep their shares from the file."""
    t, tokens = a_ballot()
    path = tmp_path / "game.json"
    save(t, path)
    once = load_saved(path, t.ruleset)
    back(once, tokens[0])  # one phone back; the host's "go on" is refused; saved again
    save(once, path)
    twice = load_saved(path, t.ruleset)
    back(twice, tokens[5])
    back(twice, tokens[3])
    assert secret(twice) == secret(t)
    save(twice, path)  # opened: the game key is the same, every seat keeps its share
    third = load_saved(path, t.ruleset)
    back(third, tokens[1])
    back(third, tokens[2])
    assert secret(third) == secret(t)


def test_a_seat_moved_to_a_new_phone_opens_with_the_new_phone(tmp_path: Path) -> None:
    t, tokens = a_ballot()
    code, new = t.claim(t.room, 2, "10.0.0.9")
    t.settle_claim(code, True)
    path = tmp_path / "game.json"
    save(t, path)
    resumed = load_saved(path, t.ruleset)
    assert resumed.seats.holding(tokens[2]) is None  # Cy's old phone
    back(resumed, new)
    back(resumed, tokens[0])
    assert secret(resumed) == secret(t)


def _flip(locked: dict[str, str]) -> None:
    data = bytearray(base64.b64decode(locked["data"]))
    data[0] ^= 1
    locked["data"] = base64.b64encode(bytes(data)).decode()


def test_a_changed_sealed_part_does_not_open_and_says_so(tmp_path: Path) -> None:
    t, tokens = a_ballot()
    path = tmp_path / "game.json"
    save(t, path)
    for where in ("game", "share"):
        data = json.loads(path.read_text(encoding="utf-8"))
        _flip(data["sealed"]["game"] if where == "game" else data["sealed"]["shares"]["2"])
        changed = tmp_path / f"{where}.json"
        changed.write_text(json.dumps(data), encoding="utf-8")
        resumed = load_saved(changed, t.ruleset)
        back(resumed, tokens[0])
        with pytest.raises(TableError, match="the saved game cannot be opened") as err:
            back(resumed, tokens[1])
        assert "\n" not in str(err.value) and "new game" in str(err.value)
        assert resumed.seats[0].card is None  # nothing half-opened


def test_another_game_s_sealed_part_does_not_open(tmp_path: Path) -> None:
    """A sealed part is bound to its room and ruleset: pasted into another game's file
    (same seats, same tokens) it does not open."""
    t, tokens = a_ballot()
    path = tmp_path / "game.json"
    save(t, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["room"] = "ZZZZ"  # the same seats and tokens, another room's game
    path.write_text(json.dumps(data), encoding="utf-8")
    resumed = load_saved(path, t.ruleset)
    with pytest.raises(TableError, match="cannot be opened"):
        back(resumed, tokens[0])


def test_the_game_key_comes_back_from_any_two_shares_and_not_one() -> None:
    key = GameKey.new()
    shares = {x: key.share(x) for x in range(1, 31)}
    rng = random.Random(1)
    for _ in range(50):
        a, b = rng.sample(sorted(shares), 2)
        assert GameKey.from_shares({a: shares[a], b: shares[b]}) == key
    # one share is a point on a line through every possible key: it fixes none
    other = GameKey(value=(key.value + 1) % 2**256, slope=0)
    slope = (shares[5] - other.value) * pow(5, -1, 2**521 - 1) % (2**521 - 1)
    assert GameKey(other.value, slope).share(5) == shares[5]


def test_a_vault_refuses_a_part_it_did_not_write() -> None:
    vault = Vault()
    for bad in (None, [], {"shares": {}}, {"game": {}}, {"shares": [], "game": {}}):
        with pytest.raises(SealError):
            vault.load(bad)
    vault.load({"shares": {"1": {"nonce": "!!", "data": "x"}}, "game": {}})
    with pytest.raises(SealError):
        vault.back(1, "h", "token", "ctx")
    assert seat_key("a") != seat_key("b") and len(seat_key("a")) == 32
