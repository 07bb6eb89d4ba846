"""Errors leave a trace: a listener that fails is logged, with its traceback, to the
rotating file the command line sets up, and the other listeners still hear the event."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from narrator import logfile
from narrator.session.events import Listeners


def test_a_failing_listener_is_logged_with_its_traceback_and_the_night_goes_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state" / "narrator.log"
    handler = logfile.setup(path)
    assert handler is not None
    assert logfile.setup(path) is handler  # once per file, however often it runs
    try:
        heard: list[Any] = []
        listeners = Listeners()

        def broken(event: Any) -> None:
            raise RuntimeError("the screen is gone")

        listeners.add(broken)
        listeners.add(heard.append)
        listeners("an event")  # type: ignore[arg-type]
        assert heard == ["an event"]
        handler.flush()
        text = path.read_text(encoding="utf-8")
        assert "ERROR narrator.session.events: a listener failed on the str event" in text
        assert "Traceback" in text and "RuntimeError: the screen is gone" in text
    finally:
        logging.getLogger("narrator").removeHandler(handler)
        handler.close()
        logfile._HANDLERS.pop(path, None)


def test_a_folder_that_cannot_be_written_means_no_log_not_a_crash(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert logfile.setup(blocker / "narrator.log") is None
