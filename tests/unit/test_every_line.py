"""Every line a game can say (what a voice pack records): every utterance of any deck,
option and night is made of them, the deck's own lines come first, and none is
invented or left with a placeholder."""

from __future__ import annotations

import random

import pytest

from narrator.rules import SelectionError
from narrator.rules.draw import random_deck
from narrator.script import Plan, build_script
from narrator.script.lines import LineBook, every_line, spoken
from tests.unit.helpers import ruleset, script

GAMES = [
    (game, lang)
    for game, langs in (
        ("onuw", ("en", "it", "fa")),
        ("lupus", ("en", "it")),
        ("wherewolf", ("en", "it")),
        ("mafia_infiltrators", ("en", "it")),
        ("secret_moon", ("en", "it")),
    )
    for lang in langs
]


@pytest.mark.parametrize(("game", "lang"), GAMES)
def test_every_utterance_of_any_deck_is_recorded_lines_in_a_row(game: str, lang: str) -> None:
    rs = ruleset(game)
    book = LineBook(every_line(rs, Plan(players=rs.setup.min_players, roles=(), lang=lang)))
    rng = random.Random(f"{game}|{lang}")
    checked = 0
    for _ in range(40):
        players = rng.randint(rs.setup.min_players, min(rs.setup.max_players, 12))
        try:
            deck = random_deck(rs, players, tuple(b for b, _ in rs.boxes), rng)
        except SelectionError:
            continue
        options = tuple(
            (o.id, float(rng.random() < 0.5) if o.kind == "flag" else rng.choice((0.0, 20.0)))
            for o in rs.options
        )
        for night in (1,) if rs.nights == 1 else (1, 2, 3):
            for phase in ("night", "day"):
                plan = Plan(
                    players=players,
                    roles=deck,
                    lang=lang,
                    night=night,
                    phase=phase,
                    options=options,
                    seed=rng.randrange(10_000),
                )
                try:
                    steps = build_script(rs, plan).steps
                except SelectionError:
                    continue
                for text in spoken(steps):
                    assert book.split(text) is not None, text
                    checked += 1
    assert checked > 200


@pytest.mark.parametrize(("game", "lang"), GAMES)
def test_lines_are_distinct_filled_and_not_invented(game: str, lang: str) -> None:
    rs = ruleset(game)
    lines = every_line(rs, Plan(players=rs.setup.min_players, roles=(), lang=lang))
    assert len(lines) == len(set(lines)) > 10
    assert not [line for line in lines if "{" in line or not line.strip()]
    # every line is a ruleset line's text, or one filled in / a recap built from them
    assert all(line == line.strip() for line in lines)


def test_the_decks_lines_come_first_in_the_order_they_are_heard() -> None:
    night = script("onuw", 3, "werewolf:2,villager:3,tanner", lang="fa")
    day = script("onuw", 3, "werewolf:2,villager:3,tanner", lang="fa", phase="day")
    heard = list(dict.fromkeys([*spoken(night.steps), *spoken(day.steps)]))
    rs = ruleset("onuw")
    lines = every_line(rs, Plan(players=3, roles=night.roles, lang="fa"))
    assert list(lines[: len(heard)]) == heard
    assert len(lines) > 3 * len(heard)  # then every other role's and option's lines


def test_a_doppelganger_recap_is_made_of_recorded_lines() -> None:
    rs = ruleset("onuw")
    plan = Plan(
        players=5,
        roles=(("doppelganger", 1), ("werewolf", 2), ("seer", 1), ("robber", 1), ("villager", 3)),
        options=(("verbose_doppelganger", 1.0),),
    )
    recap = [t for t in spoken(build_script(rs, plan).steps) if t.startswith("If you are now")]
    assert recap
    book = LineBook(every_line(rs, Plan(players=5, roles=())))
    parts = book.split(recap[0])
    assert parts is not None and len(parts) == 2  # the Seer's, then the Robber's


def test_split_takes_the_fewest_whole_lines() -> None:
    book = LineBook(["A b.", "C d.", "A b. C d.", "E", "Ef g."])
    assert book.split("A b. C d.") == ("A b. C d.",)
    assert book.split("C d. A b. C d.") == ("C d.", "A b. C d.")
    assert book.split("E C d.") == ("E", "C d.")
    assert book.split("Ef C d.") is None  # no line is cut inside a word
    assert book.split("A b.  C d.") is None  # joined by one space, as the builder joins
    assert book.split("X") is None
    assert "E" in book and len(book) == 5


def test_a_language_the_ruleset_lacks_is_refused() -> None:
    with pytest.raises(SelectionError, match="no 'fa' lines"):
        every_line(ruleset("lupus"), Plan(players=8, roles=(), lang="fa"))
