"""The log: every event's sentence with its dice, the NPCs' choices with their reasons,
and the game's own notes, newest at the bottom. RichLog wraps a line once, at the width
it had when written; this one keeps what it was given and wraps it again when its width
changes (a resized terminal, a wider or narrower column)."""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from wasteland.rules.battle import Battle


class LogPanel(RichLog):
    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("wrap", True)
        kwargs.setdefault("markup", False)
        kwargs.setdefault("highlight", False)
        kwargs.setdefault("min_width", 10)  # else lines are drawn 78 wide and cropped
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.entries: list[tuple[str, str]] = []
        self._wrapped_at = 0  # the width the lines on screen were wrapped at

    @property
    def lines_written(self) -> list[str]:
        return [text for text, _ in self.entries]

    def add(self, text: str, style: str | None = None) -> None:
        self.entries.append((text, style or ""))
        self.write(Text(text, style or ""))

    def reset(self, b: Battle) -> None:
        """After an undo: the log as the replayed battle has it."""
        self.clear()
        self.entries = []
        for e in b.log:
            self.add(e.text())

    def on_resize(self, event: Resize) -> None:
        """(RichLog's own handler runs too: it writes what came before the first size.)"""
        width = event.size.width
        if self._wrapped_at and width and width != self._wrapped_at:
            self.clear()
            for text, style in self.entries:
                self.write(Text(text, style))
            self.scroll_end(animate=False)
        if width:
            self._wrapped_at = width
