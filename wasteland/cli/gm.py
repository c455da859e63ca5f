"""`wasteland gm`: run an encounter at the table.

The party's actions are typed in; every NPC's choice is proposed with its reason (by its
AI packet, or the agent --ai or the scenario names: a trained policy says "policy NAME:
...") and the GM accepts it (Enter), or picks another from the numbered alternatives
shown with it. The turn order (every initiative or sequence roll, its modifier and how
ties were broken) is printed before the first decision, where a newcomer joins, and on
`order`. With physical dice the engine asks for each roll a party member makes instead of
rolling it, and says first what the roll is for (cli/dice_prompts.py). Commands at any
prompt: help, look, order, undo (the last action or
arrival; at a dice prompt, the action being rolled for), add CREATURE X Y SIDE (a
newcomer), the corrections hp, place, remove and condition (wasteland/rules/edits.py),
save [FILE], quit (saves). Input may be piped in, so a session can be
scripted. The session saves itself as play does; the dice typed in and the newcomers are
part of its history.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rich.console import Console

from wasteland.rules import saves
from wasteland.rules.battle import Battle
from wasteland.rules.edits import WORDS as EDITS
from wasteland.rules.edits import apply_edit
from wasteland.rules.errors import WastelandError
from wasteland.rules.newcomers import join

from .dice_prompts import Quit, TakeBack, ask_faces
from .game import Game
from .prompt import ChoiceError, choose

HELP = ("Party turns: a number, or the action (words may be shortened), or goto X Y to "
        "move to a square (reach lists them). NPC turns: Enter "
        "accepts the proposal, or a number from its list or another action overrides it. "
        "Commands: help, look, undo (also at a dice prompt: the action being rolled for is "
        "not taken), odds (the party's chances from here), order (the turn order, its rolls "
        "and ties), add CREATURE X Y SIDE, "
        "hp NAME +N|-N, place NAME X Y, remove NAME [dead|unconscious], "
        "condition NAME WHAT [off] (each logged and undoable), save [FILE], quit (saves).")


class GmSession(Game):
    undo_at_dice = True  # undo at a dice prompt takes back the action being rolled for

    # --- commands ------------------------------------------------------------------------
    help_text = HELP

    def command(self, line: str) -> str | None:
        """The play commands, plus undo and add."""
        word = line.split()[0].lower() if line else ""
        if word == "undo":
            self.undo()
        elif word == "add":
            self.add(line.split()[1:])
        elif word in EDITS:
            try:
                apply_edit(self.b, self.rs, line)
            except WastelandError as e:
                self.say(str(e), "red")
                return "done"
            self.events()
            self.save(quiet=True)  # a correction is saved at once, not with the round
        else:
            return super().command(line)
        return "done"

    def undo(self) -> None:
        """Take back the last action or arrival (with the dice rolled for it) by replaying
        the history without it: works across save and resume, and leaves the dice where
        they were."""
        history = self.b.history
        last = next((i for i in range(len(history) - 1, -1, -1)
                     if not history[i].startswith("@dice ")), None)
        if last is None:
            self.say("nothing to undo", "red")
            return
        b = self.rebuild(history[:last])
        self.say(f"undone: {history[last]}; {b.ids[self.rs.decider(b).combatant]} decides "
                 f"again", "bold")

    def rebuild(self, history: list[str]) -> Battle:
        """This fight replayed from its seed up to ``history``; it becomes the session's."""
        self.b = b = saves.rewind(self.b, history)
        b.roll_note = ""  # a replay's notes were for rolls already made
        self.shown = len(b.log)
        return b

    def add(self, args: list[str]) -> None:
        if len(args) != 4 or not (args[1].isdigit() and args[2].isdigit()):
            self.say("usage: add CREATURE X Y SIDE (e.g. add raider 10 3 1)", "red")
            return
        before = self.b.history
        try:
            join(self.b, args[0], (int(args[1]), int(args[2])), args[3])
        except WastelandError as e:
            self.say(str(e), "red")
            return
        except BaseException:  # Ctrl-C or quit while rolling its initiative: it never came
            self.rebuild(before)
            raise
        self.events()
        self.order(joined=len(self.b.combatants) - 1)  # where the newcomer comes in

    # --- the loop ------------------------------------------------------------------------
    def loop(self) -> int:
        while not self.b.over:
            dec = self.rs.decider(self.b)
            actor = self.b.combatants[dec.combatant]
            legal = self.rs.legal_actions(self.b)
            labels = [a.text(self.b.ids, actor.slot) for a in legal]
            if actor.side in self.humans:
                self.show_choices(actor.slot, dec.slot, dec.reaction, legal, labels)
                proposal = self.pending = None
            else:
                npc = self.npc_for(actor.side)
                proposal = npc.act(self._view())
                # the alternatives come first, so a number typed here names one the GM saw
                self.show_choices(actor.slot, dec.slot, dec.reaction, legal, labels,
                                  verb="could")
                self.say(f"  {actor.id} proposes: {proposal.text(self.b.ids, actor.slot)} "
                         f"({npc.last_reason}) - Enter to accept, or a number or another "
                         f"action", "cyan")
            while True:
                line = self.read()
                if line is None:
                    return self.stop("input ended.")
                if proposal is not None and line.lower() in ("", "ok", "y", "yes"):
                    action = proposal
                else:
                    try:
                        done = self.command(line)
                    except TakeBack:  # undo while a newcomer's initiative was rolled
                        self.say("undone: the arrival under way", "bold")
                        continue
                    if done == "quit":
                        return self.stop("quit.")
                    if done == "done":
                        if self.b.over or self.rs.decider(self.b) != dec or (
                                self.rs.legal_actions(self.b) != legal):
                            break  # undo or a newcomer changed whose decision it is
                        continue
                    try:
                        action = choose(line, legal, labels, self.b, self.rs)
                    except ChoiceError as e:
                        self.say(f"{e} (help for commands)", "red")
                        continue
                try:
                    self.apply(action)
                except TakeBack:  # the battle is as it was before the action
                    self.say(f"undone: {actor.id}: {action.text(self.b.ids, actor.slot)} "
                             f"(not taken); {actor.id} decides again", "bold")
                    break
                self.pending = None
                self.events()
                self.autosave()
                break
        return self.finish()


def start_gm(ruleset: str | None, scenario: str | None, party: str | None, seed: int | None,
             resume: Path | None, save_path: Path | None, console: Console,
             lines: Iterator[str], physical_dice: bool = False, character: str | None = None,
             enemies: str | None = None, ai: str | None = None) -> int:
    from .play import begin_at_table

    options = {"ruleset": ruleset, "scenario": scenario, "party": party, "seed": seed,
               "physical_dice": physical_dice, "character": character, "enemies": enemies,
               "ai": ai}

    b = begin_at_table("gm", options, resume, console, lines, side_option="party")
    if isinstance(b, int):
        return b  # quit during the set-up rolls
    b.session["options"].setdefault("physical_dice", False)
    path = save_path or resume or Path("wasteland-gm.json")
    return GmSession(b, console, lines, path, resume).run()


# Quit, TakeBack and ask_faces lived here before cli/dice_prompts.py; still importable
__all__ = ["GmSession", "Quit", "TakeBack", "ask_faces", "start_gm"]
