"""`wasteland gm`: run an encounter at the table.

The party's actions are typed in; every NPC's choice is proposed with its reason (by its
AI packet, or the agent --ai or the scenario names: a trained policy says "policy NAME:
...") and the GM accepts it (Enter), or picks another from the numbered alternatives
shown with it. With physical dice the engine asks for each roll a party member makes
instead of rolling it, and says first what the roll is against (target number, modifiers,
what the dice must reach). Commands at any prompt: help, look, undo (the last action or
arrival; at a dice prompt, the action being rolled for), add CREATURE X Y SIDE (a
newcomer), the corrections hp, place, remove and condition (wasteland/rules/edits.py),
save [FILE], quit (saves). Input may be piped in, so a session can be
scripted. The session saves itself as play does; the dice typed in and the newcomers are
part of its history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console

from wasteland.bestiary.models import Scenario
from wasteland.rules import saves
from wasteland.rules.battle import Battle, DiceHook
from wasteland.rules.edits import WORDS as EDITS
from wasteland.rules.edits import apply_edit
from wasteland.rules.errors import WastelandError, clip
from wasteland.rules.newcomers import join
from wasteland.rules.setup import scenario_ids

from .game import INTERRUPTED, Game
from .prompt import ChoiceError, choose

HELP = ("Party turns: a number, or the action (words may be shortened), or goto X Y to "
        "move to a square (reach lists them). NPC turns: Enter "
        "accepts the proposal, or a number from its list or another action overrides it. "
        "Commands: help, look, undo (also at a dice prompt: the action being rolled for is "
        "not taken), odds (the party's chances from here), add CREATURE X Y SIDE, "
        "hp NAME +N|-N, place NAME X Y, remove NAME [dead|unconscious], "
        "condition NAME WHAT [off] (each logged and undoable), save [FILE], quit (saves).")


class Quit(Exception):
    """The GM quit, or the input ended, in the middle of a roll; the message says which."""


class TakeBack(Exception):
    """The GM typed undo at a dice prompt: the action being rolled for is not taken."""


def ask_faces(say: Callable[[str, str | None], None], read: Callable[[], str | None],
              name: str, sides: int, n: int, why: str, note: str = "",
              undo: bool = True) -> list[int]:
    """The faces of ``n`` real dice of ``sides`` faces rolled for ``name``, asked until
    they make sense; ``note`` says first what the roll is against. Quit or the end of the
    input raise Quit; undo raises TakeBack (or, with nothing to take back, is refused)."""
    if note:
        say(f"  {note}", "yellow")
    while True:
        say(f"Roll {n}d{sides} for {name} ({why}): type {n} number"
            f"{'s' if n > 1 else ''} from 1 to {sides}", "bold")
        line = read()
        if line is not None and line.lower() == "undo":
            if undo:
                raise TakeBack()
            say("nothing to undo before the fight starts", "red")
            continue
        if line is None or line.lower() in ("quit", "exit"):
            raise Quit("input ended during a roll; the action was not taken."
                       if line is None else "quit during a roll; the action was not taken.")
        try:
            faces = [int(x) for x in line.replace(",", " ").split()]
        except ValueError:
            faces = []
        if len(faces) == n and all(1 <= f <= sides for f in faces):
            return faces
        say(f"need {n} whole number{'s' if n > 1 else ''} from 1 to {sides}, "
            f"e.g. {' '.join(['4'] * n)}" + (" (undo takes the action back)" if undo else ""),
            "red")


class GmSession(Game):
    def __init__(self, battle: Battle, console: Console, lines: Iterator[str],
                 save_path: Path, resumed: Path | None = None) -> None:
        super().__init__(battle, console, lines, save_path, resumed)
        if battle.session["options"].get("physical_dice"):
            battle.dice_hook = self.ask_dice

    # --- input ---------------------------------------------------------------------------
    def read(self) -> str | None:
        try:
            line = next(self.lines)
        except StopIteration:
            return None
        self.say(f"> {clip(line)}", "dim")
        return line.strip()

    def ask_dice(self, who: int, sides: int, n: int, why: str) -> list[int] | None:
        # what the rules said this roll is against belongs to this roll only
        note, self.b.roll_note = self.b.roll_note, ""
        if who < 0 or self.b.combatants[who].side not in self.humans:
            return None  # NPC and engine rolls stay with the battle's dice
        return ask_faces(self.say, self.read, self.b.ids[who], sides, n, why, note)

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

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        try:
            return super().run()
        except Quit as q:
            return self.stop(str(q))

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
    from .play import begin

    options = {"ruleset": ruleset, "scenario": scenario, "party": party, "seed": seed,
               "physical_dice": physical_dice, "character": character, "enemies": enemies,
               "ai": ai}

    def read() -> str | None:
        line = next(lines, None)
        if line is not None:
            console.print(f"> {clip(line)}", style="dim", highlight=False, markup=False)
        return None if line is None else line.strip()

    def say(text: str, style: str | None = None) -> None:
        console.print(text, style=style, highlight=False, markup=False)

    def table_dice(sc: Scenario, party: int) -> DiceHook:
        """The party's rolls at set-up (initiative, sequence) asked at the table."""
        ids = scenario_ids(sc)
        side_of = [si for si, side in enumerate(sc.sides) for _ in side.combatants]

        def ask(who: int, sides: int, n: int, why: str) -> list[int] | None:
            if who < 0 or who >= len(side_of) or side_of[who] != party:
                return None
            return ask_faces(say, read, ids[who], sides, n, why, undo=False)
        return ask

    try:
        b = begin("gm", options, resume, side_option="party",
                  dice_hook_for=table_dice if physical_dice else None)
    except Quit as q:
        why = "input ended" if str(q).startswith("input ended") else "quit"
        say(f"{why} during the set-up rolls; nothing was saved: the fight had not started.")
        return 0
    except KeyboardInterrupt:
        say("interrupted during the set-up rolls; nothing was saved: the fight had not "
            "started.")
        return INTERRUPTED
    b.session["options"].setdefault("physical_dice", False)
    path = save_path or resume or Path("wasteland-gm.json")
    return GmSession(b, console, lines, path, resume).run()
