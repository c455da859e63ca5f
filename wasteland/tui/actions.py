"""The actions panel: the decision's legal actions under their group headings (move,
attack, items, other), each with its odds; the highlighted one's explanation is shown by
the app. Picking a combatant on the map narrows the list to what acts on it."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from wasteland.rules.actions import Action

from .choices import Choice, grouped


def option_text(c: Choice, width: int) -> Text:
    """The odds first, in a column ``width`` wide (so a narrow panel crops the notation,
    not the numbers), then the notation."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if width:
        text.append(f"{c.odds:<{width}} ", "bold cyan")
    text.append(c.shown or c.label)
    return text


class ActionsPanel(OptionList):
    """Options with id ``a<i>``, ``i`` the choice's index in ``choices``; headings are
    disabled options."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.choices: list[Choice] = []

    def show(self, choices: list[Choice], target: int | None = None,
             keep: Action | None = None) -> None:
        """``keep``: the action to leave highlighted when it is still shown (a redraw of
        the same decision) and on the picked target, else the first (on the picked
        target)."""
        self.choices = choices
        shown = [c for c in choices if target is None or c.action.target in (None, target)]
        width = max((len(c.odds) for c in shown), default=0)
        opts: list[Option] = []
        for group, cs in grouped(shown):
            head = Text(group.upper(), "bold underline")
            if any(c.odds for c in cs):
                head.append("  " + ("hit chance ~expected damage" if any(
                    c.odds.endswith(tuple("0123456789")) for c in cs) else "what it gives"),
                    "dim")
            opts.append(Option(head, disabled=True))
            for c in cs:
                opts.append(Option(option_text(c, width), id=f"a{choices.index(c)}"))
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
