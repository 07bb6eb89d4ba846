"""Wherewolf: first versus second night, the required roles, possible roles, the day."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main
from narrator.rules import SelectionError
from narrator.script import Say, Timer, Wait, script_from_dict, script_to_dict
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
    "Look at who was struck tonight. Once in the game, you may point at one of them to bring "
    "them back.",
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
    # Said to the Moderator, who calls the names -- not to everyone.
    assert second[4].endswith("Moderator, call the names in the opposite direction from yesterday.")
    italian = seq(script("wherewolf", 10, ROLES, phase="day", night=2, lang="it"))
    assert italian[4][2].endswith("Moderatore, chiama i nomi nel verso opposto a ieri.")


def test_the_first_day_is_the_shortest() -> None:
    first = script("wherewolf", 10, ROLES, phase="day", night=1)
    later = script("wherewolf", 10, ROLES, phase="day", night=3)
    assert [s.seconds for s in first.steps if isinstance(s, Timer)] == [120.0, 120.0]
    assert [s.seconds for s in later.steps if isinstance(s, Timer)] == [300.0, 120.0]
    # A length the table chose wins over the ruleset's first-day length.
    chosen = script("wherewolf", 10, ROLES, phase="day", night=1, discussion_seconds=200)
    assert next(s.seconds for s in chosen.steps if isinstance(s, Timer)) == 200.0


ACCUSED = (
    "The player with the most votes is accused together with the runner-up, or runners-up if "
    "tied; if several share the most votes, all of them and only they are accused. If one "
    "player got every vote, that player is burned at once, with no ballot."
)


def test_day_is_assembly_accusation_with_eyes_closed_defence_ballot_no_burn_on_a_tie() -> None:
    day = seq(script("wherewolf", 10, ROLES, phase="day", night=1))
    assert day[:7] == [
        ("say", None, "It is day. Everyone, open your eyes."),
        (
            "say",
            None,
            "The village assembly is open. Talk, ask, accuse, but never show your card.",
        ),
        ("timer", None, 120.0),
        (
            "say",
            None,
            "Accusation vote. Everyone, close your eyes. The Moderator calls every player's "
            "name in turn; raise your hand at the name of the one you accuse. One vote each.",
        ),
        (
            "wait",
            None,
            "The Moderator calls every name and notes the raised hands. Go on when every name "
            "has been called.",
        ),
        # Eyes were closed: the table must hear when to open them.
        ("say", None, "Everyone, open your eyes."),
        ("wait", None, ACCUSED),
    ]
    kinds = [kind for kind, _, _ in day[7:]]
    assert kinds == [
        "say",  # defence pleas open
        "timer",
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
    assert day[8][2] == 120.0
    result = day[17][2]
    assert result.startswith(
        "The accused with the most votes is burned at the stake. A tie burns nobody."
    )
    assert "two players left" in result and "werewolves, the Vampire, the Vampire Spawn" in result
    assert day[18] == ("say", None, "No more talking. Night falls at once.")


def test_one_player_with_every_accusation_is_burned_at_once_without_a_ballot() -> None:
    day = script("wherewolf", 10, ROLES, phase="day", night=2)
    waits = [(i, s) for i, s in enumerate(day.steps) if isinstance(s, Wait) and s.branch]
    assert len(waits) == 1
    index, wait = waits[0]
    assert wait.text == ACCUSED
    assert wait.branch == "Every vote on one player, burned at once"
    # The branch skips the defence and the ballot and goes straight to nightfall.
    assert wait.branch_to == len(day.steps) - 1
    target = day.steps[wait.branch_to]
    assert isinstance(target, Say) and target.text == "No more talking. Night falls at once."
    skipped = day.steps[index + 1 : wait.branch_to]
    assert any(isinstance(s, Timer) and s.label == "Defence pleas" for s in skipped)
    assert any(isinstance(s, Say) and s.text == "Vote!" for s in skipped)
    italian = script("wherewolf", 10, ROLES, phase="day", night=2, lang="it")
    branch = next(s for s in italian.steps if isinstance(s, Wait) and s.branch)
    assert branch.branch == "Tutti i voti su un giocatore, subito al rogo"
    assert "se sono in più ad avere il massimo dei voti" in branch.text
    # The JSON carries the branch and reads back the same.
    doc = script_to_dict(day)
    assert doc["steps"][index]["branch_to"] == wait.branch_to
    assert script_from_dict(doc) == day


def test_no_werewolves_no_game() -> None:
    # The Pack Leader is a werewolf and is required: a deck can never lack the pack.
    with pytest.raises(SelectionError, match="Pack Leader is required in every game; add it"):
        script("wherewolf", 8, "seer,villager:7")


@pytest.mark.parametrize(
    ("role", "from_night", "until_night", "text"),
    [
        ("priest", 1, 1, "first night only"),
        ("healer", 2, None, "from night 2"),
        ("seer", 1, None, "every night"),
        ("pack_leader", 1, None, "every night"),
        ("villager", None, None, "never"),
    ],
)
def test_roles_say_on_which_nights_they_wake(
    capsys: pytest.CaptureFixture[str],
    role: str,
    from_night: int | None,
    until_night: int | None,
    text: str,
) -> None:
    assert main(["roles", "wherewolf", "--format", "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["roles"]}
    assert (rows[role]["from_night"], rows[role]["until_night"]) == (from_night, until_night)
    assert main(["roles", "wherewolf"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.split()[0] == role)
    assert f"wakes: {text} (" in line
