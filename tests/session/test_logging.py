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


def test_the_log_is_open_from_the_start_not_from_its_first_record(tmp_path: Path) -> None:
    """The soak counts the app's descriptors night after night: a log file opened at
    its first warning (the app held up, say, at the fifth night) was one more there,
    which a leak check cannot tell from a leak. The file is open from set-up."""
    import os

    path = tmp_path / "state" / "narrator.log"
    handler = logfile.setup(path)
    assert handler is not None
    try:
        before = len(os.listdir("/proc/self/fd"))
        logging.getLogger("narrator.audio.player").warning("the app itself did not run")
        handler.flush()
        assert len(os.listdir("/proc/self/fd")) == before
        assert "the app itself did not run" in path.read_text(encoding="utf-8")
    finally:
        logging.getLogger("narrator").removeHandler(handler)
        handler.close()
        logfile._HANDLERS.pop(path, None)
