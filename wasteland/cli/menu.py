"""The numbered menu of a decision as people read it: each legal action's notation, in
plain words where the notation does not read as such (words.py), with what it costs that
the notation does not say (the chance to hit, V.A.T.S.'s AP, a PnP
attack offered in the Small slot that spends the Large action too, a clip reload that
empties the weapon first), laid out so that no item is split across lines.

Only the display changes: the notation (what a player types, what saves hold) stays the
action's own text."""

from __future__ import annotations

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.protocol import Ruleset
from wasteland.rules.words import entry

from .chances import EXTRA_KINDS, extra_chances
from .orders import ATTACKS, aims_first, rules_line

# the kinds whose hit chance the rulesets can state from where everyone stands now
AIMED = ("attack", "vats", "called", "aimed", "charge")


def chance(b: Battle, rs: Ruleset, c: Combatant, a: Action, aim: bool | None = None,
           extra_dice: int = 0) -> float | None:
    """The chance that ``a`` (an attack by ``c``, a Simple charge's blow included) hits,
    or None when it is not one the ruleset can say; 2d20: ``aim`` with Aim's reroll
    (True) or without, whatever ``c`` has done (None: as it stands), and ``extra_dice``
    d20s bought."""
    if a.kind in EXTRA_KINDS:
        got = extra_chances(b, c, a)
        return got[0] if got else None
    if a.kind not in AIMED or a.target is None:
        return None
    t = b.combatants[a.target]
    try:
        return rs.tactics.attack_chance(b, c, t, a.kind, a.option, extra_dice, aim)
    except (KeyError, IndexError, ValueError, ZeroDivisionError):
        return None  # an odds helper that cannot price this one: show the action bare


def _actor(b: Battle) -> Combatant:
    return b.combatants[b.order[b.turn]] if not b.reactions else b.combatants[
        b.reactions[0].reactor]


def chances(b: Battle, rs: Ruleset, a: Action, aim_first: bool = False) -> list[float]:
    """The chance of each attack ``a`` makes (two for a two-weapon attack), none for an
    action that is not an attack the ruleset can price."""
    c = _actor(b)
    both = extra_chances(b, c, a) if a.kind in EXTRA_KINDS else None
    if both is not None and len(both) > 1:  # two attacks at once: each one's chance
        return list(both)
    p = chance(b, rs, c, a, aim=True if aim_first and a.kind in ATTACKS else None)
    return [] if p is None else [p]


def hopeless(b: Battle, rs: Ruleset, a: Action, aim_first: bool = False) -> bool:
    """An attack whose every chance to hit reads 0%: a menu leaves it out (the line
    games) or lists it last, greyed (the full screen), yet it stays legal."""
    ps = chances(b, rs, a, aim_first)
    return bool(ps) and all(round(100 * p) == 0 for p in ps)


def menu_order(b: Battle, rs: Ruleset, legal: list[Action]) -> tuple[list[int], int]:
    """The indices of ``legal`` as a line game's menu numbers them, and how many it
    shows: the actions with a chance first, in table order, then those at 0% to hit
    (not shown, so the numbers typed are the numbers shown; their names still work).
    A menu is left two choices at least: then the 0% ones are shown too, last."""
    first = _aims_first(b, rs, legal)
    out = [hopeless(b, rs, a, first) for a in legal]
    shown = [i for i, h in enumerate(out) if not h]
    order = shown + [i for i, h in enumerate(out) if h]
    return order, len(shown) if len(shown) >= 2 else len(legal)


def _aims_first(b: Battle, rs: Ruleset, legal: list[Action]) -> bool:
    """2d20: whether the menu's attacks aim first (their chances count the reroll)."""
    if b.over or not any(a.kind in ATTACKS for a in legal):
        return False
    return aims_first(b, rs, rs.decider(b).combatant, Action("attack", 0))


def notes(b: Battle, rs: Ruleset, slot: str, a: Action, aim_first: bool = False
          ) -> list[str]:
    """What choosing ``a`` costs or gives that its notation does not say; ``aim_first``
    (2d20, orders.aims_first): an attack aims first, and its chance counts the reroll."""
    c = _actor(b)
    out: list[str] = []
    ps = chances(b, rs, a, aim_first)
    if ps:
        out.append(" and ".join(f"{round(100 * p)}%" for p in ps) + " to hit")
    tac = rs.tactics
    if a.kind == "vats" and a.option in tac.vats_cost:
        out.append(f"{tac.vats_cost[a.option]} AP")
    # a Large-only action offered in the Small slot spends the Small action too
    if slot == "small" and a.kind in tac.large_only:
        out.append("spends both actions")
    if tac.staged_reload:
        if a.kind in ("reload", "prepare") and (a.kind == "reload" or a.option == "reload"):
            w, st = c.weapon, c.wstate
            if w.magazine in ("clip", "complex") and st.reload_step == 0 and st.loaded:
                steps = 2 if w.magazine == "clip" else 3
                left = "the round" if st.loaded == 1 else f"the {st.loaded} rounds"
                out.append(f"empties {left} first: loaded after {steps} actions")
    return out


def destinations(b: Battle, rs: Ruleset, sprint: bool = False) -> dict[int, int]:
    """The squares a `goto` reaches now (none for a ruleset without chosen moves);
    ``sprint``: a `goto X Y sprint`."""
    fn = getattr(rs, "destinations", None)
    return {} if fn is None else dict(fn(b, sprint))


def goto_hint(b: Battle, rs: Ruleset) -> str | None:
    """The line under a menu that offers moving to a chosen square, if it can."""
    can = destinations(b, rs)
    if not can:
        return None
    return f"  or goto X Y, a square in reach ({len(can)} of them: `reach` lists them)"


def reach_text(b: Battle, rs: Ruleset) -> str:
    """Every square a `goto` reaches now, nearest first, as ``(x, y)`` with its steps."""
    can = destinations(b, rs)
    if not can:
        return "no move to a chosen square now"
    g = b.grid
    cells = sorted(can, key=lambda i: (can[i], g.ys[i], g.xs[i]))
    unit = rs.tactics.move_unit
    return f"goto reaches ({unit}): " + ", ".join(f"({g.xs[i]}, {g.ys[i]}) {can[i]}" for i in cells)


def orders_hint(b: Battle, rs: Ruleset, legal: list[Action], width: int) -> list[str]:
    """2d20, the player's own turn: what an answer may add (orders.py) and the table
    rules in force, wrapped at ``width`` columns between words."""
    tac = rs.tactics
    if not tac.ap_economy or b.book.open_window() is not None or b.reactions:
        return []  # the orders (+N, aim, keep) drive an AP economy's turn (2d20)
    import textwrap

    me = b.order[b.turn]
    parts = []
    if any(a.kind in ATTACKS for a in legal):
        costs = tac.extra_dice_cost
        pool = b.book.pool(b.combatants[me].side)
        n = tac.buyable_dice(b, b.combatants[me].side)
        if n:
            parts.append(f"attack +N: N d20s ({'/'.join(map(str, costs[1:n + 1]))}"
                         f" AP, pool {pool})")
        if aims_first(b, rs, me, Action("attack", 0)):
            parts.append("attacks aim first (free now; in the chances), noaim: not")
        elif aims_first(b, rs, me, Action("attack", 0), True):
            parts.append("aim attack ...: aim first")
    parts.append("keep: the turn goes on after it")
    parts.append(f"rules: {rules_line(b)} (set)")
    return textwrap.wrap("; ".join(parts), width, initial_indent="  ",
                         subsequent_indent="  ", break_on_hyphens=False)


def labelled(b: Battle, rs: Ruleset, slot: str, legal: list[Action], labels: list[str]
             ) -> list[str]:
    """The menu's entries (words.entry): each notation, its plain words where it needs
    them ("attack2 raider_0 - two weapons: ..."), or the plain words alone where the
    notation reads as code ("take out a stimpak"); its notes in brackets. ``labels``:
    the notations, kept for callers that pass them."""
    out = []
    me = rs.decider(b).combatant if not b.over else 0
    first = _aims_first(b, rs, legal)
    for a in legal:
        extra = notes(b, rs, slot, a, first)
        text = entry(b, a, me, slot)
        out.append(f"{text} ({', '.join(extra)})" if extra else text)
    return out


def layout(entries: list[str], width: int, indent: str = "  ") -> list[str]:
    """``1) entry   2) entry ...`` in lines of at most ``width`` columns, never splitting
    an entry (one longer than a line gets a line of its own)."""
    lines: list[str] = []
    line = ""
    for i, e in enumerate(entries, 1):
        item = f"{i}) {e}"
        if line and len(indent) + len(line) + 3 + len(item) > width:
            lines.append(indent + line)
            line = item
        else:
            line = f"{line}   {item}" if line else item
    if line:
        lines.append(indent + line)
    return lines
