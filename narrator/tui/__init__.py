"""The Textual app. Importing this package is cheap: Textual loads in `run_app()`.

Environment: `NARRATOR_AUDIO=fake` plays nothing (a silent engine on the wall
clock) -- used by the tmux test and handy on machines without speakers.
"""

from __future__ import annotations


def run_app() -> int:
    """Run the app in the terminal; the exit status for `narrator` with no arguments."""
    from narrator.tui.launch import make_app

    app = make_app()
    app.handle_signals = True
    result = app.run()
    return result if isinstance(result, int) else 0
