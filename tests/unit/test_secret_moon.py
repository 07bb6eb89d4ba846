"""Secret Moon: the one opening call, then three rounds of eight numbered turns."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main
from narrator.rules import SelectionError, recommended
from narrator.script import Say, Timer, Wait
from tests.unit.helpers import calls, ruleset, script, seq

ALL = "princess,wanderer,priestess,minister,guard:4"
REMINDER = "This is the last round. Nobody may hide or protect."


def test_the_night_is_one_call_princess_and_wanderer_recognise_each_other() -> None:
    night = script("secret_moon", 6, ALL)
    assert seq(night) == [
        ("say", None, "Everyone, look at your card, then close your eyes."),
        ("pause", None, 3.0),
        (
            "say",
            "princess",
            "Princess, open your eyes. Wanderer, open yours too, and recognise each other.",
        ),
        ("pause", "princess", 8.0),
        ("say", "princess", "Princess and Wanderer, close your eyes."),
        ("say", None, "Everyone, open your eyes. The game begins."),
    ]


def test_there_is_no_second_night() -> None:
    with pytest.raises(SelectionError, match="one night only"):
        script("secret_moon", 6, ALL, night=2)


def test_without_the_wanderer_only_the_princess_is_called() -> None:
    night = seq(script("secret_moon", 5, "princess,priestess,minister,guard:3"))
    assert night[2:5] == [
        ("say", "princess", "Princess, open your eyes."),
        ("pause", "princess", 8.0),
        ("say", "princess", "Princess, close your eyes."),
    ]
    # The Wanderer alone still wakes in the Princess's turn.
    assert calls(script("secret_moon", 5, "princess,wanderer,minister,guard:4")) == ["princess"]


ENDINGS = (
    "The game ends at once if the Minister is captured (the Princess's side wins), or if "
    "the Princess is captured, or the Princess and the Wanderer are both shown (the "
    "Minister's side wins)."
)


def round_steps(number: int, reminder: bool) -> list[tuple]:
    steps: list[tuple] = [
        ("say", None, f"Round {number} of three. Everyone, draw a numbered turn card.")
    ]
    if number == 1:  # the early endings, said once (audit 3, finding 32)
        steps.append(("say", None, ENDINGS))
    if reminder:
        steps.append(("say", None, REMINDER))
    for turn in range(1, 9):
        call = f"Card {turn}, your turn."
        steps += [("say", None, call), ("wait", None, call)]
    steps.append(("say", None, f"End of round {number}."))
    return steps


def test_day_is_three_rounds_of_eight_turns_with_the_reminder_in_round_three_only() -> None:
    day = script("secret_moon", 6, ALL, phase="day")
    assert seq(day) == (
        round_steps(1, False)
        + round_steps(2, False)
        + round_steps(3, True)
        + [
            (
                "say",
                None,
                "Three rounds have passed. If nobody has won yet, the Princess's side wins.",
            )
        ]
    )
    # Every step knows its round; turn calls know their turn.
    assert all(step.round in (1, 2, 3) for step in day.steps)
    turn_calls = [s for s in day.steps if isinstance(s, Say) and s.text.startswith("Card ")]
    assert [(s.round, s.turn) for s in turn_calls] == [
        (r, t) for r in (1, 2, 3) for t in range(1, 9)
    ]
    assert [s.round for s in day.steps if isinstance(s, Say) and s.text == REMINDER] == [3]


def test_a_turn_time_limit_replaces_the_waits_with_timers() -> None:
    day = script("secret_moon", 6, ALL, phase="day", turn_seconds=45.0)
    timers = [s for s in day.steps if isinstance(s, Timer)]
    assert len(timers) == 24 and {t.seconds for t in timers} == {45.0}
    assert not [s for s in day.steps if isinstance(s, Wait)]
    assert (timers[0].round, timers[0].turn, timers[-1].round, timers[-1].turn) == (1, 1, 3, 8)


def test_italian_round_three_reminder() -> None:
    day = seq(script("secret_moon", 8, ALL, phase="day", lang="it"))
    assert day.count(("say", None, "È l'ultimo round. Nessuno può nascondere o proteggere.")) == 1
    assert day[0] == ("say", None, "Round 1 di tre. Pescate tutti una carta turno numerata.")


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_the_deck_is_always_the_eight_cards(players: int) -> None:
    roles, discard = recommended(ruleset("secret_moon"), players)
    assert dict(roles) == {"princess": 1, "wanderer": 1, "priestess": 1, "minister": 1, "guard": 4}
    # With 5 players one card (the Priestess or a Guard) is removed first.
    assert discard == (1 if players == 5 else 0)


@pytest.mark.parametrize("players", [4, 9])
def test_five_to_eight_players(players: int) -> None:
    with pytest.raises(SelectionError, match="for 5 to 8 players"):
        script("secret_moon", players, ALL)


def test_guards_come_four_at_most() -> None:
    with pytest.raises(SelectionError, match="Guard: 5 chosen, but the game has at most 4"):
        script("secret_moon", 8, "princess,wanderer,minister,guard:5")


def test_cli_day_json_has_round_on_every_step_and_turn_on_turn_calls(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    code = main(["script", "secret_moon", "--players", "6", "--phase", "day", "--format", "json"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert (doc["ruleset"], doc["phase"], doc["players"], doc["warnings"]) == (
        "secret_moon",
        "day",
        6,
        [],
    )
    steps = doc["steps"]
    assert len(steps) == 3 * (1 + 8 * 2 + 1) + 1 + 1 + 1  # + the endings, reminder, end
    assert all(step["round"] in (1, 2, 3) and step["role"] is None for step in steps)
    with_turn = [s for s in steps if "turn" in s]
    assert len(with_turn) == 48 and all(
        s["text"] == f"Card {s['turn']}, your turn." for s in with_turn
    )
    assert {s["kind"] for s in with_turn} == {"say", "wait"}
    assert [s["round"] for s in steps if s.get("text") == REMINDER] == [3]


@pytest.mark.parametrize(
    ("roles", "message"),
    [
        (
            "minister,guard:4",
            "The deck has no Princess: the Minister's side wins by capturing her, so the game "
            "needs her; add the Princess.",
        ),
        (
            "princess,wanderer,priestess,guard:4",
            "The deck has no Minister: only he can capture the Princess, so the game needs him; "
            "add the Minister.",
        ),
    ],
)
def test_a_deck_without_the_princess_or_the_minister_is_refused(roles: str, message: str) -> None:
    with pytest.raises(SelectionError) as info:
        script("secret_moon", 5, roles)
    assert str(info.value) == message


def test_five_players_remove_the_priestess_or_a_guard_then_deal_five_and_set_two_aside(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["setup", "secret_moon", "--players", "5", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["discard"] == 1
    assert doc["discard_from"] == ["priestess", "guard"]
    assert (doc["dealt"], doc["aside"]) == (5, 2)
    assert main(["setup", "secret_moon", "--players", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "Shuffle one card of each, face down: Priestess, Guard; remove 1 of them, unseen. "
        "Deal 5, one to each player, and set 2 aside face down in the centre."
    )


@pytest.mark.parametrize("players", [6, 7, 8])
def test_six_to_eight_players_remove_nothing(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: object,
    players: int,
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["setup", "secret_moon", "--players", str(players), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["discard"] == 0 and "discard_from" not in doc
    assert (doc["dealt"], doc["aside"]) == (players, 8 - players)
