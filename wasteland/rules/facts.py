"""What the rules and the packet agent read many times a decision from a combatant's
weapons and stat block, copied once into native fields.

The bestiary's pydantic models are read through pydantic's ``__getattr__`` hook and an
instance dictionary: about 25 ns a field from compiled code, against a few ns for a field
of a compiled class. A 2d20 decision reads some 130 such fields (docs/speed.md). An
``Arm`` holds the fields of one weapon in a combatant's hands, and the creature's numbers
the odds read for it; ``Combatant.arm(i)`` builds it on first use and again whenever the
weapon or the creature changes (compared by identity: a disarm, or a test that swaps a
stat block), so nothing read here can go stale.
"""

from __future__ import annotations

from typing import Any, Final

from wasteland.bestiary.models import RANGES_2D20, SIZES_SIMPLE, Creature, Weapon
from wasteland.rules.dice import Dice

MELEE_SKILLS: Final = ("melee_weapons", "unarmed")  # 2d20 skills of melee weapons


class Arm:
    """One weapon of one combatant: its own fields the hot paths read, its 2d20 profile
    flattened (``f2d20`` false when it has none), and, filled on first use, the 2d20
    attack test (target number, tag rank) of its wielder with it."""

    def __init__(self, creature: Creature, w: Weapon) -> None:
        self.creature = creature
        self.weapon = w
        self.id: str = w.id
        self.kind: str = w.kind
        self.ranged = w.kind == "ranged"
        self.ammo: str | None = w.ammo
        self.hands: int = w.hands
        self.reach: int = w.reach
        self.magazine: str = w.magazine
        self.rof: int = w.rof
        self.range_ft: int = w.range_ft
        self.min_range_ft: int = w.min_range_ft
        q = w.qualities
        self.damage_mean: float = Dice.parse(w.damage).mean  # checked when the bestiary was read
        self.damage_type: str = w.damage_type
        self.armor_piercing: int = q.armor_piercing
        self.armor_vulnerable: float = q.armor_vulnerable
        self.splash: bool = q.splash
        self.area_pnp = bool(q.splash or q.spread)
        self.stunted: bool = q.stunted_range
        self.warm_up: bool = q.warm_up
        self.recharging: int = q.recharging
        self.lobbed: bool = q.lobbed
        self.capacity: int = w.capacity
        p = w.f2d20
        self.f2d20 = p is not None
        self.skill: str = p.skill if p is not None else ""
        self.band: str = p.range if p is not None else ""
        # its place in RANGES_2D20, which each difficulty compares with the range band
        self.band_index: int = RANGES_2D20.index(p.range) if p is not None else 0
        self.cd: int = p.cd if p is not None else 0
        self.fire_rate: int = p.fire_rate if p is not None else 0
        self.dtype: str = p.damage_type if p is not None else ""
        self.burst: bool = p.effects.burst if p is not None else False
        self.vicious: bool = p.effects.vicious if p is not None else False
        self.piercing: int = p.effects.piercing if p is not None else 0
        self.melee2d20 = self.skill in MELEE_SKILLS
        sp = w.simple
        self.simple_skill: str = sp.skill if sp is not None else ""
        self.simple_range: int = sp.range if sp is not None else 0
        self.simple_scope: bool = sp.scope if sp is not None else False
        self.simple_heavy: bool = sp.heavy if sp is not None else False
        # (target number, tag rank) of an attack with it under 2d20; tn < 0: not worked out
        self.tn = -1
        self.tag = 0

    def __reduce__(self) -> tuple[Any, ...]:
        # copied and pickled (with its combatant) by making it again: mypyc's own pickling
        # of a compiled class leaves it unable to be made from interpreted code
        return (Arm, (self.creature, self.weapon))


class Traits:
    """A creature's numbers that the odds read for every attack by it or on it."""

    def __init__(self, creature: Creature) -> None:
        self.creature = creature
        s = creature.f2d20
        self.defense2d20: int = s.defense if s is not None else 0
        abilities = s.abilities if s is not None else []
        self.big = "big" in abilities
        self.little = "little" in abilities
        self.burrow = "burrow" in abilities
        self.radiant = "radiant" in abilities
        self.medic: bool = creature.medic
        self.robot = creature.kind == "robot"
        sp = creature.pnp
        self.pnp_speed: int = sp.speed if sp is not None else 0
        self.pnp_vats: bool = sp.vats if sp is not None else False
        self.pnp_ap: int = sp.ap if sp is not None else 0
        self.pnp_defense: int = sp.defense if sp is not None else 0
        self.pnp_perception: int = sp.perception if sp is not None else 0
        self.pnp_strength: int = sp.strength if sp is not None else 0
        self.pnp_pdt: int = sp.pdt if sp is not None else 0
        self.pnp_edt: int = sp.edt if sp is not None else 0
        self.pnp_rad: int = sp.rad_resistance if sp is not None else 0
        self.pnp_poison: int = sp.poison_resistance if sp is not None else 0
        ss = creature.simple
        # Simple's size as an index of SIZES_SIMPLE (smallest first); -1 without a block
        self.simple_size: int = SIZES_SIMPLE.index(ss.size) if ss is not None else -1
        self.simple_defense: int = ss.defense if ss is not None else 0
        self.simple_skills: dict[str, int] = (
            {str(k): v for k, v in ss.skills.items()} if ss is not None else {})
        self.simple_eyes: int = ss.eyes if ss is not None else 0
        self.simple_legs: int = ss.legs if ss is not None else 0
        self.simple_stances: bool = ss.stances if ss is not None else False

    def __reduce__(self) -> tuple[Any, ...]:
        return (Traits, (self.creature,))
