"""Numbers of a Fallout 2d20 combatant: target numbers, tag ranks, DR, hit locations,
and the penalties of injuries (seeds 002 and 003; readings in docs/rules/f2d20.md)."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import DR2d20, Stats2d20, Weapon
from wasteland.rules.battle import Combatant
from wasteland.rules.facts import MELEE_SKILLS

# Which SPECIAL attribute a player character's skill is tested with (seed 002, Making an
# Attack; the non-weapon skills follow the published game: Athletics AGI, Medicine INT,
# Survival END)
SKILL_ATTRIBUTE: Final = {
    "small_guns": "agility", "energy_weapons": "perception", "big_guns": "endurance",
    "melee_weapons": "strength", "unarmed": "strength", "explosives": "perception",
    "throwing": "agility", "athletics": "agility", "medicine": "intelligence",
    "survival": "endurance", "speech": "charisma",
}
# the standard hit-location table, by location kind (seed 003, Hit Locations: arms and
# legs are left 9-11 / 15-17 and right 12-14 / 18-20)
DEFAULT_TABLE: Final = ((2, "head"), (8, "torso"), (14, "arm"), (20, "leg"))


def stats(c: Combatant) -> Stats2d20:
    s = c.creature.f2d20
    assert s is not None, f"{c.creature.id} has no f2d20 stat block"
    return s


def is_character(c: Combatant) -> bool:
    return stats(c).special is not None


def target_number(c: Combatant, skill: str, attack: tuple[str, str | None] | None = None
                  ) -> tuple[int, int]:
    """(target number, tag rank) for a test of ``skill``. Characters: attribute + skill,
    tag rank = skill rank when tagged. Creatures: Body or Mind + Melee / Guns / Other."""
    s = stats(c)
    if s.special is not None:
        rank = s.skills.get(skill, 0)  # type: ignore[call-overload]
        tn = s.special[SKILL_ATTRIBUTE[skill]] + rank  # type: ignore[index]
        return tn, rank if skill in s.tags else 0
    attribute, creature_skill = attack if attack else ("body", None)
    if creature_skill is None:
        creature_skill = "melee" if skill in MELEE_SKILLS else (
            "guns" if skill in SKILL_ATTRIBUTE and skill not in ("athletics", "medicine",
                                                                 "survival") else "other")
    base = s.body if attribute == "body" else s.mind
    assert base is not None
    return base + getattr(s, creature_skill), 0


def attack_test(c: Combatant, ws: int) -> tuple[int, int]:
    """Target number and tag rank of an attack with weapon slot ``ws``: fixed by the stat
    block and the weapon, so worked out once and kept with the weapon's native copy."""
    a = c.arm(ws)
    if a.tn < 0:
        assert a.f2d20
        s = stats(c)
        ref = s.attacks[ws] if ws < len(s.attacks) else None
        a.tn, a.tag = target_number(c, a.skill, (ref.attribute, ref.skill) if ref else None)
    return a.tn, a.tag


def medicine_rank(c: Combatant) -> int:
    s = stats(c)
    return s.skills.get("medicine", 0) if s.special is not None else s.other


def location_table(c: Combatant) -> list[tuple[int, str, str]]:
    """(highest d20, location name, kind) rows of the creature's own table, or the standard
    one named by the creature's locations (seed 003, Creatures With Other Hit Locations)."""
    rows = [(h.d20[1], h.name, h.kind) for h in c.creature.hit_locations if h.d20]
    if rows:
        return sorted(rows)
    by_kind: dict[str, str] = {h.kind: h.name for h in c.creature.hit_locations}
    return [(hi, by_kind.get(kind, kind), kind) for hi, kind in DEFAULT_TABLE]


def location_of_kind(c: Combatant, kind: str) -> str:
    for h in c.creature.hit_locations:
        if h.kind == kind:
            return h.name
    return kind


def kind_of(c: Combatant, location: str) -> str:
    for h in c.creature.hit_locations:
        if h.name == location:
            return h.kind
    return location


def dr(c: Combatant, location: str, damage_type: str) -> int:
    """DR of a location against a damage type: the location's own DR (by name, then by
    kind) or the creature's general DR, plus armor, less what Breaking took away."""
    s = stats(c)
    block: DR2d20 = s.dr_by_location.get(location) or s.dr_by_location.get(
        kind_of(c, location)) or s.dr
    value = getattr(block, damage_type)
    armor = c.armor.f2d20 if c.armor is not None else None
    if armor is not None:
        value += getattr(armor, damage_type)
    broken = c.cond.get("broken", {}).get(location, 0)
    return max(0, value - broken)


def whole_body(c: Combatant, damage_type: str) -> tuple[int, str]:
    """(DR, location) of the location with the lowest DR against ``damage_type``: what a
    whole-body effect meets (seed 002, Radiation Damage); ties go to the first location
    of the hit-location table."""
    return min(((dr(c, name, damage_type), name) for _hi, name, _k in location_table(c)),
               key=lambda x: x[0])


def melee_bonus(c: Combatant, w: Weapon) -> int:
    """Extra CD of a character's melee or unarmed attack from Strength (reading, the
    published game: +1 at STR 7-8, +2 at 9-10, +3 at 11+); creatures none (their attacks'
    CD already include it, as in published creature blocks)."""
    s = stats(c)
    if s.special is None or w.f2d20 is None or w.f2d20.skill not in MELEE_SKILLS:
        return 0
    strength = s.special["strength"]
    return 3 if strength >= 11 else 2 if strength >= 9 else 1 if strength >= 7 else 0


def boosts_with_ap(w: Weapon) -> bool:
    """Whether extra CD are bought with AP (melee, unarmed and thrown weapons) rather than
    ammunition (seed 002/003, Increasing Damage). Thrown: the Throwing skill, or an
    Explosives weapon without a magazine (a grenade; reading: one with a magazine is a
    launcher firing rounds)."""
    p = w.f2d20
    assert p is not None
    return (p.skill in MELEE_SKILLS or p.skill == "throwing"
            or (p.skill == "explosives" and w.magazine == "none"))


def injuries(c: Combatant, kind: str | None = None) -> int:
    """Injuries are kept by location kind in ``crippled`` (the field PnP uses for limbs)."""
    if kind is not None:
        return c.crippled.get(kind, 0)
    return sum(c.crippled.values())


def usable(c: Combatant, w: Weapon) -> bool:
    """An injured arm cannot hold a two-handed weapon; two injured arms, any held weapon."""
    return hands_hold(c, w.hands)


def hands_hold(c: Combatant, hands: int) -> bool:
    """``usable`` for a weapon held in ``hands`` hands (0: not held)."""
    if hands == 0:
        return True
    arms = c.crippled.get("arm", 0)
    return arms == 0 or (arms == 1 and hands == 1)


def test_penalty(c: Combatant) -> int:
    """Difficulty added to every test by a head injury (reading)."""
    return c.crippled.get("head", 0)
