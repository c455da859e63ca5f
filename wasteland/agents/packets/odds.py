"""The packet agent's numbers: the ruleset's chance to hit, a rough expected damage per
hit after armor, and what a called shot at a body part is worth over its odds."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Final

from wasteland.bestiary.models import Weapon
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.dice import Dice
from wasteland.rules.f2d20 import stats as S
from wasteland.rules.pnp.combat import attack_mods, threshold
from wasteland.rules.pnp.odds import p_3d6_at_least

from ..base import View

EXTRA_DICE_COST: Final = (0, 1, 3, 6)  # 2d20: total AP for 0..3 extra d20s
FLOOR_2D20: Final = 0.1  # 2d20: the least chance it attacks at (else it rallies or defends)


def hit_chance(view: View, me: Combatant, t: Combatant, location: str | None,
               ws: int | None = None, extra_dice: int = 0) -> float:
    """The ruleset's exact chance to hit with weapon slot ``ws`` (default: the one in
    hand) and ``extra_dice`` d20s bought (2d20), or 0.5 for a ruleset that cannot say."""
    held = me.active_weapon
    key = ("hit", me.slot, me.pos, held if ws is None else ws, t.slot, location, extra_dice)
    got = view.memo.get(key)
    if got is not None:
        return got
    fn = getattr(view.ruleset, "hit_chance", None)
    if fn is None:
        return 0.5
    b = view.battle
    if ws is not None:
        me.active_weapon = ws  # the odds read the weapon in hand; put back at once
    try:
        if extra_dice:
            got = float(fn(b, me, t, location, extra_dice=extra_dice))
        else:
            got = float(fn(b, me, t, location))
    finally:
        me.active_weapon = held
    view.memo[key] = got
    return got


def shot_damage(view: View, me: Combatant, i: int, t: Combatant) -> float:
    """``damage_per_hit``, worked out once per decision."""
    key = ("dmg", me.slot, i, t.slot)
    got = view.memo.get(key)
    if got is None:
        got = view.memo[key] = damage_per_hit(view.battle, me, i, t)
    return got


def _pnp_chance(b: Battle, me: Combatant, t: Combatant, extra: int) -> float:
    """PnP: the chance that ``me``'s attack on ``t`` with the weapon in hand hits with
    ``extra`` more to the roll (-8 for two actions at once), as ``pnp.odds.hit_chance``."""

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

    broken = t.cond.get("broken")
    key = ("resist", dtype, tuple(sorted(broken.items())) if broken else ())
    got = t.memo.get(key)
    if got is not None:
        return int(got)
    rows = S.location_table(t)
    lo, total = 0, 0.0
    for hi, name, _kind in rows:
        total += (hi - lo) * S.dr(t, name, dtype)
        lo = hi
    got = t.memo[key] = round(total / 20)
    return got


def damage_per_hit(b: Battle, me: Combatant, i: int, t: Combatant) -> float:
    """A rough expected damage of one hit with weapon slot ``i`` on ``t``, after armor."""
    if b.ruleset == "f2d20":
        a = me.arm(i)
        if a.f2d20:
            n = a.cd
            if a.ranged and a.ammo is not None:  # combat dice bought with ammunition
                n += max(0, min(a.fire_rate, me.ammo.get(a.ammo, 0) - 1))
            return _cd_expected(min(n, 14), a.vicious, a.piercing, _f2d20_resist(t, a.dtype))
    w: Weapon = me.weapons[i]
    raw = _dice_mean(w.damage)
    if b.ruleset == "pnp":

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


# --- PnP: what a shot is worth, V.A.T.S. against a plain attack ---------------------------
HEAD_PER: Final = 4  # PnP: a crippled head costs 4 Perception, so 4 off the roll (pnp.stats.perception)
DISARM: Final = 0.6  # share of a foe's threat an arm crippled out of its weapon's reach takes away
SLOW: Final = 0.15  # share of a melee foe's threat a crippled leg takes away
BLEED_HP: Final = 2.0  # bleeding's worth in HP: 1 a turn until someone spends an action to stop it
PRONE_HP: Final = 1.0  # a leg crit's knock-down: a Small action to stand, and prone attacks on it


@cache
def _dice_dist(text: str) -> tuple[tuple[int, float], ...]:
    """The sums of the dice in ``text`` (bonus included) and their chances."""
    d = Dice.parse(text)
    dist = {d.bonus: 1.0}
    for _ in range(d.count):
        nxt: dict[int, float] = {}
        for s, q in dist.items():
            for f in range(1, d.sides + 1):
                nxt[s + f] = nxt.get(s + f, 0.0) + q / d.sides
        dist = nxt
    return tuple(sorted(dist.items()))


@cache
def _raw_dist(text: str, crit: bool, brutal: float, mult: float, drop: int
              ) -> tuple[tuple[int, float], ...]:
    """One hit's damage before DT, as ``combat.deal_damage`` rolls it: ``drop`` (a drop
    attack's bonus) on each roll, a crit a second roll plus Brutal's share of the first,
    and a head crit on a crippled head x1.5."""
    one = [(r + drop, q) for r, q in _dice_dist(text)]
    if not crit:
        return tuple(one)
    out: dict[int, float] = {}
    for r1, q1 in one:
        for r2, q2 in one:
            raw = int((r1 + r2 + int(brutal * r1)) * mult)
            out[raw] = out.get(raw, 0.0) + q1 * q2
    return tuple(sorted(out.items()))


@lru_cache(maxsize=1 << 14)
def _hit_outcome(text: str, crit: bool, brutal: float, mult: float, drop: int, percent: bool,
                 res: int, hp: int, lethal: int, need: int) -> tuple[float, float, float]:
    """One hit on a target with ``hp`` left: (expected HP it takes, chance it goes down,
    chance it lives with ``need`` or more dealt to the limb, i.e. crippled; need 0: no limb).
    ``percent``: ``res`` is a resistance in percent, else a threshold (combat.deal_damage)."""
    taken = down = cripple = 0.0
    for raw, q in _raw_dist(text, crit, brutal, mult, drop):
        if percent:
            dealt = 0 if res >= 100 else max(1, raw - raw * res // 100)
        else:
            dealt = max(1, raw - res)
        left = hp - dealt
        if lethal and 0 < left <= lethal:
            left -= lethal
        if left <= 0:
            taken += q * hp
            down += q
        else:
            taken += q * dealt
            if need and dealt >= need:
                cripple += q
    return taken, down, cripple


def _threat_cut(b: Battle, me: Combatant, t: Combatant, loc: str) -> tuple[float, str]:
    """The share of ``t``'s threat to ``me`` that crippling its ``loc`` takes away, and why:
    an arm whose loss leaves it no weapon it can hold (pnp.stats.can_wield); the head, its
    chance to hit ``me`` with 4 less Perception against its chance now (pnp.stats.perception);
    a leg of a foe that must close in (half Speed, pnp.stats.speed)."""

    if loc == "arm":
        working = t.loc_counts.get("arm", 0) - t.crippled.get("arm", 0)
        hands = min(w.hands for w in t.weapons)
        return (DISARM, "to disarm it") if hands and working - 1 < hands <= working else (0.0, "")
    if t.crippled.get(loc):
        return 0.0, ""
    if loc == "head":
        mods, defense, _, _ = attack_mods(b, t, me, t.active_weapon, None, False, False)
        need = defense - sum(v for _, v in mods)
        now = p_3d6_at_least(need)
        return (0.0, "") if now <= 0 else (1 - p_3d6_at_least(need + HEAD_PER) / now,
                                           "to spoil its aim")
    return (SLOW, "to slow it") if t.weapon.kind != "ranged" else (0.0, "")


def pnp_shot_value(b: Battle, me: Combatant, t: Combatant, loc: str | None, vats: bool
                   ) -> tuple[float, float, str]:
    """PnP: what an attack by ``me`` on ``t`` with the weapon in hand is worth, in HP taken
    off ``t`` or its equivalent, from the exact odds (seed 000, Attacking, Critical Hits,
    Called Shots and V.A.T.S.): the expected damage of the first hit (a crit with its
    chance), capped at the HP ``t`` has left; for a called shot, the chance it lives
    crippled (25% of its maximum HP dealt to that limb) times the share of its threat that
    takes away times the HP it would have left (cutting its threat by a share is worth as
    much as cutting its remaining life by that share); a crit's bleeding or knock-down.
    Returns (value, chance to hit, what the spot is for)."""

    ws = me.active_weapon
    w = me.weapons[ws]
    mods, defense, _, drop = attack_mods(b, me, t, ws, loc, vats, False)
    need = defense - sum(v for _, v in mods)
    hit = p_3d6_at_least(need)
    luck = me.creature.pnp.luck + w.qualities.lucky
    crit = p_3d6_at_least(need + 10 - luck)
    _, res = threshold(t, w)
    percent = w.damage_type not in ("physical", "energy")
    cut, purpose = (0.0, "") if loc is None else _threat_cut(b, me, t, loc)
    limb = 0
    if cut:
        limb = max(1, -(-t.max_hp // 4) - t.limb_damage.get(loc or "", 0))
    mult = 1.5 if loc == "head" and t.crippled.get("head") else 1.0
    lethal = w.qualities.lethal
    value = 0.0
    for weight, is_crit in ((hit - crit, False), (crit, True)):
        if weight <= 0:
            continue
        taken, down, crippled = _hit_outcome(w.damage, is_crit, w.qualities.brutal,
                                             mult if is_crit else 1.0, drop, percent, res,
                                             t.hp, lethal, limb)
        value += weight * taken
        if crippled:
            value += weight * crippled * cut * max(0.0, t.hp - taken)
        if is_crit and loc is not None:
            if loc == "leg":
                if not t.cond.get("prone"):
                    value += weight * (1 - down) * PRONE_HP
            elif t.creature.kind != "robot" and not t.cond.get("bleeding"):
                value += weight * (1 - down) * BLEED_HP
    if mult > 1 and crit > 0 and not purpose:
        purpose = "for a crit on its crippled head"
    return value, hit, purpose
