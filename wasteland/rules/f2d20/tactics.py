"""Fallout 2d20's answers to the tactical questions (rules/tactics.py): ranges and moves
by zones, its exact odds with d20s bought and Aim, the expected damage of combat dice
after DR, injured arms, the AP economy (extra d20s, the pool), tests against a target
number, from the rules in this package."""

from __future__ import annotations

from typing import Any, Final, cast

from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.tactics import Tactics, dice_mean
from wasteland.rules.zones import Zones, zones_for

from . import stats as S
from .book import book
from .dice import EXTRA_DICE_COST, MAX_POOL
from .movement import Movement
from .odds import aims, outcomes, successes

CRIPPLE_HIT: Final = 5  # damage in one hit that inflicts an injury (seed 003)


# cd_expected's answers by a number packed from its arguments: the odds ask it for every
# weapon against every enemy at each decision, and functools.cache hashes a tuple of four
_CD_KEPT: Final[dict[int, float]] = {}


def cd_expected(n: int, vicious: bool, piercing: int, resist: int) -> float:
    """The expected damage of ``n`` combat dice after ``resist`` DR (faces 1, 2, 0, 0,
    1+effect, 1+effect; Vicious adds 1 per effect, Piercing ignores DR per effect)."""
    if 0 <= n < 64 and 0 <= piercing < 64 and 0 <= resist < 65536:
        key = ((resist * 64 + piercing) * 64 + n) * 2 + (1 if vicious else 0)
        got = _CD_KEPT.get(key)
        if got is None:
            got = _CD_KEPT[key] = _cd_expected(n, vicious, piercing, resist)
        return got
    return _cd_expected(n, vicious, piercing, resist)


def _cd_expected(n: int, vicious: bool, piercing: int, resist: int) -> float:
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


_RESIST_KEYS: Final[dict[str, str]] = {}


def mean_resist(t: Combatant, dtype: str) -> int:
    """The target's DR against ``dtype``, averaged over its hit-location table."""
    broken = t.cond.get("broken")
    key: Any
    if broken:
        key = ("resist", dtype, tuple(sorted(broken.items())))
    else:  # the common case: a key whose hash the string keeps, not a new tuple's
        key = _RESIST_KEYS.get(dtype)
        if key is None:
            key = _RESIST_KEYS[dtype] = "resist " + dtype
    got = t.memo.get(key)
    if got is not None:
        return cast(int, got)  # what the line below keeps: int() would be a Python call
    rows = S.location_table(t)
    lo, total = 0, 0.0
    for hi, name, _kind in rows:
        total += (hi - lo) * S.dr(t, name, dtype)
        lo = hi
    got = t.memo[key] = round(total / 20)
    return got


class F2d20Tactics(Tactics):
    """2d20's answers; ``rules``: the ruleset (its odds, reach and moves are methods)."""

    def __init__(self, rules: Movement) -> None:
        super().__init__()
        self.rules = rules
        self.name = "f2d20"
        self.ap_economy = True
        self.magazines = False  # guns fire from the ammunition carried
        self.friendly_fire = False  # a burst carries on into enemies only
        self.aims = True
        self.extra_dice_cost = EXTRA_DICE_COST
        self.max_pool = MAX_POOL
        self.unit = "band"
        self.move_unit = "zones crossed"
        # a zone move needs a free square to end on, which someone unseen may hold
        self.refusable = frozenset({"move", "sprint"})

    # --- geometry ------------------------------------------------------------------------
    def zones(self, b: Battle) -> Zones | None:
        return zones_for(b.grid)

    def distance(self, b: Battle, a: int, c: int) -> int:
        """The range band between the two squares' zones."""
        return zones_for(b.grid).band(a, c)

    def cover_level(self, b: Battle, pos: int) -> int:
        """The cover of the zone."""
        z = zones_for(b.grid)
        return int(z.cover(z.zone_of[pos]))

    # --- attacks -------------------------------------------------------------------------
    def hit_chance(self, b: Battle, c: Combatant, t: Combatant, location: str | None = None,
                   extra_dice: int = 0) -> float:
        return self.rules.hit_chance(b, c, t, location, extra_dice)

    def attack_chance(self, b: Battle, c: Combatant, t: Combatant, kind: str,
                      location: str | None = None, extra_dice: int = 0,
                      aim: bool | None = None) -> float:
        return self.rules.hit_chance(b, c, t, location, extra_dice, aim)

    def damage_per_hit(self, b: Battle, c: Combatant, i: int, t: Combatant) -> float:
        """The combat dice (with those ammunition buys) after the target's mean DR."""
        a = c.arm(i)
        if a.f2d20:
            n = a.cd
            if a.ranged and a.ammo is not None:  # combat dice bought with ammunition
                n += max(0, min(a.fire_rate, c.ammo.get(a.ammo, 0) - 1))
            return cd_expected(min(n, 14), a.vicious, a.piercing, mean_resist(t, a.dtype))
        return dice_mean(c.weapons[i].damage)

    def boost_damage(self, c: Combatant, ws: int, t: Combatant, location: str, n: int
                     ) -> tuple[float, int] | None:
        """A boost window: the expected damage with ``n`` more combat dice on a hit at
        ``location``, and the DR there; None for a weapon without a 2d20 profile."""
        p = c.weapons[ws].f2d20
        if p is None:
            return None
        dr = S.dr(t, location, p.damage_type)
        return cd_expected(min(p.cd + n, 14), p.effects.vicious, p.effects.piercing, dr), dr

    def can_attack(self, b: Battle, c: Combatant, t: Combatant, ws: int) -> bool:
        return self.rules.can_attack(b, c, t, ws)

    def likely_cripple(self, t: Combatant, location: str, damage: float) -> float:
        return min(1.0, damage / CRIPPLE_HIT)

    def area_weapon(self, c: Combatant, i: int) -> bool:
        """Burst (a Spread lands its extra hits on the target itself)."""
        return c.arm(i).burst

    # --- moving --------------------------------------------------------------------------
    def destination(self, b: Battle, c: Combatant, t: Combatant, mode: str, steps: int
                    ) -> int | None:
        return self.rules._destination(b, zones_for(b.grid), c, t, mode, steps)

    def move_end(self, b: Battle, c: Combatant, t: Combatant, kind: str, mode: str
                 ) -> int | None:
        """A zone move's square: one zone, two for a sprint."""
        return self.destination(b, c, t, mode, 2 if kind == "sprint" else 1)

    def pace_limit(self, c: Combatant, sprint: bool) -> int | None:
        """A move reaches this zone or the next; the destinations a sprint's two."""
        return None if sprint else 1

    # --- the combatant -------------------------------------------------------------------
    def full_hp(self, c: Combatant) -> int:
        """The stat block's HP (radiation lowers the maximum)."""
        return int(S.stats(c).hp)

    def can_hold(self, c: Combatant, hands: int) -> bool:
        """One injured arm still holds a one-handed weapon."""
        if hands == 0:
            return True
        hurt = c.crippled.get("arm", 0)
        return hurt == 0 or (hurt == 1 and hands == 1)

    def medicine_rank(self, c: Combatant) -> int:
        return S.medicine_rank(c)

    def injuries(self, c: Combatant) -> int:
        return S.injuries(c)

    # --- tests ---------------------------------------------------------------------------
    def target_number(self, c: Combatant, skill: str, attrs: tuple[str, str] | None = None
                      ) -> tuple[int, int]:
        if attrs is None:
            return S.target_number(c, skill)
        return S.target_number(c, skill, attrs)

    def mean_successes(self, tn: int, tag: int, dice: int) -> float:
        return sum(k * q for k, q in enumerate(successes(tn, tag, dice)))

    def zero_roll(self, b: Battle, c: Combatant) -> tuple[float, float]:
        """Successes beyond the pool's room are lost; each complication gives the other
        side 1 AP."""
        room = MAX_POOL - int(book(b).pools[c.side])
        tn, tag = S.attack_test(c, c.active_weapon)
        banked = risked = 0.0
        for succ, comp, q in outcomes(tn, tag, 2, 20, aims(b, c)):
            banked += q * min(succ, room)
            risked += q * comp
        return banked, risked
