"""Helpers shared on purpose by the tests and the benches (`scripts/bench*`).

A bench imports from here and from nowhere else under `tests/`
(tests/unit/test_benches.py checks it): a helper a bench needs must not vanish with
the test that once held it. Each module says who uses it.
"""
