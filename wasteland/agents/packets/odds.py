"""The packet agent's numbers: the ruleset's chance to hit, a rough expected damage per
hit after armor, and what a called shot at a body part is worth over its odds."""

from __future__ import annotations

from typing import Final

from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.tactics import Tactics, tactics_of

from ..base import View

FLOOR_AP: Final = 0.1  # an AP economy: the least chance it attacks at (else it rallies or defends)


def hit_chance(view: View, me: Combatant, t: Combatant, location: str | None,
               ws: int | None = None, extra_dice: int = 0) -> float:
    """The ruleset's exact chance to hit with weapon slot ``ws`` (default: the one in
    hand) and ``extra_dice`` d20s bought (an AP economy), as the ruleset answers it."""
    held = me.active_weapon
    key = ("hit", me.slot, me.pos, held if ws is None else ws, t.slot, location, extra_dice)
    got = view.memo.get(key)
    if got is not None:
        return got
    b = view.battle
    tac = tactics_of(b)
    if ws is not None:
        me.active_weapon = ws  # the odds read the weapon in hand; put back at once
    try:
        got = tac.hit_chance(b, me, t, location, extra_dice)
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


def damage_per_hit(b: Battle, me: Combatant, i: int, t: Combatant) -> float:
    """A rough expected damage of one hit with weapon slot ``i`` on ``t``, after armor
    (the ruleset's answer)."""
    return tactics_of(b).damage_per_hit(b, me, i, t)


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
    tac = tactics_of(b)
    likely = tac.likely_cripple(t, loc, tac.damage_per_hit(b, me, me.active_weapon, t))
    return 1.0 + bonus * likely, what


def pnp_shot_value(b: Battle, me: Combatant, t: Combatant, loc: str | None, vats: bool
                   ) -> tuple[float, float, str]:
    """What an attack by ``me`` on ``t`` is worth in HP, its chance to hit and what the
    spot is for, as the ruleset prices it (``Tactics.shot_value``; PnP: V.A.T.S.)."""
    tac: Tactics = tactics_of(b)
    return tac.shot_value(b, me, t, loc, vats)
