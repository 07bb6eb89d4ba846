"""Reading the mechanisms One Night's boxes brought, kept general for any ruleset.

Boxes (which expansion a card comes in), options the table sets, tokens a role
brings, calls of the whole table placed in the night's order, turns that draw one
of several choices from the plan's seed, and recaps (a role that may stand in for
others says their actions in its own turn). A mixin of the loader's `_Reader`, in
its own module so that neither grows past a readable size.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal, cast

from narrator.base.errors import did_you_mean
from narrator.rules.model import Call, Option, Order, Recap, Text, Token, Turn

if TYPE_CHECKING:
    from narrator.rules.reader import Fields

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_ORDER = re.compile(r"^(-?\d+)([a-zA-Z]?)(?:\.(\d+))?$")
_EFFECTS = ("", "terse", "action_time")


def parse_order(value: Any) -> Order | None:
    """`5`, `'9b'`, `-6B`, `'-1b.2'` -> Order; None if it is none of these."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    match = _ORDER.match(str(value).strip())
    if match is None:
        return None
    return Order(int(match.group(1)), match.group(2).lower(), int(match.group(3) or 0))


def declared(f: Fields, key: str, phrase: str, ids: tuple[str, ...], section: str) -> str:
    """The id under `key`, which must be one of `ids` (declared under `section`)."""
    value = f.get(key, str, need=True)
    if value not in ids:
        raise f.error(
            key,
            f"{f.what} {phrase} '{value}', which is not under '{section}'"
            f"{did_you_mean(value, ids)}",
        )
    return value


class MechanismsMixin:
    """Methods of the loader's reader for boxes, options, tokens, calls, choices."""

    # Provided by `_Reader`.
    role_ids: tuple[str, ...]
    box_ids: tuple[str, ...]
    option_ids: tuple[str, ...]
    role_orders: dict[str, Order]

    def fields(self, data: Any, what: str, line: int = 0) -> Fields:
        raise NotImplementedError

    def text(self, value: Any, what: str, line: int) -> Text:
        raise NotImplementedError

    def call(self, f: Fields, key: str, what: str) -> Call:
        raise NotImplementedError

    def known(self, f: Fields, key: str, ids: tuple[str, ...]) -> tuple[str, ...]:
        raise NotImplementedError

    def condition(self, value: Any, what: str, line: int) -> Any:
        raise NotImplementedError

    def turn(self, f: Fields, what: str, *, main: bool, default_time: float) -> Turn:
        raise NotImplementedError

    # -- order -------------------------------------------------------------------

    def order(self, f: Fields, what: str) -> Order:
        """`order: -6b` or `after: insomniac` (right after that role's own turn)."""
        if f.has("after"):
            target = f.get("after", str)
            self.known(f, "after", (target,))
            if f.has("order"):
                raise f.error("after", f"{what} has both 'order' and 'after'; keep one")
            if target not in self.role_orders:
                raise f.error("after", f"'after' names '{target}', which has no 'order' of its own")
            base = self.role_orders[target]
            return Order(base.number, base.sub, base.then + 1)
        value = f.required("order")
        order = parse_order(value)
        if order is None:
            raise f.error(
                "order", f"'order' of {what} must look like 5, '9b', -6 or '-1b.2', not {value!r}"
            )
        return order

    # -- boxes, options, tokens ----------------------------------------------------

    def boxes(self, f: Fields) -> tuple[tuple[str, Text], ...]:
        if not f.has("boxes"):
            return ()
        bf = self.fields(f.raw("boxes"), "'boxes'", f.line_of("boxes"))
        out = []
        for key, value in bf.data.items():
            if not _ID.match(str(key)):
                raise bf.error(str(key), f"box id '{key}' must be lower case letters, digits, _")
            bf.seen.add(str(key))
            out.append((str(key), self.text(value, f"box '{key}'", bf.line_of(str(key)))))
        return tuple(out)

    def box(self, f: Fields) -> str:
        if not f.has("box"):
            return self.box_ids[0] if self.box_ids else ""
        return declared(f, "box", "is in box", self.box_ids, "boxes")

    def option(self, value: Any, line: int) -> Option:
        f = self.fields(value, "an option", line)
        option_id = f.get("id", str, need=True)
        if not _ID.match(option_id):
            raise f.error("id", f"option id '{option_id}' must be lower case letters, digits, _")
        f.what = f"option '{option_id}'"
        kind = f.get("kind", str, "flag")
        if kind not in ("flag", "seconds"):
            raise f.error("kind", f"'kind' of {f.what} must be flag or seconds, not '{kind}'")
        effect = f.get("effect", str, "")
        if effect not in _EFFECTS:
            raise f.error("effect", f"'effect' of {f.what} must be terse or action_time")
        if kind == "flag":
            default = 1.0 if f.get("default", bool, False) else 0.0
        else:
            default = f.number("default", 0.0)
        option = Option(
            id=option_id,
            label=self.text(f.required("label"), f"the label of {f.what}", f.line_of("label")),
            kind=cast(Literal["flag", "seconds"], kind),
            default=default,
            effect=cast(Literal["", "terse", "action_time"], effect),
            help=self.text(f.raw("help"), f"the help of {f.what}", f.line_of("help"))
            if f.has("help")
            else None,
        )
        f.done()
        return option

    def token(self, value: Any, line: int) -> Token:
        f = self.fields(value, "a token", line)
        token_id = f.get("id", str, need=True)
        f.what = f"token '{token_id}'"
        token = Token(
            id=token_id,
            name=self.text(f.required("name"), f"the name of {f.what}", f.line_of("name")),
            count=f.whole("count", 1, low=1),
            roles=self.known(f, "roles", f.ids("roles")),
        )
        if not token.roles:
            raise f.error(None, f"{f.what} needs 'roles': the roles that bring it")
        f.done()
        return token

    # -- calls of the table, choices, recaps -------------------------------------------

    def table_call(self, value: Any, line: int, default_time: float) -> tuple[str, Turn]:
        f = self.fields(value, "a call of the night", line)
        call_id = f.get("id", str, need=True)
        f.what = f"call '{call_id}' of the night"
        turn = self.turn(f, f.what, main=False, default_time=default_time)
        f.done()
        return call_id, turn

    def choices(self, f: Fields, what: str) -> tuple[Call, ...]:
        """`choices:` a list of alternatives, each one line or a list of lines."""
        out: list[Call] = []
        for i, (value, line) in enumerate(f.listed("choices", lambda v, ln: (v, ln))):
            holder = self.fields({"choice": value}, what, line)
            out.append(self.call(holder, "choice", f"choice {i + 1} of {what}"))
        if len(out) == 1:
            raise f.error("choices", f"'choices' of {what} has one choice; give two or more")
        return tuple(out)

    def recap(self, f: Fields, what: str) -> Recap | None:
        if not f.has("recap"):
            return None
        rf = self.fields(f.raw("recap"), f"'recap' of {what}", f.line_of("recap"))
        roles = self.known(rf, "roles", rf.ids("roles"))
        recap = Recap(
            roles=roles,
            line=self.text(rf.required("line"), f"the line of {rf.what}", rf.line_of("line")),
            when=self.condition(rf.raw("when"), f"'when' of {rf.what}", rf.line_of("when")),
        )
        rf.done()
        return recap

    def known_options(self, f: Fields, key: str) -> tuple[str, ...]:
        ids = f.ids(key)
        for option_id in ids:
            if option_id not in self.option_ids:
                raise f.error(
                    key,
                    f"'{key}' names the option '{option_id}', which is not under 'options'"
                    f"{did_you_mean(option_id, self.option_ids)}",
                )
        return ids
