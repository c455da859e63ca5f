"""`wasteland gm`: run an encounter at the table.

The party's actions are typed in; every NPC's choice is proposed with its reason and the
GM accepts it (Enter), or types another legal action to override it. With physical dice
the engine asks for each roll a party member makes instead of rolling it. Commands at any
prompt: help, look, undo (the last action), add CREATURE X Y SIDE (a newcomer), save [FILE],
quit (saves). Input may be piped in, so a session can be scripted.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.newcomers import join

from .play import Game
from .prompt import ChoiceError, match

HELP = ("Party turns: a number, or the action (words may be shortened). NPC turns: Enter "
        "accepts the proposal, or type another action to override. Commands: help, look, "
        "undo, add CREATURE X Y SIDE, save [FILE], quit (saves).")


class Quit(Exception):
    """The GM quit, or the input ended, in the middle of a roll."""


class GmSession(Game):
    def __init__(self, battle: Battle, party: set[int], console: Console, lines: Iterator[str],
                 save_path: Path, physical_dice: bool = False) -> None:
        super().__init__(battle, party, console, lines, save_path)
        self.undo_stack: list[tuple[dict[str, Any], int, int]] = []
        if physical_dice:
            battle.dice_hook = self.ask_dice

    # --- input ---------------------------------------------------------------------------
    def read(self) -> str | None:
        try:
            line = next(self.lines)
        except StopIteration:
            return None
        self.say(f"> {line.strip()}", "dim")
        return line.strip()

    def ask_dice(self, who: int, sides: int, n: int, why: str) -> list[int] | None:
        if who < 0 or self.b.combatants[who].side not in self.humans:
            return None  # NPC and engine rolls stay with the battle's dice
        name = self.b.ids[who]
        while True:
            self.say(f"Roll {n}d{sides} for {name} ({why}): type {n} number"
                     f"{'s' if n > 1 else ''} from 1 to {sides}", "bold")
            line = self.read()
            if line is None or line.lower() in ("quit", "exit"):
                raise Quit
            try:
                faces = [int(x) for x in line.replace(",", " ").split()]
            except ValueError:
                faces = []
            if len(faces) == n and all(1 <= f <= sides for f in faces):
                return faces
            self.say(f"need {n} whole number{'s' if n > 1 else ''} from 1 to {sides}, "
                     f"e.g. {' '.join(['4'] * n)}", "red")

    # --- commands ------------------------------------------------------------------------
    help_text = HELP

    def command(self, line: str) -> str | None:
        """The play commands, plus undo and add."""
        word = line.split()[0].lower() if line else ""
        if word == "undo":
            self.undo()
        elif word == "add":
            self.add(line.split()[1:])
        else:
            return super().command(line)
        return "done"

    def undo(self) -> None:
        if not self.undo_stack:
            self.say("nothing to undo", "red")
            return
        state, n_log, n_moves = self.undo_stack.pop()
        self.b.restore(state)
        del self.b.log[n_log:]
        del self.b.moves[n_moves:]
        self.shown = len(self.b.log)
        self.say(f"undone; {self.b.ids[self.rs.decider(self.b).combatant]} decides again", "bold")

    def add(self, args: list[str]) -> None:
        if len(args) != 4 or not (args[1].isdigit() and args[2].isdigit()):
            self.say("usage: add CREATURE X Y SIDE (e.g. add raider 10 3 1)", "red")
            return
        try:
            join(self.b, args[0], (int(args[1]), int(args[2])), args[3])
        except WastelandError as e:
            self.say(str(e), "red")
            return
        self.undo_stack.clear()  # an arrival is not undone; earlier snapshots lack it
        self.events()

    def apply(self, action: Action) -> bool:
        """Apply with an undo snapshot; False if the GM quit during a roll (then the
        battle is as it was before the action)."""
        snap = (self.b.state(), len(self.b.log), len(self.b.moves))
        try:
            self.rs.apply(self.b, action)
        except Quit:
            self.b.restore(snap[0])
            del self.b.log[snap[1]:]
            del self.b.moves[snap[2]:]
            return False
        self.undo_stack.append(snap)
        return True

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        self.look()
        self.events()
        while not self.b.over:
            dec = self.rs.decider(self.b)
            actor = self.b.combatants[dec.combatant]
            legal = self.rs.legal_actions(self.b)
            labels = [a.text(self.b.ids, actor.slot) for a in legal]
            if actor.side in self.humans:
                self.show_choices(actor.slot, dec.slot, dec.reaction, labels)
                proposal = None
            else:
                proposal = self.npc.act(self._view())
                self.say(f"  {actor.id} proposes: {proposal.text(self.b.ids, actor.slot)} "
                         f"({self.npc.last_reason}) - Enter to accept, or another action",
                         "cyan")
            while True:
                line = self.read()
                if line is None:
                    self.say("input ended.")
                    self.save(self.save_path)
                    return 0
                if proposal is not None and line.lower() in ("", "ok", "y", "yes"):
                    action = proposal
                else:
                    done = self.command(line)
                    if done == "quit":
                        self.save(self.save_path)
                        return 0
                    if done == "done":
                        if self.b.over or self.rs.decider(self.b) != dec or (
                                self.rs.legal_actions(self.b) != legal):
                            break  # undo or a newcomer changed whose decision it is
                        continue
                    try:
                        action = match(line, legal, labels)
                    except ChoiceError as e:
                        self.say(f"{e} (help for commands)", "red")
                        continue
                if not self.apply(action):
                    self.say("quit during a roll; the action was not taken.")
                    self.save(self.save_path)
                    return 0
                self.events()
                break
        return self.finish()


def start_gm(ruleset: str, scenario: str, party: str, seed: int, resume: Path | None,
             save_path: Path, console: Console, lines: Iterator[str],
             physical_dice: bool = False, character: str | None = None,
             enemies: str | None = None) -> int:
    from .play import begin

    b, humans = begin(ruleset, scenario, party, seed, resume, character, enemies)
    return GmSession(b, humans, console, lines, save_path, physical_dice).run()
