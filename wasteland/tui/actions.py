"""The actions panel: the decision's legal actions under their group headings (move,
attack, items, other), each with its odds; the highlighted one's explanation is shown by
the app. Picking a combatant on the map narrows the list to what acts on it."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from wasteland.rules.actions import Action

from .choices import Choice, grouped


def short_odds(odds: str) -> str:
    """The odds without the expected damage ("61% ~4.3" -> "61%"), for a narrow panel."""
    return odds.split(" ~")[0] if odds.endswith(tuple("0123456789")) else odds


def option_text(c: Choice, width: int, short: bool = False) -> Text:
    """The odds first, in a column ``width`` wide (``short``: without the expected
    damage), then the notation; a row wider than the panel wraps between words, so no
    name is cut."""
    text = Text(overflow="fold")
    odds = short_odds(c.odds) if short else c.odds
    if width:
        text.append(f"{odds:<{width}} ", "dim" if c.hopeless else "bold cyan")
    text.append(c.shown or c.label, "dim" if c.hopeless else "")
    return text


def heading(group: str, cs: list[Choice], short: bool, width: int) -> Text:
    """A group's heading and what its odds column says, in as many words as fit."""
    head = Text(group.upper(), "bold underline")
    if any(c.odds for c in cs):
        says: tuple[str, ...]
        if any(c.odds.endswith(tuple("0123456789")) for c in cs):
            says = ("hit chance", "hit") if short else (
                "hit chance ~expected damage", "hit ~damage", "hit")
        else:
            says = ("what it gives",)
        fit = [w for w in says if not width or len(group) + 2 + len(w) <= width]
        if fit:
            head.append("  " + fit[0], "dim")
    return head


class ActionsPanel(OptionList):
    """Options with id ``a<i>``, ``i`` the choice's index in ``choices``; headings are
    disabled options."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.choices: list[Choice] = []

    def show(self, choices: list[Choice], target: int | None = None,
             keep: Action | None = None, room: int = 0) -> None:
        """``keep``: the action to leave highlighted when it is still shown (a redraw of
        the same decision) and on the picked target, else the first (on the picked
        target). ``room``: the columns a row has (0: no limit); when a row would not
        fit, the odds column drops the expected damage."""
        self.choices = choices
        shown = [c for c in choices if target is None or c.action.target in (None, target)]
        width = max((len(c.odds) for c in shown), default=0)
        short = bool(room) and any(width + 1 + len(c.shown or c.label) > room for c in shown)
        if short:
            width = max((len(short_odds(c.odds)) for c in shown), default=0)
        opts: list[Option] = []
        for group, cs in grouped(shown):
            opts.append(Option(heading(group, cs, short, room), disabled=True))
            for c in cs:
                opts.append(Option(option_text(c, width, short), id=f"a{choices.index(c)}"))
        self.set_options(opts)
        first = next((i for i, o in enumerate(opts) if not o.disabled), None)
        if target is not None:  # the first action on the picked combatant, not 'end'
            first = next((i for i, o in enumerate(opts) if not o.disabled
                          and self.choice_of(o.id) is not None
                          and self.choice_of(o.id).action.target == target), first)  # type: ignore[union-attr]
        if keep is not None and (target is None or keep.target == target):
            first = next((i for i, o in enumerate(opts) if not o.disabled
                          and self.choice_of(o.id) is not None
                          and self.choice_of(o.id).action == keep), first)  # type: ignore[union-attr]
        self.highlighted = first

    def choice_of(self, option_id: str | None) -> Choice | None:
        if not option_id or not option_id.startswith("a"):
            return None
        return self.choices[int(option_id[1:])]

    @property
    def current(self) -> Choice | None:
        o = self.highlighted_option
        return None if o is None else self.choice_of(o.id)
