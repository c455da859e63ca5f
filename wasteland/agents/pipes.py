"""A child process spoken to in lines over its stdin and stdout, where the child cannot
hold the engine: the engine's side of a ``cmd:`` agent's pipes (agents/external.py).

Every write and every read waits at most until a deadline the caller gives (a
``time.monotonic()`` instant), so a program that stops reading its input (a write into a
full pipe would block for ever) or never ends its line cannot stall a fight. A line is
capped while it is read, so a program writing without a newline cannot fill the memory:
at most the cap plus one read's chunk is held. Both pipes are non-blocking and waited on
with ``select.poll``, which needs a POSIX system.
"""

from __future__ import annotations

import math
import os
import select
import subprocess
import time

CHUNK = 65536  # bytes read at a time: a pipe's default capacity on Linux


class Stalled(Exception):
    """The deadline passed before the write or the line was done."""


class Closed(Exception):
    """The program closed its end of the pipe (its input, on a write)."""


class Overlong(Exception):
    """The program wrote a line longer than the cap."""


def _wait(fd: int, events: int, deadline: float) -> bool:
    """Whether ``fd`` is ready for ``events`` (or hung up) before ``deadline``. Past it,
    never: a program that keeps writing would otherwise always be ready."""
    left = deadline - time.monotonic()
    if left <= 0:
        return False
    poller = select.poll()
    poller.register(fd, events)
    # poll takes milliseconds; round up so that a wait never ends just short of the deadline
    return bool(poller.poll(math.ceil(left * 1000)))


class LinePipe:
    """``argv`` started with its stdin and stdout as pipes (its stderr is ours)."""

    def __init__(self, argv: list[str], max_line: int) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     bufsize=0)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self.max_line = max_line
        self._buf = bytearray()  # read but not yet returned: at most one partial line
        self._scanned = 0  # bytes of _buf known to hold no newline
        self._eof = False

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def write(self, data: bytes, deadline: float) -> None:
        """All of ``data`` into the program's input by ``deadline``; Stalled if it does not
        take it in time (its pipe stays full), Closed if it closed its input."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view):]
                continue
            except BlockingIOError:
                pass
            except (OSError, ValueError):  # a broken pipe, or closed on our side
                raise Closed() from None
            if not _wait(self._in, select.POLLOUT, deadline):
                raise Stalled()

    def read_line(self, deadline: float) -> bytes | None:
        """The next line (without its newline) by ``deadline``; None once the program has
        closed its output and every line is read. Stalled at the deadline, however many
        bytes came before it; Overlong when a line passes ``max_line`` bytes."""
        while True:
            end = self._buf.find(b"\n", self._scanned)
            if end >= 0:
                if end > self.max_line:
                    raise Overlong()
                line = bytes(self._buf[:end])
                del self._buf[:end + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buf)
            if len(self._buf) > self.max_line:
                raise Overlong()
            if self._eof:
                if not self._buf:
                    return None
                line = bytes(self._buf)  # a last line without its newline
                self._buf.clear()
                self._scanned = 0
                return line
            if not _wait(self._out, select.POLLIN, deadline):
                raise Stalled()
            try:
                chunk = os.read(self._out, CHUNK)
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                chunk = b""
            if chunk:
                self._buf += chunk
            else:
                self._eof = True

    def close(self, grace: float) -> None:
        """Close its input (a program that reads to the end of it exits), give it
        ``grace`` seconds to exit, else kill it; reap it and close our ends."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._buf = bytearray()
        self._scanned = 0
