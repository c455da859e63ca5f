"""`wasteland gm`: run an encounter at the table.

The party's actions are typed in, as in play (a number, the notation with words
shortened, the plain words; 2d20's +N, aim, keep; the decisions play answers for the
player are answered here too). Every NPC's choice is proposed first, with its reason (by
its AI packet, or the agent --ai or the scenario names: a trained policy says "policy
NAME: ..."), together with the rest of its turn up to the next roll, and the GM accepts
it all with one Enter, or lists the numbered alternatives (? or alts) and picks one. An
NPC decision with one legal action is taken without asking. With physical dice the
engine asks for each roll a party member makes instead of rolling it, and says first what
the roll is for (cli/dice_prompts.py). Commands at any
prompt: help [ACTION], hint, look, undo (the last action, arrival or correction; at a
dice prompt, the action being rolled for), add CREATURE X Y SIDE (a newcomer), the
corrections hp, place, remove and condition (wasteland/rules/edits.py), save [FILE],
quit (saves), order (the turn order: every initiative or sequence roll, its modifier and
how ties were broken; also printed before the first decision and where a newcomer
joins). Input may be piped in, so a session can be scripted. The session saves
itself as play does; the dice typed in and the newcomers are part of its history.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from rich.console import Console

from wasteland.agents.base import Agent, View
from wasteland.agents.loop import checked, play
from wasteland.rules import saves
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.edits import WORDS as EDITS
from wasteland.rules.edits import apply_edit
from wasteland.rules.errors import WastelandError
from wasteland.rules.newcomers import join
from wasteland.rules.savefile import check_writable
from wasteland.rules.words import plainly

from .dice_prompts import Quit, TakeBack, ask_faces
from .game import WINDOWS, Game
from .orders import Answer
from .prompt import ChoiceError
from .session import restore_agent
from .thinking import level_of, listening

if TYPE_CHECKING:
    from .play import GameSetup

ACCEPT = ("", "ok", "y", "yes")
ALTS = ("?", "alts")
MAX_PLAN = 12  # decisions planned ahead in one proposal

HELP = ("Party turns: a number, or the action (words may be shortened), or goto X Y to "
        "move to a square (reach lists them); the rest of the turn after ';'; 2d20: +N, "
        "aim, noaim, keep as in play (Simple: keep); with --physical-dice, the action's dice may follow "
        "after '/' (attack rad / 544 / 22: the groups its roll's prompt lists). NPC "
        "turns: Enter accepts the proposal (the NPC's actions up to its next roll), ? or "
        "alts lists its other choices numbered, a number or another action overrides it. "
        "Commands: help, look, undo (also at a dice prompt: the action being rolled for is "
        "not taken), hint, help ACTION (what it does), odds (the party's chances from "
        "here), order (the turn order, its rolls and ties), add CREATURE X Y SIDE, "
        "hp NAME +N|-N, place NAME X Y, remove NAME [dead|unconscious], "
        "condition NAME WHAT [off] (each logged and undoable), save [FILE], quit (saves).")


class GmSession(Game):
    undo_at_dice = True  # undo at a dice prompt takes back the action being rolled for

    # --- commands ------------------------------------------------------------------------
    help_text = HELP

    def command(self, line: str) -> str | None:
        """The play commands, plus undo and add."""
        word = line.split()[0].lower() if line else ""
        if word in ALTS:
            self.alternatives()
        elif word == "add":
            try:
                self.add(line.split()[1:])
            except TakeBack:  # undo while a newcomer's initiative was rolled
                self.say("undone: the arrival under way", "bold")
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

    def undo(self) -> str:
        """The last action of anyone, arrival or correction (undo_last)."""
        return self.undo_last()

    def undoable(self, move: object) -> bool:
        """Undo takes back the last action of anyone, or an arrival or a correction, with
        the dice rolled for it; passing over the decisions taken without asking."""
        return not (isinstance(move, str) and move.startswith("@dice "))

    def asks(self, b: Battle) -> bool:
        if b.over:
            return False
        if b.combatants[self.rs.decider(b).combatant].side in self.humans:
            return super().asks(b)
        return len(self.rs.legal_actions(b)) > 1

    def alternatives(self) -> None:
        """The decision's legal actions, numbered (what a number typed now names)."""
        if self.menu is None or self.b.over:
            self.say("no decision to list", "red")
            return
        slot, phase, legal, labels, _ = self.menu
        dec = self.rs.decider(self.b)
        npc = self.b.combatants[slot].side not in self.humans
        self.show_choices(slot, phase, dec.reaction, legal, labels,
                          verb="could" if npc else "decides")

    def rebuild(self, history: list[str]) -> Battle:
        """This fight replayed from its seed up to ``history``; it becomes the session's."""
        self.replaced(saves.rewind(self.b, history))
        b = self.b
        b.roll_note = ""  # a replay's notes were for rolls already made
        self.shown = len(b.log)
        return b

    def add(self, args: list[str]) -> None:
        if len(args) != 4 or not all(a.isascii() and a.isdigit() for a in args[1:3]):
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
    def seats(self) -> list[Agent | None]:
        """None for everyone: each NPC decision is proposed, and the GM answers it."""
        return [None] * len(self.b.combatants)

    def loop(self) -> int:
        while (dec := self.next_decision()) is not None:
            actor = self.b.combatants[dec.combatant]
            taken = False
            try:
                if actor.side in self.humans:
                    taken = self.auto(actor.slot)
                    stop = None if taken else self.human_turn(actor.slot, dec.slot,
                                                              dec.reaction)
                else:
                    stop = self.npc_decision(dec.combatant, dec.slot)
            except TakeBack as e:  # at a dice prompt: the battle is as before the action
                # a party decision the game took would be taken again: back to the last
                # one asked
                self.say(self.undo() if taken else str(e), "bold")
                continue
            if stop is not None:
                return self.stop(stop)
            self.events()
            self.autosave()
        return self.finish()

    def answer(self, slot: int, answer: Answer, echo: str | None = None,
               then: tuple[str, ...] = ()) -> None:
        try:
            super().answer(slot, answer, echo, then)
        except TakeBack:
            self.taken_back(slot, answer.action)

    def taken_back(self, slot: int, action: Action) -> NoReturn:
        who = self.b.ids[slot]
        raise TakeBack(f"undone: {who}: {plainly(self.b, action, slot)} (not taken); {who} "
                       f"decides again") from None

    def npc_decision(self, slot: int, phase: str) -> str | None:
        """An NPC's decision: taken at once when it has one legal action; else its
        proposal shown first (with what its side does next, up to the next roll or a
        party member's decision), then the GM's answer: Enter takes it all. The reason
        to stop, when the GM quits or the input ends."""
        b, rs = self.b, self.rs
        actor = b.combatants[slot]
        legal = rs.legal_actions(b)
        if len(legal) == 1:
            self.say(f"  {actor.id}: {plainly(b, legal[0], slot, phase)} (the only choice)", "dim")
            self.apply(legal[0])
            return None
        self.end_line()  # a decision is asked: the dice of the last action are all in
        npc = self.npc_for(actor.side)
        plan = self.plan(npc, slot, side_wide=True)
        labels = [a.text(b.ids, slot) for a in legal]
        self.set_menu(slot, phase, legal, labels)

        def named(who: int, a: Action) -> str:  # another combatant's part says whose
            words = plainly(b, a, who, phase if a is plan[0][1] else None)
            return words if who == slot else f"{b.ids[who]}: {words}"

        # the reasons first, so that the proposal and what to type end the output
        self.say(f"  {actor.id}'s AI: " + "; ".join(
            f"{named(who, a)}: {why}" for who, a, why in plan), "dim")
        said = ", then ".join(named(who, a) for who, a, _ in plan)
        self.say(f"  {actor.id} proposes: {said} - Enter accepts; ? lists its "
                 f"{len(legal)} choices; or type one", "cyan")
        while True:
            line = self.read()
            if line is None:
                return "input ended."
            if line.lower() in ACCEPT:
                for i, (who, a, _) in enumerate(plan):
                    if i and (self.b.over or rs.decider(self.b).combatant != who
                              or a not in rs.legal_actions(self.b)):
                        break  # a roll at the table went otherwise than planned
                    try:
                        self.apply(a)
                    except TakeBack:
                        self.taken_back(who, a)
                    if i < len(plan) - 1:
                        self.events()
                self.pending = None
                self.take_windows(npc, actor.side)
                return None
            done = self.command(line)
            if done == "quit":
                return "quit."
            if done == "done":
                if self.b is not b or b.over or rs.decider(b).combatant != slot or (
                        rs.legal_actions(b) != legal):
                    self.forget(npc)
                    return None  # undo or a newcomer made it another decision
                continue
            try:
                action = self.pick(line)
            except ChoiceError as e:
                self.say(f"{e} (help for commands)", "red")
                continue
            self.forget(npc)
            try:
                self.apply(action)
            except TakeBack:
                self.taken_back(slot, action)
            self.pending = None
            self.take_windows(npc, actor.side)
            return None

    def take_windows(self, npc: Agent, side: int) -> None:
        """2d20: the windows right after an NPC's action that its side decides (the d20s
        it buys, the combat dice it adds after a hit, a defence it pays for) go with the
        proposal: its agent decides each, and each is said with its reason; undo takes
        one back, and the window is then proposed on its own."""
        b, rs = self.b, self.rs

        def past(b: Battle) -> bool:  # no longer a window of this side's
            dec = rs.decider(b)
            if (b.combatants[dec.combatant].side != side or dec.slot not in WINDOWS
                    or dec.reaction is not None):
                return True
            self.events()
            return False

        def take(view: View, npc: Agent, a: Action) -> None:
            slot = view.decision.combatant
            why = "the only choice" if len(view.legal_ids) == 1 else str(npc.last_reason)
            self.say(f"  {b.ids[slot]}: {plainly(b, a, slot)} ({why})", "cyan")
            try:
                self.apply(a)
            except TakeBack:
                self.taken_back(slot, a)

        n = len(b.combatants)
        play(rs, b, [npc] * n, forced=[True] * n, stop=past, apply=take)

    def forget(self, npc: Agent) -> None:
        """The NPC's agent as it was before it was asked: its proposal was not taken."""
        if self.pending is not None:
            restore_agent(npc, self.pending[1])

    def plan(self, npc: Agent, slot: int, side_wide: bool = False
             ) -> list[tuple[int, Action, str]]:
        """What ``npc`` (the agent of the combatant in ``slot``) proposes, as (who, action,
        why): its choice now and, while that rolls no die and the next decision is the
        same combatant's (``side_wide``: any combatant's of its side that the same agent
        plays), the next ones. Worked out on the battle and put back: no die is rolled,
        nothing is logged; the agent keeps the random state it would have after deciding
        them, so accepting them takes the same actions."""
        b, rs = self.b, self.rs
        side = b.combatants[slot].side
        if self.thinking is not None:  # the whole proposal is one wait for the GM
            self.thinking.begin(b.ids[slot], level_of(npc))
        with listening(npc, self.thinking):
            plan = [(slot, npc.act(self._view()), str(npc.last_reason))]
            snap = (b.state(), len(b.log), len(b.moves))
            seen = self.memory.copy()  # what it sees of the moves after: put back too
            hook = b.dice_hook
            rolled: list[int] = []

            def spy(who: int, sides: int, n: int, why: str) -> list[int] | None:
                rolled.append(who)
                return None

            def decide(view: View, npc: Agent) -> Action | None:
                who = view.decision.combatant
                if self.thinking is not None:
                    self.thinking.deciding(b.ids[who])
                a = npc.act(view)
                plan.append((who, a, str(npc.last_reason)))
                return a if len(plan) < MAX_PLAN else None  # the last is not played out

            # the seats of those it plans for; the others' are empty, and stop it there
            seats: list[Agent | None] = [
                npc if c.slot == slot or (side_wide and c.side == side) else None
                for c in b.combatants]
            b.dice_hook = spy
            try:
                rs.apply(b, plan[0][1])
                play(rs, b, seats, decide=decide, apply=checked(rs), stop=lambda b: bool(rolled))
            finally:
                b.dice_hook = hook
                b.restore(snap[0])
                self.memory.replace(seen)
                del b.log[snap[1]:]
                del b.moves[snap[2]:]
        return plan


def start_gm(setup: GameSetup, console: Console, lines: Iterator[str]) -> int:
    """A GM's session of ``setup`` (whose ``side`` is the party), begun or resumed, run
    until it ends; the exit code."""
    from .play import begin_at_table, seed_said

    o, seed, resume = setup, setup.seed, setup.resume
    options = {"ruleset": o.ruleset, "scenario": o.scenario, "party": o.side, "seed": seed,
               "physical_dice": o.physical_dice, "character": o.character,
               "enemies": o.enemies, "ai": o.ai}

    path = o.save_to or resume or Path("wasteland-gm.json")
    check_writable(path)  # before the set-up rolls: a session that cannot be saved is not begun
    b = begin_at_table("gm", options, resume, console, lines, side_option="party")
    if isinstance(b, int):
        return b  # quit during the set-up rolls
    b.session["options"].setdefault("physical_dice", False)
    return seed_said(GmSession(b, console, lines, path, resume), seed, resume).run()


# Quit, TakeBack and ask_faces lived here before cli/dice_prompts.py; still importable
__all__ = ["GmSession", "Quit", "TakeBack", "ask_faces", "start_gm"]
