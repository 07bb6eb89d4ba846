"""Reusable widgets of the app (each with its own DEFAULT_CSS)."""
