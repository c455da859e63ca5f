"""The log: every event's sentence with its dice, the NPCs' choices with their reasons,
and the game's own notes, newest at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from wasteland.rules.battle import Battle


class LogPanel(RichLog):
    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("wrap", True)
        kwargs.setdefault("markup", False)
        kwargs.setdefault("highlight", False)
        kwargs.setdefault("min_width", 10)  # else lines are drawn 78 wide and cropped
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lines_written: list[str] = []

    def add(self, text: str, style: str | None = None) -> None:
        self.lines_written.append(text)
        self.write(Text(text, style or ""))

    def reset(self, b: Battle) -> None:
        """After an undo: the log as the replayed battle has it."""
        self.clear()
        self.lines_written = []
        for e in b.log:
            self.add(e.text())
