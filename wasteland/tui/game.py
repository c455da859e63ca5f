"""The full-screen game's session: the table's Game (cli/game.py: saving, autosave, the
NPC agents and how they take their turn, applying an action as one step) driven by the
app's events instead of a loop that reads lines, plus what only a screen offers: undo of
the player's last decision and the choice the packet agent would make in the player's
place."""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from wasteland.cli.game import Game
from wasteland.cli.orders import ATTACKS, Answer, Orders, ai_buy, aims_first
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
    orders: Orders | None = None  # the last answer's orders before this one


class ScreenGame(Game):
    """A Game whose lines go to ``notes`` (the app's log drains them) and that advances
    one decision at a time."""

    def __init__(self, battle: Battle, save_path: Path, resumed: Path | None = None) -> None:
        self.notes: list[tuple[str, str | None]] = []
        super().__init__(battle, Console(file=io.StringIO()), iter(()), save_path, resumed)
        self.resumed = resumed
        self.thinking = None  # the app shows it on screen (tui/app.py), never on stderr
        self._auto_key: tuple[object, ...] | None = None
        self._auto: tuple[Action, str] | None = None
        self._buys: dict[tuple[object, ...], tuple[int, str] | None] = {}
        self._compound: tuple[tuple[int, int], Answer, str] | None = None
        self.marks: list[Mark] = []

    def say(self, text: str, style: str | None = None) -> None:
        self.notes.append((text, style))

    def take_notes(self) -> list[tuple[str, str | None]]:
        out, self.notes = self.notes, []
        return out

    def start(self, advance: bool = True) -> None:
        self.say(f"this game saves to {self.save_path} every round, on quit and on Ctrl-C",
                 "dim")
        if self.resumed is not None:  # the fight so far, as the log had it when it stopped
            for e in self.b.log:
                self.say(e.text())
            self.say(f"resumed from {self.resumed}", "bold")
        self.order()  # the turn order with every roll, as the line games begin
        self.events()
        self.say_phase()
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
        or the player's when the game answers it (Game.auto: one legal action, the
        orders of the last answer, a table rule), taken and logged as such. False when
        the player has a real choice, or the fight is over."""
        b = self.b
        if b.over:
            return False
        dec = self.rs.decider(b)
        if not self.human_decides():
            self.npc_turn(b.combatants[dec.combatant].side, dec.combatant)
        elif not self.auto(dec.combatant):
            return False
        self.events()
        self.autosave()
        return True

    def needs_player(self) -> bool:
        """Whether the player has a choice to make now."""
        return self.human_decides() and self._auto_now() is None

    def _auto_now(self) -> tuple[Action, str] | None:
        """auto_answer, worked out once per decision (the screen asks often)."""
        key = (id(self.b), len(self.b.moves), id(self.orders), str(self.b.session.get("options")))
        if self._auto_key != key:
            self._auto_key, self._auto = key, self.auto_answer()
        return self._auto

    def advance(self) -> None:
        """The decisions up to the player's next real choice, or the end."""
        while self.step():
            pass

    def choose(self, answer: Action | Answer, advance: bool = True) -> None:
        """The player's decision (an action, or an answer with its extras, orders.py):
        applied, then (``advance``) the NPCs until the player's next one. Raises
        OrderError when the extras do not fit (nothing is taken)."""
        if isinstance(answer, Action):
            answer = Answer(answer)
        slot = self.decision().combatant
        mark = Mark(len(self.b.moves), {side: rng_snapshot(a) for side, a in self.npcs.items()},
                    copy.deepcopy(self.orders))
        self.answer(slot, answer, f"> {answer.said(self.b, slot)}")
        self.marks.append(mark)
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
        self.replaced(saves.rewind(self.b, history[:mark.moves]))
        for side, snap in mark.agents.items():
            restore_agent(self.npcs[side], snap)
        self.orders = mark.orders
        self.shown = len(self.b.log)
        self.saved_round = self.b.round
        self.save(quiet=True)
        return f"undone: {undone}"

    def ai_buy(self, action: Action, aim: bool) -> tuple[int, str] | None:
        """What the AI would buy with attack ``action`` (orders.ai_buy), once per
        decision and attack."""
        key = (id(self.b), len(self.b.moves), action, aim)
        if key not in self._buys:
            if len(self._buys) > 64:
                self._buys.clear()
            self._buys[key] = ai_buy(self.b, self.rs, self.decision().combatant, action, aim)
        return self._buys[key]

    def default_answer(self) -> tuple[Answer, str]:
        """What the d key takes: the AI's choice, as one answer (orders.py): when the AI
        would aim and then attack, and the aim rule lets an attack aim first, the attack
        that follows its Aim (worked out on the battle and put back, the advisor's random
        state too, so the same attack is made)."""
        action, why = self.suggestion()
        b, rs = self.b, self.rs
        slot = self.decision().combatant
        if action.kind != "aim" or not aims_first(b, rs, slot, Action("attack", 0)):
            return Answer(action), why
        key = (id(b), len(b.moves))
        if self._compound is not None and self._compound[0] == key:
            return self._compound[1], self._compound[2]
        snap = (b.state(), len(b.log), len(b.moves))
        rng = rng_snapshot(self._advisor)
        try:
            rs.apply(b, action)
            then = self._advisor.act(self._view()) if rs.decider(b).combatant == slot else None
            then_why = str(self._advisor.last_reason)
        finally:
            b.restore(snap[0])
            del b.log[snap[1]:]
            del b.moves[snap[2]:]
            restore_agent(self._advisor, rng)
        out = (Answer(action), why)
        if then is not None and then.kind in ATTACKS and aims_first(b, rs, slot, then):
            out = (Answer(then), then_why)
        self._compound = (key, *out)
        return out

    def aims(self, answer: Answer) -> bool:
        """Whether ``answer`` aims first (orders.aims_first, at this decision)."""
        return aims_first(self.b, self.rs, self.decision().combatant, answer.action,
                          answer.aim)
