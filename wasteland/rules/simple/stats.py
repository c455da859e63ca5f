"""Reading Simple stat blocks (seed 001; bestiary/models.py StatsSimple, WeaponSimple,
ArmorSimple): skill totals, sizes, stances, Damage Threshold, the difficulty ladder."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import StatsSimple, Weapon, WeaponSimple
from wasteland.rules.battle import Combatant
from wasteland.rules.facts import Traits

# the difficulty ladder of the normal skill check (RULES.md, Simple)
TRIVIAL: Final = 5
VERY_EASY: Final = 10
EASY: Final = 15
AVERAGE: Final = 20
HARD: Final = 25
VERY_HARD: Final = 30
EPIC: Final = 35
# reading (docs/rules/simple.md): an attack is a Very Easy check plus the target's Defense,
# so that a trained shot (a skill total near 8) hits an unarmored target at point blank
# nine times in ten, and the seed's penalties (-2 to -20) decide the rest
ATTACK_BASE: Final = VERY_EASY
ATTACK_BASE_NAME: Final = "Very Easy"

STAND: Final = "stand"
CROUCH: Final = "crouch"
PRONE: Final = "prone"
STANCE_HEXES: Final = {PRONE: 1, CROUCH: 2, STAND: 4}  # seed 001, Move Phase
RUN_HEXES: Final = 8
CHARGE_HEXES: Final = 4  # seed 001, Charge Phase: at most four hexes
STANCE_SHRINK: Final = {STAND: 0, CROUCH: 1, PRONE: 2}  # size categories smaller (seed 001)
# how many times farther a target of each size counts for range (seed 001, Size, Stance
# and Range Penalties), smallest first as SIZES_SIMPLE
SIZE_FACTOR: Final = (4.0, 3.0, 2.0, 1.0, 0.5)
RANGED_SKILLS: Final = frozenset({"guns", "big_guns", "energy_weapons", "throwing"})
MELEE_SKILLS: Final = frozenset({"melee", "unarmed"})


def block(c: Combatant) -> StatsSimple:
    s = c.creature.simple
    assert s is not None, f"{c.creature.id} has no simple stat block"
    return s


def profile(w: Weapon) -> WeaponSimple:
    p = w.simple
    assert p is not None, f"{w.id} has no simple profile"
    return p


def skill_of(c: Combatant, ws: int) -> str:
    """``profile(c.weapons[ws]).skill``, from the weapon's native copy (the odds ask it
    for every weapon and enemy each decision); a weapon without a Simple profile fails as
    ``profile`` does."""
    skill = c.arm(ws).simple_skill
    return skill if skill else profile(c.weapons[ws]).skill


def heavy_weapon(c: Combatant) -> bool:
    """``profile(c.weapon).heavy``, from the native copy (asked at every move)."""
    a = c.arm(c.active_weapon)
    return a.simple_heavy if a.simple_skill else profile(c.weapon).heavy


def traits(c: Combatant) -> Traits:
    """The block's native copy (rules/facts.py), read for every attack's odds; a creature
    without a Simple block fails as ``block`` does."""
    t = c.traits()
    if t.simple_size < 0:
        block(c)
    return t


def skill(c: Combatant, name: str) -> int:
    return traits(c).simple_skills.get(name, 0)


def defense(c: Combatant) -> int:
    """Added to the difficulty of every attack on it."""
    return traits(c).simple_defense


def stance(c: Combatant) -> str:
    return str(c.cond.get("stance", STAND))


def size_index(c: Combatant) -> int:
    """The block's size as an index of SIZES_SIMPLE, smallest first."""
    return traits(c).simple_size


def is_ranged(w: Weapon) -> bool:
    return profile(w).skill in RANGED_SKILLS


def heavy_armor(c: Combatant) -> bool:
    a = c.armor
    return a is not None and a.simple is not None and a.simple.heavy


def dt(c: Combatant, damage_type: str) -> int:
    """The creature's own DT for the type plus its armor's (seed 001, Causing Damage)."""
    own = int(getattr(block(c).dt, damage_type))
    a = c.armor
    if a is not None and a.simple is not None:
        own += int(getattr(a.simple.dt, damage_type))
    return own


def count_of(c: Combatant, part: str) -> int:
    """How many of a body part it has: eyes and legs from the stat block, arms from its
    hit locations (two for a humanoid), one head, torso and groin."""
    if part == "arm":
        return c.loc_counts.get("arm", 0)
    if part == "eye" or part == "leg":
        t = traits(c)
        return t.simple_eyes if part == "eye" else t.simple_legs
    return 1


def all_crippled(c: Combatant, part: str) -> bool:
    """Every one of a part is crippled (seed 001: more than two eyes or legs, the single
    penalty holds until all are crippled)."""
    n = count_of(c, part)
    return n > 0 and c.crippled.get(part, 0) >= n


def move_hexes(c: Combatant, run: bool = False) -> int:
    """Hexes a move covers: by stance (prone 1, crouch 2, stand 4) or running (8); halved,
    rounded down, when every leg is crippled (seed 001, Crippled Effects)."""
    n = RUN_HEXES if run else STANCE_HEXES[stance(c)]
    if all_crippled(c, "leg") and block(c).legs > 0:
        n //= 2
    return n


def charge_hexes(c: Combatant) -> int:
    """The most hexes a charge covers: four, halved (rounded down) when every leg is
    crippled, since a charge is movement (seed 001, Charge Phase; Crippled Effects)."""
    n = CHARGE_HEXES
    if all_crippled(c, "leg") and block(c).legs > 0:
        n //= 2
    return n


def winded(c: Combatant) -> bool:
    """Fatigue at or above current HP: -4 to every skill check (seed 001, Death and
    Fatigue)."""
    f = int(c.cond.get("fatigue", 0))
    return f > 0 and f >= c.hp


def check_penalties(c: Combatant) -> list[tuple[str, int]]:
    """What lowers every skill check the combatant makes: a concussion (reading: the
    crippled head's -2 to IN, PE and AG taken as -2 to checks) and being winded."""
    out: list[tuple[str, int]] = []
    if c.crippled.get("head", 0):
        out.append(("concussion", -2))
    if winded(c):
        out.append(("winded", -4))
    return out
