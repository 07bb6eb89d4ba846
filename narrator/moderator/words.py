"""The log said in words: each player's journal, and what the table hears.

The engine's words are the app's (gettext catalogues in `narrator.i18n`, msgid = the
English text), so a table in Italian or Persian reads its journal in its language;
role and team names come from the ruleset. Each kind of the log a player learns
from has its journal line in `PRIVATE`, and each the night's story tells its line in
`STORY`: an effect's words are one function in each. Lists are joined with the
language's own marks (Persian: `،` and `؛`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce

from narrator.i18n import N_, gettext
from narrator.moderator import sides
from narrator.moderator.board import Place
from narrator.moderator.game import Game
from narrator.moderator.log import Cause, Entry

# The words a power may offer by name (`pick: [{named: [...]}]`), for the catalogues.
NAMED = (N_("left"), N_("right"), N_("yes"), N_("no"), N_("cards"), N_("marks"))


class Words:
    """`phones`: the game is played on the players' phones, so a ruleset's words for
    an answer are its phones' (`Text.phones`: "a werewolf", not "a werewolf (a nod)")."""

    def __init__(self, game: Game, lang: str, *, phones: bool = False):
        self.game = game
        self.lang = lang
        self.phones = phones

    def t(self, message: str, **values: object) -> str:
        return gettext(self.lang, message).format(**values)

    def role(self, role_id: str) -> str:
        return self.game.ruleset.role(role_id).name.get(self.lang)

    def mark(self, token_id: str) -> str:
        """A mark's name, or that there was none."""
        return self.token(token_id) if token_id else self.t("no mark")

    def who(self, place: Place) -> str:
        """A place in words: the player's name, "centre card 2", or the word (left, yes)."""
        if place.is_seat:
            return self.game.seats[place.index].name
        if place.is_centre:
            return self.t("centre card {k}", k=place.index + 1)
        return self.t(place.kind)

    def name(self, seat: int | None) -> str:
        return self.game.seats[seat].name if seat is not None else ""

    def team(self, team_id: str) -> str:
        return self.game.ruleset.team_name(team_id, self.lang)

    def token(self, token_id: str) -> str:
        """A mark's or an artifact's name, in the ruleset's words."""
        return sides.token(self.game, token_id).name.get(self.lang)

    def names(self, items: Sequence[str]) -> str:
        """ "Ann, Bo" in the language's marks."""
        return reduce(lambda a, b: self.t("{a}, {b}", a=a, b=b), items) if items else ""

    def seen(self, e: Entry) -> str:
        """The cards of a look: "Bo: the Seer; centre card 1: the Werewolf"."""
        parts = [
            self.t("{who}: the {card}", who=self.who(t), card=self.role(c))
            for t, c in zip(e.targets, e.cards, strict=True)
        ]
        return reduce(lambda a, b: self.t("{a}; {b}", a=a, b=b), parts) if parts else ""

    def own(self, e: Entry) -> bool:
        """The entry is about the actor's own card."""
        return e.seat is not None and e.targets == (Place.seat(e.seat),)

    # -- a player's journal (private) ----------------------------------------------

    def journal(self, e: Entry) -> str:
        """One line of `e`'s seat's journal."""
        if e.kind == "vote" or e.kind == "ballot":
            if not e.targets:
                return self.t("Day {n}: you did not vote.", n=e.night)
            return self.t("Day {n}: you voted for {who}.", n=e.night, who=self.who(e.targets[0]))
        if e.kind == "accuse":
            if not e.targets:
                return self.t("Day {n}: you accused nobody.", n=e.night)
            return self.t("Day {n}: you accused {who}.", n=e.night, who=self.who(e.targets[0]))
        if e.step.startswith("r"):  # a round of turns (Secret Moon)
            return self.t("Round {n}: {what}", n=e.night, what=self.private(e))
        return self.t("Night {n}: {what}", n=e.night, what=self.private(e))

    def private(self, e: Entry) -> str:
        line = PRIVATE.get(e.kind)
        return line(self, e) if line is not None else self.t("you did nothing.")

    # -- what the table hears --------------------------------------------------------

    def story(self, e: Entry) -> str | None:
        """The night told at the end, one line per thing done (nothing secret is left)."""
        if e.seat is None or e.step == "day" or self.game.is_call(e.role):
            return None  # a call of the whole table (everyone's look at their mark)
        line = STORY.get(e.kind)
        if line is None:
            return None
        return line(self, e, {"name": self.name(e.seat), "role": self.role(e.role)})

    def dawn(self, e: Entry) -> str | None:
        """What the table finds at dawn from the night: a card face up, a shield."""
        if e.kind in DAWN:
            return DAWN[e.kind](self, e)
        if e.kind == "reveal" and e.targets[0].is_centre:
            return self.t(
                "Centre card {k} lies face up: the {card}.",
                k=e.targets[0].index + 1,
                card=self.role(e.cards[0]),
            )
        if e.kind == "reveal":
            return self.t(
                "{who}'s card lies face up: the {card}.",
                who=self.who(e.targets[0]),
                card=self.role(e.cards[0]),
            )
        if e.kind == "shield":
            return self.t("{who}'s card has the shield on it.", who=self.who(e.targets[0]))
        if e.kind == "artifact":
            return self.t("An artifact lies on {who}'s card.", who=self.who(e.targets[0]))
        if e.kind == "sides":
            return self.t(
                "The {role} card sides with: {team}.", role=self.role(e.role), team=self.team(e.why)
            )
        return None

    def turn(self, e: Entry) -> str | None:
        """What the table hears of a turn (Secret Moon): the action in the ruleset's
        words, the answer given aloud, a card shown, a capture."""
        if e.kind == "turn":
            action = self.game.action(e.why)
            if action.say is None:
                return None
            who = ""
            if e.targets:
                who = self.t("their own card") if self.own(e) else self.who(e.targets[0])
            return action.say.get(self.lang).format(
                name=self.name(e.seat), who=who, role=self.role(e.cards[0]) if e.cards else ""
            )
        if e.kind == "answer":
            for action in self.game.ruleset.actions:
                if e.why.isdigit() and int(e.why) < len(action.answers):
                    return (
                        action.answers[int(e.why)]
                        .say.get(self.lang)
                        .format(name=self.who(e.targets[0]))
                    )
            return None
        if e.kind == "shown" and e.targets[0].is_centre:
            return self.t(
                "Centre card {k} is turned face up: the {card}.",
                k=e.targets[0].index + 1,
                card=self.role(e.cards[0]),
            )
        if e.kind == "shown":
            return self.t(
                "{who}'s card is shown: the {card}.",
                who=self.who(e.targets[0]),
                card=self.role(e.cards[0]),
            )
        if e.kind == "captured":
            return self.t("{name} is captured and out of the game.", name=self.name(e.seat))
        if e.kind == "rounds_over":
            return self.t("The last round is over.")
        return None

    def answer(self, e: Entry) -> str:
        """The ruleset's own words for a `learn` answer (a nod, a shake of the head)."""
        for ability in self.game.abilities_of(e.role):
            if ability.answer is not None:
                yes, no = ability.answer
                return (yes if e.why == "yes" else no).get(self.lang, phones=self.phones)
        return e.why

    def public(self, e: Entry) -> str | None:
        """A line the whole table hears from a day's entry (open votes, suspects), or
        that nobody died."""
        outcome = self.game.ruleset.outcome
        rule = outcome.vote if outcome else None
        if e.kind == "nobody_dies":
            return self.nobody_dies(e.cause or Cause.VOTE)
        if e.kind == "turned":
            return self.t(
                "The vote turns {name} into the {card}.",
                name=self.name(e.seat),
                card=self.role(e.cards[0]),
            )
        if e.kind == "spared" and e.why == "uncounted":
            return self.t(
                "{name} has the most votes, but the votes on them do not count.",
                name=self.name(e.seat),
            )
        if e.kind == "spared":
            return self.t(
                "{name} has the most votes, but the vote cannot put them to death.",
                name=self.name(e.seat),
            )
        if e.kind == "suspects" and e.targets:
            names = self.names([self.who(t) for t in e.targets])
            return self.t("The suspects: {names}.", names=names)
        if e.kind == "accuse" and rule and rule.open_accusation and e.targets:
            return self.t(
                "{name} accuses {who}.", name=self.name(e.seat), who=self.who(e.targets[0])
            )
        if e.kind == "ballot" and rule and rule.open_ballot and e.targets:
            return self.t(
                "{name} votes against {who}.", name=self.name(e.seat), who=self.who(e.targets[0])
            )
        return None

    def arrested(self, e: Entry) -> str:
        outcome = self.game.ruleset.outcome
        if outcome is not None and outcome.night_death is not None:
            return outcome.night_death.get(self.lang).format(name=self.name(e.seat))
        return self.t("{name} was arrested in the night.", name=self.name(e.seat))

    def death(self, e: Entry) -> str:
        """A death in the game's own words (`night_death`, `vote_death`), else ours."""
        outcome = self.game.ruleset.outcome
        name = self.name(e.seat)
        cause = e.cause
        own = None
        if outcome is not None and cause in (Cause.NIGHT, Cause.VOTE):
            own = outcome.night_death if cause == Cause.NIGHT else outcome.vote_death
        if own is not None:
            return own.get(self.lang).format(name=name)
        if cause == Cause.NIGHT:
            return self.t("{name} died in the night.", name=name)
        if cause == Cause.SHOT:
            return self.t(
                "{name} is taken down by {by} and dies too.", name=name, by=self.who(e.targets[0])
            )
        if cause == Cause.TOGETHER:
            return self.t("{name} dies together with {by}.", name=name, by=self.who(e.targets[0]))
        if cause == Cause.LAST_TWO:
            return self.t(
                "Nobody was killed in the night and only two players are left: "
                "{name} leaves the game.",
                name=name,
            )
        return self.t("{name} dies.", name=name)

    def nobody_dies(self, cause: Cause = Cause.VOTE) -> str:
        if cause == Cause.NIGHT:
            return self.t("Nobody died in the night.")
        return self.t("Nobody dies.")

    def reveal(self, seat: int) -> str:
        s = self.game.seats[seat]
        if s.card.identity == s.dealt:
            return self.t("{name} had the {card}.", name=s.name, card=self.role(s.dealt))
        return self.t(
            "{name} was dealt the {dealt} and ends as the {card}.",
            name=s.name,
            dealt=self.role(s.dealt),
            card=self.role(s.card.identity),
        )

    def tokens(self, seat: int) -> list[str]:
        """What lies beside a player's card at the end: their artifact, their mark."""
        tokens = self.game.tokens
        name = self.name(seat)
        lines = []
        if seat in tokens.artifacts:
            what = self.token(tokens.artifacts[seat])
            lines.append(self.t("On {name}'s card: the {artifact}.", name=name, artifact=what))
        if seat in tokens.marks:
            what = self.token(tokens.marks[seat])
            lines.append(self.t("In front of {name}: the {mark}.", name=name, mark=what))
        return lines

    def winners(self, teams: list[str]) -> str:
        if not teams:
            return self.t("Nobody wins.")
        names = self.names([self.game.ruleset.team_name(t, self.lang) for t in teams])
        return self.t("The winners: {teams}.", teams=names)


# -- each kind's journal line (what the actor learns) ------------------------------------


def _see(w: Words, e: Entry) -> str:
    if w.own(e):
        return w.t("your card is now the {card}.", card=w.role(e.cards[0]))
    return w.t("you looked at {seen}.", seen=w.seen(e))


def _swap(w: Words, e: Entry) -> str:
    a, b = (w.who(t) for t in e.targets)
    return w.t("you swapped the cards of {a} and {b}.", a=a, b=b)


def _swap_own(w: Words, e: Entry) -> str:
    if e.targets[0].is_centre:
        return w.t("you swapped your card with {card}.", card=w.who(e.targets[0]))
    return w.t("you swapped your card with {who}'s.", who=w.who(e.targets[0]))


def _copy(w: Words, e: Entry) -> str:
    if e.targets[0].is_centre:
        return w.t(
            "you looked at {card}: you are now the {role}.",
            card=w.who(e.targets[0]),
            role=w.role(e.cards[0]),
        )
    return w.t(
        "you looked at {who}'s card: you are now the {card}.",
        who=w.who(e.targets[0]),
        card=w.role(e.cards[0]),
    )


def _learn(w: Words, e: Entry) -> str:
    if not e.targets:
        return w.t("there was nobody to ask about.")
    return w.t("you asked about {who}: {answer}.", who=w.who(e.targets[0]), answer=w.answer(e))


def _know(w: Words, e: Entry) -> str:
    if e.cards:  # who holds a mark (the Lovers, Renfield)
        if not e.targets:
            return w.t("nobody else has the {mark}.", mark=w.token(e.cards[0]))
        names = w.names([w.who(t) for t in e.targets])
        return w.t("the {mark} lies in front of {names}.", mark=w.token(e.cards[0]), names=names)
    if not e.targets:
        return w.t("you saw nobody.")
    return w.t("you saw {names}.", names=w.names([w.who(t) for t in e.targets]))


def _struck(w: Words, e: Entry) -> str:
    if not e.targets:
        return w.t("the night struck nobody.")
    return w.t("the night struck {names}.", names=w.names([w.who(t) for t in e.targets]))


def _ally(w: Words, e: Entry) -> str:
    if not e.targets:
        return w.t("you saw no card: your side, drawn by chance, is: {team}.", team=w.team(e.why))
    return w.t("your side is now that of the card you saw: {team}.", team=w.team(e.why))


def _artifact(w: Words, e: Entry) -> str:
    if w.own(e):
        return w.t("you put an artifact, unseen, on your own card.")
    return w.t("you put an artifact, unseen, on {who}'s card.", who=w.who(e.targets[0]))


def _found(w: Words, e: Entry) -> str:
    token = sides.token(w.game, e.cards[0])
    line = w.t("an artifact lies on your card: the {artifact}.", artifact=w.token(token.id))
    if token.help is None:
        return line
    return f"{line} {token.help.get(w.lang, phones=w.phones)}"


def _mark(w: Words, e: Entry) -> str:
    if w.own(e):
        return w.t("you put the {mark} in front of yourself.", mark=w.token(e.cards[0]))
    names = w.names([w.who(t) for t in e.targets])
    return w.t("you gave the {mark} to {names}.", mark=w.token(e.cards[0]), names=names)


def _aura(w: Words, e: Entry) -> str:
    # On the phones nobody raises a thumb: the engine tells her who did it.
    if not e.targets:
        if w.phones:
            return w.t("nobody looked at or moved a card tonight.")
        return w.t("nobody raised a thumb: nobody looked at or moved a card tonight.")
    names = w.names([w.who(t) for t in e.targets])
    if w.phones:
        return w.t("{names} looked at or moved a card tonight.", names=names)
    return w.t("{names} raised a thumb: they looked at or moved a card tonight.", names=names)


def _tap(w: Words, e: Entry) -> str:
    return w.t(
        "you tapped the shoulder of {who}, on your {side}.",
        who=w.who(e.targets[0]),
        side=w.t(e.why),
    )


def _tapped(w: Words, e: Entry) -> str:
    return w.t(
        "{who}, on your {side}, tapped your shoulder.", who=w.who(e.targets[0]), side=w.t(e.why)
    )


def _one(message: str) -> Callable[[Words, Entry], str]:
    """A line naming the one target: "you protected {who}."."""
    return lambda w, e: w.t(message, who=w.who(e.targets[0]))


PRIVATE: dict[str, Callable[[Words, Entry], str]] = {
    "see": _see,
    "swap": _swap,
    "swap_own": _swap_own,
    "copy": _copy,
    "learn": _learn,
    "know": _know,
    "struck": _struck,
    "shield": _one(N_("you put the shield on {who}'s card.")),
    "pick": _one(N_("you pointed at {who}.")),
    "agreed": _one(N_("your side chose {who}.")),
    "disagreed": lambda w, e: w.t("your side did not agree on anyone."),
    "protect": _one(N_("you protected {who}.")),
    "arrest": _one(N_("you chose {who} to arrest.")),
    "kill": _one(N_("you chose {who} to die.")),
    "rotate": lambda w, e: w.t(
        "you moved every other card one place to the {direction}.", direction=w.who(e.targets[0])
    ),
    "become": lambda w, e: w.t("you are now the {card}.", card=w.role(e.cards[0])),
    "ally": _ally,
    "artifact": _artifact,
    "found": _found,
    "mark": _mark,
    "aura": _aura,
    "tap": _tap,
    "tapped": _tapped,
}


# -- each kind's line in the night's story (One Night's end) ------------------------------

Who = dict[str, str]


def _story_see(w: Words, e: Entry, who: Who) -> str:
    if w.own(e):
        card = w.role(e.cards[0])
        return w.t("{name}, the {role}, looked at their own card: the {card}.", card=card, **who)
    return w.t("{name}, the {role}, looked at {seen}.", seen=w.seen(e), **who)


def _story_swap(w: Words, e: Entry, who: Who) -> str:
    a, b = (w.who(t) for t in e.targets)
    return w.t("{name}, the {role}, swapped the cards of {a} and {b}.", a=a, b=b, **who)


def _story_swap_own(w: Words, e: Entry, who: Who) -> str:
    if e.targets[0].is_centre:
        card = w.who(e.targets[0])
        return w.t("{name}, the {role}, swapped their card with {card}.", card=card, **who)
    other = w.who(e.targets[0])
    return w.t("{name}, the {role}, swapped cards with {other}.", other=other, **who)


def _story_shield(w: Words, e: Entry, who: Who) -> str:
    other = w.who(e.targets[0])
    return w.t("{name}, the {role}, put the shield on {other}'s card.", other=other, **who)


def _story_rotate(w: Words, e: Entry, who: Who) -> str:
    return w.t(
        "{name}, the {role}, moved every other card one place to the {direction}.",
        direction=w.who(e.targets[0]),
        **who,
    )


def _story_copy(w: Words, e: Entry, who: Who) -> str:
    if e.targets[0].is_centre:
        return w.t(
            "{name}, the {role}, looked at {card} and became the {copied}.",
            card=w.who(e.targets[0]),
            copied=w.role(e.cards[0]),
            **who,
        )
    return w.t(
        "{name}, the {role}, looked at {other}'s card and became the {card}.",
        other=w.who(e.targets[0]),
        card=w.role(e.cards[0]),
        **who,
    )


def _story_artifact(w: Words, e: Entry, who: Who) -> str:
    seat = e.targets[0].index
    artifact = w.token(w.game.tokens.artifacts[seat])
    if w.own(e):
        return w.t(
            "{name}, the {role}, put the {artifact} on their own card.", artifact=artifact, **who
        )
    return w.t(
        "{name}, the {role}, put the {artifact} on {other}'s card.",
        artifact=artifact,
        other=w.who(e.targets[0]),
        **who,
    )


def _story_mark(w: Words, e: Entry, who: Who) -> str:
    mark = w.token(e.cards[0])
    if w.own(e):
        return w.t("{name}, the {role}, put the {mark} in front of themselves.", mark=mark, **who)
    names = w.names([w.who(t) for t in e.targets])
    return w.t("{name}, the {role}, gave the {mark} to {names}.", mark=mark, names=names, **who)


def _story_aura(w: Words, e: Entry, who: Who) -> str:
    if not e.targets:
        return w.t("{name}, the {role}, saw no thumb raised.", **who)
    names = w.names([w.who(t) for t in e.targets])
    return w.t("{name}, the {role}, saw the thumbs of {names}.", names=names, **who)


STORY: dict[str, Callable[[Words, Entry, Who], str]] = {
    "see": _story_see,
    "swap": _story_swap,
    "swap_own": _story_swap_own,
    "shield": _story_shield,
    "rotate": _story_rotate,
    "copy": _story_copy,
    "become": lambda w, e, who: w.t(
        "{name}, the {role}, became the {card}.", card=w.role(e.cards[0]), **who
    ),
    "ally": lambda w, e, who: w.t(
        "{name}, the {role}, sided with: {team}.", team=w.team(e.why), **who
    ),
    "artifact": _story_artifact,
    "mark": _story_mark,
    "aura": _story_aura,
    "tap": lambda w, e, who: w.t(
        "{name}, the {role}, tapped the shoulder of {other}.", other=w.who(e.targets[0]), **who
    ),
}


# Each kind's words the boxes brought register from their own module.
DAWN: dict[str, Callable[[Words, Entry], str | None]] = {}
from narrator.moderator import box_words as _box_words  # noqa: E402, F401
