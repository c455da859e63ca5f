"""Reading a human's choice among the legal actions: a number from the menu, or the
action's notation where every word may be shortened to an unambiguous prefix
("att rad he" for "attack radscorpion_0 head"); a word typed whole wins over a longer
one it begins ("attack you" is the attack, not "attack2 young_radscorpion_0"), and a
shortened action word means the plain action, not a variant named longer ("att you" is
the attack too; attack2 is typed in full, or as its number). Failing
those, the plain words the menu shows (words.py) match too: "pistol whip raider" for
"whip raider_0", "take out a stim" for "draw_chem stimpak" (whose notation the menu
does not show: it reads as code)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator

from wasteland.rules.actions import GOTO, Action, parse_action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import NotationError, clip
from wasteland.rules.goto import sprinting as goto_sprinting
from wasteland.rules.goto import xy as goto_xy
from wasteland.rules.protocol import Ruleset
from wasteland.rules.words import coded

from .menu import destinations


class ChoiceError(ValueError):
    """Input that names no legal action, or more than one; the message is one line."""


def match(text: str, legal: list[Action], labels: list[str],
          plain: list[str] | None = None, numbered: int | None = None) -> Action:
    """The legal action that ``text`` names (``labels`` are the actions' notations,
    ``plain`` the same in plain words, if any); a number names one of the first
    ``numbered`` (default: all), those the menu shows."""
    words = text.strip().lower().split()
    if not words:
        raise ChoiceError("empty input; type a number from the list, an action, or help")
    if len(words) == 1 and words[0].isascii() and words[0].isdigit() \
            and len(words[0]) <= 6:
        n, top = int(words[0]), len(legal) if numbered is None else numbered
        if 1 <= n <= top:
            return legal[n - 1]
        raise ChoiceError(f"no action number {n}; choose 1-{top}")
    exact = [a for a, lab in zip(legal, labels) if lab.lower().split() == words]
    if exact:
        return exact[0]
    found = []
    for a, lab in zip(legal, labels):
        parts = lab.lower().split()
        if len(parts) == len(words) and all(p.startswith(w) for p, w in zip(parts, words)):
            found.append((a, lab))
    for i, w in enumerate(words):  # a word typed whole wins over the longer ones it begins
        whole = [(a, lab) for a, lab in found if lab.lower().split()[i] == w]
        if whole:
            found = whole
    found = _plain_kind(found)
    if len(found) == 1:
        return found[0][0]
    # what the errors name each action by: its plain words where its notation is code
    shown = {a: p if coded(a) else lab for a, lab, p in zip(legal, labels, plain or labels)}
    if found:
        raise ChoiceError(f"{clip(text)!r} is ambiguous: "
                          f"{', '.join(shown[a] for a, _ in found)}")
    if plain:
        said = [(a, lab) for a, lab, p in zip(legal, labels, plain) if _says(p, words)]
        if len(said) == 1:
            return said[0][0]
        if said:
            raise ChoiceError(f"{clip(text)!r} is ambiguous: "
                              f"{', '.join(shown[a] for a, _ in said)}")
    raise ChoiceError(f"{clip(text)!r} is not a legal action now; legal: "
                      f"{', '.join(shown[a] for a in legal)}")


def _plain_kind(found: list[tuple[Action, str]]) -> list[tuple[Action, str]]:
    """Of actions a shortened first word begins, the plain kind over its variants that
    extend it ("att" is attack, not attack2; "ral" is rally, not rally_with): the
    variants are typed in full. Only the action's own word: two targets whose ids
    begin alike (raider_1, raider_10) stay ambiguous."""
    kinds = {lab.lower().split()[0] for _, lab in found}
    base = min(kinds, key=len) if kinds else ""
    if len(kinds) < 2 or not all(k.startswith(base) for k in kinds):
        return found
    return [(a, lab) for a, lab in found if lab.lower().split()[0] == base]


def _says(plain: str, words: list[str]) -> bool:
    """Whether each typed word begins a word of ``plain``, in order ("pis whip rai" says
    "pistol whip raider_0 with 10mm pistol")."""
    parts = plain.lower().replace(",", " ").replace(":", " ").split()
    i = 0
    for w in words:
        while i < len(parts) and not parts[i].startswith(w):
            i += 1
        if i == len(parts):
            return False
        i += 1
    return True


def choose(text: str, legal: list[Action], labels: list[str], b: Battle, rs: Ruleset,
           plain: list[str] | None = None, numbered: int | None = None) -> Action:
    """``match``, or a move to a chosen square (``goto X Y``) the decision can reach."""
    words = text.strip().lower().split()
    if words[:1] != [GOTO]:
        return match(text, legal, labels, plain, numbered)
    try:
        a = parse_action(text, b.ids)
    except NotationError as e:
        raise ChoiceError(str(e)) from None
    x, y = goto_xy(a)
    g = b.grid
    can = destinations(b, rs, goto_sprinting(a))
    if not (0 <= x < g.width and 0 <= y < g.height) or g.index(x, y) not in can:
        raise ChoiceError(f"({x}, {y}) cannot be reached now; " + (
            "`reach` lists the squares that can" if can else "no move to a chosen square now"))
    return a


class TerminalLines:
    """The lines a person types at a terminal, read with a ``> `` prompt. The terminal
    already shows each line as it is typed, so the games do not say it again (piped
    input, which nobody sees, is echoed)."""

    shown_as_typed = True

    def __init__(self, read: Callable[[str], str] = input) -> None:
        self.read = read

    def __iter__(self) -> TerminalLines:
        return self

    def __next__(self) -> str:
        try:
            return self.read("> ")
        except EOFError:
            raise StopIteration from None


def typed_lines() -> Iterator[str]:
    """Lines typed at the terminal, or piped in."""
    if sys.stdin.isatty():
        return TerminalLines()
    return iter(sys.stdin.readline, "")


def echoes(lines: Iterator[str]) -> bool:
    """Whether a game says each line it reads (``> line``): not when the terminal shows
    it already."""
    return not getattr(lines, "shown_as_typed", False)
