"""The full-screen game's session: play's Game (saving, autosave, the NPC agents and how
they take their turn, applying an action as one step) driven by the app's events instead
of a loop that reads lines, plus what only a screen offers: undo of the player's last
decision and the choice the packet agent would make in the player's place."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from wasteland.agents.base import view_of
from wasteland.cli.play import Game
from wasteland.cli.session import restore_agent, rng_snapshot
from wasteland.rules import saves
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.protocol import Decision


@dataclass
class Mark:
    """What undo needs to take a decision back: the history before it and the NPC
    agents' random state then (so they decide again as they did)."""

    moves: int
    agents: dict[int, dict[str, Any]]


class ScreenGame(Game):
    """A Game whose lines go to ``notes`` (the app's log drains them) and that advances
    one decision at a time."""

    def __init__(self, battle: Battle, save_path: Path, resumed: Path | None = None) -> None:
        self.notes: list[tuple[str, str | None]] = []
        super().__init__(battle, Console(file=io.StringIO()), iter(()), save_path, resumed)
        self.marks: list[Mark] = []
        self._advisor: Any = None
        self._advice: tuple[tuple[int, int], Action, str] | None = None

    def say(self, text: str, style: str | None = None) -> None:
        self.notes.append((text, style))

    def take_notes(self) -> list[tuple[str, str | None]]:
        out, self.notes = self.notes, []
        return out

    def start(self, advance: bool = True) -> None:
        self.say(f"this game saves to {self.save_path} every round, on quit and on Ctrl-C",
                 "dim")
        self.events()
        self.save(quiet=True)
        if advance:
            self.advance()

    def human_decides(self) -> bool:
        b = self.b
        return not b.over and b.combatants[self.rs.decider(b).combatant].side in self.humans

    def decision(self) -> Decision:
        return self.rs.decider(self.b)

    def step(self) -> bool:
        """One decision nobody needs to be asked for: an NPC's (as play's loop takes it),
        or the player's when only one action is legal (a 'buy 0' with no AP, an 'end'
        after the last action), taken and logged as such. False when the player has a
        real choice, or the fight is over."""
        b = self.b
        if b.over:
            return False
        dec = self.rs.decider(b)
        if not self.human_decides():
            self.npc_turn(b.combatants[dec.combatant].side, dec.combatant)
        else:
            legal = self.rs.legal_actions(b)
            if len(legal) != 1:
                return False
            self.only_choice(dec.combatant, legal[0])
        self.events()
        self.autosave()
        return True

    def needs_player(self) -> bool:
        """Whether the player has a choice to make now."""
        return self.human_decides() and len(self.rs.legal_ids(self.b)) > 1

    def advance(self) -> None:
        """The decisions up to the player's next real choice, or the end."""
        while self.step():
            pass

    def choose(self, action: Action, advance: bool = True) -> None:
        """The player's decision: applied, then (``advance``) the NPCs until the player's
        next one."""
        self.marks.append(Mark(len(self.b.moves),
                               {side: rng_snapshot(a) for side, a in self.npcs.items()}))
        self.say(f"> {action.text(self.b.ids, self.decision().combatant)}", "bold")
        self.apply(action)
        self.events()
        self.autosave()
        if advance:
            self.advance()

    def undo(self) -> str:
        """Take back the player's last decision and everything after it, by replaying the
        fight from its seed (as the GM tool's undo); one line saying what happened."""
        if not self.marks:
            return "nothing to undo"
        mark = self.marks.pop()
        history = self.b.history
        undone = history[mark.moves] if mark.moves < len(history) else ""
        self.b = saves.rewind(self.b, history[:mark.moves])
        for side, snap in mark.agents.items():
            restore_agent(self.npcs[side], snap)
        self.shown = len(self.b.log)
        self.saved_round = self.b.round
        self.save(quiet=True)
        return f"undone: {undone}"

    def suggestion(self) -> tuple[Action, str]:
        """What the packet agent would choose in the player's place, and why. Its own
        agent, so the NPCs' random state is not touched; asked once per decision, so the
        choice shown is the one the key takes."""
        key = (id(self.b), len(self.b.moves))
        if self._advice is not None and self._advice[0] == key:
            return self._advice[1], self._advice[2]
        if self._advisor is None:
            from wasteland.agents.packets import PacketAgent

            self._advisor = PacketAgent(self.b.seed)
        a = self._advisor.act(view_of(self.rs, self.b))
        self._advice = (key, a, str(self._advisor.last_reason))
        return a, self._advice[2]
