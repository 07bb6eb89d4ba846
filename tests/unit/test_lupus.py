"""Lupus in Tabula: the seed's deck table for 7 to 24 players, nights 1 and 2, the day."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main
from narrator.rules import SelectionError, recommended
from tests.unit.helpers import calls, ruleset, script, seq, turn

# The seed's table, written out card by card: 2 Werewolves, 5 Villagers and the
# Seer up to 15 players (then Medium, Villager, Bodyguard, Villager, Possessed,
# Inquisitor, Villager); 3 Werewolves from 16 (then Medium, Villager, Bodyguard,
# Possessed, Inquisitor, Mason, Mason, Were-hamster, Fortune Teller, Villager, Owl,
# Mason, Undead, Villager), and our 24th card, one more Villager.
SMALL = {"werewolf": 2, "villager": 5, "seer": 1}
BIG = {
    "werewolf": 3,
    "villager": 6,
    "seer": 1,
    "medium": 1,
    "bodyguard": 1,
    "possessed": 1,
    "inquisitor": 1,
    "mason": 2,
}
DECKS: dict[int, dict[str, int]] = {
    7: SMALL,
    8: SMALL,
    9: SMALL | {"medium": 1},
    10: SMALL | {"medium": 1, "villager": 6},
    11: SMALL | {"medium": 1, "villager": 6, "bodyguard": 1},
    12: SMALL | {"medium": 1, "villager": 7, "bodyguard": 1},
    13: SMALL | {"medium": 1, "villager": 7, "bodyguard": 1, "possessed": 1},
    14: SMALL | {"medium": 1, "villager": 7, "bodyguard": 1, "possessed": 1, "inquisitor": 1},
    15: SMALL | {"medium": 1, "villager": 8, "bodyguard": 1, "possessed": 1, "inquisitor": 1},
    16: BIG,
    17: BIG | {"were_hamster": 1},
    18: BIG | {"were_hamster": 1, "fortune_teller": 1},
    19: BIG | {"were_hamster": 1, "fortune_teller": 1, "villager": 7},
    20: BIG | {"were_hamster": 1, "fortune_teller": 1, "villager": 7, "owl": 1},
    21: BIG | {"were_hamster": 1, "fortune_teller": 1, "villager": 7, "owl": 1, "mason": 3},
    22: BIG
    | {"were_hamster": 1, "fortune_teller": 1, "villager": 7, "owl": 1, "mason": 3, "undead": 1},
    23: BIG
    | {"were_hamster": 1, "fortune_teller": 1, "villager": 8, "owl": 1, "mason": 3, "undead": 1},
    24: BIG
    | {"were_hamster": 1, "fortune_teller": 1, "villager": 9, "owl": 1, "mason": 3, "undead": 1},
}


@pytest.mark.parametrize("players", range(7, 25))
def test_recommended_deck_follows_the_seed_table(players: int) -> None:
    roles, discard = recommended(ruleset("lupus"), players)
    assert dict(roles) == DECKS[players]
    # One card per player, except with 7: the 8-card deck, one card set aside unseen.
    assert discard == (1 if players == 7 else 0)
    assert sum(dict(roles).values()) - discard == players


def test_box_limits_hold_in_every_deck() -> None:
    # The box: 3 Werewolves, 3 Masons, 14 Villagers, one of every other character.
    rs = ruleset("lupus")
    assert (rs.role("werewolf").max_count, rs.role("mason").max_count) == (3, 3)
    assert rs.role("villager").max_count == 14
    assert all(
        rs.role(r).max_count == 1 for r in rs.role_ids if r not in ("werewolf", "mason", "villager")
    )


@pytest.mark.parametrize("players", [6, 25])
def test_player_counts_outside_7_to_24_are_refused(players: int) -> None:
    with pytest.raises(SelectionError, match="for 7 to 24 players"):
        recommended(ruleset("lupus"), players)


def test_seven_players_play_the_eight_card_deck_but_eight_players_need_eight_cards() -> None:
    assert len(script("lupus", 7, "werewolf:2,villager:5,seer").steps) > 0
    with pytest.raises(SelectionError, match="8 players need 8 cards; 9 chosen"):
        script("lupus", 8, "werewolf:2,villager:6,seer")


OPEN = [("say", None, "It is night. Everyone, close your eyes."), ("pause", None, 3.0)]
CLOSE = [("pause", None, 2.0)]
GAP = ("pause", None, 1.0)


WEREWOLVES = turn(
    "werewolf",
    "Werewolves, open your eyes and find each other.",
    "Agree in silence on tonight's victim, and point at that player.",
    seconds=20.0,
    close="Werewolves, close your eyes.",
)
SEER = turn(
    "seer",
    "Seer, open your eyes.",
    "Point at another player. A nod means a werewolf; a shake of the head means not.",
    close="Seer, close your eyes.",
)
MEDIUM = turn(
    "medium",
    "Medium, open your eyes.",
    "A nod means the player the village executed today was a werewolf; a shake of the head "
    "means not.",
    close="Medium, close your eyes.",
)
MASONS = turn(
    "mason",
    "Masons, open your eyes and find each other.",
    seconds=8.0,
    close="Masons, close your eyes.",
)
BODYGUARD = turn(
    "bodyguard",
    "Bodyguard, open your eyes.",
    "Point at the player you will protect from the werewolves tonight.",
    close="Bodyguard, close your eyes.",
)
INQUISITOR = turn(
    "inquisitor",
    "Inquisitor, open your eyes and do your action.",
    close="Inquisitor, close your eyes.",
)

# The recommended deck for 16 players.
SIXTEEN = "werewolf:3,villager:6,seer,medium,bodyguard,possessed,inquisitor,mason:2"


def test_eight_player_night_is_the_seeds_script() -> None:
    # "It is night" -- werewolves choose a victim -- the Seer asks -- night over.
    night = script("lupus", 8, "werewolf:2,villager:5,seer")
    assert seq(night) == OPEN + WEREWOLVES + [GAP] + SEER + CLOSE


def test_first_night_masons_meet_and_the_medium_sleeps() -> None:
    night = script("lupus", 16, SIXTEEN, night=1)
    assert seq(night) == (
        OPEN + WEREWOLVES + [GAP, *SEER, GAP, *MASONS, GAP, *BODYGUARD, GAP, *INQUISITOR] + CLOSE
    )


GHOSTS = (
    "say",
    None,
    "Ghosts, keep your eyes closed all night, even when your character is called.",
)


def test_second_night_the_medium_wakes_and_the_masons_do_not() -> None:
    night = script("lupus", 16, SIXTEEN, night=2)
    assert seq(night) == (
        [OPEN[0], GHOSTS, *OPEN[1:]]
        + WEREWOLVES
        + [GAP, *SEER, GAP, *MEDIUM, GAP, *BODYGUARD, GAP, *INQUISITOR]
        + CLOSE
    )
    # Later nights are the same as the second.
    assert seq(script("lupus", 16, SIXTEEN, night=5)) == seq(night)


def test_possessed_were_hamster_and_villagers_are_never_called() -> None:
    night = script("lupus", 24, ",".join(f"{r}:{n}" for r, n in DECKS[24].items()), night=2)
    assert calls(night) == [
        "werewolf",
        "seer",
        "medium",
        "bodyguard",
        "inquisitor",
        "owl",
        "fortune_teller",
        "undead",
    ]


BOOKLET = [
    "lara_werewolf",
    "hamlet",
    "candy_maker",
    "dorian_gray",
    "dr_jekyll",
    "were_cow",
    "necromancer",
    "gossip",
    "sherlock",
    "victoria_obscura",
]


def test_booklet_characters_get_a_plain_call_after_the_others() -> None:
    roles = "werewolf:2,villager:3,seer," + ",".join(BOOKLET)
    first = script("lupus", 16, roles, night=1)
    # Lara comes right after the pack; the Necromancer waits for the second night.
    assert calls(first) == [
        "werewolf",
        "lara_werewolf",
        "seer",
        *[r for r in BOOKLET[1:] if r != "necromancer"],
    ]
    assert calls(script("lupus", 16, roles, night=2)) == [
        "werewolf",
        "lara_werewolf",
        "seer",
        *BOOKLET[1:],
    ]
    gossip = [s for s in seq(first) if s[1] == "gossip"]
    assert gossip == turn(
        "gossip", "Gossip, open your eyes and do your action.", close="Gossip, close your eyes."
    )


def test_italian_night_has_the_same_steps_in_italian() -> None:
    english = script("lupus", 16, SIXTEEN, night=2)
    italian = script("lupus", 16, SIXTEEN, night=2, lang="it")
    assert [(s.kind, s.role) for s in english.steps] == [(s.kind, s.role) for s in italian.steps]
    assert seq(italian)[0] == ("say", None, "È notte. Tutti quanti, chiudete gli occhi.")
    assert ("say", "medium", "Medium, apri gli occhi.") in seq(italian)


def test_day_is_three_minutes_then_accusation_defence_and_secret_ballot() -> None:
    day = script("lupus", 8, "werewolf:2,villager:5,seer", phase="day")
    values = [(kind, value) for kind, _, value in seq(day)]
    assert all(role is None for _, role, _ in seq(day))
    assert values[0] == ("say", "It is day. Everyone, open your eyes.")
    # Each victim takes a Ghost card and gives back the vote token; the Tombstone
    # follows the Master's guide; the end is checked (audit 3, findings 15 and 28).
    assert values[1][0] == "wait"
    assert values[1][1].startswith("The Master tells who was eliminated tonight, if anyone.")
    assert "Tombstone" in values[1][1] and "the werewolves win." in values[1][1]
    assert values[3] == ("timer", 180.0)  # at most three minutes of discussion
    assert values[4][0] == "say" and "left of the Tombstone" in values[4][1]
    assert "Ghosts too" in values[4][1]
    # Ties go to the one closer to the Tombstone; each suspect gets a clue.
    assert values[5] == (
        "wait",
        "Count the accusations: the two players with the most become the suspects. On a tie, "
        "the one closer to the Tombstone, going clockwise, is chosen. The Master puts a clue "
        "in front of each suspect: one the paw print, the other the tuft of fur.",
    )
    assert values[7] == ("timer", 60.0)  # the suspects' defence
    # The vote token goes down on the side of the clue of the condemned suspect.
    assert values[8] == (
        "say",
        "Now the secret vote. Everyone alive who is not a suspect, lay your vote token on the "
        "table with the side of the clue of the suspect you condemn facing up, and cover it "
        "with your hand. On my signal, uncover it.",
    )
    assert values[9:16] == [
        ("say", "One."),
        ("pause", 1.0),
        ("say", "Two."),
        ("pause", 1.0),
        ("say", "Three."),
        ("pause", 1.0),
        ("say", "Go!"),
    ]
    assert values[16] == (
        "wait",
        "The suspect with the most votes is executed: the Master takes back the clues and "
        "gives that player a Ghost card, and the Tombstone passes to the new Ghost. On a tie, "
        "the suspect closer to the Tombstone, going clockwise, is executed.",
    )
    assert values[17:] == [("say", "The day is over, and night falls.")]


def test_cli_setup_for_seven_players_reports_the_discard(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no user copy of lupus
    assert main(["setup", "lupus", "--players", "7", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert json.loads(out) == {
        "ruleset": "lupus",
        "players": 7,
        "roles": {"werewolf": 2, "seer": 1, "villager": 5},
        "discard": 1,
        "tokens": {},
        "dealt": 7,
        "aside": 0,
    }
    # Any of the eight cards may be the one removed: no "discard_from".
    assert main(["setup", "lupus", "--players", "7"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "Remove 1 card at random, unseen, from all 8 cards. Deal 7, one to each player."
    )


def test_cli_script_for_seven_players_uses_the_eight_card_deck(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["script", "lupus", "--players", "7", "--night", "2", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["night"], doc["roles"]) == (2, {"werewolf": 2, "seer": 1, "villager": 5})
    assert [s["role"] for s in doc["steps"] if s["kind"] == "say"] == [
        None,
        None,
        "werewolf",
        "werewolf",
        "werewolf",
        "seer",
        "seer",
        "seer",
    ]


def test_italian_lines_say_what_the_seed_means() -> None:
    day = seq(script("lupus", 8, "werewolf:2,villager:5,seer", phase="day", lang="it"))
    # "conta chi è più vicino" read as "count"; the tie picks who is closer.
    assert "viene scelto chi è più vicino alla Lapide in senso orario" in day[5][2]
    assert "conta chi" not in day[5][2]
    assert day[8][2] == (
        "Ora il voto segreto. Chi è vivo e non è indiziato posi il gettone Voto sul tavolo dal "
        "lato dell'indizio dell'indiziato che vuole condannare, e lo copra con la mano. Al mio "
        "segnale, scopritelo."
    )
    night = seq(script("lupus", 8, "werewolf:2,villager:5,seer", night=2, lang="it"))
    assert night[1] == (
        "say",
        None,
        "Fantasmi, tenete gli occhi chiusi per tutta la notte, anche quando viene chiamato il "
        "vostro personaggio.",
    )


def test_the_first_night_has_no_ghosts_to_remind() -> None:
    night = seq(script("lupus", 8, "werewolf:2,villager:5,seer", night=1))
    assert GHOSTS not in night


@pytest.mark.parametrize("roles", ["villager:8", "seer,villager:7", "possessed,villager:7"])
def test_a_deck_without_werewolves_is_refused(roles: str) -> None:
    with pytest.raises(SelectionError) as info:
        script("lupus", 8, roles)
    assert str(info.value) == (
        "The deck has no Werewolf: without werewolves nobody hunts at night and the village "
        "has nobody to find; add at least one."
    )
