"""The end-of-fight summary screen: the table the plain-line game prints too
(cli/summary.py), with the keys to leave or take back the last decision."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from wasteland.cli.summary import Tally, summary_lines, tally
from wasteland.rules.battle import Battle

__all__ = ["SummaryScreen", "Tally", "summary_lines", "tally"]


class SummaryScreen(ModalScreen[str]):
    """Shown when the fight ends: u takes back the last decision, q leaves."""

    BINDINGS = [Binding("q,escape,enter", "dismiss('quit')", "Leave"),
                Binding("u", "dismiss('undo')", "Undo last decision")]
    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen > Static { width: auto; max-width: 100%; height: auto; padding: 0 1;
                             border: round $accent; background: $surface; }
    """

    def __init__(self, b: Battle) -> None:
        super().__init__()
        self.battle = b

    def compose(self) -> ComposeResult:
        lines = summary_lines(self.battle)
        yield Static("\n".join([*lines, "", "q leave   u undo your last decision"]),
                     id="summary-text", markup=False)
