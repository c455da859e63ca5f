"""Hit chances of the attack-like actions that the rulesets' tactics do not price (issue
26, item 5): a two-weapon attack, a pistol whip, an attack paired with another action
(PnP), a disarm (Simple). Each is worked out with the ruleset's own modifiers (the same
functions the engine rolls against), so the menu's number is the engine's chance.

A two-weapon action makes two attacks: both chances are given, the weapon in hand's
first."""

from __future__ import annotations

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant

EXTRA_KINDS = ("attack2", "whip", "pair", "disarm")


def extra_chances(b: Battle, c: Combatant, a: Action) -> tuple[float, ...] | None:
    """The chances that the attacks of ``a`` hit, or None for another kind (or one the
    ruleset does not have)."""
    if a.kind not in EXTRA_KINDS or a.target is None:
        return None
    t = b.combatants[a.target]
    try:
        if b.ruleset == "pnp":
            return _pnp(b, c, t, a)
        if b.ruleset == "simple":
            return _simple(b, c, t, a)
    except (KeyError, IndexError, ValueError, ZeroDivisionError):
        pass  # a helper that cannot price this one: the menu shows the action bare
    return None


def _pnp(b: Battle, c: Combatant, t: Combatant, a: Action) -> tuple[float, ...] | None:
    from wasteland.rules.pnp.combat import attack_mods
    from wasteland.rules.pnp.odds import p_3d6_at_least
    from wasteland.rules.pnp.ruleset import _offhand
    from wasteland.rules.pnp.tactics import PAIR_PENALTY

    def p(ws: int, whip: bool, extra: int = 0) -> float:
        mods, defense, _, _ = attack_mods(b, c, t, ws, None, False, whip)
        return p_3d6_at_least(defense - sum(v for _, v in mods) - extra)

    main = c.active_weapon
    if a.kind == "whip":
        return (p(main, True),)
    if a.kind == "pair" and a.option == "stimpak":
        return (p(main, False, PAIR_PENALTY),)
    off = _offhand(c)
    if off is None:
        return None
    whip = a.kind == "pair"  # pair ... whip: the other gun clubs
    return (p(main, False, PAIR_PENALTY), p(off, whip, PAIR_PENALTY))


def _simple(b: Battle, c: Combatant, t: Combatant, a: Action) -> tuple[float, ...] | None:
    from wasteland.rules.simple import stats as S
    from wasteland.rules.simple.attack import attack_mods, offhand
    from wasteland.rules.simple.odds import disarm_chance, p_check

    if a.kind == "disarm":
        return (disarm_chance(b, c, t, charge=b.slot == "charge"),)
    if a.kind != "attack2":
        return None
    off = offhand(c)
    if off is None:
        return None

    def p(ws: int) -> float:
        mods, diff, _ = attack_mods(b, c, t, ws, None, paired=True)
        return p_check(c, S.profile(c.weapons[ws]).skill, diff, sum(v for _, v in mods))

    return (p(c.active_weapon), p(off))
