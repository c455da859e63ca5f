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

from wasteland.bestiary.models import Creature, Weapon

MELEE_SKILLS: Final = ("melee_weapons", "unarmed")  # 2d20 skills of melee weapons


class Arm:
    """One weapon of one combatant: its own fields the hot paths read, its 2d20 profile
    flattened (``f2d20`` false when it has none), and, filled on first use, the 2d20
    attack test (target number, tag rank) of its wielder with it."""

    def __init__(self, creature: Creature, w: Weapon) -> None:
        self.creature = creature
        self.weapon = w
        self.kind: str = w.kind
        self.ranged = w.kind == "ranged"
        self.ammo: str | None = w.ammo
        self.hands: int = w.hands
        self.reach: int = w.reach
        self.magazine: str = w.magazine
        self.rof: int = w.rof
        self.range_ft: int = w.range_ft
        q = w.qualities
        self.splash: bool = q.splash
        self.area_pnp = bool(q.splash or q.spread)
        self.stunted: bool = q.stunted_range
        p = w.f2d20
        self.f2d20 = p is not None
        self.skill: str = p.skill if p is not None else ""
        self.band: str = p.range if p is not None else ""
        self.cd: int = p.cd if p is not None else 0
        self.fire_rate: int = p.fire_rate if p is not None else 0
        self.dtype: str = p.damage_type if p is not None else ""
        self.burst: bool = p.effects.burst if p is not None else False
        self.vicious: bool = p.effects.vicious if p is not None else False
        self.piercing: int = p.effects.piercing if p is not None else 0
        self.melee2d20 = self.skill in MELEE_SKILLS
        # (target number, tag rank) of an attack with it under 2d20; tn < 0: not worked out
        self.tn = -1
        self.tag = 0

    def __reduce__(self) -> tuple[Any, ...]:
        # copied and pickled (with its combatant) by making it again: mypyc's own pickling
        # of a compiled class leaves it unable to be made from interpreted code
        return (Arm, (self.creature, self.weapon))


class Traits:
    """A creature's numbers that the odds read for every attack on it."""

    def __init__(self, creature: Creature) -> None:
        self.creature = creature
        s = creature.f2d20
        self.defense2d20: int = s.defense if s is not None else 0
        abilities = s.abilities if s is not None else []
        self.big = "big" in abilities
        self.little = "little" in abilities

    def __reduce__(self) -> tuple[Any, ...]:
        return (Traits, (self.creature,))
