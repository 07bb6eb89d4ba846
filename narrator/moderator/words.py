"""The log said in words: each player's journal, and what the table hears.

The engine's words are the app's (gettext catalogues in `narrator.i18n`, msgid = the
English text), so a table in Italian or Persian reads its journal in its language;
role and team names come from the ruleset.
"""

from __future__ import annotations

from narrator.i18n import N_, gettext
from narrator.moderator.game import Game
from narrator.moderator.log import Entry

# The words a power may offer by name (`pick: [{named: [...]}]`), for the catalogues.
NAMED = (N_("left"), N_("right"))


class Words:
    def __init__(self, game: Game, lang: str):
        self.game = game
        self.lang = lang

    def t(self, message: str, **values: object) -> str:
        return gettext(self.lang, message).format(**values)

    def role(self, role_id: str) -> str:
        return self.game.ruleset.role(role_id).name.get(self.lang)

    def who(self, option: str) -> str:
        kind, _, number = option.partition(":")
        if kind == "seat":
            return self.game.seats[int(number) - 1].name
        return self.t("centre card {k}", k=number)

    def name(self, seat: int | None) -> str:
        return self.game.seats[seat].name if seat is not None else ""

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
        if e.kind == "see":
            if e.seat is not None and e.targets == (f"seat:{e.seat + 1}",):
                return self.t("your card is now the {card}.", card=self.role(e.cards[0]))
            seen = "; ".join(
                self.t("{who}: the {card}", who=self.who(t), card=self.role(c))
                for t, c in zip(e.targets, e.cards, strict=True)
            )
            return self.t("you looked at {seen}.", seen=seen)
        if e.kind == "swap":
            a, b = (self.who(t) for t in e.targets)
            return self.t("you swapped the cards of {a} and {b}.", a=a, b=b)
        if e.kind == "swap_own" and e.targets[0].startswith("centre:"):
            return self.t("you swapped your card with {card}.", card=self.who(e.targets[0]))
        if e.kind == "swap_own":
            return self.t("you swapped your card with {who}'s.", who=self.who(e.targets[0]))
        if e.kind == "copy":
            return self.t(
                "you looked at {who}'s card: you are now the {card}.",
                who=self.who(e.targets[0]),
                card=self.role(e.cards[0]),
            )
        if e.kind == "shield":
            return self.t("you put the shield on {who}'s card.", who=self.who(e.targets[0]))
        if e.kind == "learn":
            if not e.targets:
                return self.t("there was nobody to ask about.")
            return self.t(
                "you asked about {who}: {answer}.",
                who=self.who(e.targets[0]),
                answer=self.answer(e),
            )
        if e.kind == "pick":
            return self.t("you pointed at {who}.", who=self.who(e.targets[0]))
        if e.kind == "agreed":
            return self.t("your side chose {who}.", who=self.who(e.targets[0]))
        if e.kind == "disagreed":
            return self.t("your side did not agree on anyone.")
        if e.kind == "protect":
            return self.t("you protected {who}.", who=self.who(e.targets[0]))
        if e.kind == "arrest":
            return self.t("you chose {who} to arrest.", who=self.who(e.targets[0]))
        if e.kind == "kill":
            return self.t("you chose {who} to die.", who=self.who(e.targets[0]))
        if e.kind == "rotate":
            return self.t(
                "you moved every other card one place to the {direction}.",
                direction=self.t(e.targets[0]),
            )
        if e.kind == "struck":
            if not e.targets:
                return self.t("the night struck nobody.")
            return self.t(
                "the night struck {names}.", names=", ".join(self.who(t) for t in e.targets)
            )
        if e.kind == "know":
            if not e.targets:
                return self.t("you saw nobody.")
            return self.t("you saw {names}.", names=", ".join(self.who(t) for t in e.targets))
        return self.t("you did nothing.")

    # -- what the table hears --------------------------------------------------------

    def story(self, e: Entry) -> str | None:
        """The night told at the end, one line per thing done (nothing secret is left)."""
        if e.kind in ("know", "nothing") or e.seat is None or e.step == "day":
            return None
        who = {"name": self.name(e.seat), "role": self.role(e.role)}
        if e.kind == "see" and e.targets == (f"seat:{e.seat + 1}",):
            return self.t(
                "{name}, the {role}, looked at their own card: the {card}.",
                card=self.role(e.cards[0]),
                **who,
            )
        if e.kind == "see":
            seen = "; ".join(
                self.t("{who}: the {card}", who=self.who(t), card=self.role(c))
                for t, c in zip(e.targets, e.cards, strict=True)
            )
            return self.t("{name}, the {role}, looked at {seen}.", seen=seen, **who)
        if e.kind == "swap":
            a, b = (self.who(t) for t in e.targets)
            return self.t("{name}, the {role}, swapped the cards of {a} and {b}.", a=a, b=b, **who)
        if e.kind == "swap_own":
            return self.t(
                "{name}, the {role}, swapped cards with {other}.",
                other=self.who(e.targets[0]),
                **who,
            )
        if e.kind == "shield":
            return self.t(
                "{name}, the {role}, put the shield on {other}'s card.",
                other=self.who(e.targets[0]),
                **who,
            )
        if e.kind == "rotate":
            return self.t(
                "{name}, the {role}, moved every other card one place to the {direction}.",
                direction=self.t(e.targets[0]),
                **who,
            )
        if e.kind == "copy":
            return self.t(
                "{name}, the {role}, looked at {other}'s card and became the {card}.",
                other=self.who(e.targets[0]),
                card=self.role(e.cards[0]),
                **who,
            )
        return None

    def dawn(self, e: Entry) -> str | None:
        """What the table finds at dawn from the night: a card face up, a shield."""
        if e.kind == "reveal":
            return self.t(
                "{who}'s card lies face up: the {card}.",
                who=self.who(e.targets[0]),
                card=self.role(e.cards[0]),
            )
        if e.kind == "shield":
            return self.t("{who}'s card has the shield on it.", who=self.who(e.targets[0]))
        return None

    def turn(self, e: Entry) -> str | None:
        """What the table hears of a turn (Secret Moon): the action in the ruleset's
        words, the answer given aloud, a card shown, a capture."""
        if e.kind == "turn":
            action = self.game.action(e.why)
            if action.say is None:
                return None
            return action.say.get(self.lang).format(
                name=self.name(e.seat),
                who=self.who(e.targets[0]) if e.targets else "",
                role=self.role(e.cards[0]) if e.cards else "",
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
        if e.kind == "shown" and e.targets[0].startswith("centre:"):
            return self.t(
                "Centre card {k} is turned face up: the {card}.",
                k=e.targets[0].partition(":")[2],
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
        powers = self.game.powers(e.role)
        for ability in powers.abilities if powers else ():
            if ability.answer is not None:
                yes, no = ability.answer
                return (yes if e.why == "yes" else no).get(self.lang)
        return e.why

    def public(self, e: Entry) -> str | None:
        """A line the whole table hears from a day's entry (open votes, suspects)."""
        outcome = self.game.ruleset.outcome
        rule = outcome.vote if outcome else None
        if e.kind == "suspects" and not e.targets:
            return None
        if e.kind == "nobody_dies":
            return self.nobody_dies()
        if e.kind == "suspects":
            return self.t("The suspects: {names}.", names=", ".join(self.who(t) for t in e.targets))
        if e.kind == "accuse" and rule and rule.open_accusation and e.targets:
            return self.t(
                "{name} accuses {who}.", name=self.name(e.seat), who=self.who(e.targets[0])
            )
        if e.kind == "ballot" and rule and rule.open_ballot and e.targets:
            return self.t(
                "{name} votes against {who}.", name=self.name(e.seat), who=self.who(e.targets[0])
            )
        if e.kind == "nobody_died":
            return self.t("Nobody died in the night.")
        return None

    def arrested(self, e: Entry) -> str:
        outcome = self.game.ruleset.outcome
        if outcome is not None and outcome.night_death is not None:
            return outcome.night_death.get(self.lang).format(name=self.name(e.seat))
        return self.t("{name} was arrested in the night.", name=self.name(e.seat))

    def death(self, e: Entry) -> str:
        outcome = self.game.ruleset.outcome
        own = None
        if outcome is not None:
            own = outcome.night_death if e.why == "night" else outcome.vote_death
        if own is not None and e.why in ("night", "vote"):
            return own.get(self.lang).format(name=self.name(e.seat))
        if e.why == "night":
            return self.t("{name} died in the night.", name=self.name(e.seat))
        if e.why == "shot":
            return self.t(
                "{name} is taken down by {by} and dies too.",
                name=self.name(e.seat),
                by=self.who(e.targets[0]),
            )
        return self.t("{name} dies.", name=self.name(e.seat))

    def nobody_dies(self) -> str:
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

    def winners(self, teams: list[str]) -> str:
        if not teams:
            return self.t("Nobody wins.")
        names = ", ".join(self.game.ruleset.team_name(t, self.lang) for t in teams)
        return self.t("The winners: {teams}.", teams=names)
