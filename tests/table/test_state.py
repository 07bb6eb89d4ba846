"""The table as pure state: joining, dealing, phases, votes per game, ghosts, saving."""

from __future__ import annotations

import json
import random
import secrets
from collections import Counter
from pathlib import Path

import pytest

from narrator.table import Options, Table, TableError, load_saved, save
from narrator.table.names import MAX_NAME, clean_name
from narrator.table.saved import dump
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def table(game: str, players: int, seed: int = 1, lang: str = "en", **kw: object) -> Table:
    t = Table(ruleset(game), lang, rng=random.Random(seed), **kw)  # type: ignore[arg-type]
    t.tokens = [t.join(name, t.room)[1] for name in NAMES[:players]]  # type: ignore[attr-defined]
    return t


def to_day(t: Table) -> None:
    t.start({})
    t.advance()  # cards -> night
    t.advance()  # night -> day


# -- joining -----------------------------------------------------------------------


def test_names_are_trimmed_and_checked() -> None:
    assert clean_name("  Ann   Lee ") == "Ann Lee"
    assert clean_name("سارا\u200cجان") == "سارا\u200cجان"  # Persian needs the ZWNJ
    for bad, why in [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * (MAX_NAME + 1), "characters long"),
        ("Ann\x00", "control"),
        ("Ann\x1b[31m", "control"),
        ("Ann\u202egnp.exe", "control"),
        (42, "text"),
        (None, "text"),
    ]:
        with pytest.raises(TableError, match=why):
            clean_name(bad)


def test_join_gives_seats_in_order_and_unguessable_tokens() -> None:
    t = table("onuw", 3)
    assert [s.seat for s in t.seats] == [1, 2, 3]
    tokens = t.tokens  # type: ignore[attr-defined]
    assert len(set(tokens)) == 3 and all(len(tok) >= 43 for tok in tokens)  # 256 bits
    assert t.seat_of(tokens[1]).name == "Bo"
    # only a hash is kept: no token appears in the table's saved form
    saved = json.dumps(dump(t))
    assert not any(tok in saved for tok in tokens)
    with pytest.raises(TableError) as err:
        t.seat_of(secrets.token_urlsafe(32))
    assert err.value.kind == "not_found"


def test_join_refuses_wrong_room_taken_name_late_and_full() -> None:
    t = table("onuw", 3)
    with pytest.raises(TableError, match="no room"):
        t.join("Kim", "ZZZZ")
    assert t.join("Kim", t.room.lower())[0] == 4  # the code is not case-sensitive
    with pytest.raises(TableError, match="taken"):
        t.join("ann", t.room)
    for name in NAMES[4:10]:
        t.join(name + "x", t.room)
    with pytest.raises(TableError, match="full"):
        t.join("Zed", t.room)
    t.start({})
    with pytest.raises(TableError, match="started"):
        t.join("Late", t.room)


def test_room_codes_are_four_unambiguous_letters() -> None:
    codes = {Table(ruleset("onuw"), "en").room for _ in range(50)}
    assert len(codes) > 45
    assert all(len(c) == 4 and c.isalpha() and not set(c) & set("IO") for c in codes)


# -- dealing ----------------------------------------------------------------------


def test_the_default_generator_is_cryptographic() -> None:
    assert isinstance(Table(ruleset("onuw"), "en").rng, secrets.SystemRandom)


def test_one_night_deals_one_card_each_and_three_to_the_centre() -> None:
    t = table("onuw", 5)
    t.start({})
    dealt = [s.card for s in t.seats]
    assert len(t.unseen) == 3
    assert Counter(dealt + t.unseen) == Counter(
        {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 3}
    )


def test_lupus_with_seven_discards_one_card_unseen() -> None:
    t = table("lupus", 7)
    t.start({})
    assert len(t.removed) == 1 and t.unseen == [] and all(s.card for s in t.seats)


def test_secret_moon_with_five_removes_the_priestess_or_a_guard_then_sets_two_aside() -> None:
    removed = Counter()
    for seed in range(40):
        t = table("secret_moon", 5, seed=seed)
        t.start({})
        assert len(t.removed) == 1 and len(t.unseen) == 2 and all(s.card for s in t.seats)
        removed.update(t.removed)
        assert "removed" not in json.dumps(t.public()) or t.public()["reveal"] is None
    assert set(removed) == {"priestess", "guard"}


def test_chosen_roles_are_checked_against_the_ruleset() -> None:
    t = table("onuw", 3)
    with pytest.raises(TableError, match="6 cards"):
        t.start({"werewolf": 2, "seer": 1})
    with pytest.raises(TableError, match="no role"):
        t.start({"wizard": 1})
    with pytest.raises(TableError, match="whole number"):
        t.start({"werewolf": "2"})  # type: ignore[dict-item]
    t.start({"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 1})
    assert t.phase == "cards" and len(t.unseen) == 3


def test_the_deal_is_shuffled() -> None:
    # over many deals every seat sometimes gets a werewolf
    wolves = Counter()
    for seed in range(60):
        t = table("onuw", 5, seed=seed)
        t.start({})
        wolves.update(s.seat for s in t.seats if s.card == "werewolf")
    assert set(wolves) == {1, 2, 3, 4, 5}


def test_no_public_view_shows_a_card_before_the_end() -> None:
    t = table("onuw", 5)
    t.start({})
    cards = {s.card for s in t.seats} | set(t.unseen)
    for _ in range(3):
        public = t.public()
        assert public["reveal"] is None
        # the box's role names are public; nothing else may name a card
        text = json.dumps(
            {k: v for k, v in public.items() if k not in ("role_names", "team_names")}
        )
        assert not any(f'"{c}"' in text for c in cards)
        t.advance()
    assert t.phase == "vote"
    me = t.private(t.seats[0])
    assert me["role"] == t.seats[0].card and me["card"]["name"]
    assert set(me) >= {"name", "seat", "role", "alive", "phase"}


def test_the_card_says_what_the_role_does_in_the_game_language() -> None:
    t = table("onuw", 5, lang="fa")
    t.start({"seer": 1, "werewolf": 2, "robber": 1, "troublemaker": 1, "villager": 3})
    seer = t.seats[0]
    seer.card = "seer"
    card = t.private(seer)["card"]
    assert card["name"] == "پیشگو" and card["team"] == "روستا" and card["text"].startswith("در شب")


# -- One Night's vote ------------------------------------------------------------------


def test_one_night_vote_reveals_everything_at_once() -> None:
    clock = Clock()
    t = table("onuw", 5, clock=clock)
    to_day(t)
    assert t.phase == "day"
    with pytest.raises(TableError, match="no vote"):
        t.vote(t.seats[0], 2)
    t.advance()
    assert t.phase == "vote" and t.deadline == clock.t + Options().vote_seconds
    s = t.seats
    t.vote(s[0], 3)
    t.vote(s[1], 3)
    t.vote(s[0], 2)  # a player may change their mind until the reveal
    assert t.public()["result"] is None and t.public()["voted"] == 2
    with pytest.raises(TableError, match="no seat"):
        t.vote(s[2], 9)
    with pytest.raises(TableError, match="cannot vote"):
        t.vote(s[2], 3)  # not yourself
    t.vote(s[2], 2)
    t.vote(s[3], 1)
    clock.t += Options().vote_seconds  # seat 5 never votes: abstains
    assert t.tick()
    assert t.phase == "end"
    assert t.result == {
        "kind": "vote",
        "votes": {"1": 2, "2": 3, "3": 2, "4": 1},
        "dead": [2],
        "shot": [],
    }
    assert not t.seats[1].alive
    reveal = t.reveal
    assert reveal is not None and len(reveal["cards"]) == 5 and len(reveal["unseen"]) == 3
    assert [e.kind for e in t.events] == ["dealt", "night", "vote", "dead", "end"]


def test_one_night_hunter_shot_is_his_vote() -> None:
    t = table("onuw", 4)
    t.start({"hunter": 1, "werewolf": 2, "seer": 1, "villager": 3})
    for seat, card in zip(t.seats, ["hunter", "werewolf", "villager", "seer"], strict=True):
        seat.card = card  # the cards in front of the players at dawn
    t.advance(), t.advance(), t.advance()
    a, b, c, d = t.seats
    t.vote(b, 1), t.vote(c, 1), t.vote(d, 3), t.vote(a, 2)  # hunter dies, points at the wolf
    assert t.result is not None and t.result["dead"] == [1] and t.result["shot"] == [2]
    assert t.reveal is not None and t.reveal["winners"]["teams"] == ["village"]
    assert [e.kind for e in t.events][-3:] == ["dead", "shot", "end"]


# -- Lupus: accusation, defence, secret ballot, ghosts ----------------------------------


def lupus_day() -> Table:
    t = table("lupus", 8)
    t.start({})
    cards = [
        "villager",
        "werewolf",
        "villager",
        "seer",
        "werewolf",
        "villager",
        "medium",
        "villager",
    ]
    for seat, card in zip(t.seats, cards, strict=True):
        seat.card = card
    t.advance()  # night 1
    t.eliminate(8)  # the wolves' victim, told by the host until night actions are on phones
    t.advance()  # day
    return t


def test_lupus_day_ghosts_accuse_but_do_not_vote_in_the_ballot() -> None:
    t = lupus_day()
    assert [e.kind for e in t.events][-1] == "victims" and t.events[-1].seats == (8,)
    assert t.last_out == 8
    t.advance()
    assert t.phase == "accusation" and 8 in t.voters()
    ghost = t.seat(8)
    t.vote(ghost, 2)  # Ghosts accuse
    with pytest.raises(TableError, match="cannot vote"):
        t.vote(t.seat(1), 8)  # but cannot be accused
    for voter, target in [(1, 2), (2, 3), (3, 5), (4, 5), (5, 3), (6, 2)]:
        t.vote(t.seat(voter), target)
    # 2 and 5 and 3: seat 2 has 3 votes; 3 and 5 have 2; the Tombstone is at 8, so
    # going clockwise 1, 2, 3 ... seat 3 is closer than seat 5.
    t.vote(t.seat(7), 4)
    assert t.phase == "defence" and t.suspects == [2, 3]
    assert t.result is not None and t.result["suspects"] == [2, 3]
    t.advance()
    assert t.phase == "ballot" and sorted(t.voters()) == [1, 4, 5, 6, 7]
    with pytest.raises(TableError, match="no vote"):
        t.vote(ghost, 2)  # Ghosts do not vote in the ballot
    with pytest.raises(TableError, match="no vote"):
        t.vote(t.seat(2), 3)  # nor do the suspects
    with pytest.raises(TableError, match="cannot vote"):
        t.vote(t.seat(1), 4)  # only for a suspect
    for voter, target in [(1, 2), (4, 3), (5, 3), (6, 2), (7, 2)]:
        t.vote(t.seat(voter), target)
    assert t.phase == "verdict" and not t.seat(2).alive
    # the ballot's result shows the counts, never who voted for whom
    assert t.result == {
        "kind": "verdict",
        "counts": {"2": 3, "3": 2},
        "condemned": 2,
        "suspects": [2, 3],
    }
    assert t.last_out == 2  # the Tombstone passes
    t.advance()
    assert t.phase == "night" and t.night == 2


def test_lupus_ballot_tie_goes_to_the_suspect_closer_to_the_tombstone() -> None:
    clock = Clock()
    t = lupus_day()
    t.clock = clock
    t.advance()
    t.suspects = []
    for voter, target in [(1, 6), (2, 6), (3, 1), (4, 1)]:
        t.vote(t.seat(voter), target)
    clock.t += 1e6
    t.tick()  # the others abstain
    assert t.suspects == [1, 6]  # tied 2-2; seat 1 is closer to the Tombstone (8)
    t.advance()
    t.vote(t.seat(2), 6), t.vote(t.seat(3), 1)
    clock.t += 1e6
    t.tick()
    assert t.result is not None and t.result["condemned"] == 1


def test_lupus_ends_when_the_wolves_equal_the_humans() -> None:
    t = lupus_day()  # seat 8 is out; wolves 2 and 5 against five humans
    t.eliminate(1), t.eliminate(3)
    assert t.phase == "day"
    t.eliminate(4)  # two wolves, two humans
    assert t.phase == "end"
    assert t.reveal is not None and t.reveal["winners"] == {
        "teams": ["werewolves"],
        "seats": [2, 5],
    }


# -- Mafia and Wherewolf ------------------------------------------------------------


def test_mafia_prisoners_vote_publicly_and_ties_go_to_the_nearest_to_the_arrested() -> None:
    t = table("mafia_infiltrators", 6)
    t.start({})
    t.advance()
    t.eliminate(4)  # arrested
    assert t.last_arrested == 4
    t.advance(), t.advance()
    assert 4 in t.voters()
    for voter, target in [(4, 1), (1, 6), (2, 3), (3, 5), (5, 1), (6, 5)]:
        t.vote(t.seat(voter), target)
    # 1 and 5 have two votes each: both suspects (5 is nearest to 4, then 1)
    assert t.suspects == [5, 1]
    t.advance()
    assert sorted(t.voters()) == [2, 3, 6]


def test_wherewolf_the_dead_do_not_vote_and_one_with_every_vote_burns_at_once() -> None:
    t = table("wherewolf", 5)
    t.start({})
    t.advance()
    t.eliminate(5)
    t.advance(), t.advance()
    assert t.phase == "accusation" and 5 not in t.voters()
    for voter in (1, 2, 4):
        t.vote(t.seat(voter), 3)
    t.vote(t.seat(3), 1)
    assert t.phase == "defence" and t.suspects == [1, 3]  # 3 the most, 1 the runner-up
    t.advance()
    t.vote(t.seat(2), 1), t.vote(t.seat(4), 3)
    assert t.phase in ("verdict", "end") and t.result is not None and t.result["condemned"] is None


# -- physical cards, the end, saving -------------------------------------------------------


def test_with_physical_cards_the_phones_only_vote() -> None:
    t = table("onuw", 4)
    t.start({}, deal=False)
    assert all(s.card is None for s in t.seats) and t.private(t.seats[0])["role"] is None
    t.advance(), t.advance(), t.advance()
    for s in t.seats:
        t.vote(s, 1 if s.seat != 1 else 2)
    assert (
        t.phase == "end" and t.result is not None and t.result["dead"] == [1] and t.reveal is None
    )


def test_secret_moon_has_no_vote_the_host_ends_it() -> None:
    t = table("secret_moon", 6)
    to_day(t)
    t.advance()
    assert t.phase == "end"
    with pytest.raises(TableError):
        t.advance()


def test_saved_game_resumes_mid_vote_with_the_same_seats(tmp_path: Path) -> None:
    t = table("onuw", 5)
    host = t.new_host_token()
    to_day(t)
    t.advance()
    t.vote(t.seats[0], 2)
    path = tmp_path / "game.json"
    save(t, path)
    back = load_saved(path, ruleset("onuw"))
    assert dump(back) == dump(t)
    tokens = t.tokens  # type: ignore[attr-defined]
    assert back.seat_of(tokens[3]).seat == 4 and back.is_host(host)
    assert back.private(back.seats[0])["my_vote"] == 2
    back.vote(back.seats[1], 1)
    assert back.phase == "vote"


def test_a_broken_saved_game_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{not json")
    with pytest.raises(TableError, match="not a saved table game"):
        load_saved(path, ruleset("onuw"))
    save(table("onuw", 3), path)
    with pytest.raises(TableError, match="not a 'lupus'"):
        load_saved(path, ruleset("lupus"))
