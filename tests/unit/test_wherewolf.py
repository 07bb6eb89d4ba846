"""Wherewolf: first versus second night, the required roles, possible roles, the day."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main
from narrator.rules import SelectionError
from tests.unit.helpers import calls, script, seq, turn

OPEN = [
    ("say", None, "Night has come, and the village sleeps. Everyone, close your eyes."),
    ("pause", None, 3.0),
]
CLOSE = [("pause", None, 2.0)]
GAP = ("pause", None, 1.0)


PRIEST = turn(
    "priest", "Priest, open your eyes and use your power.", close="Priest, close your eyes."
)
SEER = turn(
    "seer",
    "Seer, open your eyes.",
    "Point at a player. A nod means a dark aura; a shake of the head means a white one.",
    close="Seer, close your eyes.",
)
WAKE_PACK = "Werewolves, open your eyes. The Pack Leader wakes with you."
PACK_NIGHT_1 = turn(
    "werewolf",
    WAKE_PACK,
    "Look at each other and learn who is in the pack. There is no hunt tonight.",
    seconds=15.0,
    close="Werewolves, close your eyes.",
)
PACK_HUNTS = turn(
    "werewolf",
    WAKE_PACK,
    "Each of you points at a player. The strongest werewolf's choice is the victim.",
    seconds=15.0,
    close="Werewolves, close your eyes.",
)
HEALER = turn(
    "healer",
    "Healer, open your eyes.",
    "Point at the player you want to heal tonight.",
    close="Healer, close your eyes.",
)
MEDIUM = turn(
    "medium", "Medium, open your eyes and use your power.", close="Medium, close your eyes."
)

ROLES = "seer,pack_leader,werewolf:2,priest,healer,medium,villager:3"


def test_first_night_priest_then_seer_then_the_pack_only_recognises() -> None:
    night = script("wherewolf", 10, ROLES, night=1)
    assert seq(night) == OPEN + PRIEST + [GAP, *SEER, GAP, *PACK_NIGHT_1] + CLOSE


def test_second_night_no_priest_the_pack_hunts_then_healer_and_medium() -> None:
    night = script("wherewolf", 10, ROLES, night=2)
    assert seq(night) == OPEN + SEER + [GAP, *PACK_HUNTS, GAP, *HEALER, GAP, *MEDIUM] + CLOSE
    assert seq(script("wherewolf", 10, ROLES, night=7)) == seq(night)


def test_every_role_in_the_turn_card_order() -> None:
    everyone = (
        "priest,lover,seer,werewolf,pack_leader,vampire,vampire_spawn,ghoul,criminal,guard,"
        "healer,medium,traitor,hero,madman,villager"
    )
    assert calls(script("wherewolf", 16, everyone, night=1)) == [
        "priest",
        "lover",
        "seer",
        "werewolf",
        "vampire",
        "vampire_spawn",
        "criminal",
        "guard",
    ]
    assert calls(script("wherewolf", 16, everyone, night=2)) == [
        "seer",
        "werewolf",
        "vampire",
        "vampire_spawn",
        "ghoul",
        "criminal",
        "guard",
        "healer",
        "medium",
    ]


def test_the_pack_is_called_for_the_pack_leader_alone() -> None:
    # The Pack Leader wakes with the werewolves, even with no other werewolf chosen.
    night = script("wherewolf", 5, "seer,pack_leader,villager:3", night=2)
    assert calls(night) == ["seer", "werewolf"]
    assert ("say", "werewolf", WAKE_PACK) in seq(night)


@pytest.mark.parametrize(
    ("roles", "message"),
    [
        ("pack_leader,werewolf,villager:4", "Seer is required in every game"),
        ("seer,werewolf,villager:4", "Pack Leader is required in every game"),
    ],
)
def test_seer_and_pack_leader_are_required(roles: str, message: str) -> None:
    with pytest.raises(SelectionError, match=message):
        script("wherewolf", 6, roles)


def test_possible_roles_may_outnumber_players_with_a_warning_past_twice() -> None:
    # 8 possible roles for 6 players: fine, not every card is dealt.
    assert script("wherewolf", 6, ROLES.replace("villager:3", "villager:1")).warnings == ()
    # 13 for 6: more than twice the players is allowed, but the table is told.
    night = script("wherewolf", 6, ROLES + ",vampire,ghoul,lover")
    assert night.warnings == (
        "13 possible roles for 6 players is more than 2 times the players; the game may drag",
    )
    with pytest.raises(SelectionError, match="6 players need 6 to 66 cards; 5 chosen"):
        script("wherewolf", 6, "seer,pack_leader,werewolf,villager:2")


def test_recommended_deck_keeps_a_quarter_on_the_shadow_side(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["setup", "wherewolf", "--players", "12", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["roles"] == {
        "priest": 1,
        "seer": 1,
        "werewolf": 2,
        "pack_leader": 1,
        "healer": 1,
        "medium": 1,
        "villager": 5,
    }
    assert doc["discard"] == 0


def test_italian_second_night_hunts_in_italian() -> None:
    italian = seq(script("wherewolf", 10, ROLES, night=2, lang="it"))
    assert (
        "say",
        "werewolf",
        "Ognuno di voi indichi un giocatore. La vittima è la scelta del lupo più forte.",
    ) in italian
    assert not [s for s in italian if s[1] == "priest"]


def test_first_day_has_no_deaths_to_announce_and_no_direction_change() -> None:
    first = [value for _, _, value in seq(script("wherewolf", 10, ROLES, phase="day", night=1))]
    second = [value for _, _, value in seq(script("wherewolf", 10, ROLES, phase="day", night=2))]
    announce = (
        "The Moderator names the players who died in the night and takes their cards without "
        "showing them, then checks whether the game is over."
    )
    assert announce not in first and second[1] == announce
    assert "opposite direction" not in first[3]
    assert second[4].endswith("Call the names in the opposite direction from yesterday.")


def test_day_is_assembly_accusation_with_eyes_closed_defence_ballot_no_burn_on_a_tie() -> None:
    day = seq(script("wherewolf", 10, ROLES, phase="day", night=1))
    kinds = [kind for kind, _, _ in day]
    assert kinds == [
        "say",  # it is day
        "say",  # the assembly opens
        "timer",
        "say",  # accusation vote, eyes closed
        "wait",  # the names are called, hands raised
        "say",
        "timer",  # defence pleas
        "say",  # the ballot
        "say",
        "pause",
        "say",
        "pause",
        "say",
        "pause",
        "say",
        "wait",  # result and tie rule
        "say",  # night falls at once
    ]
    assert day[2][2] == 300.0 and day[6][2] == 120.0
    assert "close your eyes" in day[3][2] and "raise your hand" in day[3][2]
    assert "burned at once, with no ballot" in day[4][2]
    result = day[15][2]
    assert result.startswith(
        "The accused with the most votes is burned at the stake. A tie burns nobody."
    )
    assert "two players left" in result and "werewolves, the Vampire, the Vampire Spawn" in result
    assert day[16] == ("say", None, "No more talking. Night falls at once.")
