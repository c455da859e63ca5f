"""The help screen: the keys, the map's marks, and the rules of the fight's ruleset in
short (our own summary of the seeds; docs/rules/ has the details and the readings)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS = """\
Keys: Up/Down choose an action, Enter takes it (or click it); Tab / Shift+Tab pick the
next / previous combatant as the target (or click it on the map), Esc shows every action
again; d takes the choice the AI would make in your place; u undoes your last decision;
o your side's chances from here (simulated, about a second); s saves; ? this help;
q saves and quits. 2d20: on an attack, + / - set the d20s to buy (the AI's choice
first), a aims first or not; k keeps the turn open after the next action; t the table
rules that answer for you (buy, boost, aim, end: kept in the save), b the boost rule.
Simple: the move phase ends once the move is spent; k keeps it open (to drop prone).
Map: digits are combatants in their side's colour, underlined when crippled; o down,
+ dying, x dead; # wall, , light cover, = heavy, % full, ^ high ground, ~ obscured;
the combatants the highlighted action can target are in reverse video."""

RULES = {
    "pnp": """\
Fallout PnP. Each turn has a Small and a Large action (and free ones). Attacks roll 3d6
plus skill and modifiers against the target's Defense; 6-6-6 always hits; a crit adds a
second damage roll. Called shots (head, arm, leg) are harder: 25% of maximum HP dealt to
a limb cripples it. V.A.T.S. pays Action Points for a called shot at a better chance.
Damage is reduced by Damage Threshold (physical, energy) or by a percentage (the rest).
Reloading takes an action; a clip reload unloads first. At 0 HP a combatant goes down.""",
    "f2d20": """\
Fallout 2d20. Each turn: one minor and one major action. A test rolls 2d20, each die at
or under the target number (attribute + skill) a success, 1s (and tag rolls) two; the
difficulty is how many successes are needed. Buy up to 3 more d20s with the side's AP
pool (1, 3, 6 AP); extra successes go into the pool. After a hit, combat dice (1, 2, 0,
0, 1+effect, 1+effect) deal damage less the location's DR; more dice cost AP (melee) or
ammunition (guns). 5 damage in one hit injures a location. Defend and Rally spend the
major action; sprinting gives it up.""",
    "simple": """\
J.E. Sawyer's Simple. The map is hexes. Each turn has a move (or a charge) and an
action; sequence rolls set the order. A check rolls 2d10 + skill + modifiers against
a difficulty; range bands, size and cover set it. A hit may crit on the d100; called
shots (eyes, groin, head, limbs) are harder and can blind, stun or cripple. Damage less
Damage Threshold; at 0 HP down, and the dying bleed 1 HP a round. Crouch and evade make you harder to hit.""",
}


def help_text(ruleset: str) -> str:
    """The rules, the keys and the marks, one paragraph each (the screen wraps them)."""
    paras = [RULES.get(ruleset, ""), *KEYS.split("\nMap: ", 1)]
    paras[-1] = "Map: " + paras[-1]
    return "\n\n".join(" ".join(p.split("\n")) for p in paras if p)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "app.pop_screen", "Close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 92; height: 90%;
                                  border: round $accent; background: $surface; }
    """

    def __init__(self, ruleset: str) -> None:
        super().__init__()
        self.ruleset = ruleset

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(help_text(self.ruleset), id="help-text")
