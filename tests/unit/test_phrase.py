"""A sentence said in any language (`i18n.phrase.Phrase`), and the engine's and the
table's refusals that carry one: English for str(), the table's language for a phone."""

from __future__ import annotations

import pytest

from narrator.i18n import phrase as phrase_module
from narrator.i18n.phrase import Phrase, say
from narrator.moderator import Game, MoveError
from narrator.moderator.board import Place, Verb
from narrator.rules.model import Text
from narrator.table.errors import TableError
from tests.unit.helpers import ruleset

MINISTER = Text((("en", "Minister"), ("it", "Ministro")))  # no Persian: as Secret Moon


def only_the_minister() -> Phrase:
    return Phrase(
        "{name} cannot choose {who}: only {by} may",
        name="Ann",
        who=Phrase("centre card {k}", k=2),
        by=Phrase("the {role}", role=MINISTER),
    )


def test_values_nest_and_a_rulesets_text_is_said_in_the_language() -> None:
    said = only_the_minister()
    assert str(said) == "Ann cannot choose centre card 2: only the Minister may"
    assert said.say("it") == (
        "Ann non può scegliere la carta 2 del centro: può farlo solo chi è Ministro"
    )
    # the ruleset has no Persian: the role's name is its English, the rest Persian
    assert said.say("fa") == "Ann نمی‌تواند کارت 2 وسط را انتخاب کند: فقط Minister می‌تواند"


def test_a_missing_translation_or_language_is_said_in_english() -> None:
    assert Phrase("no such message {n}", n=3).say("it") == "no such message 3"
    assert only_the_minister().say("de") == str(only_the_minister())
    # a text with no value keeps its braces (a protocol error quoting JSON)
    assert Phrase('say {"locked": true}').say("it") == 'say {"locked": true}'
    # a value is never read as a template: a name with braces stays as typed
    assert Phrase("{name} must choose at this call", name="{n}").say("it") == (
        "{n} deve scegliere in questa chiamata"
    )


def test_a_broken_translation_is_said_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(phrase_module, "gettext", lambda lang, text: text.replace("name", "nom"))
    assert Phrase("{name} is dead and cannot vote", name="Bo").say("it") == (
        "Bo is dead and cannot vote"
    )


def test_counted_chooses_the_languages_own_plural() -> None:
    one, two = (Phrase.counted("{n} other player(s)", "{n} other player(s)", n) for n in (1, 2))
    assert (str(one), str(two)) == ("1 other player(s)", "2 other player(s)")
    assert (one.say("it"), two.say("it")) == ("1 altro giocatore", "2 altri giocatori")
    assert two.say("fa") == "2 بازیکن دیگر"


def test_a_plain_text_is_said_as_it_is() -> None:
    assert say("there is no action 'fly'", "it") == "there is no action 'fly'"
    assert say(Phrase("there is no vote now"), "it") == "ora non si vota"


def test_an_action_is_its_id_in_english_and_its_label_elsewhere() -> None:
    capture = next(a for a in ruleset("secret_moon").actions if a.id == "capture")
    said = Phrase("{name} holds a card that cannot {action}", name="Ed", action=Verb(capture))
    assert str(said) == "Ed holds a card that cannot capture"
    assert said.say("it") == "la carta di Ed non può usare «Cattura»"
    assert said.say("fa") == "کارت Ed نمی‌تواند «capture» را به کار ببرد"  # no Persian label


def test_the_engines_refusal_is_english_and_said_in_any_language() -> None:
    game = Game.deal(
        ruleset("onuw"), ["Ann", "Bo", "Cy"], ["seer", "robber", "villager"], ["villager"] * 3
    )
    steps = game.begin_night()
    seer = next(s for s in steps if s.role == "seer")
    game.open_step(seer)
    with pytest.raises(MoveError) as refused:
        game.act(seer, 0, [Place.seat(1), Place.centre(0)])
    assert str(refused.value) == "Ann must choose 1 other player(s) or 2 centre card(s)"
    assert refused.value.say("it") == ("Ann deve scegliere 1 altro giocatore o 2 carte del centro")
    assert refused.value.say("fa") == "Ann باید 1 بازیکن دیگر یا 2 کارت وسط انتخاب کند"


def test_a_table_error_carries_its_phrase_or_plain_english() -> None:
    late = TableError(Phrase("that prompt is not open now"), "refused")
    assert (str(late), late.say("it"), late.kind) == (
        "that prompt is not open now",
        "questa domanda ora non è aperta",
        "refused",
    )
    shape = TableError('"choose" is a list of a few option ids')
    assert shape.say("fa") == str(shape) == '"choose" is a list of a few option ids'


def test_secret_moons_refused_turns_in_any_language() -> None:
    """The turns the rules refuse, from the engine: the action by its label, the role
    by its name, in the language; Persian, which Secret Moon does not have, with the
    ruleset's English names in a Persian sentence."""
    moon = ruleset("secret_moon")
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    deal = ["princess", "wanderer", "priestess", "minister", "guard", "guard"]
    game = Game.deal(moon, names, deal, ["guard", "guard"])
    for step in game.begin_night():
        game.open_step(step)
        game.close_step(step)
    game.begin_round()
    game.turn(4, "accuse", [Place.seat(0)], "princess")  # right: Ann's card is shown
    with pytest.raises(MoveError) as minister:
        game.turn(2, "capture", [Place.seat(0)])
    with pytest.raises(MoveError) as guard:
        game.turn(5, "capture", [Place.seat(0)])
    assert str(minister.value) == "Cy cannot capture Ann: only the Minister may"
    assert minister.value.say("it") == (
        "Cy non può usare «Cattura» su Ann: può farlo solo chi è Ministro"
    )
    assert minister.value.say("fa") == (
        "Cy نمی‌تواند «capture» را روی Ann به کار ببرد: فقط Minister می‌تواند"
    )
    assert str(guard.value) == "Flo holds a card that cannot capture"
    assert guard.value.say("it") == "la carta di Flo non può usare «Cattura»"
    assert guard.value.say("fa") == "کارت Flo نمی‌تواند «capture» را به کار ببرد"
