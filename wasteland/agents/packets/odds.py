"""The packet agent's numbers: the ruleset's chance to hit, a rough expected damage per
hit after armor, and what a called shot at a body part is worth over its odds."""

from __future__ import annotations

from functools import cache

from wasteland.bestiary.models import Weapon
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.dice import Dice

from ..base import View

EXTRA_DICE_COST = (0, 1, 3, 6)  # 2d20: total AP for 0..3 extra d20s
FLOOR_2D20 = 0.1  # 2d20: the least chance it attacks at (else it rallies or defends)


def hit_chance(view: View, me: Combatant, t: Combatant, location: str | None,
               ws: int | None = None, extra_dice: int = 0) -> float:
    """The ruleset's exact chance to hit with weapon slot ``ws`` (default: the one in
    hand) and ``extra_dice`` d20s bought (2d20), or 0.5 for a ruleset that cannot say."""
    fn = getattr(view.ruleset, "hit_chance", None)
    if fn is None:
        return 0.5
    b = view.battle
    held = me.active_weapon
    if ws is not None:
        me.active_weapon = ws  # the odds read the weapon in hand; put back at once
    try:
        if extra_dice:
            return float(fn(b, me, t, location, extra_dice=extra_dice))
        return float(fn(b, me, t, location))
    finally:
        me.active_weapon = held


def _pnp_chance(b: Battle, me: Combatant, t: Combatant, extra: int) -> float:
    """PnP: the chance that ``me``'s attack on ``t`` with the weapon in hand hits with
    ``extra`` more to the roll (-8 for two actions at once), as ``pnp.odds.hit_chance``."""
    from wasteland.rules.pnp.combat import attack_mods
    from wasteland.rules.pnp.odds import p_3d6_at_least

    mods, defense, _, _ = attack_mods(b, me, t, me.active_weapon, None, False, False)
    return p_3d6_at_least(defense - sum(v for _, v in mods) - extra)


@cache
def _dice_mean(text: str) -> float:
    d = Dice.parse(text)
    return d.count * (d.sides + 1) / 2 + d.bonus


@cache
def _cd_expected(n: int, vicious: bool, piercing: int, resist: int) -> float:
    """2d20: expected damage of ``n`` combat dice after ``resist`` DR (faces 1, 2, 0, 0,
    1+effect, 1+effect; Vicious adds 1 per effect, Piercing ignores DR per effect)."""
    dist: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for _ in range(n):
        nxt: dict[tuple[int, int], float] = {}
        for (d, e), q in dist.items():
            for dd, ee, w in ((1, 0, 1), (2, 0, 1), (0, 0, 2), (1, 1, 2)):
                k = (d + dd, e + ee)
                nxt[k] = nxt.get(k, 0.0) + q * w / 6
        dist = nxt
    total = 0.0
    for (d, e), q in dist.items():
        dmg = d + (e if vicious else 0)
        total += q * max(0, dmg - max(0, resist - piercing * e))
    return total


def _f2d20_resist(t: Combatant, dtype: str) -> int:
    """2d20: the target's DR against ``dtype``, averaged over its hit-location table."""
    from wasteland.rules.f2d20 import stats as S

    rows = S.location_table(t)
    lo, total = 0, 0.0
    for hi, name, _kind in rows:
        total += (hi - lo) * S.dr(t, name, dtype)
        lo = hi
    return round(total / 20)


def damage_per_hit(b: Battle, me: Combatant, i: int, t: Combatant) -> float:
    """A rough expected damage of one hit with weapon slot ``i`` on ``t``, after armor."""
    w: Weapon = me.weapons[i]
    if b.ruleset == "f2d20" and w.f2d20 is not None:
        p = w.f2d20
        n = p.cd
        if w.kind == "ranged" and w.ammo is not None:  # combat dice bought with ammunition
            n += max(0, min(p.fire_rate, me.ammo.get(w.ammo, 0) - 1))
        return _cd_expected(min(n, 14), p.effects.vicious, p.effects.piercing,
                            _f2d20_resist(t, p.damage_type))
    raw = _dice_mean(w.damage)
    if b.ruleset == "pnp":
        from wasteland.rules.pnp.combat import threshold

        _, res = threshold(t, w)
        if w.damage_type in ("physical", "energy"):
            return max(1.0, raw - res)
        return 0.0 if res >= 100 else max(1.0, raw * (100 - res) / 100)
    return raw


def _spot_worth(b: Battle, me: Combatant, t: Combatant, loc: str) -> tuple[float, str]:
    """How much a called shot at ``loc`` is worth over its odds, and what for: an arm
    whose loss leaves ``t`` no weapon it can hold, the head (aim and tests suffer), a leg
    of a foe that must close in to fight; scaled by how likely a hit is to cripple (PnP:
    a quarter of its HP dealt to the limb; 2d20: 5 damage in one hit)."""
    if loc == "arm":
        arms = t.loc_counts.get("arm", 0)
        need = min(w.hands for w in t.weapons)
        bonus, what = ((0.6, "to disarm it")
                       if need and arms and arms - t.crippled.get("arm", 0) - 1 < need
                       else (0.0, ""))
    elif loc == "head":
        bonus, what = (0.3, "to spoil its aim") if not t.crippled.get("head") else (0.0, "")
    elif t.weapon.kind != "ranged" and not t.crippled.get("leg"):
        bonus, what = 0.15, "to slow it"
    else:
        bonus, what = 0.0, ""
    if not bonus:
        return 1.0, ""
    dmg = damage_per_hit(b, me, me.active_weapon, t)
    if b.ruleset == "f2d20":
        likely = min(1.0, dmg / 5)
    else:
        left = max(1, -(-t.max_hp // 4) - t.limb_damage.get(loc, 0))
        likely = min(1.0, dmg / left)
    return 1.0 + bonus * likely, what
