"""`wasteland play`: fight the AI alone in a terminal.

You play one side (one combatant or a squad); every other combatant is an NPC driven by
its AI packet, and each NPC decision is shown with its reason. The map, everybody's HP,
ammunition and conditions, and the log with every die are drawn with rich. On your turn
the legal actions are numbered; type a number, or the action in notation with any word
shortened ("att rad he"), or help / look / save [FILE] / quit. Input may be piped in, so a
whole game can be scripted; when the input ends the game is saved, as on quit.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rich.console import Console
from rich.panel import Panel

from wasteland.agents.packets import PacketAgent
from wasteland.rules import saves
from wasteland.rules.battle import Battle
from wasteland.rules.protocol import Ruleset, get_ruleset
from wasteland.rules.textmap import render_text

from .prompt import ChoiceError, match

HELP = ("Type the number of an action, or the action itself (words may be shortened: "
        "'att rad he'). Commands: help, look (map and status), save [FILE], quit (saves).")


class Game:
    def __init__(self, battle: Battle, humans: set[int], console: Console,
                 lines: Iterator[str], save_path: Path) -> None:
        self.b = battle
        self.rs: Ruleset = get_ruleset(battle.ruleset)
        self.humans = humans
        self.console = console
        self.lines = lines
        self.save_path = save_path
        self.npc = PacketAgent(seed=battle.seed + len(battle.moves))
        self.shown = len(battle.log)
        battle.extra["human_sides"] = sorted(humans)

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, highlight=False, markup=False)

    def look(self) -> None:
        self.console.print(Panel(render_text(self.b, self.rs, last_events=0),
                                 title=f"{self.b.scenario.name} ({self.b.ruleset})",
                                 expand=False), highlight=False)

    def events(self) -> None:
        for e in self.b.log[self.shown:]:
            self.say(e.text())
        self.shown = len(self.b.log)

    def save(self, path: Path) -> None:
        saves.save(self.b, path)
        self.say(f"saved to {path}", "bold")

    help_text = HELP

    def command(self, line: str) -> str | None:
        """Run help / look / save [FILE]; "quit" for quit, "done" when handled, None when
        the line is not a command."""
        word = line.split()[0].lower() if line else ""
        if word in ("help", "?"):
            self.say(self.help_text)
        elif word == "look":
            self.look()
        elif word == "save":
            parts = line.split(maxsplit=1)
            try:
                self.save(Path(parts[1]) if len(parts) > 1 else self.save_path)
            except OSError as e:
                self.say(f"cannot save: {e.strerror}", "red")
        elif word in ("quit", "exit"):
            return "quit"
        else:
            return None
        return "done"

    def run(self) -> int:
        self.look()
        self.events()
        while not self.b.over:
            dec = self.rs.decider(self.b)
            actor = self.b.combatants[dec.combatant]
            if actor.side in self.humans:
                if not self.human_turn(dec.combatant, dec.slot, dec.reaction):
                    return 0
            else:
                view = self._view()
                action = self.npc.act(view)
                self.say(f"  {actor.id}: {action.text(self.b.ids, actor.slot)} "
                         f"({self.npc.last_reason})", "cyan")
                self.rs.apply(self.b, action)
            self.events()
        return self.finish()

    def finish(self) -> int:
        self.look()
        w = self.b.winner
        self.say("Draw." if w is None else f"{self.b.side_names[w]} win.", "bold")
        return 0

    def _view(self):  # noqa: ANN202 - a View, imported lazily with the agents
        from wasteland.agents.base import view_of

        return view_of(self.rs, self.b)

    def show_choices(self, slot: int, phase: str, reaction: str | None,
                     labels: list[str]) -> None:
        """Whose decision it is, and its legal actions numbered from 1."""
        what = f"reaction: {reaction.replace('_', ' ')}" if reaction else phase
        self.say(f"{self.b.ids[slot]} decides ({what}):", "bold")
        self.say("  " + "   ".join(f"{i}) {lab}" for i, lab in enumerate(labels, 1)))

    def human_turn(self, slot: int, phase: str, reaction: str | None) -> bool:
        """One decision of a human combatant; False when the player quits."""
        b = self.b
        legal = self.rs.legal_actions(b)
        labels = [a.text(b.ids, slot) for a in legal]
        self.show_choices(slot, phase, reaction, labels)
        while True:
            try:
                line = next(self.lines)
            except StopIteration:
                self.say("input ended.")
                self.save(self.save_path)
                return False
            cmd = line.strip()
            self.say(f"> {cmd}", "dim")
            done = self.command(cmd)
            if done == "quit":
                self.save(self.save_path)
                return False
            if done == "done":
                continue
            try:
                action = match(cmd, legal, labels)
            except ChoiceError as e:
                self.say(f"{e} (help for commands)", "red")
                continue
            self.rs.apply(b, action)
            return True


def begin(ruleset: str, scenario: str, side: str, seed: int, resume: Path | None,
          character: str | None = None, enemies: str | None = None) -> tuple[Battle, set[int]]:
    """A new battle for the chosen encounter, or the saved one, and the humans' sides."""
    if resume is not None:
        b = saves.load(resume)
        return b, set(b.extra.get("human_sides", [0]))
    from .encounter import encounter

    sc, me = encounter(scenario, side, character, enemies)
    return get_ruleset(ruleset).new_battle(sc, seed), {me}


def start(ruleset: str, scenario: str, side: str, seed: int, resume: Path | None,
          save_path: Path, console: Console, lines: Iterator[str],
          character: str | None = None, enemies: str | None = None) -> int:
    b, humans = begin(ruleset, scenario, side, seed, resume, character, enemies)
    return Game(b, humans, console, lines, save_path).run()
