"""Moved to `narrator.base.aside`; this name goes once every import points there."""

from narrator.base.aside import write_aside as write_aside
