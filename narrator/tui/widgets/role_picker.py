"""RolePicker: the roles of a ruleset, grouped by team, each with a count.

It shows counts it is given and reports what the user asked for; the counts
themselves live in the `GameSetup` controller (attributes down, messages up).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from narrator.i18n import N_
from narrator.rules import Role
from narrator.tui.text import shape, t


class RolePicker(OptionList):
    """Up/down to choose a role; +/- (or right/left) to change its count."""

    DEFAULT_CSS = """
    RolePicker { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign,right", "more", N_("More"), key_display="+"),
        Binding("minus,left", "fewer", N_("Fewer"), key_display="-"),
    ]

    class CountChanged(Message):
        """The user asked for one more (+1) or one fewer (-1) of a role."""

        def __init__(self, role_id: str, delta: int) -> None:
            super().__init__()
            self.role_id = role_id
            self.delta = delta

    def show(self, groups: list[tuple[str, list[Role]]], counts: dict[str, int], lang: str) -> None:
        """Rebuild the list, keeping the highlighted role."""
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        options: list[Option] = []
        for team, roles in groups:
            chosen = sum(counts.get(r.id, 0) for r in roles)
            options.append(Option(Text(shape(f"{team} ({chosen})"), style="bold"), disabled=True))
            for role in roles:
                n = counts.get(role.id, 0)
                line = Text(f"  {n:>2} × " if n else "   · ", style="bold" if n else "dim")
                line.append(shape(role.name.get(lang), lang), style="" if n else "dim")
                most = t("max {n}").format(n=role.max_count)
                line.append("  " + shape(most), style="dim")
                options.append(Option(line, id=role.id))
        self.clear_options()
        self.add_options(options)
        if keep is not None:
            self.highlighted = self.get_option_index(keep)
        else:
            self.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)

    def _post(self, delta: int) -> None:
        option = self.highlighted_option
        if option is not None and option.id is not None:
            self.post_message(self.CountChanged(option.id, delta))

    def action_more(self) -> None:
        self._post(+1)

    def action_fewer(self) -> None:
        self._post(-1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A click (or Enter) on a role adds one; it is the mouse's way to count up.
        event.stop()
        if event.option.id is not None:
            self.post_message(self.CountChanged(event.option.id, +1))
