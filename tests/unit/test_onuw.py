"""One Night: the exact night order of RULES.md section 1, and its conditional steps."""

from __future__ import annotations

import pytest

from narrator.rules import SelectionError
from tests.unit.helpers import calls, script, seq, turn

FULL = (
    "doppelganger,werewolf:2,minion,mason:2,seer,robber,troublemaker,drunk,insomniac,hunter,tanner"
)

OPEN = [("say", None, "Everyone, close your eyes."), ("pause", None, 3.0)]
CLOSE = [
    (
        "say",
        None,
        "Whoever sits closest to the cards: with your eyes still closed, nudge every card a "
        "little, so nobody can tell which ones were moved.",
    ),
    ("pause", None, 6.0),
    ("say", None, "Everyone, wake up and open your eyes!"),
]
GAP = ("pause", None, 1.0)
LONE_WOLF = "If you are the only werewolf, you may look at one card in the centre."


SEER = turn(
    "seer",
    "Seer, wake up.",
    "You may look at another player's card, or at two of the cards in the centre.",
    close="Seer, close your eyes.",
)
ROBBER = turn(
    "robber",
    "Robber, wake up.",
    "You may swap your card with another player's card, then look at your new card.",
    close="Robber, close your eyes.",
)
TROUBLEMAKER = turn(
    "troublemaker",
    "Troublemaker, wake up.",
    "You may swap the cards of two other players, without looking at them.",
    close="Troublemaker, close your eyes.",
)
DRUNK = turn(
    "drunk",
    "Drunk, wake up.",
    "Swap your card with one from the centre, and do not look at it.",
    close="Drunk, close your eyes.",
)
INSOMNIAC = turn(
    "insomniac",
    "Insomniac, wake up.",
    "Look at your own card to see whether it has changed.",
    seconds=6.0,
    close="Insomniac, close your eyes.",
)
MINION = turn(
    "minion",
    "Minion, wake up.",
    "Werewolves, keep your eyes shut and raise a thumb so the Minion knows who you are.",
    close="Werewolves, thumbs down. Minion, close your eyes.",
)
# One Night's other boxes made the base game's "if you copied the Seer, the Robber..."
# too short a list: the Doppelganger now hears the rule, and the verbose option the list.
DOPPEL_ACT = (
    "Look at one other player's card: you are now that role. If it acts at once, do its "
    "action right now; if it wakes with others or later, you will be called."
)
DOPPEL_MINION = [
    (
        "say",
        "doppelganger",
        "Doppelganger, if you copied the Minion, keep your eyes open; if not, close them now. "
        "Werewolves, raise a thumb so the Doppelganger can see you.",
    ),
    ("pause", "doppelganger", 5.0),
    ("say", "doppelganger", "Werewolves, thumbs down. Doppelganger, close your eyes."),
]
DOPPEL_INSOMNIAC = turn(
    "doppelganger",
    "Doppelganger, if you copied the Insomniac, wake up and look at your own card.",
    seconds=5.0,
    close="Doppelganger, close your eyes.",
)


def werewolves(doppelganger: bool) -> list[tuple]:
    wake = "Werewolves, wake up and look for each other."
    if doppelganger:
        wake += " Doppelganger, if you became a Werewolf, wake up with them."
    return turn("werewolf", wake, LONE_WOLF, close="Werewolves, close your eyes.")


def masons(doppelganger: bool) -> list[tuple]:
    wake = "Masons, wake up and look for each other."
    if doppelganger:
        wake += " Doppelganger, if you became a Mason, wake up with them."
    return turn("mason", wake, close="Masons, close your eyes.")


def test_full_box_follows_the_rules_order_with_both_doppelganger_extra_steps() -> None:
    night = script("onuw", 10, FULL)
    expected = (
        OPEN
        + [
            ("say", "doppelganger", "Doppelganger, wake up."),
            ("say", "doppelganger", DOPPEL_ACT),
            ("pause", "doppelganger", 12.0),
        ]
        # With the Minion chosen, the Doppelganger's eyes stay open into step 1b.
        + DOPPEL_MINION
        + [GAP, *werewolves(True), GAP, *MINION, GAP, *masons(True), GAP, *SEER, GAP]
        + [*ROBBER, GAP, *TROUBLEMAKER, GAP, *DRUNK, GAP, *INSOMNIAC, GAP, *DOPPEL_INSOMNIAC]
        + CLOSE
    )
    assert seq(night) == expected
    assert calls(night) == [
        "doppelganger",
        "werewolf",
        "minion",
        "mason",
        "seer",
        "robber",
        "troublemaker",
        "drunk",
        "insomniac",
        "doppelganger",
    ]


def test_without_minion_the_doppelganger_closes_its_eyes_and_step_1b_is_gone() -> None:
    roles = FULL.replace("minion,", "").replace("hunter,", "villager,hunter,")
    night = seq(script("onuw", 10, roles))
    assert DOPPEL_MINION[0] not in night
    start = len(OPEN)
    assert night[start : start + 5] == [
        ("say", "doppelganger", "Doppelganger, wake up."),
        ("say", "doppelganger", DOPPEL_ACT),
        ("pause", "doppelganger", 12.0),
        ("say", "doppelganger", "Doppelganger, close your eyes."),
        GAP,
    ]
    assert not [s for s in night if s[1] == "minion"]


def test_without_insomniac_the_doppelganger_insomniac_step_is_gone() -> None:
    roles = FULL.replace("insomniac,", "villager,")
    night = script("onuw", 10, roles)
    assert calls(night)[-2:] == ["troublemaker", "drunk"]
    assert DOPPEL_INSOMNIAC[0] not in seq(night)


def test_without_doppelganger_no_line_mentions_it() -> None:
    roles = FULL.replace("doppelganger,", "villager,")
    night = script("onuw", 10, roles)
    assert calls(night) == [
        "werewolf",
        "minion",
        "mason",
        "seer",
        "robber",
        "troublemaker",
        "drunk",
        "insomniac",
    ]
    assert all("Doppelganger" not in text for _, _, text in seq(night) if isinstance(text, str))
    assert werewolves(False)[0] in seq(night)


def test_first_game_deck_for_five_players() -> None:
    night = script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3")
    assert seq(night) == (
        OPEN + werewolves(False) + [GAP, *SEER, GAP, *ROBBER, GAP, *TROUBLEMAKER] + CLOSE
    )


def test_lone_wolf_line_is_said_even_with_two_werewolf_cards() -> None:
    # Who holds a werewolf is secret (one may be in the centre): the line is always said.
    for roles in ("werewolf,seer,robber,troublemaker,villager:2", FULL):
        players = 3 if roles != FULL else 10
        texts = [t for kind, role, t in seq(script("onuw", players, roles)) if role == "werewolf"]
        assert LONE_WOLF in texts


def test_villager_hunter_tanner_never_wake() -> None:
    night = script("onuw", 3, "werewolf:2,villager:3,hunter")
    assert calls(night) == ["werewolf"]


def test_pace_and_action_time_overrides() -> None:
    night = script(
        "onuw",
        3,
        "werewolf:2,seer,robber,troublemaker,villager",
        pace=1.5,
        action_times=(("seer", 20.0),),
    )
    pauses = [(role, s) for kind, role, s in seq(night) if kind == "pause"]
    assert ("seer", 30.0) in pauses  # the override, then paced
    assert ("werewolf", 15.0) in pauses
    assert (None, 4.5) in pauses  # the opening pause is paced too


@pytest.mark.parametrize("lang", ["it", "fa"])
def test_other_languages_have_the_same_shape(lang: str) -> None:
    english = script("onuw", 10, FULL)
    other = script("onuw", 10, FULL, lang=lang)
    assert [(s.kind, s.role) for s in english.steps] == [(s.kind, s.role) for s in other.steps]
    assert seq(english) != seq(other)


def test_italian_night_opens_in_italian() -> None:
    assert seq(script("onuw", 10, FULL, lang="it"))[0] == (
        "say",
        None,
        "Tutti, chiudete gli occhi.",
    )


def test_day_is_discussion_then_three_two_one_point() -> None:
    day = script("onuw", 5, "werewolf:2,seer,robber,troublemaker,villager:3", phase="day")
    kinds = [(kind, value) for kind, _, value in seq(day)]
    assert kinds[0] == (
        "say",
        "Talk it over. Who is a werewolf? Say what you like, but never show your card, "
        "and do not look at it again.",
    )
    assert kinds[1] == ("timer", 300.0)
    timer = day.steps[1]
    assert [(w.at, w.text) for w in timer.warnings] == [
        (60, "One minute left."),
        (10, "Ten seconds."),
    ]
    # The seed: point the moment you hear "one" -- no silence between "one" and "point".
    assert [v for k, v in kinds[3:8]] == ["Three.", 1.0, "Two.", 1.0, "One, point!"]
    assert kinds[-1][0] == "wait" and "nobody dies" in kinds[-1][1]


def test_discussion_length_can_be_changed() -> None:
    day = script(
        "onuw",
        5,
        "werewolf:2,seer,robber,troublemaker,villager:3",
        phase="day",
        discussion_seconds=45.0,
    )
    timer = day.steps[1]
    assert timer.seconds == 45.0
    assert [w.at for w in timer.warnings] == [10]  # the one-minute warning cannot fit


@pytest.mark.parametrize(
    ("players", "roles", "message"),
    [
        (5, "werewolf:2,seer,robber,troublemaker,villager:2", "5 players need 8 cards"),
        (5, "werewolf:2,seer,robber,troublemaker,mason,villager:2", "Mason cards come in pairs"),
        (2, "werewolf:2,seer,robber,troublemaker", "for 3 to 10 players, not 2"),
        (5, "werewolf:3,seer,robber,troublemaker,villager:2", "Werewolf: 3 chosen, but"),
    ],
)
def test_invalid_selections_are_refused(players: int, roles: str, message: str) -> None:
    with pytest.raises(SelectionError, match=message):
        script("onuw", players, roles)


def test_insomniac_without_robber_or_troublemaker_is_a_warning() -> None:
    night = script("onuw", 3, "werewolf:2,seer,insomniac,villager:2")
    assert night.warnings == (
        "Insomniac is only useful with Robber, Troublemaker, Witch, Village Idiot, Alpha Wolf, "
        "Gremlin or Rascal; add one or drop it",
    )
