"""A ruleset's line and its phones' variant (`phones:`): read by the loader, chosen by
the script builder from the plan (`Plan.phones`), refused with one line when it is
malformed; and every shipped ruleset says, for a table whose cards are on the
phones, what to do on the phone -- no pointing, nodding, thumbs or nudged cards --
in every language it declares, for every role the phones can deal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.moderator import unsupported_roles
from narrator.rules import Ruleset, parse_ruleset
from narrator.rules.model import Condition, Line, Text
from narrator.script import Plan, Say, build_script
from tests.unit.helpers import RULESETS, ruleset

MINIMAL = Path(__file__).parent / "minimal.yaml"
SCENARIOS = Path(__file__).parent.parent / "scenarios"
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
# pointed, a nod, a thumb raised, a card nudged or looked at on the table, a mark
# looked at, the Cow's fist held out and tapped.
GESTURES = {
    "en": r"\bpoint|\bnod\b|thumb|nudge|shake of the head|reach out|look at (your own|another"
    r" player's|one|two of the) (card|mark)|hold out a fist|tap its fist",
    "it": r"\bindic|cenno|pollice|sposti|guarda la tua carta|puoi guardare|guardate il vostro"
    r" marchio|tendi un pugno|toccatele il pugno",
    "fa": r"اشاره|شست|کمی جابه‌جا|کارت خودت نگاه|نشان خودتان نگاه|مشتت را جلو بیاور|به مشتش بزنید",
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


ANSWER = {"en": "answer your phone", "it": "rispondete sul telefono", "fa": "جواب بدهید"}


def calls_on_the_phones(
    rs: Ruleset, night: int, runnable: frozenset[str], options: frozenset[str]
) -> Iterator[tuple[str, int, int, list[Line], bool]]:
    """Every call of a role the phones can deal, as the engine answers it on `night`
    (its own call, turn 0, and its extra turns; a role that wakes with another is
    checked at that role's call), once per instruction a game may draw there:
    (role, turn, the choice drawn or -1, the lines said, whether the phones prompt)."""
    for role_id in sorted(runnable):
        role, powers = rs.role(role_id), rs.role(role_id).powers
        if powers is None:
            continue
        own = rs.role(role.wakes_with) if role.wakes_with else role
        main = [t for t in own.turns if t.main]
        extra = [t for t in role.turns if not t.main]
        for k in sorted({a.turn for a in powers.abilities}):
            if k == 0 and role.wakes_with:
                continue
            held = [t for t in (main if k == 0 else extra[k - 1 : k])]
            turn = next((t for t in held if t.when.holds(runnable, night, None, options)), None)
            if turn is None:
                continue
            picking = [
                a
                for a in powers.abilities
                if a.turn == k and a.picks and a.when.holds(runnable, night, None, options)
            ]
            for c in range(len(turn.choices)) if turn.choices else [-1]:
                said = [*turn.wake, *turn.act, *(turn.choices[c] if c >= 0 else ())]
                said = [x for x in said if x.when.holds(runnable, night, None, options)]
                yield role_id, k, c, said, any(a.choice in (-1, c) for a in picking)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_prompting_call_tells_everyone_to_answer_their_phone(system: str) -> None:
    """At every call that puts a prompt on the phones, the voice tells everyone to
    answer theirs (the decoys are the cover): the phones' night says it as often as
    a call prompts (a power that picks, at the role's call or one of its extra turns,
    in the instruction the game drew there, as the engine reads the ruleset) -- and
    never at a call where no phone shows a prompt (the aliens told to pass their
    cards, the Lovers, a drawn look at the Mortician's own card)."""
    rs = ruleset(system)
    runnable = frozenset(r.id for r in rs.roles if not unsupported_roles(rs, [r.id]))
    options = frozenset(o.id for o in rs.options if o.default)
    # a terse option leaves out every turn's act lines: a call that prompts keeps it
    terse_option = any(o.effect == "terse" for o in rs.options)
    acts = {id(x) for r in rs.roles for t in r.turns for x in t.act} if terse_option else set()
    checked = 0
    for night in (1, 2):
        if rs.nights is not None and night > rs.nights:
            continue
        for role, turn, choice, lines, prompts in calls_on_the_phones(rs, night, runnable, options):
            for lang in rs.languages:
                said = " ".join(x.text.get(lang, phones=True) for x in lines)
                assert (ANSWER[lang] in said) == prompts, (role, turn, choice, night, lang, said)
                terse = " ".join(x.text.get(lang, phones=True) for x in lines if id(x) not in acts)
                assert (ANSWER[lang] in terse) == prompts, (role, turn, "terse", lang, terse)
                checked += prompts
    assert checked or system == "secret_moon"  # its turns are by day


def test_the_calls_checked_are_those_of_every_box() -> None:
    """The check above reaches the Vampire and Alien boxes' calls: an extra turn (the
    Count's fear, the Body Snatcher's), a drawn instruction that prompts and one that
    does not (the aliens'), a call of a mark's holders (the Lovers)."""
    rs = ruleset("onuw")
    runnable = frozenset(r.id for r in rs.roles if not unsupported_roles(rs, [r.id]))
    options = frozenset(o.id for o in rs.options if o.default)
    calls = {(r, t, c): p for r, t, c, _, p in calls_on_the_phones(rs, 1, runnable, options)}
    assert len(runnable) == len(rs.roles) == 59
    assert calls[("the_count", 1, -1)] and calls[("body_snatcher", 1, 4)]
    aliens = [calls[("alien", 0, c)] for c in range(9)]
    assert aliens.count(True) == 5 and aliens.count(False) == 4
    assert not calls[("cupid", 1, -1)] and not calls[("mortician", 0, 4)]
    assert calls[("oracle", 0, 0)] and not calls[("renfield", 0, -1)]


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


def test_the_cows_fist_is_held_out_by_the_phones_in_their_journals() -> None:
    """On the phones nobody touches anyone: the Cow's journal says her phone held out
    her fist, and the alien's that their phone tapped it (the answer in the phones'
    words, with no thumb in the Persian); with physical cards, the hands did it."""
    from narrator.moderator.scenario import load, run
    from narrator.moderator.words import Words

    scenario = SCENARIOS / "onuw" / "alien_cow_learns_an_alien_sits_beside_her.yaml"
    game = run(load(scenario.read_text(encoding="utf-8")), ruleset).game
    fist = next(e for e in game.log if e.kind == "fist")
    bumped = next(e for e in game.log if e.kind == "bumped")
    phones, hands = Words(game, "en", phones=True), Words(game, "en")
    assert phones.journal(fist) == (
        "Night 1: your phone held out your fist: an alien sits beside you, and their phone"
        " tapped it."
    )
    assert hands.journal(fist) == (
        "Night 1: you held out your fist: an alien sits beside you and tapped it."
    )
    assert phones.journal(bumped) == (
        "Night 1: your phone tapped the fist Ann held out, on your right."
    )
    assert hands.journal(bumped) == "Night 1: you tapped the fist Ann held out, on your right."
    persian = Words(game, "fa", phones=True).journal(fist)
    assert "گوشی" in persian and not re.search(GESTURES["fa"], persian)


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


@pytest.mark.parametrize("lang", ["en", "it", "fa"])
def test_the_aura_seers_journal_raises_no_thumb_on_the_phones(lang: str) -> None:
    """On the phones the engine tells the Aura Seer who looked at or moved a card;
    nobody raised a thumb (with physical cards, they did)."""
    from narrator.moderator.scenario import load, run
    from narrator.moderator.words import Words

    scenario = SCENARIOS / "onuw" / "bonus_aura_seer_sees_who_looked_or_moved.yaml"
    game = run(load(scenario.read_text(encoding="utf-8")), ruleset).game
    aura = next(e for e in game.log if e.kind == "aura")
    assert aura.targets  # someone looked or moved: their names are in the line
    phones, hands = Words(game, lang, phones=True).journal(aura), Words(game, lang).journal(aura)
    assert not re.search(GESTURES[lang], phones), phones
    assert re.search(GESTURES[lang], hands), hands  # the physical words keep the thumb
    names = Words(game, lang).names([Words(game, lang).who(t) for t in aura.targets])
    assert names in phones
