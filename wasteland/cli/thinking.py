"""The line that tells the table an NPC is thinking (issue 40, item 5): a deadly search
can take seconds, and a screen that says nothing looks hung.

``Thinking`` hears the search agent's progress (SearchAgent.on_progress) and, once a
decision has taken longer than AFTER seconds, hands ``show`` a line such as
``raider_0 is thinking (deadly)... 40%``. The clock is read only when progress comes in,
so no thread ever touches the battle, and a test gives it a fake clock. The plain-lines
game shows it with ``LineStatus``; the full-screen game on its hint line (tui/app.py).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

AFTER = 0.3  # seconds a decision may take before the table is told


class Thinking:
    """What one NPC's thinking looks like now. ``begin`` when it starts, ``progress``
    from the agent, ``end`` when it has chosen; ``show(text)`` is called only when the
    text changes, ``clear()`` at the end if anything was shown."""

    def __init__(self, show: Callable[[str], None], clear: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.monotonic, after: float = AFTER) -> None:
        self.show, self.clear, self.clock, self.after = show, clear, clock, after
        self.who = self.level = ""
        self.started = 0.0
        self.shown = ""
        self.decisions = 0

    def begin(self, who: str, level: str) -> None:
        """A new wait (a play decision, or a GM's whole proposal)."""
        self.who, self.level = who, level
        self.started = self.clock()
        self.shown = ""
        self.decisions = 0

    def deciding(self, who: str) -> None:
        """Another decision within the same wait (a proposal's next step), by ``who``."""
        self.who = who
        self.decisions += 1

    def text(self, done: int, total: int) -> str:
        part = f"decision {self.decisions + 1}, " if self.decisions else ""
        how = f"{part}{100 * done // total}%" if total > 0 else f"{part}{done} continuations"
        return f"{self.who} is thinking ({self.level})... {how}"

    def progress(self, done: int, total: int) -> None:
        if self.clock() - self.started < self.after:
            return
        text = self.text(done, total)
        if text != self.shown:
            self.shown = text
            self.show(text)

    def end(self) -> None:
        if self.shown:
            self.shown = ""
            self.clear()


class LineStatus:
    """Thinking on plain lines, on stderr so that what a game prints to stdout stays the
    same however fast the machine is: on a terminal one line rewritten in place with \\r
    and erased when the NPC acts; elsewhere (a pipe, a log) written once a wait, whole."""

    def __init__(self, stream: TextIO | None = None, live: bool | None = None) -> None:
        self._stream = stream
        self.live = live
        self.width = 0
        self.said = False

    @property
    def stream(self) -> TextIO:
        return self._stream if self._stream is not None else sys.stderr  # as it is now

    def is_live(self) -> bool:
        if self.live is not None:
            return self.live
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def show(self, text: str) -> None:
        if self.is_live():
            pad = " " * max(0, self.width - len(text))
            self.width = max(self.width, len(text))
            self.stream.write(f"\r{text}{pad}")
        elif not self.said:
            self.said = True
            self.stream.write(text.rsplit("... ", 1)[0] + "...\n")
        self.stream.flush()

    def clear(self) -> None:
        if self.is_live() and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
        self.width = 0
        self.said = False


def level_of(agent: Any) -> str:
    """The name a table knows the agent by: its level (easy ... deadly) or its kind."""
    return str(getattr(agent, "kind", None) or getattr(agent, "name", "") or "AI")


@contextmanager
def listening(agent: Any, thinking: Thinking | None) -> Iterator[None]:
    """``agent`` reports to ``thinking`` while the block runs (an agent with no
    on_progress, such as the packet, says nothing); the line is ended however the block
    ends, Ctrl-C included, and the agent is left without a listener."""
    if thinking is None or not hasattr(agent, "on_progress"):
        yield
        return
    agent.on_progress = thinking.progress
    try:
        yield
    finally:
        agent.on_progress = None
        thinking.end()
