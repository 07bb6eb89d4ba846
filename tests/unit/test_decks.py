"""The deal as a pure rules function (`rules.decks.deal`), beside the plan it follows
(`dealing`): the phones' table deals through it, the randomness passed in."""

from __future__ import annotations

import random
from collections import Counter

from narrator.rules import deal, dealing, recommended
from tests.unit.helpers import ruleset


def _whole(chosen: tuple[tuple[str, int], ...]) -> Counter[str]:
    return Counter({role: count for role, count in chosen})


def test_every_card_chosen_is_dealt_set_aside_or_removed_as_planned() -> None:
    for ruleset_id, players in (("onuw", 5), ("lupus", 7), ("lupus", 9), ("secret_moon", 5)):
        rs = ruleset(ruleset_id)
        chosen, _ = recommended(rs, players)
        plan = dealing(rs, players, chosen)
        for seed in range(20):
            dealt = deal(rs, players, chosen, random.Random(seed))
            assert len(dealt.cards) == plan.dealt == players
            assert len(dealt.unseen) == plan.aside and len(dealt.removed) == plan.discard
            assert Counter(dealt.cards + dealt.unseen + dealt.removed) == _whole(chosen)


def test_the_same_draws_deal_the_same_cards_and_others_deal_others() -> None:
    rs = ruleset("onuw")
    chosen, _ = recommended(rs, 6)
    assert deal(rs, 6, chosen, random.Random(3)) == deal(rs, 6, chosen, random.Random(3))
    deals = {deal(rs, 6, chosen, random.Random(seed)).cards for seed in range(20)}
    assert len(deals) > 10


def test_secret_moon_with_five_removes_the_priestess_or_a_guard_each_as_likely() -> None:
    rs = ruleset("secret_moon")
    chosen, _ = recommended(rs, 5)
    removed = Counter(deal(rs, 5, chosen, random.Random(s)).removed[0] for s in range(400))
    assert set(removed) == {"priestess", "guard"}  # never the Princess or the Minister
    assert 150 < removed["priestess"] < 250  # one role each as likely, not each card


def test_the_roles_required_in_every_game_are_always_dealt() -> None:
    rs = ruleset("wherewolf")
    assert rs.setup.required
    for players in range(rs.setup.min_players, rs.setup.max_players + 1, 3):
        chosen, _ = recommended(rs, players)
        for seed in range(25):
            dealt = deal(rs, players, chosen, random.Random(seed))
            assert set(rs.setup.required) <= set(dealt.cards), (players, seed)
