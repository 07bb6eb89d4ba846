"""Mafia with Infiltrators: automatic characters skipped on night 1, the agents' turn, the day."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main
from narrator.rules import SelectionError
from tests.unit.helpers import RULESETS, calls, script, seq, turn

# The seed's example game of 8 players.
EXAMPLE = "gravedigger,torturer,blood_brothers,boss,scapegoat,mole:2,dolphin"

# Audit 3, finding 26: from the second night, Ghosts and Prisoners are told to keep
# their eyes closed (they have no power left).
GHOSTS_AND_PRISONERS = (
    "say",
    None,
    "Ghosts and Prisoners, keep your eyes closed all night, even when your character or "
    "the agents are called.",
)
OPEN = [
    ("say", None, "Night falls on the city. Everyone, close your eyes."),
    ("pause", None, 3.0),
]
CLOSE = [("pause", None, 2.0)]
GAP = ("pause", None, 1.0)


GRAVEDIGGER = turn(
    "gravedigger",
    "Gravedigger, open your eyes.",
    "Your action is automatic; wait a moment.",
    seconds=6.0,
    close="Gravedigger, close your eyes.",
)
TORTURER = turn(
    "torturer",
    "Torturer, open your eyes.",
    "Point at a player. A nod means that player is an agent.",
    close="Torturer, close your eyes.",
)
BLOOD_BROTHERS = turn(
    "blood_brothers",
    "Blood Brothers, open your eyes.",
    "Your action is automatic; wait a moment.",
    seconds=6.0,
    close="Blood Brothers, close your eyes.",
)
AGENTS = turn(
    "agent",
    "Now the infiltrators. Every agent, open your eyes and find the others.",
    "Agree in silence on one mafioso to arrest, and point at that player.",
    seconds=20.0,
    close="Agents, close your eyes.",
)


def test_first_night_skips_the_automatic_characters() -> None:
    # As in the seed's example: the Gravedigger and the third character have nothing
    # to act on before the first day, so only the Torturer is called, then the agents.
    night = script("mafia_infiltrators", 8, EXAMPLE, night=1)
    assert seq(night) == OPEN + TORTURER + [GAP, *AGENTS] + CLOSE
    assert not any("Gravedigger" in str(value) for _, _, value in seq(night))


def test_second_night_calls_every_character_top_to_bottom_then_the_agents() -> None:
    night = script("mafia_infiltrators", 8, EXAMPLE, night=2)
    assert seq(night) == (
        OPEN[:1]
        + [GHOSTS_AND_PRISONERS]
        + OPEN[1:]
        + GRAVEDIGGER
        + [GAP, *TORTURER, GAP, *BLOOD_BROTHERS, GAP, *AGENTS]
        + CLOSE
    )
    assert seq(script("mafia_infiltrators", 8, EXAMPLE, night=4)) == seq(night)


def test_mole_and_dolphin_wake_in_the_agents_turn_even_without_a_plain_agent() -> None:
    night = script("mafia_infiltrators", 8, EXAMPLE, night=1)
    assert calls(night) == ["torturer", "agent"]
    # With plain agents too, there is still one turn for all of them.
    bigger = script("mafia_infiltrators", 10, EXAMPLE + ",gangster,agent", night=1)
    assert calls(bigger) == ["torturer", "agent"]


def test_boss_scapegoat_and_gangsters_are_never_called() -> None:
    night = script("mafia_infiltrators", 6, "boss,scapegoat,gangster:2,agent:2", night=2)
    assert calls(night) == ["agent"]


def test_recommended_deck_for_eight_is_the_seeds_example(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["script", "mafia_infiltrators", "--players", "8", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["roles"] == {
        "gravedigger": 1,
        "torturer": 1,
        "blood_brothers": 1,
        "boss": 1,
        "scapegoat": 1,
        "mole": 2,
        "dolphin": 1,
    }
    assert [s["role"] for s in doc["steps"] if s["kind"] == "say"] == [
        None,
        "torturer",
        "torturer",
        "torturer",
        "agent",
        "agent",
        "agent",
    ]


def test_italian_first_night_in_italian() -> None:
    italian = seq(script("mafia_infiltrators", 8, EXAMPLE, night=1, lang="it"))
    assert italian[2] == ("say", "torturer", "Torturatore, apri gli occhi.")
    assert ("say", "agent", "Agenti, chiudete gli occhi.") in italian


def test_day_is_three_minutes_public_vote_defence_secret_ballot() -> None:
    day = seq(script("mafia_infiltrators", 8, EXAMPLE, phase="day"))
    values = [(kind, value) for kind, _, value in day]
    assert values[0] == ("say", "It is day. Everyone, open your eyes.")
    assert values[1][0] == "wait" and "Prisoner" in values[1][1]
    assert values[3] == ("timer", 180.0)
    assert values[4] == (
        "say",
        "Public vote. Everyone votes for the player they suspect, Prisoners and Ghosts too.",
    )
    assert values[5] == (
        "wait",
        "The two players with the most votes are the suspects. On a tie, the players closest "
        "to the last one arrested are chosen.",
    )
    assert values[7] == ("timer", 60.0)
    # The secret ballot is secret with no Moderator and no phones: face-down cards,
    # one colour per suspect by seat, shuffled before anyone looks.
    assert values[8:] == [
        (
            "say",
            "Secret vote, between the two suspects only. The suspect closer to the last player "
            "arrested, going clockwise, is red; the other is black. Those who are free, alive "
            "and not suspected each take a red card and a black card, and lay the colour of "
            "their choice face down on one pile in the middle, keeping the other hidden.",
        ),
        (
            "wait",
            "The voters lay their card face down on the pile. Go on when everyone has voted.",
        ),
        ("say", "Whoever sits closest to the pile, shuffle it without looking."),
        ("pause", 5.0),
        ("say", "Three."),
        ("pause", 1.0),
        ("say", "Two."),
        ("pause", 1.0),
        ("say", "One."),
        ("pause", 1.0),
        ("say", "Turn the pile over!"),
        (
            "wait",
            "Count the red and the black cards. The suspect with the most votes is killed and "
            "becomes a Ghost, who may no longer speak. On a tie, the suspect closest to the "
            "last player arrested is killed.",
        ),
        ("say", "The day is over, and night falls."),
    ]
    # Nobody points in the open: no step of the day asks for it.
    assert not any("point" in str(v).lower() for _, v in values[8:])


def test_the_day_counts_the_mafiosi_still_alive_prisoners_included() -> None:
    """Audit 4, finding 7: seed 001, «in numero pari ai mafiosi ancora vivi» -- a
    Prisoner is alive; the seed's own 8+1 example goes on at three agents against
    three free mafiosi and one arrested (the engine's scenario
    mafia/seed_example_8_plus_1 plays it). The words the Moderator hears say so."""
    for lang, alive, free in (
        ("en", "still alive, Prisoners", "still free"),
        ("it", "ancora vivi", "ancora liberi"),
    ):
        day = seq(script("mafia_infiltrators", 8, EXAMPLE, phase="day", lang=lang))
        wait = day[1][2]
        assert alive in wait and free not in wait, wait


def test_the_secret_method_is_written_in_the_ruleset_with_its_reason() -> None:
    text = (RULESETS / "mafia_infiltrators.yaml").read_text(encoding="utf-8")
    assert "face-down cards" in text and "would see every vote" in text


@pytest.mark.parametrize(
    ("roles", "side"),
    [
        ("gangster:6", "card of the Infiltrators (Agent, Mole or Dolphin)"),
        (
            "agent:6",
            "card of the Mafiosi (Gravedigger, Torturer, Blood Brothers, Boss, "
            "Scapegoat or Gangster)",
        ),
    ],
)
def test_a_deck_without_one_side_is_refused(roles: str, side: str) -> None:
    with pytest.raises(SelectionError) as info:
        script("mafia_infiltrators", 6, roles)
    assert str(info.value).startswith(f"The deck has no {side}: ")
