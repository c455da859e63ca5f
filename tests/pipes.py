"""Named pipes for tests of loaders that must never block on one: a FIFO with no writer
blocks a plain open() for ever, so a loader that regressed would hang the whole run.
``unblocked`` calls the loader in a thread instead and, if the call is still waiting after
a minute (it takes milliseconds when it does not block), opens and closes the pipe's
writing end so the stuck open returns, then fails the test."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

PATIENCE = 60.0  # seconds: generous, since the test asserts only that the call returned


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def unblocked(call: Callable[[], Any], pipe: Path) -> Any:
    """``call()``'s value, or its exception re-raised here; fails the test if it waits on
    ``pipe`` (a loader that opened it blocking)."""
    got: dict[str, Any] = {}

    def run() -> None:
        try:
            got["value"] = call()
        except BaseException as e:  # handed to the test's thread
            got["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(PATIENCE)
    if t.is_alive():
        try:  # a writer appears and leaves: the stuck open returns and reads nothing
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        t.join(PATIENCE)
        pytest.fail(f"reading {pipe.name} blocked: a named pipe was opened for reading")
    if "error" in got:
        raise got["error"]
    return got.get("value")
