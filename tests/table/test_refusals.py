"""A refusal reaches a phone in its table's language: the `refused` of a night's
answer or a turn, the `error` of any other answer. Four of the five games are played
in Italian, One Night in Persian too. Over a real server (loopback): a late tap, a
vote out of its window or for a player it may not choose, a taken name, in Italian
and in Persian; Secret Moon's turns the rules refuse, in Italian (Secret Moon has no
Persian, so no table plays it so: its refusals in Persian, with the ruleset's
English names, are tests/unit/test_phrase.py's). Each answer to a phone's act, turn
or vote is still exactly STEP bytes: a Persian line is about twice the bytes of its
English, and the padding holds it. On the night's desk: a Mafia agent's arrest the
rules refuse, in Italian.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

import pytest

from narrator.moderator import Game as Engine
from narrator.session.game import GameSetup
from narrator.table.night import NightDesk
from narrator.table.server import STEP
from tests.table.live import Live, live_table
from tests.table.test_state import secret_moon_day
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]

# What each phone should read, by language
WORDS = {
    "it": {
        "late": "questa domanda ora non è aperta",
        "no_vote": "ora non si vota",
        "not_that_one": "in questa votazione non puoi votare Ann",
        "taken": "«Bo» c'è già a questo tavolo; aggiungi un'iniziale",
        "guard": "la carta di Ed non può usare «Cattura»",
        "minister": "Cy non può usare «Cattura» su Ann: può farlo solo chi è Ministro",
        "one_each": "Ann ha già giocato il suo turno nel round 1: uno a testa",
    },
    "fa": {
        "late": "این پرسش الان باز نیست",
        "no_vote": "الان رأی‌گیری نیست",
        "not_that_one": "در این رأی‌گیری نمی‌توانید به Ann رأی بدهید",
        "taken": "نام «Bo» سر این میز گرفته شده است؛ یک حرف به آن اضافه کنید",
    },
}


def answered(live: Live, path: str, body: Any, token: str) -> tuple[int, bytes, Any]:
    """A phone's request: its status, the answer's bytes and the answer read."""
    request = urllib.request.Request(live.base + path, json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as err:
        status, raw = err.code, err.read()
    return status, raw, json.loads(raw)


@pytest.mark.parametrize("lang", ["it", "fa"])
def test_a_late_tap_a_refused_vote_and_a_taken_name_in_the_tables_language(lang: str) -> None:
    words = WORDS[lang]
    with live_table("onuw", lang) as live:
        tokens = live.seated(NAMES[:3])
        status, body = live.call("POST", "/api/join", {"name": "Bo", "room": live.table.room})
        assert (status, body) == (409, {"error": words["taken"]})
        assert live.host("start")[0] == 200
        assert live.host("next")[0] == 200  # the night
        assert live.host("next")[0] == 200  # the day: the night's calls are closed
        late = {"prompt": "1/0", "choose": ["seat:2"]}
        status, raw, body = answered(live, "/api/act", late, tokens[0])
        assert status == 409 and body["error"] == words["late"] and len(raw) == STEP
        status, raw, body = answered(live, "/api/vote", {"target": 2}, tokens[0])
        assert status == 409 and body["error"] == words["no_vote"] and len(raw) == STEP
        assert live.host("next")[0] == 200  # the vote
        status, raw, body = answered(live, "/api/vote", {"target": 1}, tokens[0])
        assert status == 409 and body["error"] == words["not_that_one"] and len(raw) == STEP
        status, raw, body = answered(live, "/api/vote", {"target": 2}, tokens[0])
        assert status == 200 and body["ok"] is True and len(raw) == STEP


def test_secret_moons_refused_turns_in_italian_as_long_as_one_taken() -> None:
    words = WORDS["it"]
    table = secret_moon_day("it")  # Ann the Princess, Di the Minister, Ed a Guard
    tokens: list[str] = table.tokens  # type: ignore[attr-defined]
    with live_table(table=table) as live:
        assert [s.name for s in table.seats][:5] == NAMES

        def turn(seat: int, action: str, choose: list[str]) -> tuple[bytes, dict[str, Any]]:
            status, raw, body = answered(
                live, "/api/turn", {"action": action, "choose": choose}, tokens[seat]
            )
            assert status == 200 and len(raw) == STEP, (status, len(raw))
            return raw, body

        # a Guard may not capture: why, on this phone only, in the shape of a turn taken
        _, body = turn(4, "capture", ["seat:2"])
        assert body == {"ok": False, "refused": words["guard"], "learned": [], "pad": body["pad"]}
        _, body = turn(4, "accuse", ["seat:1", "role:princess"])  # right: Ann's card shows
        assert body["ok"] is True
        _, body = turn(2, "capture", ["seat:1"])  # only the Minister may capture her
        assert body["refused"] == words["minister"]
        _, body = turn(0, "pass", [])
        assert body["ok"] is True
        _, body = turn(0, "pass", [])
        assert body["refused"] == words["one_each"]


def test_an_agent_tapping_a_fellow_agent_is_refused_in_italian() -> None:
    """The night's `refused` (a choice the rules refuse for this card): in the table's
    language too, in the shape of any answer."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
    rs = ruleset("mafia_infiltrators")
    cards = ["agent", "gangster", "agent", "gangster", "torturer", "gangster"]
    script = GameSetup(rs, len(names), dict(Counter(cards)), "it", 1).script("night")
    desk = NightDesk.begin(Engine.deal(rs, names, cards, [], rng=random.Random(3)), script, "it")
    arrest = next(w for w in desk.windows if w.step.role == "agent")
    desk.at(arrest.first)
    mate = desk.act(0, arrest.step.id, ["seat:3"])  # agent Ann taps agent Cy
    assert mate == {
        "ok": False,
        "learned": [],
        "refused": "Ann non può scegliere Cy in questa chiamata",
    }
