"""The first review's findings that were left (issue 28, item 6; review 2, H16): a
saved game in a language its ruleset has not is refused with one line, never served
with a 500 at every request; a saved game whose sealed part has one changed byte
stays shut, and the host's Go on is refused with one line, never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.table import TableError, load_saved, save
from tests.table.live import live_table
from tests.table.test_seal import a_ballot, back


def test_a_saved_game_in_a_language_its_ruleset_has_not_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    t, _ = a_ballot()
    path = tmp_path / "game.json"
    save(t, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["lang"] = "xx"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TableError, match="language 'xx'") as err:
        load_saved(path, t.ruleset)
    assert str(err.value).startswith(f"{path}: ") and "\n" not in str(err.value)


def test_a_changed_byte_in_the_sealed_game_keeps_it_shut_and_go_on_says_why(
    tmp_path: Path,
) -> None:
    t, tokens = a_ballot()
    path = tmp_path / "game.json"
    save(t, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    sealed = data["sealed"]["game"]
    sealed["data"] = ("B" if sealed["data"][0] != "B" else "C") + sealed["data"][1:]
    path.write_text(json.dumps(data), encoding="utf-8")
    resumed = load_saved(path, t.ruleset)
    back(resumed, tokens[0])
    with pytest.raises(TableError, match="cannot be opened"):
        back(resumed, tokens[1])  # both shares open; the game does not
    with live_table(table=resumed) as live:
        status, body = live.host("next")
        assert status == 409 and "cannot be opened" in body["error"], body
        assert "start a new game" in body["error"] and "\n" not in body["error"]
        assert live.call("POST", "/api/vote", {"target": 2}, token=tokens[2])[0] == 409
        assert live.state()["phase"] == "ballot"  # nothing moved without its secrets


@pytest.mark.parametrize("lang", ["it", "fa"])
def test_the_host_s_hints_name_the_button_as_the_button_says_it(lang: str) -> None:
    """Review 2, P12: the Italian hints said "Avanti" where the button says
    "Prosegui". Every hint that names the button names it as the button does."""
    from narrator.i18n import gettext
    from narrator.table.lines import HOST, host_words

    button = gettext(lang, HOST["next"])
    hints = {k: v for k, v in host_words(lang).items() if "Go on" in HOST[k] and k != "next"}
    assert len(hints) >= 6
    for key, text in hints.items():
        assert button in text, (key, text)


def test_one_suspect_is_said_as_one() -> None:
    """Review 2: "The suspects are Dee." -- one suspect is one."""
    import random

    from narrator.table import Table
    from narrator.table.announce import announce
    from narrator.table.flow import Announcement
    from narrator.table.seats import SeatIndex
    from tests.unit.helpers import ruleset

    t = Table(ruleset("mafia_infiltrators"), "en", rng=random.Random(1))
    for name in ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"]:
        t.join(name, t.room)
    one = announce(t, Announcement("suspects", (SeatIndex(3),)))
    assert one == ["The suspect is Dee, who may now speak in their defence."]
    two = announce(t, Announcement("suspects", (SeatIndex(3), SeatIndex(1))))
    assert two[0].startswith("The suspects are Dee and Bo.")
