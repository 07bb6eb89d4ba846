"""A sentence said in any language: an English msgid and the values it names.

A refusal is made where the rule is (the engine, the table) and read where the
player is (a phone in Italian, `narrator replay` in English): so it is kept as a
`Phrase` -- the English text, marked for the catalogue, and its `{name}`-style
values -- and said in a language only when shown (`say(lang)`); `str()` is the
English. A value is plain (a player's name, a number: the same in every language),
another `Phrase` ("centre card {k}"), or a ruleset's text (a role's name, an
action's label, a team's name): anything with `.get(lang)` (`Localized`; the rules'
`Text` is one), in `lang` where the ruleset has it, else its English.

`Phrase("...")` marks its first argument for `scripts/i18n` (keyword `Phrase`);
`Phrase.counted(one, many, n)` its two forms (keyword `counted:1,2`). A message or a
language with no translation, or a translation that names a value the English does
not, is said in English: never an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Union

from narrator.i18n import gettext, ngettext


class Localized(Protocol):
    """A text the ruleset gives in its languages (`rules.model.Text`): `get(lang)`
    raises KeyError for a language it does not have."""

    def get(self, lang: str) -> str: ...


Value = Union[str, int, "Phrase", Localized]


@dataclass(frozen=True, slots=True, init=False)
class Phrase:
    """`text` (the English msgid) with its `values`; `plural`: the English plural
    msgid, chosen by the value `n` (`Phrase.counted`)."""

    text: str
    values: tuple[tuple[str, Value], ...]
    plural: str

    def __init__(self, text: str, /, *, plural: str = "", **values: Value) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "values", tuple(values.items()))
        object.__setattr__(self, "plural", plural)

    @classmethod
    def counted(cls, one: str, many: str, n: int, /, **values: Value) -> Phrase:
        """A sentence with a singular and a plural, chosen by `n` (its value `{n}`)."""
        return cls(one, plural=many, n=n, **values)

    def say(self, lang: str) -> str:
        """The sentence in `lang` (its values too), or in English where there is none."""
        values = {key: said(value, lang) for key, value in self.values}
        text = self._template(lang)
        if not values:
            return text  # no value: its braces, if any, are its own
        try:
            return text.format_map(values)
        except (KeyError, IndexError, ValueError):  # a broken translation: the English
            return self._template(None).format_map(values)

    def _template(self, lang: str | None) -> str:
        """The text in `lang` (None: the English msgid itself), its plural by `n`."""
        n = dict(self.values).get("n")
        count = n if isinstance(n, int) else 0
        if lang is None:
            return self.plural if self.plural and count != 1 else self.text
        if not self.plural:
            return gettext(lang, self.text)
        return ngettext(lang, self.text, self.plural, count)

    def __str__(self) -> str:
        return self.say("en")


def said(value: Value, lang: str) -> str:
    """One value in `lang`: plain as it is, a phrase said, a ruleset's text in `lang`
    (its English where the ruleset has no `lang`)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Phrase):
        return value.say(lang)
    try:
        return value.get(lang)
    except KeyError:
        return value.get("en")


def say(message: Phrase | str | Localized, lang: str) -> str:
    """A message in `lang`: a phrase said, a plain text (built elsewhere, in one
    language) as it is, a text that says itself in any language (`Localized`) in
    `lang`."""
    return message if isinstance(message, str) else said(message, lang)
