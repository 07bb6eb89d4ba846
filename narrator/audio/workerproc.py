"""A speech engine in a process of its own, spoken to one JSON line at a time.

Both voices that narrator drives itself live outside the app's process: espeak-ng
(`_worker.py`: pyttsx3 prints on stdout and a process that used it must not fork)
and hibari (`_hibari_worker.py`: loading it holds the GIL for up to ~150 ms at a
time, long enough to starve the audio callback, and onnxruntime aborted the app when
a signal ended it mid-inference). Each worker runs by file path, so it imports
nothing of the package; its first line says whether it is ready, then it answers
each request line with one line carrying the request's `id`.

`WorkerProcess` is the app's side: started without waiting (it loads while the app
does other work), asked one request at a time (the caller holds its own lock), and
closed at once -- a request in flight when the app quits is abandoned, its caller
told the worker exited, so no voice outlives the app by more than ~0.3 s.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any


class WorkerProcess:
    """One worker script, spawned on first use and again after it died. `fail` makes
    the exception a caller sees from a one-line reason ("the worker exited")."""

    def __init__(self, script: Path, args: Sequence[str], fail: Callable[[str], Exception]) -> None:
        self.script = script
        self.args = tuple(args)
        self._fail = fail
        self._proc: subprocess.Popen[str] | None = None
        self._ready = False
        self._next_id = 0
        self.hello: dict[str, Any] = {}  # the worker's first line, once read

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def next_id(self) -> int:
        """The id the next request will carry."""
        return self._next_id + 1

    def start(self) -> None:
        """Launch the worker without waiting for it."""
        if self.running:
            return
        self._ready = False
        # -P: the script's own folder (narrator/audio) is not put on sys.path, so none
        # of the package's modules can shadow a library the worker imports.
        self._proc = subprocess.Popen(
            [sys.executable, "-P", str(self.script), *self.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read its answer (the caller holds its lock)."""
        self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        if not self._ready:
            hello = self._read(proc.stdout)
            if not hello.get("ready"):
                self._proc = None
                raise self._fail(str(hello.get("error", "the worker failed")))
            self._ready = True
            self.hello = hello
        self._next_id += 1
        request["id"] = self._next_id
        try:
            proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            proc.stdin.flush()
        except OSError as exc:
            self._proc = None
            raise self._fail(f"the worker died: {exc}") from exc
        return self._read(proc.stdout)

    def _read(self, stream: IO[str]) -> dict[str, Any]:
        text = stream.readline()
        if not text:
            self._proc = None
            raise self._fail("the worker exited")
        answer: dict[str, Any] = json.loads(text)
        return answer

    def close(self) -> None:
        """End the worker now: its stdin closed, then killed if it lingers."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            if proc.stdin is not None:
                proc.stdin.close()
        try:
            proc.wait(timeout=0.3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            with contextlib.suppress(OSError):
                proc.stdout.close()
