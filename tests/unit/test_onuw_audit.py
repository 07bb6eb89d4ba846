"""One Night, the audit's fixes: the vote on "one", decks without werewolves, it/fa lines."""

from __future__ import annotations

from narrator.rules import recommended
from narrator.script import Pause, Say
from tests.unit.helpers import RULESETS, ruleset, script, seq

DECK = "werewolf:2,seer,robber,troublemaker,villager:3"


def test_the_vote_signal_is_one_with_no_gap_before_pointing() -> None:
    for lang, announce, go in [
        (
            "en",
            'Get ready to vote. I count down from three; the moment you hear "one", each of '
            "you points at another player.",
            "One, point!",
        ),
        (
            "it",
            "Preparatevi a votare. Conto alla rovescia da tre; appena sentite «uno», ognuno "
            "indichi nello stesso momento un altro giocatore.",
            "Uno, indicate!",
        ),
        (
            "fa",
            "آماده‌ی رأی‌گیری شوید. از سه می‌شمارم؛ همین که «یک» را شنیدید، هر کس هم‌زمان به "
            "یک بازیکن دیگر اشاره کند.",
            "یک، اشاره کنید!",
        ),
    ]:
        day = script("onuw", 5, DECK, phase="day", lang=lang)
        steps = list(day.steps)
        start = next(i for i, s in enumerate(steps) if isinstance(s, Say) and s.text == announce)
        count = steps[start + 1 : start + 6]
        assert [type(s) for s in count] == [Say, Pause, Say, Pause, Say]
        assert isinstance(count[-1], Say) and count[-1].text == go
        # Nothing between the last word of the count and the next wait: no silence.
        assert steps[start + 6].kind == "wait"


def test_no_werewolf_in_the_deck_is_legal_with_a_warning() -> None:
    night = script("onuw", 3, "seer,robber,troublemaker,villager:3")
    assert night.warnings == (
        "The deck has no werewolf (nor vampire or alien): nobody can be one tonight unless the "
        "Doppelganger copies one; the village wins only if nobody dies.",
    )
    assert script("onuw", 5, DECK).warnings == ()


def test_italian_doppelganger_lines_have_a_verb() -> None:
    roles = "doppelganger,werewolf:2,seer,robber,troublemaker,mason:2"
    lines = [t for k, _, t in seq(script("onuw", 5, roles, lang="it")) if k == "say"]
    assert any(
        t.endswith("Doppelgänger, se sei diventato un lupo mannaro, svegliati anche tu con loro.")
        for t in lines
    )
    assert any(
        t.endswith("Doppelgänger, se sei diventato un massone, svegliati anche tu con loro.")
        for t in lines
    )
    assert not any("Anche tu" in t for t in lines)
    # Nor in any box: every "if you became one, wake up with them" line has its verb.
    assert "Anche tu, Doppelgänger" not in (RULESETS / "onuw.yaml").read_text(encoding="utf-8")


def test_persian_words_are_spelled_right() -> None:
    text = (RULESETS / "onuw.yaml").read_text(encoding="utf-8")
    # Tanner: آس‌وپاس with its zero-width non-joiner, never run together.
    assert "آس\u200cوپاس" in text and "آسوپاس" not in text
    night = seq(script("onuw", 5, DECK, lang="fa"))
    shuffle = next(t for k, _, t in night if k == "say" and "کارت‌ها" in t and "جابه‌جا" in t)
    assert shuffle.startswith("نزدیک‌ترین نفر به کارت‌ها")
    # A thumb: شست‌تان, with its non-joiner.
    assert "شستتان" not in text


def test_audit_3_wording_findings_are_said() -> None:
    """Findings 7 (the Persian Hunter line names the Hunter as the one pointing), 17
    (never show your card), 25 (the ballot may be discussed in the defence), 26 (Mafia's
    Ghosts and Prisoners keep their eyes closed from the second night)."""
    vote = ruleset("onuw").day.vote
    assert vote is not None
    assert "بازیکنی که شکارچی به او اشاره کرده است هم می‌میرد" in vote.tie_rule.get("fa")

    def said(game: str, **plan: object) -> str:
        rs = ruleset(game)
        deck = ",".join(f"{r}:{n}" for r, n in recommended(rs, 8)[0])
        return " ".join(s.text for s in script(game, 8, deck, **plan).steps if isinstance(s, Say))

    assert "never show your card" in said("lupus", phase="day")
    assert "never show your card or reveal your character" in said(
        "mafia_infiltrators", phase="day"
    )
    assert "or to talk about the coming ballot" in said("wherewolf", phase="day")
    ghosts = "Ghosts and Prisoners, keep your eyes closed"
    assert ghosts not in said("mafia_infiltrators", night=1)
    assert ghosts in said("mafia_infiltrators", night=2)
