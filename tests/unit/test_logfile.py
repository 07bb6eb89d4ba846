"""The log file when it cannot be written (review 2, H2): a process out of file
descriptors logged every record's "--- Logging error ---" traceback to the terminal
(25.9 MB in 13 s under a connection flood). Now the records are dropped without a
word on the terminal, counted, and the file says how many were lost once it opens.
(The file is opened at set-up, so what meets this is a file that must open again, as
after a rotation.) Run in a real process whose descriptors really run out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import logging, os, resource, sys
from pathlib import Path
from narrator import logfile

path = Path(sys.argv[1])
handler = logfile.setup(path)
assert handler is not None and handler.stream is not None  # opened at set-up
# The file must open again, as after a rotation -- when no descriptor is left:
handler.stream.close()
handler.stream = None
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(64, hard), hard))
held = []
try:
    while True:  # every descriptor taken: the log file cannot open
        held.append(os.open(os.devnull, os.O_RDONLY))
except OSError:
    pass
for i in range(3000):
    logging.getLogger("narrator.table").error("record %d", i)
    logging.getLogger("asyncio").error("accept failed %d", i)  # the event loop's own
for fd in held:
    os.close(fd)
logging.getLogger("narrator.table").error("the file opens again")
logging.shutdown()
"""


def test_a_log_file_that_cannot_open_loses_its_records_quietly_and_says_so_later(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state" / "narrator.log"
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(path)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stderr == "" and run.stdout == ""
    text = path.read_text(encoding="utf-8")
    assert "6000 log records were lost" in text and "Too many open files" in text, text
    assert text.rstrip().endswith("the file opens again")
    assert "record 5" not in text and "Traceback" not in text
