"""Which of a turn's `choices` a game draws: one function for the voice and the engine.

The official app draws some roles' instructions at random each game (the aliens'
instruction, the Oracle's question, the Psychic's cards) and says the one drawn. The
script builder speaks the choice drawn from the plan's seed; the engine, which
applies the choice's powers on the phones and in a replay, draws with the same
function from the same seed -- never a second draw -- so what the phones let a
player do is what the voice told them.
"""

from __future__ import annotations

import random

from narrator.rules.model import Order


def drawn_choice(seed: int | None, role_id: str | None, order: Order, count: int) -> int:
    """The index (from 0) of the choice drawn among `count`, for the turn of
    `role_id` (None: a call of the whole table) at `order`, in a game of `seed`
    (None counts as 0)."""
    rng = random.Random(f"{seed or 0}|{role_id}|{order}")
    return rng.randrange(count)
