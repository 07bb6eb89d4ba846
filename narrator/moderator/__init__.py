"""The moderator nobody has to be: a pure engine that resolves the night, the vote and
the winners from the ruleset's data (`rules.powers`), and keeps the game's log.

Above `rules` (it reads rulesets) and `i18n` (its words), beside `script`, below
`session` and `table` (which drive it). No I/O, no clock, no web, audio or Textual:
an import-linter contract keeps it so. Randomness is passed in.
"""

from narrator.moderator.board import Card, MoveError, Place, Prompt, Seat, Step
from narrator.moderator.game import Game
from narrator.moderator.log import Cause, Entry
from narrator.moderator.scenario import Replay, ScenarioError, load, run
from narrator.moderator.support import runnable_roles, unsupported_roles
from narrator.moderator.words import Words

__all__ = [
    "Card",
    "Cause",
    "Entry",
    "Game",
    "MoveError",
    "Place",
    "Prompt",
    "Replay",
    "ScenarioError",
    "Seat",
    "Step",
    "Words",
    "load",
    "run",
    "runnable_roles",
    "unsupported_roles",
]
