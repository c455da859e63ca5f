"""The packet agent's chems and aid (chem_use): a stimpak with an attack (PnP ``pair``),
putting out fires, first aid (PnP; 2d20 by people only)."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import ACTIVE, UNCONSCIOUS, Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .packet import Core
from .traits import chems

CHEM_BELOW: Final = {"never": 0, "stims_when_hurt": 50, "sometimes": 35, "always": 75}
MEDICS: Final = ("human", "character", "mutant")  # creature kinds that give first aid (2d20)


def _care(k: Core, view: View, me: Combatant, p: AIPacket) -> Action | None:
    """PnP: put out a fire (its own or an adjacent ally's) that would burn at least half
    the HP left; first aid for a bleeding patient (itself or an adjacent ally), or for a
    hurt one (HP at or under the chem_use share, 50% under chem_use never) when no
    healing item will do (none carried, or chem_use never) and it has Medicine ranks."""
    b = view.battle
    tac = tactics_of(b)
    if tac.ap_economy:  # first aid costs the major action: only to save the dying now
        return _care_2d20(k, view, me, p, heal=False)
    if tac.phases:  # Simple's action phase heals by itself (phases.py)
        return None
    g = b.grid
    patients = [me, *sorted(b.allies_of(me), key=lambda a: (g.dist(me.pos, a.pos), a.slot))]
    for c in patients:
        a = Action("extinguish", c.slot)
        if c.burn_left > 0 and c.burn_left * 2 >= c.hp and k.legal(view, a):
            who = "its own fire" if c is me else f"the fire on {c.id}"
            return k.say(a, f"puts out {who}: {c.burn_left} burn damage to come "
                                f"against HP {c.hp}/{c.max_hp}")
    # the chem step before this one has used a healing item when chem_use allows one
    # and it carries one, so a hurt patient reaching here has no healing item to use
    care = CHEM_BELOW[p.chem_use] or CHEM_BELOW["stims_when_hurt"]
    ranks = tac.medicine_rank(me)
    for c in patients:
        a = Action("first_aid", c.slot)
        if not k.legal(view, a):
            continue
        who = "itself" if c is me else c.id
        if c.cond.get("bleeding"):
            return k.say(a, f"gives first aid to {who}: bleeding "
                                f"{c.cond['bleeding']} HP a turn (HP {c.hp}/{c.max_hp})")
        if ranks > 0 and c.hp * 100 <= c.max_hp * care:
            why = chems("never") if p.chem_use == "never" else "no healing item left"
            return k.say(a, f"gives first aid to {who}: HP {c.hp}/{c.max_hp} under "
                                f"{care}%, {why}, Medicine {ranks}")
    return None


def _care_2d20(k: Core, view: View, me: Combatant, p: AIPacket, heal: bool
               ) -> Action | None:
    """2d20 first aid (seed 002), by people (MEDICS; the rules give every creature
    its Other as Medicine, but a ghoul or a robot does not bandage): stabilize a dying
    ally next to it (else its dying tests may kill it); with ``heal`` (its major
    action has nothing better to do: the healing is only its Medicine rank), heal
    itself or an ally next to it, at or under the chem_use share of HP (50% under
    chem_use never), when it has Medicine ranks and no healing item will do (none
    carried, or chem_use never)."""

    b = view.battle
    tac = tactics_of(b)
    if me.creature.kind not in MEDICS:
        return None
    g = b.grid
    near = sorted((c for c in b.combatants if c.side == me.side and c is not me),
                  key=lambda c: (g.dist(me.pos, c.pos), c.slot))
    for c in near:
        a = Action("first_aid", c.slot)
        if c.status == UNCONSCIOUS and c.cond.get("dying") and k.legal(view, a):
            return k.say(a, f"gives first aid to {c.id}: dying, to stabilize it "
                                f"({tac.injuries(c)} injuries)")
    ranks = tac.medicine_rank(me)
    care = CHEM_BELOW[p.chem_use] or CHEM_BELOW["stims_when_hurt"]
    if ranks <= 0 or not heal:
        return None
    for c in [me, *near]:
        a = Action("first_aid", c.slot)
        if c.status == ACTIVE and c.hp * 100 <= c.max_hp * care and k.legal(view, a):
            if p.chem_use != "never" and c is me and any(
                    n > 0 and b.items[i].kind == "healing" for i, n in me.items.items()):
                continue  # its own stimpak first (the chem step), when it can afford it
            why = chems("never") if p.chem_use == "never" else "no healing item to use"
            who = "itself" if c is me else c.id
            return k.say(a, f"gives first aid to {who}: HP {c.hp}/{c.max_hp} under "
                                f"{care}%, {why}, Medicine {ranks}")
    return None
