"""Who wins, per game, from the cards and who is still alive (seeds 000, 001, 003, 004).

Only the base roles are judged here; One Night's other boxes and Wherewolf's
factions beyond the pack and the vampire come with the night actions on the phones.
`None` means the game goes on.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from narrator.table.votes import System

# The cards that are werewolves themselves (the Minion and the Possessed are on the
# wolves' side but are not wolves: killing them does not save the village).
ONE_NIGHT_WOLVES = frozenset({"werewolf", "alpha_wolf", "mystic_wolf", "dream_wolf"})
LUPUS_WOLVES = frozenset({"werewolf", "lara_werewolf"})
WHEREWOLF_SHADOW = frozenset({"pack", "vampire"})


@dataclass(frozen=True, slots=True)
class Outcome:
    teams: tuple[str, ...]  # team ids that win
    seats: tuple[int, ...]  # every seat that wins (the dead too: the whole side wins)


def one_night(cards: Mapping[int, str], teams: Mapping[str, str], dead: Collection[int]) -> Outcome:
    """One Night after the vote. `cards` are the cards in front of the players now.

    The seed: the village wins if at least one werewolf dies, or if nobody is a
    werewolf; the wolves' side wins only if there is a werewolf and every one
    survives. The Tanner wins if he dies, and then the wolves do not. The Minion
    wins with the wolves, and, with no werewolf at the table, if someone other than
    him dies -- in which case the village, having killed one of its own, does not
    (the official rule the seed's digest shortens to "nobody is a werewolf").
    """
    wolves = [s for s, c in cards.items() if c in ONE_NIGHT_WOLVES]
    tanner_dead = any(cards[s] == "tanner" for s in dead)
    minions = [s for s, c in cards.items() if c == "minion"]
    win: set[str] = set()
    if tanner_dead:
        win.add("tanner")
    if wolves:
        if any(s in dead for s in wolves):
            win.add("village")
        elif not tanner_dead:
            win.add("werewolves")
    elif minions and any(s not in minions for s in dead):
        win.add("werewolves")
    elif not any(cards[s] != "tanner" for s in dead):
        win.add("village")
    seats = [s for s, c in cards.items() if teams.get(c) in win]
    if "tanner" in win:  # only a Tanner who died wins
        seats = [s for s in seats if cards[s] != "tanner" or s in dead]
    return Outcome(tuple(sorted(win)), tuple(sorted(seats)))


def many_nights(
    system: System, cards: Mapping[int, str], teams: Mapping[str, str], alive: Collection[int]
) -> Outcome | None:
    """Lupus, Mafia and Wherewolf, checked after every elimination."""
    living = [s for s in alive if s in cards]
    if system == "lupus":
        wolves = [s for s in living if cards[s] in LUPUS_WOLVES]
        if not wolves:
            win = "humans"
        elif len(wolves) >= len(living) - len(wolves):
            win = "werewolves"
        else:
            return None
    elif system == "mafia":
        agents = [s for s in living if teams.get(cards[s]) == "infiltrators"]
        if not agents:
            win = "mafia"
        elif len(agents) >= len(living) - len(agents):
            win = "infiltrators"
        else:
            return None
    elif system == "wherewolf":
        sides = {teams.get(cards[s], "") for s in living} - {"none"}
        shadow = sides & WHEREWOLF_SHADOW
        if not shadow:
            win = "village"
        elif len(sides) == 1:
            win = next(iter(shadow))
        else:
            return None
    else:
        return None
    seats = tuple(sorted(s for s, c in cards.items() if teams.get(c) == win))
    return Outcome((win,), seats)
