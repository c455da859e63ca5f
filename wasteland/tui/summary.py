"""The end-of-fight summary: for each combatant the damage it dealt and took (the engine's
own counts of HP lost), its critical hits and the foes it killed or knocked down (read
from the log), and the rounds.

Events of going down name only who fell; the one credited is the attacker of the last
attack roll (or 2d20 test, or Simple check) since the turn began, so a fall to bleeding
or burning at the start of a turn is nobody's."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from wasteland.rules.battle import Battle
from wasteland.rules.events import (
    AttackRolled,
    CombatDiceRolled,
    Downed,
    Note,
    RoundStarted,
    SkillChecked,
    TestRolled,
    TurnStarted,
)


@dataclass
class Tally:
    dealt: int = 0
    taken: int = 0
    crits: int = 0
    kills: int = 0
    downs: int = 0


def tally(b: Battle) -> dict[str, Tally]:
    """Each combatant's tally, by id, in slot order."""
    out = {cid: Tally() for cid in b.ids}
    by: str | None = None
    for e in b.log:
        if isinstance(e, (TurnStarted, RoundStarted)):
            by = None
        elif isinstance(e, AttackRolled):
            by = e.attacker
            if e.crit:
                out[by].crits += 1
        elif isinstance(e, TestRolled):
            by = e.name
        elif isinstance(e, SkillChecked):
            by = e.name
            if e.crit == "critical":
                out[by].crits += 1
        elif isinstance(e, CombatDiceRolled) and "critical hit" in e.note and by in out:
            out[by].crits += 1  # 2d20: a hit that dealt 5 or more to one location
        elif (isinstance(e, Note) and e.message.startswith("falls prone and is dying")
              and by in out and by != e.name):
            out[by].downs += 1  # 2d20: a character at 0 HP is dying, not dead
        elif isinstance(e, Downed) and by in out and by != e.name:
            if e.status == "dead":
                out[by].kills += 1
            else:
                out[by].downs += 1
    for c in b.combatants:
        out[c.id].dealt, out[c.id].taken = c.damage_dealt, c.damage_taken
    return out


def summary_lines(b: Battle) -> list[str]:
    """The summary as lines of at most 80 characters: who won, the rounds, a table."""
    w = b.winner
    head = "Draw" if w is None else f"{b.side_names[w]} won"
    lines = [f"{head} after {b.round} round{'s' if b.round != 1 else ''}.", "",
             f"{'combatant':<19} {'side':<10} {'dealt':>5} {'taken':>5} {'crits':>5} "
             f"{'kills':>5} {'downs':>5}  HP at the end"]
    for c, (cid, t) in zip(b.combatants, tally(b).items()):
        lines.append(f"{cid[:19]:<19} {b.side_names[c.side][:10]:<10} {t.dealt:>5} "
                     f"{t.taken:>5} {t.crits:>5} {t.kills:>5} {t.downs:>5}  "
                     f"{c.hp}/{c.max_hp} {_STATE.get(c.status, c.status)}")
    return lines


_STATE = {"active": "standing", "unconscious": "down", "dead": "dead"}


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
