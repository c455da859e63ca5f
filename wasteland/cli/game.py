"""A game at the table, shared by the line game (`wasteland play`), the GM tool (cli/gm.py)
and the full-screen game (wasteland/tui/game.py): the battle, the NPC agents and how they
take their turn, the player's answers, the commands, saving and autosave.

It lives apart from play.py because play.py starts the full-screen game, which builds on
this class: neither of the two imports the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from wasteland.agents.base import Agent, View, kind_of, share_memory
from wasteland.agents.loop import play
from wasteland.agents.make import make_agent
from wasteland.observe.memory import Memory, load_part
from wasteland.observe.memory import parts as memory_parts
from wasteland.rules import saves
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import SaveError, WastelandError, clip
from wasteland.rules.events import Event
from wasteland.rules.protocol import Decision, Ruleset
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.textmap import render_text
from wasteland.rules.turnorder import order_lines
from wasteland.rules.words import coded, entry, explain, kind_name, label, plain_move, plainly

from .dice_ahead import DiceLine, Roll, foresee, play_out, split_dice, windows_of
from .dice_prompts import Quit, RollAsk, ask_faces
from .menu import goto_hint, labelled, layout, menu_order, orders_hint, reach_text
from .orders import (
    SAVED_ORDERS,
    Answer,
    OrderError,
    Orders,
    auto_answer,
    following,
    load_orders,
    set_rule,
    split_extras,
)
from .orders import begin as begin_orders
from .phases import header, headers_since, phase_of
from .prompt import ChoiceError, choose, echoes, match
from .session import agent_record, choose_save_path, restore_agent, rng_snapshot
from .thinking import LineStatus, Thinking, level_of, listening

HELP = ("Type the number of an action, or the action itself (words may be shortened: "
        "'att rad he'), or its plain words ('pistol whip rad'), or goto X Y to move to a square "
        "(the map's coordinates); the rest of the turn may follow after ';' "
        "('move toward rad; attack rad').\n"
        "2d20: an answer may add +N (d20s to buy for the attack: 1, 3, 6 AP), aim or noaim "
        "(aim first, or not), keep (the turn goes on after it): 'att rad +1 keep', '18 +2'.\n"
        "Simple: the move phase ends once the move is spent; keep goes on after it "
        "('move toward rad keep', then prone).\n"
        "Commands: help, look (map and status), help ACTION (what an action does), reach "
        "(the squares a goto reaches now), hint (what the AI would do in your place, and why; "
        "Enter then takes it), undo (take back your last decision), "
        "odds (your side's chances from here, about a second), order (the turn order and "
        "its rolls), save [FILE], quit (saves).\n"
        "set [NAME VALUE]: the table rules that answer for you (buy, boost, aim, end); "
        "set ask: be asked every question, set auto: the defaults.")
INTERRUPTED = 130  # the shell's code for Ctrl-C
WINDOWS = ("dice", "boost", "defend")  # 2d20's windows: no typed part of a turn answers them
ASKED_AT = "asked_at"  # the session option that keeps where the player was asked
MARKS = 64


class Game:
    def __init__(self, battle: Battle, console: Console, lines: Iterator[str],
                 save_path: Path, resumed: Path | None = None) -> None:
        self.b = battle
        self.rs: Ruleset = get_ruleset(battle.ruleset)
        self.humans = set(battle.session["humans"])
        self.console = console
        self.lines = lines
        self.npcs = npc_agents(battle)
        # what the combatants have seen (observe/memory.py): the NPC agents that observe
        # share it, the save keeps it, an undo (a battle replayed anew) starts it again
        self.memory = load_part(resumed, battle) if resumed is not None else Memory()
        share_memory(self.npcs.values(), battle, self.memory)
        self.save_path, moved = choose_save_path(save_path, battle.session["id"], resumed)
        if moved:
            self.say(moved, "yellow")
        self.shown = len(battle.log)
        self.saved_round = battle.round
        # the deciding NPC side and its agent's random state before the decision under way:
        # a save made while it waits (a GM's proposal) must let the resumed session propose
        # the same thing
        self.pending: tuple[int, dict[str, Any]] | None = None
        # what the player's last answer asked of the decisions after it (orders.py),
        # kept in the save so that a resumed game answers as the player asked
        self.orders: Orders | None = load_orders(
            battle.session.get("options", {}).get(SAVED_ORDERS))
        self._advisor: Any = None
        # keyed by the battle itself, not its id(): an undo replaces the battle, and a
        # freed battle's id may come back with the same number of moves
        self._advice: tuple[tuple[Battle, int], Action, str] | None = None
        # the decision on screen: (slot, phase, legal actions, notations, plain words)
        # in the menu's order (menu.menu_order: those at 0% to hit last, not numbered)
        self.menu: tuple[int, str, list[Action], list[str], list[str]] | None = None
        self.numbered = 0  # how many of them the menu numbers
        self.hinted: Action | None = None  # the hint shown for it: Enter takes it
        # a terminal shows what is typed: say it again only for piped input
        self.echo = echoes(lines)
        # events told while their action was still being rolled for, with the text told
        # (an event can gain dice after: a Simple hit its critical roll)
        self._told: list[tuple[Event, str]] = []
        # Simple's phase headers to tell before the log event at each index (phases.py),
        # and the battle they are for (an undo's replayed battle starts with none)
        self._phases: tuple[Battle, dict[int, list[str]]] = (battle, {})
        # says on stderr that a slow NPC is thinking (None: nothing is said)
        status = LineStatus()
        self.thinking: Thinking | None = Thinking(status.show, status.clear)
        # the rolls of the action under way that may be typed on one line (dice_ahead.py)
        self.dice_line: DiceLine | None = None
        # dice typed with a decision ("attack rad / 544 / 22"): whose, for which action
        # (None until a ';' line reaches its last part), and the text after the first '/'
        self.typed_dice: tuple[int, Action | None, str] | None = None
        self.physical = bool(battle.session["options"].get("physical_dice"))
        if self.physical:
            battle.dice_hook = self.ask_dice

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, highlight=False, markup=False)

    def say_whole(self, text: str) -> None:
        """A line the console does not wrap (a command to copy: the terminal may fold
        it, but never inside a word at a column the console chose)."""
        self.console.print(text, highlight=False, markup=False, soft_wrap=True)

    def look(self) -> None:
        # Text, not markup: a status flag such as [unconscious] is shown, not read as a style
        self.console.print(Panel(Text(render_text(self.b, self.rs, last_events=0, legend=True)),
                                 title=f"{self.b.scenario.name} ({self.b.ruleset})",
                                 expand=False), highlight=False)

    def events(self, mid_action: bool = False) -> None:
        """Say what happened since last time. ``mid_action``: an action is still being
        rolled for (a table roll comes next), so what it did so far is told now - the
        hit before its damage dice - and told again later if its text grew."""
        told = []
        for e, said in self._told:
            now = e.text()
            if now != said:
                self.say(now)
            told.append((e, now))
        fresh = self.b.log[self.shown:]
        heads = self._phases[1] if self._phases[0] is self.b else {}
        for i, e in enumerate(fresh, self.shown):
            for line in heads.pop(i, ()):
                self.say(line, "bold")
            self.say(e.text())
        for line in heads.pop(len(self.b.log), ()):
            self.say(line, "bold")
        self.shown = len(self.b.log)
        self._told = told + [(e, e.text()) for e in fresh] if mid_action else []
        if not mid_action and not self.line_goes_on():
            self.end_line()  # after what the action did: the dice its line did not need

    def order(self, joined: int | None = None) -> None:
        """The turn-order tracker (rules/turnorder.py)."""
        for line in order_lines(self.b, joined):
            self.say(line, "bold" if line.endswith("acts now") else None)

    # --- dice at the table ---------------------------------------------------------------
    undo_at_dice = False  # the GM tool takes an action back from its dice prompt

    def read(self) -> str | None:
        """The next line typed (echoed), or None when the input ended."""
        try:
            line = next(self.lines)
        except StopIteration:
            return None
        if self.echo:  # a terminal shows it already
            self.say(f"> {clip(line)}", "dim")
        return line.strip()

    def ask_dice(self, who: int, sides: int, n: int, why: str) -> list[int] | None:
        """The dice hook of --physical-dice: the people's rolls are asked at the table,
        each after what the action did so far and what the roll is for."""
        # what the rules said this roll is for belongs to this roll only
        note, self.b.roll_note = self.b.roll_note, ""
        if who < 0 or self.b.combatants[who].side not in self.humans:
            return None  # NPC and engine rolls stay with the battle's dice
        self.events(mid_action=True)
        no_undo = "no undo at a roll here: type the faces, or quit"
        ask = RollAsk(self.b.ids[who], sides, n, why, note, self.undo_at_dice, no_undo)
        if self.dice_line is not None:
            return self.dice_line.ask(who, ask)
        return ask_faces(self.say, self.read, ask)

    def look_ahead(self, action: Action) -> None:
        """Before ``action`` is applied: the rolls it and the windows after it will ask of
        the people, for its first prompt to list (dice_ahead.py); a window of the action
        under way goes on with its line, anything else ends it."""
        if self.line_goes_on():
            return
        self.end_line()
        who = self.rs.decider(self.b).combatant
        typed = None
        if self.typed_dice is not None and self.typed_dice[:2] == (who, action):
            typed, self.typed_dice = self.typed_dice[2], None
        rolls = self.rolls_ahead(action)
        if rolls:
            self.dice_line = DiceLine(self.say, self.read, self.b.ids, rolls, who, typed)
        elif typed is not None:
            self.say(f"  {plainly(self.b, action, who)} rolls no dice: {typed} left out",
                     "yellow")

    def rolls_ahead(self, action: Action) -> list[Roll]:
        """The rolls of the people's that ``action``, taken now by the decider, and the
        windows after it will ask for (dice_ahead.foresee): its first prompt lists them."""
        b, rs = self.b, self.rs
        then = windows_of(b, rs, rs.decider(b).combatant, self.orders, WINDOWS)
        return foresee(b, lambda s: b.combatants[s].side in self.humans,
                       play_out(b, rs, action, then))

    def line_goes_on(self) -> bool:
        """The decision now is a window of the action whose dice line is under way."""
        line, b = self.dice_line, self.b
        if line is None or b.over:
            return False
        dec = self.rs.decider(b)
        return line.actor == dec.combatant and dec.slot in WINDOWS

    def end_line(self) -> None:
        """The dice typed ahead that no roll took are dropped, and said."""
        if self.dice_line is not None:
            self.dice_line.end()
            self.dice_line = None

    # --- saving --------------------------------------------------------------------------
    def write(self, path: Path) -> None:
        """Save now; raises WastelandError or OSError."""
        records = []
        for side, agent in self.npcs.items():
            record = agent_record(kind_of(agent), agent, side)
            if self.pending is not None and self.pending[0] == side:
                record.update(self.pending[1])
            records.append(record)
        self.b.session["agents"] = records
        self.b.session.setdefault("options", {})[SAVED_ORDERS] = (
            None if self.orders is None else self.orders.dumps())
        saves.save(self.b, path, memory_parts(self.memory))

    def save(self, path: Path | None = None, quiet: bool = False) -> bool:
        """Save to ``path`` (default: this game's file); a failure is one line, and the game
        goes on. A named file holding another fight is not overwritten."""
        target = self.save_path
        if path is not None:
            try:
                target, moved = choose_save_path(path, self.b.session["id"])
            except WastelandError as e:
                self.say(f"cannot save: {e}", "red")
                return False
            if moved:
                self.say(moved, "yellow")
        try:
            self.write(target)
        except (WastelandError, OSError) as e:
            self.say(f"cannot save to {target}: {getattr(e, 'strerror', None) or e}", "red")
            return False
        if not quiet:
            self.say(f"saved to {target}", "bold")
        return True

    def first_save(self) -> None:
        """The save before the first decision: if it fails, nothing is played (SaveError,
        one line, and a non-zero exit), since every later save would fail too and the game
        would be lost at quit."""
        try:
            self.write(self.save_path)
        except (WastelandError, OSError) as e:
            raise SaveError(f"cannot save to {self.save_path}: "
                            f"{getattr(e, 'strerror', None) or e}; nothing was played, "
                            f"choose another --save-to") from None

    def autosave(self) -> None:
        """Once a round (and at the end), so a crash loses at most the round under way."""
        if self.b.round != self.saved_round or self.b.over:
            self.saved_round = self.b.round
            self.save(quiet=True)

    def stop(self, why: str) -> int:
        """Quit, end of input or Ctrl-C: save and say where and how to come back."""
        self.say(why)
        if self.save():
            self.say("resume with:", "bold")
            self.say_whole(resume_command(self.b, self.save_path))
        return INTERRUPTED if why.startswith("interrupted") else 0

    # --- applying ------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply ``action`` as one step: an interruption in the middle (Ctrl-C, a GM who
        quits at a dice prompt) leaves the battle as it was before it."""
        b = self.b
        if self.physical:
            self.look_ahead(action)
        snap = (b.state(), len(b.log), len(b.moves))
        phase = phase_of(b, self.rs)
        try:
            self.rs.apply(b, action)
        except BaseException:
            self.dice_line = self.typed_dice = None  # its dice went with the action
            b.restore(snap[0])
            del b.log[snap[1]:]
            del b.moves[snap[2]:]
            self.shown = min(self.shown, snap[1])  # what was told of it is not in the log
            self._told = []
            raise
        if phase is not None:
            heads = self._phases[1] if self._phases[0] is b else {}
            for at, lines in headers_since(b, self.rs, phase, snap[1]).items():
                heads.setdefault(at, []).extend(lines)
            self._phases = (b, heads)

    def say_phase(self) -> None:
        """The phase under way (Simple), as a session begins or resumes."""
        now = None if self.b.over else phase_of(self.b, self.rs)
        if now is not None:
            self.say(header(now[1]), "bold")

    # --- commands ------------------------------------------------------------------------
    help_text = HELP

    def command(self, line: str) -> str | None:
        """Run help / look / save [FILE]; "quit" for quit, "done" when handled, None when
        the line is not a command."""
        word = line.split()[0].lower() if line else ""
        if word in ("help", "?"):
            self.help(line.split()[1:])
        elif word == "hint":
            self.hint()
        elif word == "undo":
            self.say(self.undo(), "bold")
        elif word == "look":
            self.look()
        elif word == "odds":
            self.odds()
        elif word == "order":
            self.order()
        elif word == "reach":
            self.say(reach_text(self.b, self.rs))
        elif word == "set":
            try:
                self.say(set_rule(self.b, line.lower().split()[1:]), "bold")
            except OrderError as e:
                self.say(str(e), "red")
        elif word == "save":
            parts = line.split(maxsplit=1)
            self.save(Path(parts[1]) if len(parts) > 1 else None)
        elif word in ("quit", "exit"):
            return "quit"
        else:
            return None
        return "done"

    def help(self, words: list[str]) -> None:
        """``help``: the commands, then what each kind of action on the menu does;
        ``help ACTION`` (a number or the action's words): that action only."""
        rs_name = self.b.ruleset
        if self.menu is None:
            self.say(self.help_text)
            return
        slot, phase, legal, labels, plain = self.menu
        if words:
            try:
                a = match(" ".join(words), legal, labels, plain, self.numbered)
            except ChoiceError as e:
                self.say(f"help: {e}", "red")
                return
            i = legal.index(a)
            head = plain[i] if coded(a) else f"{labels[i]} - {plain[i]}"
            self.say(f"{head}: {explain(a, rs_name, phase)}")
            return
        self.say(self.help_text)
        seen: dict[str, str] = {}
        for a in legal:
            seen.setdefault(kind_name(a.kind), explain(a, rs_name, phase))
        self.say("The actions now: " + " ".join(f"{k}: {v}" for k, v in seen.items()),
                 "dim")

    def hint(self) -> None:
        """What the AI (the packet agent) would do in the deciding player's place, and
        why; Enter then takes it."""
        if self.menu is None or self.b.over:
            self.say("no decision of yours to hint at now", "red")
            return
        a, why = self.suggestion()
        slot = self.menu[0]
        self.hinted = a
        self.say(f"hint: {entry(self.b, a, slot, self.menu[1], short=False)} ({why}); Enter "
                 f"takes it", "cyan")

    def undo(self) -> str:
        """Take back the player's last decision (and what followed it) by replaying the
        fight from its seed without it: back to where the player was last asked (the
        decisions the game took for the player, the only choice or the orders of an
        answer, go with it). Works after a resume; the dice stay where they were. One
        line saying what happened."""
        marks = self.asked_at()
        while marks and marks[-1] >= len(self.b.moves):
            marks.pop()  # a mark past the history: its decision was never taken
        if marks:
            return self.rewind_to(marks[-1])
        return self.undo_last()

    def undo_last(self) -> str:
        """Back to the last decision the game asks, found in the history."""
        b = self.b
        for i in range(len(b.moves) - 1, -1, -1):
            m = b.moves[i]
            if not self.undoable(m):
                continue
            back = saves.rewind(b, b.history[:i])
            if isinstance(m, str) or self.asks(back):
                return self.rewind_to(i, back)
        return "nothing to undo"

    def rewind_to(self, i: int, back: Battle | None = None) -> str:
        """The fight replayed up to history entry ``i``; the line saying so."""
        history = self.b.history
        what = plain_move(self.b, history[i])
        back = back or saves.rewind(self.b, history[:i])
        self.replaced(back)
        self.shown = len(back.log)
        self.saved_round = back.round
        self.orders = None
        self.menu = None
        marks = self.asked_at()
        self.set_asked([m for m in marks if m < i])
        self.save(quiet=True)
        who = back.ids[self.rs.decider(back).combatant]
        after = sum(1 for h in history[i + 1:] if not h.startswith("@dice "))
        more = f" and the {after} after it" if after else ""
        return f"undone: {what}{more}; {who} decides again"

    def replaced(self, b: Battle) -> None:
        """``b`` (the fight replayed up to an earlier point) becomes the game's battle; what
        was seen is forgotten, as a replay remembers nothing."""
        self.b = b
        self.memory = Memory()
        share_memory(self.npcs.values(), b, self.memory)

    def asked_at(self) -> list[int]:
        """Where in the history the player was asked and answered (kept in the save, the
        last MARKS of them): how far undo goes back."""
        text = self.b.session.get("options", {}).get(ASKED_AT)
        return [int(w) for w in text.split()] if isinstance(text, str) else []

    def set_asked(self, marks: list[int]) -> None:
        self.b.session.setdefault("options", {})[ASKED_AT] = " ".join(
            str(m) for m in marks[-MARKS:])

    def undoable(self, move: object) -> bool:
        """Whether undo may stop at this history entry: a decision of the player's."""
        return not isinstance(move, str) and (
            self.b.combatants[move[0]].side in self.humans)  # type: ignore[index]

    def asks(self, b: Battle) -> bool:
        """Whether the game asks the player at ``b``'s decision (not answered for them)."""
        if b.over or b.combatants[self.rs.decider(b).combatant].side not in self.humans:
            return False
        return auto_answer(b, self.rs, None, lambda: (Action("end"), "")) is None

    def odds(self) -> None:
        """The people's chances from this moment, simulated on copies of the battle: the
        game itself (its dice, the NPCs' random state) is not touched."""
        from wasteland.sim.odds import live_odds

        self.say(live_odds(self.b, min(self.humans)).line(), "bold")

    def run(self) -> int:
        self.say(f"this game saves to {self.save_path} every round, on quit and on Ctrl-C",
                 "dim")
        self.look()
        self.order()  # the set-up's rolls are in the log, not told: the tracker says them
        self.events()
        self.say_phase()
        self.first_save()
        try:
            return self.loop()
        except KeyboardInterrupt:
            return self.stop("interrupted.")
        except Quit as q:  # quit or end of input at a dice prompt
            return self.stop(str(q))

    def loop(self) -> int:
        while (dec := self.next_decision()) is not None:
            stop = self.human_turn(dec.combatant, dec.slot, dec.reaction)
            if stop is not None:
                return self.stop(stop)
            self.events()
            self.autosave()
        return self.finish()

    def seats(self) -> list[Agent | None]:
        """Who the fight loop plays for each combatant: the NPCs' agents; the people's seats
        are empty, so the loop stops at their decisions."""
        return [self.npcs.get(c.side) for c in self.b.combatants]

    def next_decision(self) -> Decision | None:
        """The NPCs play (the fight loop, each decision as npc_turn takes it) until a
        person's decision, which is returned; None once the fight is over."""
        def decide(view: View, npc: Agent) -> Action:
            slot = view.decision.combatant
            self.npc_for(self.b.combatants[slot].side)
            return self.decide(npc, slot, view)

        def take(view: View, npc: Agent, action: Action) -> None:
            self.take_npc(view.decision.combatant, npc, action)

        def told(view: View, npc: Agent, action: Action) -> None:
            self.events()
            self.autosave()

        return play(self.rs, self.b, self.seats(), decide=decide, apply=take, after=told)[1]

    def suggestion(self) -> tuple[Action, str]:
        """What the packet agent would choose in the player's place, and why, save a move
        that gives an enemy a free attack when there is another choice (agents/hint.py).
        Its own agent, so the NPCs' random state is not touched; asked once per decision,
        so the choice shown is the one taken."""
        key = (self.b, len(self.b.moves))
        if self._advice is not None and self._advice[0][0] is self.b and (
                self._advice[0][1] == key[1]):
            return self._advice[1], self._advice[2]
        if self._advisor is None:
            from wasteland.agents.packets import PacketAgent

            self._advisor = PacketAgent(self.b.seed)
        from wasteland.agents.hint import safe_hint

        a, why = safe_hint(self._advisor, self._view())
        self._advice = (key, a, why)
        return a, why

    def auto_answer(self) -> tuple[Action, str] | None:
        """What is taken for the player now without asking (orders.auto_answer), or None."""
        return auto_answer(self.b, self.rs, self.orders, self.suggestion)

    def auto(self, slot: int) -> bool:
        """A decision of the player's answered without asking (the rest of the turn typed
        with the last answer, the only choice, the orders of the last answer, a table
        rule): taken, logged with why. False when the player is asked."""
        if self.take_typed(slot):
            return True
        got = self.auto_answer()
        if got is None:
            return False
        action, why = got
        self.say(f"  {self.b.ids[slot]}: {plainly(self.b, action, slot)} ({why})", "dim")
        self.apply(action)
        if self.orders is not None:
            self.orders.taken(action)
        return True

    def take_typed(self, slot: int) -> bool:
        """The next part of the turn typed with the last answer ("...; attack raider_0"),
        taken when this is the same combatant's own decision of that turn; one that is
        not legal now is dropped and said (False: the player is asked)."""
        o, b = self.orders, self.b
        if o is None or not o.then or not o.current(b, slot) or b.over:
            return False
        dec = self.rs.decider(b)
        if dec.reaction is not None or dec.slot in WINDOWS:
            return False
        text, rest = o.then[0], o.then[1:]
        o.then = ()
        words, buy, aim, keep = split_extras(text)
        legal = self.rs.legal_actions(b)
        labels = [a.text(b.ids, slot) for a in legal]
        try:
            action = choose(words or text, legal, labels, b, self.rs,
                            [label(b, a, slot, dec.slot) for a in legal])
            if not rest and self.typed_dice is not None and self.typed_dice[0] == slot:
                self.typed_dice = (slot, action, self.typed_dice[2])  # the line's last
            self.answer(slot, Answer(action, buy, aim, keep), then=rest)
        except (ChoiceError, OrderError) as e:
            dropped = "; ".join((text, *rest))
            why = str(e).split("; legal:")[0]  # the menu that follows lists what is legal
            self.say(f"  not taken: {clip(dropped)} ({why})", "yellow")
            return False
        self.say(f"  {b.ids[slot]}: {plainly(b, action, slot)} (typed with the answer)", "dim")
        return True

    def answer(self, slot: int, answer: Answer, echo: str | None = None,
               then: tuple[str, ...] = ()) -> None:
        """The player's answer: ``echo`` said (once it is accepted), its first action
        applied, its orders (with ``then``, the rest of the turn typed after it) kept for
        the decisions after it. Raises OrderError when its extras do not fit (nothing is
        said or taken)."""
        first, orders = begin_orders(self.b, self.rs, slot, answer)
        orders.then = then
        if echo:
            self.say(echo, "bold")
        if first != answer.action:
            self.say(f"  {self.b.ids[slot]}: {plainly(self.b, first, slot)} (first, with "
                     f"the attack: the minor action is free; noaim does not)", "dim")
        self.apply(first)
        self.orders = following(self.b, self.orders, orders)

    def npc_turn(self, side: int, slot: int) -> None:
        """One decision of an NPC: its agent chooses, the choice is shown and applied (the
        full-screen game, wasteland.tui, drives NPCs through this too)."""
        npc = self.npc_for(side)
        self.take_npc(slot, npc, self.decide(npc, slot))

    def decide(self, npc: Agent, slot: int, view: View | None = None) -> Action:
        """What ``npc`` chooses for the combatant in ``slot`` (``view``: the decision's, if
        made already), the table told if it thinks long."""
        if self.thinking is not None:
            self.thinking.begin(self.b.ids[slot], level_of(npc))
        with listening(npc, self.thinking):
            return npc.act(view or self._view())

    def take_npc(self, slot: int, npc: Agent, action: Action) -> None:
        """The NPC's chosen ``action`` shown with its reason and applied."""
        self.say(f"  {self.b.ids[slot]}: {plainly(self.b, action, slot)} "
                 f"({npc.last_reason})", "cyan")
        self.apply(action)
        self.pending = None

    def npc_for(self, side: int) -> Agent:
        """The agent of an NPC side, its random state noted as the decision begins."""
        agent = self.npcs[side]
        self.pending = (side, rng_snapshot(agent))
        return agent

    def finish(self) -> int:
        from wasteland.agents.external import close_agents, faults_of

        from .summary import table_lines

        self.end_line()
        self.look()
        b = self.b
        self.say(f"The fight in numbers, {b.round} round{'s' if b.round != 1 else ''}:",
                 "bold")
        for line in table_lines(b):  # the full-screen game's summary table (summary.py)
            self.say(line)
        w = b.winner
        self.say("Draw." if w is None else f"{b.side_names[w]} won.", "bold")
        self.say_faults(faults_of(self.npcs.values()))
        close_agents(self.npcs.values(), self.b)
        return 0

    def say_faults(self, faults: dict[str, int]) -> None:
        """A program agent's faults (cmd:), if it had any."""
        if any(faults.values()):
            self.say("program agent faults (each played by a fallback): "
                     + ", ".join(f"{k} {n}" for k, n in faults.items()), "yellow")

    def _view(self):  # noqa: ANN202 - a View, imported lazily with the agents
        from wasteland.agents.base import view_of

        return view_of(self.rs, self.b)

    def show_choices(self, slot: int, phase: str, reaction: str | None, legal: list[Action],
                     labels: list[str], verb: str = "decides") -> None:
        """Whose decision it is, and its legal actions numbered from 1 with what each costs
        beyond its notation (hit chances, AP, the Large action), no entry split by a line
        break."""
        self.end_line()  # a decision is asked: the dice of the last action are all in
        if self.typed_dice is not None:  # their action never came
            self.say(f"  not used, left out: {self.typed_dice[2]}", "yellow")
            self.typed_dice = None
        what = f"reaction: {reaction.replace('_', ' ')}" if reaction else phase
        self.set_menu(slot, phase, legal, labels)
        assert self.menu is not None
        legal, labels = self.menu[2], self.menu[3]
        self.hinted = None
        self.say(f"{self.b.ids[slot]} {verb} ({what}):", "bold")
        entries = labelled(self.b, self.rs, phase, legal[:self.numbered],
                           labels[:self.numbered])
        for line in layout(entries, max(40, self.console.width - 1)):
            self.say(line)
        left_out = len(legal) - self.numbered
        if left_out:  # never worth a line each; typed by name they are still taken
            self.say(f"  ({left_out} more at 0% to hit are not listed; typed by name, "
                     f"they are taken)", "dim")
        hint = goto_hint(self.b, self.rs)
        if hint:
            self.say(hint, "dim")
        for line in orders_hint(self.b, self.rs, legal, max(40, self.console.width - 1)):
            self.say(line, "dim")

    def set_menu(self, slot: int, phase: str, legal: list[Action], labels: list[str]) -> None:
        """The decision's menu, in the order it is numbered (menu.menu_order)."""
        order, self.numbered = menu_order(self.b, self.rs, legal)
        legal = [legal[i] for i in order]
        self.menu = (slot, phase, legal, [labels[i] for i in order],
                     [label(self.b, a, slot, phase) for a in legal])

    def pick(self, text: str) -> Action:
        """The action of the menu on screen that ``text`` names (prompt.choose)."""
        assert self.menu is not None
        _, _, legal, labels, plain = self.menu
        return choose(text, legal, labels, self.b, self.rs, plain, self.numbered)

    def human_turn(self, slot: int, phase: str, reaction: str | None) -> str | None:
        """One decision of a human combatant; the reason to stop when the player quits or
        the input ends."""
        b = self.b
        if self.auto(slot):  # nothing to choose, or answered already: not asked
            return None
        legal = self.rs.legal_actions(b)
        labels = [a.text(b.ids, slot) for a in legal]
        dec = self.rs.decider(b)
        self.show_choices(slot, phase, reaction, legal, labels)
        while True:
            try:
                line = next(self.lines)
            except StopIteration:
                return "input ended."
            cmd = line.strip()
            if self.echo:
                self.say(f"> {clip(cmd)}", "dim")
            if not cmd and self.hinted is not None:
                cmd = self.hinted.text(b.ids, slot)  # Enter after a hint takes it
            done = self.command(cmd)
            if done == "quit":
                return "quit."
            if done == "done":
                if self.b is not b or b.over or self.rs.decider(b) != dec or (
                        self.rs.legal_actions(b) != legal):
                    return None  # undo or a newcomer made it another decision
                continue
            try:  # the rest of the turn may follow (orders.py), and the dice after '/'
                (first, *then), dice = split_dice(cmd, self.physical)
            except ValueError as e:
                self.say(f"{e} (help for commands)", "red")
                continue
            rest, buy, aim, keep = split_extras(first)
            try:
                action = self.pick(rest or first)
                mark = len(b.moves)
                self.typed_dice = None if dice is None else (
                    slot, None if then else action, dice)
                self.answer(slot, Answer(action, buy, aim, keep),
                            then=tuple(t.strip() for t in then if t.strip()))
                self.set_asked([*self.asked_at(), mark])
            except (ChoiceError, OrderError) as e:
                self.typed_dice = None
                self.say(f"{e} (help for commands)", "red")
                continue
            return None


def resume_command(b: Battle, path: Path) -> str:
    """The command that goes on with this fight, on a line of its own under the words
    that say so, so that a narrow terminal never breaks it inside its flag."""
    return f"  wasteland {b.session['command']} --resume {path}"


def npc_kind(b: Battle, side: int) -> str:
    """The agent of an NPC side in a new game: --ai, else the scenario's for that side,
    else the packet."""
    return b.session["options"].get("ai") or b.scenario.sides[side].agent or "packet"


def npc_agents(b: Battle) -> dict[int, Agent]:
    """One agent per NPC side: as saved (kind and random state) when the game resumes,
    else by npc_kind. An older save holds one packet for every NPC side (side None)."""
    humans = set(b.session["humans"])
    saved = {rec.get("side"): rec for rec in b.session.get("agents", [])
             if rec.get("kind") != "human"}
    out: dict[int, Agent] = {}
    for side in range(len(b.side_names)):
        if side in humans:
            continue
        rec = saved.get(side) or saved.get(None)
        if rec:  # as saved: a fight saved before the ruleset check resumes as it was
            agent = make_agent(rec["kind"], b.seed)
            restore_agent(agent, rec)
        else:
            agent = make_agent(npc_kind(b, side), b.seed, b.ruleset)
        out[side] = agent
    from wasteland.agents.external import start_programs

    start_programs(out.values())  # a program that cannot play: one line, before the fight
    return out
