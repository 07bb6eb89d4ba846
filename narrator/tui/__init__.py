"""The Textual app. Importing this package is cheap: Textual loads with `tui.app`.

The app is built by the composition root (`narrator.compose.make_app`), which gives
it its engine, settings, catalogue and table factory. Environment:
`NARRATOR_AUDIO=fake` plays nothing (a silent engine on the wall clock) -- used by
the tmux test and handy on machines without speakers.
"""
