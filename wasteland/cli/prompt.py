"""Reading a human's choice among the legal actions: a number from the menu, or the
action's notation where every word may be shortened to an unambiguous prefix
("att rad he" for "attack radscorpion_0 head")."""

from __future__ import annotations

from wasteland.rules.actions import GOTO, Action, parse_action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import NotationError, clip
from wasteland.rules.protocol import Ruleset

from .menu import destinations


class ChoiceError(ValueError):
    """Input that names no legal action, or more than one; the message is one line."""


def match(text: str, legal: list[Action], labels: list[str]) -> Action:
    """The legal action that ``text`` names (``labels`` are the actions' notations)."""
    words = text.strip().lower().split()
    if not words:
        raise ChoiceError("empty input; type a number from the list, an action, or help")
    if len(words) == 1 and words[0].isdigit() and len(words[0]) <= 6:
        n = int(words[0])
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise ChoiceError(f"no action number {n}; choose 1-{len(legal)}")
    exact = [a for a, lab in zip(legal, labels) if lab.lower().split() == words]
    if exact:
        return exact[0]
    found = []
    for a, lab in zip(legal, labels):
        parts = lab.lower().split()
        if len(parts) == len(words) and all(p.startswith(w) for p, w in zip(parts, words)):
            found.append((a, lab))
    if len(found) == 1:
        return found[0][0]
    if found:
        raise ChoiceError(f"{clip(text)!r} is ambiguous: {', '.join(lab for _, lab in found)}")
    raise ChoiceError(f"{clip(text)!r} is not a legal action now; legal: {', '.join(labels)}")


def choose(text: str, legal: list[Action], labels: list[str], b: Battle, rs: Ruleset
           ) -> Action:
    """``match``, or a move to a chosen square (``goto X Y``) the decision can reach."""
    words = text.strip().lower().split()
    if words[:1] != [GOTO]:
        return match(text, legal, labels)
    try:
        a = parse_action(text, b.ids)
    except NotationError as e:
        raise ChoiceError(str(e)) from None
    x, y = (int(v) for v in (a.option or "").split())
    g = b.grid
    can = destinations(b, rs)
    if not (0 <= x < g.width and 0 <= y < g.height) or g.index(x, y) not in can:
        raise ChoiceError(f"({x}, {y}) cannot be reached now; " + (
            "`reach` lists the squares that can" if can else "no move to a chosen square now"))
    return a
