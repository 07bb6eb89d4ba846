"""A ruleset's line and its phones' variant (`phones:`): read by the loader, chosen by
the script builder from the plan (`Plan.phones`), refused with one line when it is
malformed; and every shipped ruleset says, for a table whose cards are on the
phones, what to do on the phone -- no pointing, nodding, thumbs or nudged cards --
in every language it declares, for every role the phones can deal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.moderator import unsupported_roles
from narrator.rules import Ruleset, parse_ruleset
from narrator.rules.model import Condition, Line, Text
from narrator.script import Plan, Say, build_script
from tests.unit.helpers import RULESETS, ruleset

MINIMAL = Path(__file__).parent / "minimal.yaml"
BROKEN = Path(__file__).parent / "broken"

TINY = (
    MINIMAL.read_text(encoding="utf-8")
    .replace(
        "    wake: {en: Seer wake up., it: Veggente svegliati.}\n",
        "    wake: {en: Seer wake up., it: Veggente svegliati.}\n"
        "    act:\n"
        "      en: Point at a player.\n"
        "      it: Indica un giocatore.\n"
        "      phones: {en: Tap a player on your phone., it: Tocca un giocatore sul telefono.}\n",
    )
    .replace(
        "roles:\n",
        "night:\n"
        "  wake_template:\n"
        "    en: '{name}, wake up.'\n"
        "    it: '{name}, svegliati.'\n"
        "    phones: {en: '{name}, wake up. Phones out.', it: '{name}, svegliati. Telefoni.'}\n"
        "  opening:\n"
        "    - say: {en: Close your eyes., it: Chiudete gli occhi.}\n"
        "roles:\n",
    )
    .replace("    wake: {en: Wolf wake up., it: Lupo svegliati.}\n", "")
)


def said(rs: Ruleset, lang: str, phones: bool, night: int = 2) -> list[str]:
    roles = (("wolf", 1), ("seer", 1), ("villager", 1))
    plan = Plan(players=3, roles=roles, night=night, lang=lang, phones=phones)
    return [s.text for s in build_script(rs, plan).steps if isinstance(s, Say)]


def test_a_line_says_its_phones_variant_only_when_the_plan_plays_on_the_phones() -> None:
    rs = parse_ruleset(TINY, "tiny.yaml")
    assert said(rs, "en", phones=False) == [
        "Close your eyes.",
        "Wolf, wake up.",
        "Wolf sleep.",
        "Seer wake up.",
        "Point at a player.",
        "Seer sleep.",
    ]
    assert said(rs, "it", phones=True) == [
        "Chiudete gli occhi.",  # no variant: the same words on the phones
        "Lupo, svegliati. Telefoni.",  # the template's variant, with the role's name
        "Lupo dormi.",
        "Veggente svegliati.",
        "Tocca un giocatore sul telefono.",
        "Veggente dormi.",
    ]


def test_a_text_keeps_its_variant_apart() -> None:
    text = Text((("en", "Point."), ("it", "Indica.")), (("en", "Tap."), ("it", "Tocca.")))
    assert (text.get("en"), text.get("en", phones=True)) == ("Point.", "Tap.")
    plain = Text((("en", "Wake up."),))
    assert plain.get("en", phones=True) == "Wake up."
    with pytest.raises(KeyError):
        text.get("fa", phones=True)


@pytest.mark.parametrize("case", sorted(p.stem for p in BROKEN.glob("phones_*.yaml")))
def test_narrator_check_says_what_is_wrong_with_a_variant_in_one_line(
    case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = BROKEN / f"{case}.yaml"
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    expected = (BROKEN / f"{case}.expect").read_text(encoding="utf-8").strip()
    assert out == "" and err == f"narrator: {path}{expected}\n"


def test_the_variants_cases_are_each_there() -> None:
    cases = {p.stem for p in BROKEN.glob("phones_*.yaml")}
    assert cases == {
        "phones_missing_language",  # a language the ruleset declares is missing
        "phones_nested",  # a variant of the variant
        "phones_not_a_language",  # a misspelt key: did you mean 'phones'?
        "phones_not_a_mapping",  # one text instead of one per language
        "phones_same_as_line",  # a variant saying nothing new
    }


# -- every shipped ruleset, on the phones ------------------------------------------------

# What a table with physical cards does and a table of phones does not: a finger
# pointed, a nod, a thumb raised, a card nudged or looked at on the table.
GESTURES = {
    "en": r"\bpoint|\bnod\b|thumb|nudge|shake of the head|reach out|look at (your own|another"
    r" player's|one|two of the) card",
    "it": r"\bindic|cenno|pollice|sposti|guarda la tua carta|puoi guardare",
    "fa": r"اشاره|شست|کمی جابه‌جا|کارت خودت نگاه",
}
SYSTEMS = ["onuw", "lupus", "mafia_infiltrators", "wherewolf", "secret_moon"]


def can_hold(when: Condition, runnable: set[str]) -> bool:
    """Whether `when` may hold in a deck of roles the phones can deal."""
    if when.never or not set(when.chosen) <= runnable:
        return False
    return not when.any_chosen or bool(set(when.any_chosen) & runnable)


def phone_lines(rs: Ruleset) -> list[tuple[str, Text]]:
    """Every text the phones' table may say or show: the night's frame, the calls and
    cards of every role it can deal (their follow-ups too), the answers of their
    powers, the rounds' calls."""
    runnable = {r.id for r in rs.roles if not unsupported_roles(rs, [r.id])}
    out: list[tuple[str, Text]] = []
    for spec in (*rs.night.opening, *rs.night.closing):
        if spec.text is not None and can_hold(spec.when, runnable):
            out.append(("night", spec.text))

    def lines(where: str, call: tuple[Line, ...]) -> None:
        out.extend((where, x.text) for x in call if can_hold(x.when, runnable))

    for _, turn in rs.night.calls:
        if can_hold(turn.when, runnable):
            for call in (turn.wake, turn.act, turn.close):
                lines("a call of everyone", call)
    for role in rs.roles:
        if role.id not in runnable:
            continue
        out += [(role.id, t) for t in (role.card, role.note) if t is not None]
        for turn in role.turns:
            if can_hold(turn.when, runnable):
                for call in (turn.wake, turn.act, turn.close, *turn.choices):
                    lines(f"{role.id} {turn.order}", call)
        for ability in role.powers.abilities if role.powers else ():
            out += [(f"{role.id}'s answer", t) for t in ability.answer or ()]
    if rs.rounds is not None:
        lines("the rounds", rs.rounds.turn_call)
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_on_the_phones_every_line_says_what_to_do_on_the_phone(system: str) -> None:
    rs = ruleset(system)
    found = phone_lines(rs)
    assert found
    for lang in rs.languages:
        gesture = re.compile(GESTURES[lang], re.IGNORECASE)
        wrong = [(w, t.get(lang, phones=True)) for w, t in found]
        wrong = [(w, s) for w, s in wrong if gesture.search(s)]
        assert not wrong, wrong


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_prompting_call_tells_everyone_to_answer_their_phone(system: str) -> None:
    """At every call that puts a prompt on the phones, the voice tells everyone to
    answer theirs (the decoys are the cover): the phones' night says it as often as
    a call prompts (a power that picks, in the role's own call, as the engine reads
    the ruleset)."""
    rs = ruleset(system)
    runnable = frozenset(r.id for r in rs.roles if not unsupported_roles(rs, [r.id]))
    options = frozenset(o.id for o in rs.options if o.default)
    answer = {"en": "answer your phone", "it": "rispondete sul telefono", "fa": "جواب بدهید"}
    checked = 0
    for night in (1, 2):
        if rs.nights is not None and night > rs.nights:
            continue
        for role in sorted(runnable):
            powers, turns = rs.role(role).powers, rs.role(role).turns
            if powers is None or not turns or not turns[0].when.holds(runnable, night):
                continue
            if not any(
                a.picks and a.turn == 0 and a.when.holds(runnable, night, None, options)
                for a in powers.abilities
            ):
                continue
            lines = [x for x in (*turns[0].wake, *turns[0].act)]
            lines = [x for x in lines if x.when.holds(runnable, night, None, options)]
            for lang in rs.languages:
                said = " ".join(x.text.get(lang, phones=True) for x in lines)
                assert answer[lang] in said, (role, night, lang, said)
                checked += 1
    assert checked or system == "secret_moon"  # its turns are by day


def test_an_artifacts_help_is_in_the_phones_words_in_its_holders_journal() -> None:
    """The holder of the Sword of the Bodyguard reads, on the phones, that they choose
    in the vote on their phone; with physical cards, that they point."""
    from narrator.moderator import Game
    from narrator.moderator.log import Entry
    from narrator.moderator.words import Words

    rs = ruleset("onuw")
    game = Game.deal(
        rs,
        ["Ann", "Bo", "Cy"],
        ["curator", "werewolf", "seer"],
        ["villager", "robber", "troublemaker"],
        options=frozenset({"bonus_artifacts"}),
    )
    found = Entry(1, "n1.2", "curator", "found", 1, ("seat:2",), ("sword_of_the_bodyguard",), 1)
    phones = Words(game, "en", phones=True).journal(found)
    assert "choose in the vote on your phone" in phones and "point" not in phones
    assert "point at in the vote" in Words(game, "en").journal(found)


def test_the_phones_table_voices_and_shows_the_phones_words() -> None:
    """The table plays its nights in the phones' words once the cards are dealt to the
    phones (the plan says so), shows the cards in them, and answers a Seer in them."""
    import random

    from narrator.table import Table
    from narrator.table.lines import describe

    rs = ruleset("lupus")
    table = Table(rs, "en", rng=random.Random(1))
    for name in ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"]:
        table.join(name, table.room)
    table.start({})
    texts = [s.text for s in table.game(1).script("night").steps if isinstance(s, Say)]
    assert any("answer your phone" in t for t in texts)
    assert not any(re.search(GESTURES["en"], t) for t in texts)
    physical = Table(rs, "en", rng=random.Random(1))
    for name in ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"]:
        physical.join(name, physical.room)
    physical.start({}, deal=False)
    texts = [s.text for s in physical.game(1).script("night").steps if isinstance(s, Say)]
    assert any("point at that player" in t for t in texts)
    assert "Tap another player" in describe(rs, "seer", "en", frozenset({"seer"}))
    assert (RULESETS / "lupus.yaml").exists()
