"""Simple's hit chances for the menu's attack-like actions that its other odds do not
price (issue 26, item 5): a two-weapon attack (both blows) and a disarm. Worked out with
the modifiers the engine rolls against, so the menu's number is the engine's chance."""

from __future__ import annotations

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant

from . import stats as S
from .attack import attack_mods, offhand
from .odds import disarm_chance, p_check


def menu_chances(b: Battle, c: Combatant, a: Action) -> tuple[float, ...] | None:
    if a.target is None:
        return None
    t = b.combatants[a.target]
    if a.kind == "disarm":
        return (disarm_chance(b, c, t, charge=b.slot == "charge"),)
    if a.kind != "attack2":
        return None
    off = offhand(c)
    if off is None:
        return None

    def p(ws: int) -> float:
        mods, diff, _ = attack_mods(b, c, t, ws, None, paired=True)
        return p_check(c, S.skill_of(c, ws), diff, sum(v for _, v in mods))

    return (p(c.active_weapon), p(off))
