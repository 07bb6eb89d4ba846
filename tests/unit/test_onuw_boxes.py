"""One Night with every box: exact nights for a representative deck of each box.

Daybreak's wolves and the Dream Wolf's thumb; Vampire's dusk with its marks and the
Lovers; an Alien night drawn from a fixed seed; the Bonus roles; and a Doppelganger
with every role the 5.0 sheet marks `*` (her follow-up right after that role).
"""

from __future__ import annotations

import pytest

from narrator.script import script_to_dict
from tests.unit.helpers import calls, script, seq, turn
from tests.unit.test_onuw import CLOSE, GAP, OPEN


def named(role: str, name: str, *lines: str, close: str | None = None) -> list[tuple]:
    """A turn with the ruleset's templated wake and close lines."""
    return turn(role, f"{name}, wake up.", *lines, close=close or f"{name}, close your eyes.")


def nights(*turns: list[tuple]) -> list[tuple]:
    out = list(OPEN)
    for i, t in enumerate(turns):
        out += ([GAP] if i else []) + t
    return out + CLOSE


def test_daybreak_wolves_with_the_dream_wolf_thumb_and_the_sentinel_first() -> None:
    night = script(
        "onuw",
        6,
        "sentinel,werewolf,alpha_wolf,mystic_wolf,dream_wolf,apprentice_seer,witch,"
        "village_idiot,curator",
    )
    assert seq(night) == nights(
        named(
            "sentinel",
            "Sentinel",
            "You may put the shield on another player's card. Nobody may move or look at a "
            "shielded card.",
        ),
        turn(
            "werewolf",
            "Werewolves, wake up and look for each other. Dream Wolf, keep your eyes closed "
            "and raise a thumb so the werewolves see you.",
            "If you are the only werewolf, you may look at one card in the centre.",
            close="Werewolves, close your eyes. Dream Wolf, thumb down.",
        ),
        named(
            "alpha_wolf",
            "Alpha Wolf",
            "Swap the spare Werewolf card beside the centre with the card of a player who is "
            "not a werewolf, without looking at either.",
        ),
        named("mystic_wolf", "Mystic Wolf", "You may look at another player's card."),
        named("apprentice_seer", "Apprentice Seer", "You may look at one card in the centre."),
        named(
            "witch",
            "Witch",
            "You may look at one card in the centre. If you do, swap it with the card of any "
            "player, yours too.",
        ),
        named(
            "village_idiot",
            "Village Idiot",
            "You may move every other player's card one place to the left or one place to "
            "the right. Your own stays where it is.",
        ),
        named(
            "curator",
            "Curator",
            "You may put an artifact, face down and unseen, on any player's card that has none.",
        ),
    )


def test_dream_wolf_alone_still_calls_the_werewolves_for_its_thumb() -> None:
    night = script("onuw", 3, "dream_wolf,seer,robber,troublemaker,villager:2")
    assert calls(night) == ["werewolf", "seer", "robber", "troublemaker"]


MARKS = [
    ("say", None, "Everyone, open your eyes and look at your own mark, without showing it."),
    ("pause", None, 6.0),
    ("say", None, "Everyone, close your eyes."),
]


def test_vampire_dusk_marks_then_lovers() -> None:
    night = script(
        "onuw",
        6,
        "copycat,vampire:2,the_count,renfield,cupid,priest,assassin,apprentice_assassin",
    )
    assert seq(night) == nights(
        named(
            "copycat",
            "Copycat",
            "Look at one card in the centre: you are now that role, and you wake whenever it "
            "is called.",
        ),
        turn(
            "vampire",
            "Vampires, wake up and look for each other.",
            "Together, choose one player who is not a vampire and swap their mark for the "
            "Mark of the Vampire.",
            close="Vampires, close your eyes.",
        ),
        named(
            "the_count",
            "Count",
            "Swap the mark of a player who is not a vampire, and did not just get the Mark of "
            "the Vampire, for the Mark of Fear.",
        ),
        named(
            "renfield",
            "Renfield",
            "Vampires, keep your eyes closed, raise a thumb and point at the player who got "
            "the Mark of the Vampire. Renfield, see them, then put the Mark of the Bat on "
            "yourself.",
            close="Vampires, hands down. Renfield, close your eyes.",
        ),
        named(
            "cupid",
            "Cupid",
            "You may give the Mark of Love to up to two players, in place of their marks; you "
            "may be one of them.",
        ),
        named(
            "priest",
            "Priest",
            "Swap your own mark for a Mark of Clarity; you may give one to one other player too.",
        ),
        named(
            "assassin",
            "Assassin",
            "Give the Mark of the Assassin to any player, in place of their mark; it may be you.",
        ),
        turn(
            "apprentice_assassin",
            "Apprentice Assassin, wake up. Assassin, open your eyes too, and look at each other.",
            "Apprentice, if nobody else has opened their eyes, give the Mark of the Assassin "
            "to any player, in place of their mark; it may be you.",
            close="Assassin and Apprentice Assassin, close your eyes.",
        ),
        MARKS,
        turn(
            "cupid",
            "Everyone with the Mark of Love, wake up and look at each other.",
            close="Lovers, close your eyes.",
        ),
    )


def test_marks_are_viewed_only_when_a_mark_role_is_chosen() -> None:
    with_marks = seq(script("onuw", 3, "werewolf:2,pickpocket,seer,robber,villager"))
    without = seq(script("onuw", 3, "werewolf:2,seer,robber,troublemaker,villager"))
    assert MARKS[0] in with_marks
    assert MARKS[0] not in without


def test_an_alien_night_is_the_same_for_the_same_seed_and_lists_its_choices() -> None:
    deck = "alien:2,oracle,cow,groob,zerb,psychic,rascal"
    night = script("onuw", 5, deck, seed=7)
    assert seq(night) == nights(
        named(
            "oracle",
            "Oracle",
            "Oracle, do you want to join the aliens? If you say yes, you are an alien from now on.",
        ),
        turn(
            "alien",
            "Aliens, wake up and look for each other.",
            "Aliens, each of you, without looking, pass your card to the alien nearest on "
            "your left.",
            close="Aliens, close your eyes.",
        ),
        turn(
            "cow",
            "Cow, keep your eyes closed and hold out a fist.",
            "Aliens, without opening your eyes, if you sit right next to the Cow, tap its fist.",
            close="Cow, fist down.",
        ),
        turn(
            "groob",
            "Groob and Zerb, wake up and look for each other.",
            close="Groob and Zerb, close your eyes.",
        ),
        named(
            "psychic",
            "Psychic",
            "You may look at the cards of up to two other players with even numbers.",
        ),
        named(
            "rascal",
            "Rascal",
            "You may move every other player's card one place to the left or one place to "
            "the right.",
        ),
    )
    doc = script_to_dict(night)
    assert doc["seed"] == 7
    assert [(c["role"], c["order"], c["index"]) for c in doc["choices"]] == [
        ("oracle", "-9", 2),
        ("alien", "1a", 5),
        ("psychic", "5g", 3),
        ("rascal", "7f", 0),
    ]
    assert seq(script("onuw", 5, deck, seed=7)) == seq(night)
    others = {tuple(seq(script("onuw", 5, deck, seed=s))) for s in range(8)}
    assert len(others) > 1  # the seed really chooses


def test_bonus_roles_in_order() -> None:
    night = script(
        "onuw", 6, "werewolf:2,apprentice_tanner,tanner,thing,aura_seer,squire,beholder,seer"
    )
    assert calls(night) == [
        "werewolf",
        "apprentice_tanner",
        "thing",
        "seer",
        "aura_seer",
        "squire",
        "beholder",
    ]
    assert seq(night)[len(OPEN) + 5 : len(OPEN) + 9] == turn(
        "apprentice_tanner",
        "Apprentice Tanner, wake up.",
        "Tanner, keep your eyes closed and raise a thumb so the Apprentice Tanner sees you.",
        close="Tanner, thumb down. Apprentice Tanner, close your eyes.",
    )


# Each role the 5.0 sheet marks `*` (and the ones whose night is drawn at random),
# with what the Doppelganger hears right after its turn.
FOLLOW_UPS = {
    "the_count": "Doppelganger, if you copied the Count, wake up and give the Mark of Fear to "
    "a player who is not a vampire.",
    "renfield": "Doppelganger, if you copied Renfield, wake up, see the vampires and put the "
    "Mark of the Bat on yourself.",
    "priest": "Doppelganger, if you copied the Priest, wake up and give a Mark of Clarity to "
    "yourself and to one other player.",
    "assassin": "Doppelganger, if you copied the Assassin, wake up and give the Mark of the "
    "Assassin to any player.",
    "apprentice_assassin": "Doppelganger, if you copied the Apprentice Assassin, wake up. "
    "Assassin, open your eyes too, and look at each other.",
    "pickpocket": "Doppelganger, if you copied the Pickpocket, wake up; you may swap your mark "
    "with another player's mark, then look at your new one.",
    "leader": "Doppelganger, if you copied the Leader, wake up. Aliens, raise your thumbs.",
    "apprentice_tanner": "Doppelganger, if you copied the Apprentice Tanner, wake up. Tanner, "
    "raise your thumb.",
    "marksman": "Doppelganger, if you copied the Marksman, wake up and look at one player's "
    "card and another player's mark.",
    "aura_seer": "Doppelganger, if you copied the Aura Seer, wake up. Everyone who moved or "
    "looked at a card tonight, raise your thumb.",
    "gremlin": "Doppelganger, if you copied the Gremlin, wake up; you may swap the cards or "
    "the marks of two players.",
    "insomniac": "Doppelganger, if you copied the Insomniac, wake up and look at your own card.",
    "squire": "Doppelganger, if you copied the Squire, wake up. Werewolves, raise your thumbs.",
    "beholder": "Doppelganger, if you copied the Beholder, wake up. Seers, raise your thumbs.",
    "revealer": "Doppelganger, if you copied the Revealer, wake up; you may turn another "
    "player's card face up, and turn it back if it is a werewolf or the Tanner.",
    "curator": "Doppelganger, if you copied the Curator, wake up; you may put an artifact face "
    "down on a card with none.",
    "body_snatcher": "Doppelganger, if you copied the Body Snatcher, wake up and do what the "
    "Body Snatcher did.",
    "psychic": "Doppelganger, if you copied the Psychic, wake up and do as the Psychic was "
    "just told.",
    "rascal": "Doppelganger, if you copied the Rascal, wake up and do as the Rascal was just told.",
    "exposer": "Doppelganger, if you copied the Exposer, wake up and do as the Exposer was "
    "just told.",
    "empath": "Doppelganger, if you copied the Empath, wake up and watch where everyone points.",
    "mortician": "Doppelganger, if you copied the Mortician, wake up and do as the Mortician "
    "was just told.",
}
# What a role needs beside it for a valid deck.
COMPANIONS = {
    "the_count": "vampire",
    "renfield": "vampire",
    "apprentice_tanner": "tanner",
    "body_snatcher": "alien",
    "leader": "alien",
}


@pytest.mark.parametrize("role", sorted(FOLLOW_UPS))
def test_doppelganger_follow_up_comes_right_after_the_copied_role(role: str) -> None:
    extra = COMPANIONS.get(role, "villager")
    night = script("onuw", 3, f"doppelganger,werewolf,{role},{extra},seer,robber", seed=1)
    steps = seq(night)
    follow = ("say", "doppelganger", FOLLOW_UPS[role])
    assert follow in steps
    at = steps.index(follow)
    # Right before: the copied role (or its group) closing its eyes, then the gap.
    assert steps[at - 1] == GAP
    assert steps[at - 2][1] == role
    # Right after: the follow-up's own silence and her eyes closing.
    closing = [s for s in steps[at:] if s[0] == "say" and s[1] == "doppelganger"][-1]
    assert closing[2].endswith("Doppelganger, close your eyes.")
    # Without the Doppelganger, no line mentions her.
    alone = script("onuw", 3, f"villager,werewolf,{role},{extra},seer,robber", seed=1)
    assert not [s for s in seq(alone) if s[1] == "doppelganger"]


def test_the_full_doppelganger_follow_up_for_the_gremlin() -> None:
    steps = seq(script("onuw", 3, "doppelganger,werewolf,gremlin,villager,seer,robber"))
    at = steps.index(("say", "doppelganger", FOLLOW_UPS["gremlin"]))
    assert steps[at - 5 : at + 3] == [
        *turn(
            "gremlin",
            "Gremlin, wake up.",
            "You may swap the cards of two players, or the marks of two players; you may be "
            "one of them.",
            close="Gremlin, close your eyes.",
        ),
        GAP,
        ("say", "doppelganger", FOLLOW_UPS["gremlin"]),
        ("pause", "doppelganger", 10.0),
        ("say", "doppelganger", "Doppelganger, close your eyes."),
    ]
