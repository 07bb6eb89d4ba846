"""The workers' side of their protocol (`workerproc.py` is the app's side).

`serve(start)` runs a worker: it keeps the process's stdout for the protocol and
points everything else printed there (Python's and C's) at stderr, which the app
sends to /dev/null; `start()` loads the engine and returns how to answer a request
and what to say when ready. The first line written is `{"ready": true, ...}` or
`{"ready": false, "error": ...}`; then one answer per request line, with its `id`.
Standard library only: the workers start in a fraction of a second.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def serve(start: Callable[[], tuple[Handler, dict[str, Any]]]) -> int:
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # C-level and Python-level prints now land on stderr
    sys.stdout = sys.stderr
    try:
        handle, hello = start()
    except Exception as exc:
        proto.write(json.dumps({"ready": False, "error": f"{type(exc).__name__}: {exc}"}) + "\n")
        proto.flush()
        return 1
    proto.write(json.dumps({"ready": True, **hello}) + "\n")
    proto.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        answer = handle(req)
        answer["id"] = req.get("id")
        proto.write(json.dumps(answer) + "\n")
        proto.flush()
    return 0
