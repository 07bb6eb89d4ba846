"""narrator: a voice that calls the night for social deduction games."""

__version__ = "0.1.0"
