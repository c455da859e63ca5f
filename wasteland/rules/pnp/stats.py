"""Derived numbers of a PnP combatant that depend on its condition (crippling, AP)."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import Weapon
from wasteland.rules.battle import Combatant

CALLED_PENALTY: Final = {"head": -4, "arm": -2, "leg": -2}  # seed 000, Called Shots and V.A.T.S.
VATS_COST: Final = {"head": 3, "arm": 2, "leg": 2}
PAIR_PENALTY: Final = -8  # two attacks, or an attack and an item, in one action


def location_count(c: Combatant, kind: str) -> int:
    return c.loc_counts.get(kind, 0)


def speed(c: Combatant) -> int:
    """A crippled leg halves Speed; every leg crippled leaves the creature immobile."""
    base = c.traits().pnp_speed
    if not c.crippled:
        return base
    legs = c.crippled.get("leg", 0)
    if legs == 0:
        return base
    if legs >= max(2, location_count(c, "leg")):
        return 0
    return base // 2


def perception(c: Combatant) -> int:
    """A crippled head lowers Perception by 4."""
    # the block's native copy (rules/facts.py): read for every attack's odds
    return c.traits().pnp_perception - (4 if c.crippled.get("head", 0) else 0)


def free_hands(c: Combatant) -> int:
    arms = c.loc_counts.get("arm", 0)
    return arms - c.crippled.get("arm", 0) if c.crippled else arms


def can_wield(c: Combatant, w: Weapon) -> bool:
    """A crippled arm cannot hold items: two-handed weapons need two working arms."""
    return can_hold(c, w.hands)


def can_hold(c: Combatant, hands: int) -> bool:
    """``can_wield`` of a weapon that takes ``hands`` hands."""
    return hands == 0 or free_hands(c) >= hands


def is_melee(w: Weapon) -> bool:
    return w.kind != "ranged"


def has_round(c: Combatant, slot: int) -> bool:
    return c.arm(slot).magazine == "none" or (c.weapon_states[slot].loaded > 0
                                    and c.weapon_states[slot].reload_step == 0)


# the actions that take a large slot (the ruleset's menus and the tactics' answers read it)
LARGE_ONLY: Final = {"attack", "vats", "attack2", "whip", "ready", "warmup", "first_aid",
                     "extinguish", "prepare", "pair"}


def offhand(c: Combatant) -> int | None:
    """The second one-handed weapon for fighting with two weapons, if any."""
    if c.arm(c.active_weapon).hands != 1:
        return None
    for i in range(len(c.weapons)):
        if i != c.active_weapon and c.arm(i).hands == 1:
            return i
    return None
