"""PnP's answers to the tactical questions (rules/tactics.py): its exact odds, damage
after DT or DR, reach, the cover within a move, attacks of opportunity on leaving, and
what a shot is worth (V.A.T.S. against a plain attack), from the rules in this package."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Final

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.dice import Dice
from wasteland.rules.tactics import Tactics, walked_unanswered

from . import movement
from .combat import attack_mods, can_attack, threshold, threshold_value
from .odds import hit_chance, p_3d6_at_least
from .stats import LARGE_ONLY, PAIR_PENALTY, VATS_COST, speed

# --- what a shot is worth, V.A.T.S. against a plain attack --------------------------------
HEAD_PER: Final = 4  # a crippled head costs 4 Perception, so 4 off the roll (stats.perception)
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
    # params: cached on its plain arguments (the packet's V.A.T.S. odds)
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


def _chance(b: Battle, me: Combatant, t: Combatant, extra: int) -> float:
    """The chance that ``me``'s attack on ``t`` with the weapon in hand hits with ``extra``
    more to the roll, as ``odds.hit_chance``."""
    mods, defense, _, _ = attack_mods(b, me, t, me.active_weapon, None, False, False)
    return p_3d6_at_least(defense - sum(v for _, v in mods) - extra)


def _threat_cut(b: Battle, me: Combatant, t: Combatant, loc: str) -> tuple[float, str]:
    """The share of ``t``'s threat to ``me`` that crippling its ``loc`` takes away, and why:
    an arm whose loss leaves it no weapon it can hold (stats.can_wield); the head, its
    chance to hit ``me`` with 4 less Perception against its chance now (stats.perception);
    a leg of a foe that must close in (half Speed, stats.speed)."""
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


def shot_value(b: Battle, me: Combatant, t: Combatant, loc: str | None, vats: bool
               ) -> tuple[float, float, str]:
    """What an attack by ``me`` on ``t`` with the weapon in hand is worth, in HP taken off
    ``t`` or its equivalent, from the exact odds (seed 000, Attacking, Critical Hits,
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


class PnPTactics(Tactics):
    """PnP's answers."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "pnp"
        self.multi_shot = True
        self.staged_reload = True
        self.pairs = True
        self.values_shots = True
        self.vats_cost = dict(VATS_COST)
        self.large_only = frozenset(LARGE_ONLY)
        # taking cover walks to the nearest free square with cover in reach, which someone
        # unseen may stand on or wall off: the true board may have none
        self.refusable = frozenset({"cover"})

    def hit_chance(self, b: Battle, c: Combatant, t: Combatant, location: str | None = None,
                   extra_dice: int = 0) -> float:
        return hit_chance(b, c, t, location)

    def attack_chance(self, b: Battle, c: Combatant, t: Combatant, kind: str,
                      location: str | None = None, extra_dice: int = 0,
                      aim: bool | None = None) -> float:
        """A V.A.T.S. shot takes no penalty for the body part."""
        if kind == "vats":
            return hit_chance(b, c, t, location, vats=True)
        return hit_chance(b, c, t, location)

    def damage_per_hit(self, b: Battle, c: Combatant, i: int, t: Combatant) -> float:
        """The mean damage less DT (at least 1), or reduced by a resistance in percent."""
        a = c.arm(i)
        raw = a.damage_mean
        res = threshold_value(t, i, c)
        if a.damage_type == "physical" or a.damage_type == "energy":
            return max(1.0, raw - res)
        return 0.0 if res >= 100 else max(1.0, raw * (100 - res) / 100)

    def can_attack(self, b: Battle, c: Combatant, t: Combatant, ws: int) -> bool:
        return can_attack(b, c, t, ws)

    def pair_hit_chance(self, b: Battle, c: Combatant, t: Combatant) -> float:
        return _chance(b, c, t, PAIR_PENALTY)

    def menu_chances(self, b: Battle, c: Combatant, a: Action) -> tuple[float, ...] | None:
        from .chances import menu_chances

        return menu_chances(b, c, a)

    def shot_value(self, b: Battle, c: Combatant, t: Combatant, location: str | None,
                   vats: bool) -> tuple[float, float, str]:
        return shot_value(b, c, t, location, vats)

    def cover_within_move(self, b: Battle, c: Combatant) -> int | None:
        return movement.nearest_cover(b, c)

    def move_end(self, b: Battle, c: Combatant, t: Combatant, kind: str, mode: str
                 ) -> int | None:
        """A 5-ft step's square, or where a walk of Speed squares stops; None while a
        walk is paused for a reaction."""
        if kind == "step":
            if mode == "toward":
                step = movement.step_toward(b, c, t.pos)
            else:
                step = movement.step_away(b, c, t.pos)
            return c.pos if step is None else step
        if b.pending_move is not None:
            return None
        slot = t.slot

        def walk() -> None:
            movement.walk(b, c, mode, slot, speed(c), [])

        return walked_unanswered(b, c, walk)

    def threats_on_leaving(self, b: Battle, c: Combatant) -> list[Combatant]:
        return movement.threats_on_leaving(b, c)

    def medicine_rank(self, c: Combatant) -> int:
        return int(c.creature.pnp.medicine)


TACTICS: Final = PnPTactics()
