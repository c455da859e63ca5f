"""PnP's hit chances for the menu's attack-like actions that its other odds do not price
(issue 26, item 5): a two-weapon attack, a pistol whip, an attack paired with a stimpak or
with the other gun's whip. Worked out with the modifiers the engine rolls against, so
the menu's number is the engine's chance."""

from __future__ import annotations

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant

from .combat import attack_mods
from .odds import p_3d6_at_least
from .stats import PAIR_PENALTY, offhand


def menu_chances(b: Battle, c: Combatant, a: Action) -> tuple[float, ...] | None:
    if a.kind not in ("attack2", "whip", "pair") or a.target is None:
        return None
    t = b.combatants[a.target]

    def p(ws: int, whip: bool, extra: int = 0) -> float:
        mods, defense, _, _ = attack_mods(b, c, t, ws, None, False, whip)
        return p_3d6_at_least(defense - sum(v for _, v in mods) - extra)

    main = c.active_weapon
    if a.kind == "whip":
        return (p(main, True),)
    if a.kind == "pair" and a.option == "stimpak":
        return (p(main, False, PAIR_PENALTY),)
    off = offhand(c)
    if off is None:
        return None
    whip = a.kind == "pair"  # pair ... whip: the other gun clubs
    return (p(main, False, PAIR_PENALTY), p(off, whip, PAIR_PENALTY))
