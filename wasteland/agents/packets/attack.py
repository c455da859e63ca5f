"""The packet agent's attacks: whom it strikes at odds the packet accepts, what it does
first (PnP: top up, take cover; 2d20: aim, drop prone), and where it aims (called shots)."""

from __future__ import annotations

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import LOCATIONS, Action
from wasteland.rules.battle import Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .movement import _lie_low
from .odds import _spot_worth, pnp_shot_value
from .packet import Core, _costs, _floor, _odds
from .traits import aims, temper
from .weapons import _area_blocked


def _strike(k: Core, view: View, me: Combatant, t: Combatant, p: AIPacket, why: str,
            enemies: list[Combatant]) -> Action | None:
    """Attack ``t`` or, when it is out of reach, whoever is in reach, at odds the packet
    accepts; 2d20: aim first with a free minor action, and pay AP for another attack
    only at fair odds."""
    b = view.battle
    g = b.grid
    minor, major, pool = _costs(b, me)
    if major > pool:
        return None
    floor = _floor(b, p)
    # an AP economy (2d20): its free minor action may go on a prone, a burrow or Aim
    free_minor = tactics_of(b).ap_economy and minor == 0
    order = [t] + sorted((e for e in enemies if e is not t),
                         key=lambda e: (g.dist(me.pos, e.pos), e.slot))
    for i, e in enumerate(order):
        if not k.legal(view, Action("attack", e.slot)):
            continue
        blocked = _area_blocked(b, me, me.active_weapon, e, p)
        if blocked:
            if e is t:
                k.note += f" (holds its {me.weapon.name}: {blocked})"
            continue
        chance, _ = _odds(view, me, e, None, p)
        if chance < floor:
            continue
        if major and chance < 0.5 - 0.3 * p.aggression / 100:
            continue  # another attack costs AP: only at fair odds
        reason = why if i == 0 else f"in reach while {t.id} is not"
        first = _small_first(k, view, me, e, enemies, p)
        if first is not None:
            return first
        if free_minor and not me.cond.get("prone"):
            low, how = _lie_low(view, me, p, enemies)
            if low and k.legal(view, Action("prone")):
                return k.say(Action("prone"), f"drops prone before shooting {e.id} "
                                                  f"rather than aim: {how}")
        if (free_minor and _burrower(me)
                and k.legal(view, Action("cover"))):
            # learned from the trained radscorpions (issue 10, item 9): in reach at the
            # start of its turn, a burrower that goes under first strikes from the
            # burrow, a sneak attack, and cannot be targeted until it does
            return k.say(Action("cover"), f"burrows, then strikes {e.id} from below "
                                              f"(a sneak attack)")
        if (free_minor and k.legal(view, Action("aim"))
                and me.cond.get("attacked") != b.round and not _burrower(me)):
            return k.say(Action("aim"), f"takes aim at {e.id} before attacking "
                                            f"({chance:.0%} to hit)")
        return _attack(k, view, me, e, p, reason, chance, extra_ap=major)
    return None


def _small_first(k: Core, view: View, me: Combatant, t: Combatant,
                 enemies: list[Combatant], p: AIPacket) -> Action | None:
    """PnP: an attack taken first forgoes the small action, so before attacking ``t``
    it tops up a gun loaded round by round, or steps into cover from enemy guns when
    it can still shoot ``t`` from there (the ruleset's cover within a move, and its
    reach from there)."""
    b = view.battle
    if view.decision.slot != "small":  # a turn with a Small action first (PnP)
        return None
    w = me.weapon
    st = me.wstate
    if (w.magazine == "internal" and st.loaded < w.capacity
            and k.legal(view, Action("reload"))):
        return k.say(Action("reload"), f"tops up {w.name} ({st.loaded}/{w.capacity}) "
                                           f"before attacking {t.id}")
    g = b.grid
    guns = [e for e in enemies if e.weapon.kind == "ranged"]
    if (not guns or w.kind != "ranged" or g.cover[me.pos] or p.distance == "stay"
            or any(g.dist(me.pos, e.pos) <= 1 for e in enemies)
            or not k.legal(view, Action("cover"))):
        return None

    tac = tactics_of(b)
    cell = tac.cover_within_move(b, me)
    if cell is None:
        return None

    start = me.pos
    me.pos = cell  # what-if: can it still shoot from there; put back at once
    try:  # the ruleset's own test: sight, range, and no full cover at either end
        ok = tac.can_attack(b, me, t, me.active_weapon)
    finally:
        me.pos = start
    if not ok:
        return None
    return k.say(Action("cover"), f"takes cover from {guns[0].id}'s "
                                      f"{guns[0].weapon.name}, then shoots {t.id}")


def _burrower(me: Combatant) -> bool:
    s = me.creature.f2d20
    return s is not None and "burrow" in s.abilities


def _attack(k: Core, view: View, me: Combatant, t: Combatant, p: AIPacket, why: str,
            chance: float, extra_ap: int = 0) -> Action:
    b = view.battle
    location = None
    kind = "attack"
    aim = ""
    plain = chance
    if p.called_freq and tactics_of(b).values_shots and any(
            k.legal(view, Action("vats", t.slot, loc)) for loc in LOCATIONS):
        return _vats(k, view, me, t, p, why, chance)
    if p.called_freq and k.rng.random() * 100 < p.called_freq:
        best = -1.0
        floor = _floor(b, p)
        for loc in LOCATIONS:
            worth, purpose = _spot_worth(b, me, t, loc)
            for how in ("vats", "attack"):  # V.A.T.S. first: no penalty, paid with AP
                if not k.legal(view, Action(how, t.slot, loc)):
                    continue
                c2, _ = _odds(view, me, t, None if how == "vats" else loc, p)
                value = c2 * worth
                # a penalty for aiming is paid only when the spot is worth it
                fair = how == "vats" or value >= 0.8 * plain
                if c2 >= floor and fair and value > best + 1e-9:
                    best, location, kind, chance, aim = value, loc, how, c2, purpose
                break
    verb = "charges" if (p.distance == "charge" and b.grid.dist(me.pos, t.pos) <= 1
                         ) else "attacks"
    spot = (f" in the {location}" + (" with V.A.T.S." if kind == "vats" else "")
            + (f" {aim}" if aim else "") + f" ({aims(p.called_freq)})"
            if location else "")
    ap = f", {extra_ap} AP for another attack" if extra_ap else ""
    return k.say(Action(kind, t.slot, location),
                     f"{verb} {t.id}{spot}: {why}, {chance:.0%} to hit, "
                     f"{temper(p.aggression)}{ap}")


def _vats(k: Core, view: View, me: Combatant, t: Combatant, p: AIPacket, why: str,
          chance: float) -> Action:
    """PnP with a Pip-Boy: a V.A.T.S. shot costs no odds, only AP that refill at the
    start of its turn and buy nothing else (seed 000, Called Shots and V.A.T.S.;
    docs/rules/pnp.md), so a packet that calls shots at all (called_freq above 0)
    takes one whenever it is worth more than the plain attack by
    ``odds.pnp_shot_value`` - damage, kill chance, crippling, a crit's effects - and
    never rolls called_freq for it (the trained Vault policies fire V.A.T.S. head
    shots every turn, issue 10)."""
    b = view.battle
    plain, _, _ = pnp_shot_value(b, me, t, None, False)
    best, location, aim = plain, None, ""
    for loc in LOCATIONS:
        if k.legal(view, Action("vats", t.slot, loc)):
            value, _, purpose = pnp_shot_value(b, me, t, loc, True)
            if value > best + 1e-9:
                best, location, aim = value, loc, purpose
    verb = "charges" if (p.distance == "charge" and b.grid.dist(me.pos, t.pos) <= 1
                         ) else "attacks"
    if location is None:
        return k.say(Action("attack", t.slot),
                         f"{verb} {t.id}: {why}, {chance:.0%} to hit, no V.A.T.S. shot "
                         f"worth more than {plain:.1f} HP, {temper(p.aggression)}")
    spot = f" {aim}" if aim else ""
    return k.say(Action("vats", t.slot, location),
                     f"{verb} {t.id} in the {location} with V.A.T.S.{spot}: {why}, "
                     f"{chance:.0%} to hit, worth {best:.1f} HP against {plain:.1f} "
                     f"plain ({aims(p.called_freq)}), {temper(p.aggression)}")
