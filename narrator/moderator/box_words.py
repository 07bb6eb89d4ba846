"""The words of the Vampire and Alien boxes' log kinds, in `words.py`'s tables.

A look at a mark or a swap of marks, a player the aliens made one of them, a card
passed round, the players a card reaches, the Cow's fist, the Oracle's answer: each
kind's journal line (`PRIVATE`), its line in the night's story (`STORY`) and, for
what the table hears at dawn, `DAWN` -- registered here as `box_effects.py`
registers its effects, so `words.py` keeps the base game's.
"""

from __future__ import annotations

from narrator.moderator.board import Place
from narrator.moderator.log import Entry
from narrator.moderator.words import DAWN, PRIVATE, STORY, Who, Words


def _see_mark(w: Words, e: Entry) -> str:
    if w.own(e):
        if not e.cards[0]:
            return w.t("there is no mark in front of you.")
        return w.t("the mark in front of you is the {mark}.", mark=w.mark(e.cards[0]))
    return w.t(
        "you looked at {who}'s mark: the {mark}.", who=w.who(e.targets[0]), mark=w.mark(e.cards[0])
    )


def _swap_mark(w: Words, e: Entry) -> str:
    a, b = e.targets
    if e.seat is not None and a == Place.seat(e.seat):
        return w.t("you swapped your mark with {who}'s.", who=w.who(b))
    return w.t("you swapped the marks of {a} and {b}.", a=w.who(a), b=w.who(b))


def _reach(w: Words, e: Entry) -> str:
    if not e.targets:
        return w.t("the card in front of you reaches nobody else.")
    names = w.names([w.who(t) for t in e.targets])
    return w.t("the card in front of you reaches {names}.", names=names)


def _fist(w: Words, e: Entry) -> str:
    """The Cow's fist: held out by hand, or by her phone (nobody touches anyone)."""
    if w.phones:
        return w.t("your phone held out your fist: {answer}.", answer=w.answer(e))
    return w.t("you held out your fist: {answer}.", answer=w.answer(e))


def _bumped(w: Words, e: Entry) -> str:
    who, side = w.who(e.targets[0]), w.t(e.why)
    if w.phones:
        return w.t("your phone tapped the fist {who} held out, on your {side}.", who=who, side=side)
    return w.t("you tapped the fist {who} held out, on your {side}.", who=who, side=side)


PRIVATE.update(
    {
        "see_mark": _see_mark,
        "swap_mark": _swap_mark,
        "recruit": lambda w, e: w.t(
            "you made {who} the {card}, whatever their card.",
            who=w.who(e.targets[0]),
            card=w.role(e.cards[0]),
        ),
        "recruited": lambda w, e: w.t(
            "you were made the {card}: you are one from now on, whatever your card says.",
            card=w.role(e.cards[0]),
        ),
        "passed": lambda w, e: w.t(
            "you passed your card to {who}, on your {side}.",
            who=w.who(e.targets[0]),
            side=w.t(e.why),
        ),
        "reach": _reach,
        "fist": _fist,
        "bumped": _bumped,
        "reply": lambda w, e: w.t("you answered: {word}.", word=w.t(e.why)),
    }
)


def _story_see_mark(w: Words, e: Entry, who: Who) -> str:
    if w.own(e):
        mark = w.mark(e.cards[0])
        return w.t("{name}, the {role}, looked at their own mark: the {mark}.", mark=mark, **who)
    return w.t(
        "{name}, the {role}, looked at {other}'s mark: the {mark}.",
        other=w.who(e.targets[0]),
        mark=w.mark(e.cards[0]),
        **who,
    )


def _story_swap_mark(w: Words, e: Entry, who: Who) -> str:
    a, b = e.targets
    if e.seat is not None and a == Place.seat(e.seat):
        return w.t("{name}, the {role}, swapped marks with {other}.", other=w.who(b), **who)
    return w.t(
        "{name}, the {role}, swapped the marks of {a} and {b}.", a=w.who(a), b=w.who(b), **who
    )


def _story_reach(w: Words, e: Entry, who: Who) -> str:
    names = w.names([w.who(t) for t in e.targets]) or w.t("nobody else")
    return w.t("{name}'s card, the {role}, reaches {names}.", names=names, **who)


STORY.update(
    {
        "see_mark": _story_see_mark,
        "swap_mark": _story_swap_mark,
        "recruit": lambda w, e, who: w.t(
            "{name}, the {role}, made {other} the {card}.",
            other=w.who(e.targets[0]),
            card=w.role(e.cards[0]),
            **who,
        ),
        "passed": lambda w, e, who: w.t(
            "{name}, the {role}, passed their card to {other}.", other=w.who(e.targets[0]), **who
        ),
        "reach": _story_reach,
        "fist": lambda w, e, who: (
            w.t("{name}, the {role}, held out a fist, and someone beside them tapped it.", **who)
            if e.why == "yes"
            else w.t("{name}, the {role}, held out a fist, and nobody tapped it.", **who)
        ),
        "reply": lambda w, e, who: w.t(
            "{name}, the {role}, answered: {word}.", word=w.t(e.why), **who
        ),
    }
)


def _replied(w: Words, e: Entry) -> str | None:
    """The answer given at a call, in the ruleset's words for it (`replies`)."""
    for ability in w.game.abilities_of(e.role):
        for word, line in ability.replies:
            drawn = w.game.drawn_choice(e.role, ability.turn)
            if word == e.why and ability.choice in (-1, drawn):
                return line.get(w.lang)
    return None


DAWN["replied"] = _replied
