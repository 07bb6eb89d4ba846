"""Nothing a phone receives tells its card by its length (review 2, L1 and L2).

A long Lupus table on a real server: twelve phones with 24-character names over nine
nights, the pack changing its picks at every call, the Seer asking every night, two
days of accusations and ballots. At every moment -- each push, each look at
`/api/me` by every phone, each round of answers -- every phone's bytes are the same.
Secret Moon's turns: a turn the rules refuse (a Guard's capture) answers in as many
bytes, with as long a status line, as a turn taken, and one push follows either.
"""

from __future__ import annotations

from tests.table.sizes import long_lupus, secret_moon_turns


def test_a_long_lupus_table_sends_every_phone_as_many_bytes_at_every_moment() -> None:
    record = long_lupus(players=12, nights=9, changes=4)
    assert record.nights >= 8, record.nights
    # every push reached every phone, and each was as long on every phone
    counts = {len(p) for p in record.pushes}
    assert len(counts) == 1 and counts != {0}, counts
    for k, lengths in enumerate(zip(*record.pushes, strict=True)):
        assert len(set(lengths)) == 1, (k, lengths)
    # every look at /api/me, every round of answers to the night's calls and every
    # round of votes: one length at each moment
    assert len(record.answers) > 40
    for what, lengths in record.answers:
        assert len(set(lengths)) == 1, (what, lengths)
    assert record.statuses["act"] == {200} and record.statuses["vote"] == {200}


def test_a_turn_the_rules_refuse_answers_and_pushes_as_a_turn_taken() -> None:
    record = secret_moon_turns()
    # a refused turn (the Guard's capture) and taken ones (passes) both came back, in
    # one shape ({ok, refused, learned}) and one status ...
    assert {"turn refused", "turn taken"} <= {what for what, _ in record.answers}
    assert record.statuses["turn"] == {200}, record.statuses
    # ... each as long on the wire, its status line included
    lengths = {n for _, ns in record.answers for n in ns}
    assert len(lengths) == 1, record.answers
    # and each was followed by one push to every phone, as long on every phone: from
    # the first marker to the last, as many pushes as turns
    turns = len(record.answers)
    assert all(len(p) == turns + 2 for p in record.pushes), [len(p) for p in record.pushes]
    for k, each in enumerate(zip(*record.pushes, strict=True)):
        assert len(set(each)) == 1, (k, each)
