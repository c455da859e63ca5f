"""The table rules screen (t): the standing rules that answer 2d20's questions for the
player (wasteland/cli/orders.py: buy, boost, aim, end), each with its value and what it
does; Enter (or a click) sets the highlighted one to its next value. They are kept in
the save, as the line game's `set` command keeps them."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from wasteland.cli.orders import MEANING, RULES, cycle_rule, rules_of
from wasteland.rules.battle import Battle

INTRO = ("Table rules: what the game answers for you (logged with why). Enter changes "
         "the highlighted one; Esc closes. On an attack: +/- d20s to buy, a aim first "
         "or not; k keeps the turn open after the next action.")


def rule_option(b: Battle, name: str) -> Text:
    value = rules_of(b)[name]
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{name:<6}{value:<5}", "bold")
    text.append(MEANING[name, value])
    return text


class RulesScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,t", "dismiss", "Close")]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical { width: 90%; max-width: 92; height: auto; max-height: 90%;
                             border: round $accent; background: $surface; }
    RulesScreen OptionList { height: auto; }
    """

    def __init__(self, battle: Battle) -> None:
        super().__init__()
        self.battle = battle

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(INTRO, id="rules-intro")
            yield OptionList(*(Option(rule_option(self.battle, n), id=n) for n in RULES),
                             id="rules-list")

    def on_mount(self) -> None:
        rules = self.query_one("#rules-list", OptionList)
        rules.highlighted = 0
        rules.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        name = event.option.id or ""
        cycle_rule(self.battle, name)
        rules = self.query_one("#rules-list", OptionList)
        rules.replace_option_prompt(name, rule_option(self.battle, name))
