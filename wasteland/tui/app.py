"""The full-screen `wasteland play`: the turn-order line on top; the map (left, its legend
under it) and the log below it; the status of every combatant, the actions of the
current decision and the highlighted action's explanation on the right; the AI's choice
(the d key) on its own line under them, and the keys at the bottom. The sizes follow the
terminal (layout.py). Everything is redrawn after each decision, the player's and every
NPC's.

The game itself is play's (ScreenGame): the same saves, autosave, NPC agents and
actions; this module only shows it and turns keys and clicks into its calls."""

from __future__ import annotations

import threading
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.worker import Worker, WorkerState

from wasteland.agents.base import Agent
from wasteland.cli.game import INTERRUPTED, resume_command
from wasteland.cli.menu import chance, destinations
from wasteland.cli.orders import (
    ATTACKS,
    DEFAULTS,
    Answer,
    OrderError,
    aims_first,
    cycle_rule,
    rules_changed,
    rules_line,
    rules_of,
)
from wasteland.cli.thinking import AFTER, Thinking
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.goto import goto

from .actions import ActionsPanel
from .choices import Choice, choices
from .game import ScreenGame
from .help import HelpScreen
from .layout import MIN_HEIGHT, MIN_WIDTH, SHORT_SCREEN, plan, too_small
from .log import LogPanel
from .mapview import MapView, legend, map_lines
from .rules import RulesScreen
from .status import StatusPanel
from .summary import SummaryScreen
from .turns import turn_line


class Stopped(Exception):
    """The screen stopped an NPC's search (Ctrl-C, quit, undo)."""


class ThinkingText(Message):
    """What the hint line says while an NPC thinks ("" when it has chosen); posted from
    the thinking NPC's thread."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class Watched(Thinking):
    """Thinking that the screen can stop: the search's next progress report raises
    Stopped (it is never cut between two reports, so nothing is left half-done)."""

    stopped = False

    def progress(self, done: int, total: int) -> None:
        if self.stopped:
            raise Stopped
        super().progress(done, total)


class PlayScreen(Screen[None]):
    """The game's screen: it hears of each change of the terminal's size (the app's own
    Resize handler does not: Textual's stops the event first)."""

    def on_resize(self) -> None:
        app = self.app
        if isinstance(app, PlayApp):
            app.resized()


class PlayApp(App[int]):
    CSS = """
    #order { height: 1; background: $boost; text-style: bold; }
    #left { width: 34; }
    #map { width: 100%; height: auto; border: round $primary; padding: 0 1;
           text-wrap: nowrap; text-overflow: clip; }
    #log { width: 100%; height: 1fr; min-height: 3; border: round $primary; }
    #right { width: 1fr; }
    #status { height: auto; border: round $primary; overflow-y: auto;
              text-wrap: nowrap; text-overflow: ellipsis; }
    #actions { height: 1fr; min-height: 3; border: round $primary; }
    #explain { height: auto; max-height: 8; color: $text-muted; padding: 0 1; }
    #hint { height: auto; padding: 0 1; background: $boost; }
    #small { display: none; padding: 0 1; overflow: hidden; }
    /* a short screen: no borders, every row for what the panels show */
    #main.-compact #map { border: none; }
    #main.-compact #log, #main.-compact #status { border: none; background: $surface-lighten-1; }
    #main.-compact #actions { border: none; }
    #main.-compact #log { padding: 0 1; }
    """
    BINDINGS = [
        Binding("d", "default", "AI's choice"),
        Binding("u", "undo", "Undo"),
        Binding("tab", "next_target", "Target", priority=True),
        Binding("shift+tab", "previous_target", "Prev", show=False, priority=True),
        Binding("escape", "clear_target", "All", show=False),
        Binding("plus,equals_sign", "dice(1)", "+d20", show=False),
        Binding("minus", "dice(-1)", "-d20", show=False),
        Binding("a", "toggle_aim", "Aim", show=False),
        Binding("k", "toggle_keep", "Keep", show=False),
        Binding("b", "cycle_boost", "Boost", show=False),
        Binding("t", "rules", "Rules", show=False),
        Binding("o", "odds", "Odds"),
        Binding("s", "save", "Save"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
        # Ctrl-C saves and quits, as in the line game (the framework's own Ctrl-C only
        # says to press Ctrl-Q); the exit code is the shell's for an interruption
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
    ]

    def __init__(self, game: ScreenGame, npc_pause: float = 0.0, think_after: float = AFTER
                 ) -> None:
        """``npc_pause``: seconds each NPC decision stays on screen before the next (0:
        all at once, as the tests want; otherwise each NPC decides in a thread, so a long
        search does not freeze the screen, and after ``think_after`` seconds the hint line
        says it is thinking)."""
        super().__init__()
        self.game = game
        self.npc_pause = npc_pause
        game.thinking = Watched(self.tell_thinking, lambda: self.tell_thinking(""),
                                after=think_after)
        # the NPC deciding in its thread: the worker, and what its choice is for (the
        # battle and its move count, the slot, the agent); set when its thread has ended
        self.thinker: Worker[Action] | None = None
        self.thinker_for: tuple[tuple[Battle, int], int, Agent] | None = None
        self.thought = threading.Event()
        self.thinking_text = ""
        self.target: int | None = None
        self.summary_shown = False
        # the player's changes to this decision's answer (orders.py), by action: aim
        # first or not, d20s to buy; keep the turn open after it
        self.row_aim: dict[Action, bool] = {}
        self.row_buy: dict[Action, int] = {}
        self.keep = False
        self._rows_for: tuple[int, int] | None = None
        self.started = False
        self.lay = plan(80, 24, 30, 10, False, lambda _w, _m: 2)  # until the first fit

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield Static(id="order", markup=False)
            with Horizontal(id="body"):
                with Vertical(id="left"):
                    yield MapView(id="map")
                    yield LogPanel(id="log")
                with Vertical(id="right"):
                    yield StatusPanel(id="status")
                    yield ActionsPanel(id="actions")
                    yield Static(id="explain", markup=False)
            yield Static(id="hint", markup=False)
            yield Footer()
        yield Static(id="small", markup=False)

    def on_mount(self) -> None:
        self.title = f"{self.game.b.scenario.name} ({self.game.b.ruleset})"
        self.fit()
        self.query_one(ActionsPanel).focus()
        self.call_after_refresh(self.begin)

    def fit(self, hint: str = "") -> None:
        """The layout for this terminal (layout.plan): borders or none, the columns'
        widths, the map's zoom and legend; under 80x24 a message in their place."""
        w, h = self.size.width, self.size.height
        small = too_small(w, h)
        self.query_one("#main").display = not small
        note = self.query_one("#small", Static)
        note.display = small
        if small:
            note.update(f"The terminal is too small (needs {MIN_WIDTH}x{MIN_HEIGHT}; this "
                        f"one is {w}x{h}). Make it larger, or press Ctrl-C to save and quit.")
            return
        b, rs = self.battle, self.game.rs
        lines = map_lines(b, rs)
        hint_rows = len(Text(hint).wrap(self.console, max(1, w - 2))) if hint else 1
        self.lay = plan(
            w, h, max((len(line) for line in lines), default=0), len(lines),
            rs.tactics.unit == "hexes",
            lambda width, mode: len(legend(b, rs, width, True, mode).plain.split("\n")),
            hint_rows)
        self.query_one("#main").set_class(self.lay.compact, "-compact")
        self.query_one("#left").styles.width = self.lay.left

    def get_default_screen(self) -> Screen[None]:
        return PlayScreen(id="_default")

    def resized(self) -> None:
        self.fit()
        if self.started:
            self.redraw()

    def begin(self) -> None:
        """After the first layout, so the log wraps at its real width."""
        self.started = True
        self.game.start(advance=False)
        self.redraw()
        self.npcs()

    def npcs(self) -> None:
        """The NPCs' decisions up to the player's, each drawn (one per npc_pause)."""
        if self.thinker is not None:
            return  # the NPC thinking now goes on when it has chosen (decided)
        if not self.npc_pause:
            self.game.advance()
            self.redraw()
        elif not self.battle.over and not self.game.needs_player():
            self.set_timer(self.npc_pause, self.npc_tick)

    def npc_tick(self) -> None:
        g = self.game
        if self.thinker is not None or self.battle.over or g.needs_player():
            return
        if g.human_decides():  # the player's decision that the game answers
            g.step()
            self.redraw()
            self.npcs()
            return
        self.think()

    def think(self) -> None:
        """The deciding NPC's agent chooses in a thread (it only reads the battle); the
        screen stays live, and ``decided`` takes the choice."""
        g, b = self.game, self.battle
        slot = g.decision().combatant
        npc = g.npc_for(b.combatants[slot].side)
        self.thinker_for = ((b, len(b.moves)), slot, npc)
        if isinstance(g.thinking, Watched):
            g.thinking.stopped = False
        done = self.thought = threading.Event()

        def work() -> Action:
            try:
                return g.decide(npc, slot)
            finally:
                done.set()
        self.thinker = self.run_worker(work, thread=True, exit_on_error=False, group="npc")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self.thinker or self.thinker_for is None or event.state not in (
                WorkerState.SUCCESS, WorkerState.ERROR):
            return
        key, slot, npc = self.thinker_for
        self.thinker = self.thinker_for = None
        self.thinking_text = ""
        if event.state == WorkerState.ERROR:
            raise event.worker.error or RuntimeError("the NPC's agent failed")
        g, b = self.game, self.battle
        if key[0] is b and key[1] == len(b.moves) and event.worker.result is not None:
            g.take_npc(slot, npc, event.worker.result)
            g.events()
            g.autosave()
        self.redraw()
        self.npcs()

    def tell_thinking(self, text: str) -> None:
        """From the thinking NPC's thread: the hint line's text (posting is thread-safe)."""
        self.post_message(ThinkingText(text))

    def on_thinking_text(self, message: ThinkingText) -> None:
        self.thinking_text = message.text if self.thinker is not None else ""
        self.query_one("#hint", Static).update(self.thinking_text)

    def stop_thinking(self, wait: bool = False) -> None:
        """Stop the NPC thinking now, if one is (its choice is never taken). ``wait``:
        until its thread has ended (at its next progress report), so that nothing it
        does after can move its agent's random state."""
        if self.thinker is None:
            return
        if isinstance(self.game.thinking, Watched):
            self.game.thinking.stopped = True
        self.thinker.cancel()
        self.thinker = self.thinker_for = None
        self.thinking_text = ""
        if wait:
            self.thought.wait(10)

    # --- drawing -------------------------------------------------------------------------
    @property
    def battle(self) -> Battle:
        return self.game.b

    def targets(self) -> list[int]:
        """The slots the current decision's actions can aim at: enemies first, then
        allies, each in slot order."""
        if not self.game.needs_player():
            return []
        b = self.battle
        side = b.combatants[self.game.decision().combatant].side
        return sorted({a.target for a in self.game.rs.legal_actions(b) if a.target is not None},
                      key=lambda t: (b.combatants[t].side == side, t))

    def reach(self) -> dict[int, int]:
        """The squares the player's move can end on now (square -> squares walked)."""
        if not self.game.needs_player():
            return {}
        return destinations(self.battle, self.game.rs)

    def provokes(self, me: int) -> str:
        """Who gets an attack of opportunity when the player walks off its square (PnP;
        the ruleset says: none elsewhere)."""
        who = self.game.rs.tactics.threats_on_leaving(self.battle, self.battle.combatants[me])
        return f"; leaving provokes {', '.join(e.id for e in who)}" if who else ""

    def right_width(self) -> int:
        """The columns inside the right column's panels (their borders taken off): what
        their lines are fitted to."""
        return max(10, self.size.width - self.lay.left - (0 if self.lay.compact else 2))

    def redraw(self) -> None:
        g, b = self.game, self.battle
        log = self.query_one(LogPanel)
        for text, style in g.take_notes():
            log.add(text, style)
        log.call_after_refresh(log.scroll_end, animate=False)
        if self.target is not None and self.target not in self.targets():
            self.target = None
        hint = self.hint()
        self.fit(hint)
        self.query_one("#hint", Static).update(hint)
        lay = self.lay
        self.query_one(MapView).show(b, g.rs, self.target, frozenset(self.targets()),
                                     frozenset(self.reach()), lay.zoom, lay.left - lay.pad,
                                     lay.legend)
        self.query_one(StatusPanel).show(b, g.rs, self.right_width())
        panel = self.query_one(ActionsPanel)
        self.query_one("#order", Static).update(
            Text(turn_line(b, g.rs, self.size.width), no_wrap=True, overflow="ellipsis"))
        if b.over:
            panel.show([])
            self.query_one("#explain", Static).update("")
            if not self.summary_shown:
                self.summary_shown = True
                self.push_screen(SummaryScreen(b), self.after_summary)
            return
        dec = g.decision()
        if not g.needs_player():  # an NPC's turn (or a forced one) on screen
            panel.show([])
            self.query_one("#explain", Static).update("")
            return
        key = (id(b), len(b.moves))
        keep = None
        if self._rows_for != key:  # a new decision: the changes were for the last one
            self._rows_for = key
            self.row_aim, self.row_buy, self.keep = {}, {}, False
        elif panel.current is not None:
            keep = panel.current.action
        # a row has the panel less its scroll bar and the options' padding
        panel.show(choices(b, g.rs, dec, g.rs.legal_actions(b), self.row_aim, self.row_buy),
                   self.target, keep, self.right_width() - 4)
        self.explain()

    def explain(self) -> None:
        """The highlighted action's explanation (2d20 attacks: aim first or not, the
        d20s to buy with the chance each gives), what the d key would take, and the
        table rules."""
        c = self.query_one(ActionsPanel).current
        text = c.explanation if c else ""
        if self.game.needs_player():
            me = self.game.decision().combatant
            ap = self.game.rs.tactics.ap_economy  # the orders and table rules of 2d20's turns
            if c is not None and c.action.kind in ATTACKS and ap:
                text = self.attack_line(c)
            # on a short screen the rules line is left out while it would only say
            # "default", so the d line keeps its reason (? lists the t key)
            if ap and (
                    self.keep or self.size.height >= SHORT_SCREEN
                    or rules_of(self.battle) != DEFAULTS):
                text += (f"\nrules (t): {rules_changed(self.battle)}"
                         + ("; k: the turn goes on after this" if self.keep else ""))
            elif self.keep:  # Simple: the move phase goes on after the move (orders.py)
                text += "\nk: the move phase goes on after this"
            reach = self.reach()
            if reach and (c is None or c.group != "attack"):
                text += (f"\nclick a shaded square to go there ({len(reach)} in reach, "
                         f"{max(reach.values())} at most){self.provokes(me)}")
        self.query_one("#explain", Static).update(text)

    def hint(self) -> str:
        """What the d key would take and why: its own line under the panels, as wide as
        the screen and wrapped whole; while an NPC thinks long, that it does."""
        if self.thinking_text:
            return self.thinking_text
        if self.battle.over or not self.game.needs_player():
            return ""
        me = self.game.decision().combatant
        answer, why = self.game.default_answer()
        aim = "aim+" if self.game.aims(answer) else ""
        return f"d: {aim}{answer.said(self.battle, me)} ({why})"

    def attack_line(self, c: Choice) -> str:
        """2d20, the highlighted attack: aim first or not (a), and the d20s to buy (+/-)
        with the chance to hit each gives, the AI's choice marked."""
        g, b = self.game, self.battle
        me = b.combatants[g.decision().combatant]
        can_aim = aims_first(b, g.rs, me.slot, c.action, True)
        parts = []
        if c.aim:
            parts.append("aims first (a: not)")
        elif can_aim:
            parts.append("no aim first (a: aim)")
        top = g.rs.tactics.buyable_dice(b, me.side)
        if top and not b.reactions:
            ai = g.ai_buy(c.action, c.aim)
            n = c.buy if c.buy is not None else (ai[0] if ai else 0)
            odds = []
            for k in range(top + 1):
                p = chance(b, g.rs, me, c.action, True if c.aim else None, k)
                if p is None:
                    break
                mark = "*" if ai and ai[0] == k else ""
                odds.append(f"[+{k}{mark} {p:.0%}]" if k == n else f"+{k}{mark} {p:.0%}")
            if odds:
                parts.append("d20s (+/-, *AI): " + " ".join(odds))
        elif not b.reactions:
            parts.append("no AP to buy d20s")
        return "; ".join(parts) if parts else c.explanation

    # --- events --------------------------------------------------------------------------
    def on_option_list_option_highlighted(self, _: OptionList.OptionHighlighted) -> None:
        self.explain()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        c = self.query_one(ActionsPanel).choice_of(event.option.id)
        if c is not None and self.game.needs_player():
            self.take(Answer(c.action, self.row_buy.get(c.action),
                             self.row_aim.get(c.action), self.keep))

    def take(self, answer: Action | Answer) -> None:
        """The player's decision; a refusal (a WastelandError, extras that do not fit)
        is one line on screen."""
        try:
            self.game.choose(answer, advance=False)
        except (WastelandError, OrderError) as e:
            self.notify(str(e), severity="error")
        self.redraw()
        self.npcs()

    def on_map_view_go_to(self, event: MapView.GoTo) -> None:
        if self.game.needs_player():
            self.take(goto(event.x, event.y))

    def on_map_view_picked(self, event: MapView.Picked) -> None:
        if event.slot in self.targets():
            self.target = event.slot
            self.redraw()
        else:
            self.notify(f"{self.battle.ids[event.slot]}: no action of yours can target it now")

    # --- actions -------------------------------------------------------------------------
    def _cycle(self, step: int) -> None:
        ts = self.targets()
        if not ts:
            return
        i = ts.index(self.target) + step if self.target in ts else (0 if step > 0 else -1)
        self.target = ts[i % len(ts)]
        self.redraw()

    def action_next_target(self) -> None:
        self._cycle(1)

    def action_previous_target(self) -> None:
        self._cycle(-1)

    def action_clear_target(self) -> None:
        self.target = None
        self.redraw()

    def action_default(self) -> None:
        """Take what the packet agent would choose in the player's place."""
        if self.battle.over or not self.game.needs_player():
            return
        answer, why = self.game.default_answer()
        self.game.say(f"default: {why}", "cyan")
        self.take(answer)

    def _attack_row(self) -> Choice | None:
        c = self.query_one(ActionsPanel).current
        if (c is None or c.action.kind not in ATTACKS or not self.game.rs.tactics.ap_economy
                or not self.game.needs_player()):
            return None
        return c

    def action_dice(self, step: int) -> None:
        """The d20s to buy with the highlighted attack, one more or one fewer (from the
        AI's choice), within what the pool pays for."""
        c = self._attack_row()
        if c is None:
            return
        b = self.battle
        side = b.combatants[self.game.decision().combatant].side
        top = self.game.rs.tactics.buyable_dice(b, side)
        ai = self.game.ai_buy(c.action, c.aim)
        now = c.buy if c.buy is not None else (ai[0] if ai else 0)
        self.row_buy[c.action] = max(0, min(top, now + step))
        self.redraw()

    def action_toggle_aim(self) -> None:
        """Aim first with the highlighted attack, or not."""
        c = self._attack_row()
        if c is None:
            return
        if not c.aim and not aims_first(self.battle, self.game.rs,
                                        self.game.decision().combatant, c.action, True):
            self.notify("no aim now: it needs the minor action, on your own turn")
            return
        self.row_aim[c.action] = not c.aim
        self.redraw()

    def action_toggle_keep(self) -> None:
        """Keep the turn open after the next action (or not)."""
        tac = self.game.rs.tactics
        if self.game.needs_player() and (tac.ap_economy or tac.phases):
            self.keep = not self.keep
            self.redraw()

    def action_cycle_boost(self) -> None:
        """The boost rule to its next value (auto, ask, max, none)."""
        self.game.say(cycle_rule(self.battle, "boost"), "bold")
        self.game.save(quiet=True)
        self.redraw()
        self.npcs()

    def action_rules(self) -> None:
        def closed(_: None) -> None:
            self.game.say(f"table rules: {rules_line(self.battle)}", "bold")
            self.game.save(quiet=True)
            self.redraw()
            self.npcs()
        self.push_screen(RulesScreen(self.battle), closed)

    def action_undo(self) -> None:
        if self.thinker is not None:  # undo restores the agents' random state itself
            self.stop_thinking(wait=True)
            self.game.pending = None
        said = self.game.undo()
        self.summary_shown = False
        self.query_one(LogPanel).reset(self.battle)
        self.game.say(said, "bold")
        self.redraw()

    def action_odds(self) -> None:
        """Your side's chances from here (play's odds: simulated on copies, about a
        second), into the log."""
        if not self.battle.over:
            self.game.odds()
            self.redraw()

    def action_save(self) -> None:
        self.game.save()
        self.redraw()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.battle.ruleset))

    def action_quit_game(self) -> None:
        """Save and leave (run_full_screen saves again, for a Ctrl+Q that skips this)."""
        self.game.save(quiet=True)  # an NPC thinking now decides again on resume
        self.stop_thinking()
        self.exit(0)

    def action_interrupt(self) -> None:
        """Ctrl-C: save and leave with the shell's code for an interruption."""
        self.game.save(quiet=True)  # an NPC thinking now decides again on resume
        self.stop_thinking()
        self.exit(INTERRUPTED, return_code=INTERRUPTED)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's Screenshot: saved beside the game's save file (the framework's
        default, a Downloads folder, is missing on many machines, and the save failed)."""
        folder = Path(path) if path else self.game.save_path.resolve().parent
        name = filename or f"wasteland-{self.battle.scenario.name}-{self.battle.round}.svg"
        name = name.replace(" ", "_").replace("/", "_")
        target = folder / name
        n = 2
        while target.exists():  # never overwrite an earlier screenshot
            target = folder / f"{Path(name).stem}-{n}.svg"
            n += 1
        try:
            target.write_text(self.export_screenshot(), encoding="utf-8")
        except OSError as e:
            self.notify(f"cannot save the screenshot to {target}: {e.strerror or e}",
                        severity="error")
            return None
        self.notify(f"screenshot saved to {target}")
        return str(target)

    def after_summary(self, choice: str | None) -> None:
        if choice == "undo":
            self.action_undo()
        else:
            self.exit(0)


def run_full_screen(b: Battle, save_path: Path, resumed: Path | None = None,
                    first: str | None = None) -> int:
    """Play ``b`` full-screen; on leaving, save and say where (and how to come back).
    ``first``: a line the log begins with (the seed a new game drew)."""
    game = ScreenGame(b, save_path, resumed)
    if first:
        game.say(first, "bold")
    app = PlayApp(game, npc_pause=0.4)
    code = 0
    try:
        code = app.run() or 0
    except KeyboardInterrupt:
        code = INTERRUPTED
    game.save(quiet=True)
    for text, _ in game.take_notes():
        if text.startswith("cannot save"):
            print(text)
    b = game.b
    if b.over:
        w = b.winner
        print("Draw." if w is None else f"{b.side_names[w]} won.")
    else:
        print(("interrupted; " if code == INTERRUPTED else "")
              + f"saved to {game.save_path}; resume with:")
        print(resume_command(b, game.save_path))
    return code
