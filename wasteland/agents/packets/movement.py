"""The packet agent's positioning: a sniper keeping its distance or lying low, a better
square for a shot (2d20), staying close to its leader, closing in, keeping away when
disarmed."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .odds import hit_chance, shot_damage
from .packet import SNIPE_CLOSE, Core, _costs, _zones
from .weapons import _area_blocked, _rounds

STAY_CLOSE: Final = 4  # squares: stay_close keeps within this of its leader


def _lie_low(view: View, me: Combatant, p: AIPacket,
             enemies: list[Combatant]) -> tuple[bool, str]:
    """2d20: whether a hurt sniper lies prone where it stands (shots from another zone
    are +1 against the prone, docs/rules/f2d20.md), and the fact that decides: it must
    hold a gun, be at or under half its HP, have no cover in its zone, no enemy in its
    zone and no brawler in the next (up close the prone are easier to hit)."""
    b = view.battle
    zones = _zones(b)
    if zones is None or p.distance != "snipe" or me.weapon.kind != "ranged":
        return False, "it fights on its feet"
    if me.hp * 2 > me.max_hp:
        return False, f"HP {me.hp}/{me.max_hp}, over half"
    if zones.cover(zones.zone_of[me.pos]):
        return False, "its zone has cover"
    for e in sorted(enemies, key=lambda e: (b.grid.dist(me.pos, e.pos), e.slot)):
        band = zones.band(me.pos, e.pos)
        if band == 0 or (band == 1 and e.weapon.kind != "ranged"):
            return False, f"{e.id} is close, and the prone are easier to hit up close"
    return True, (f"HP {me.hp}/{me.max_hp}, no cover in its zone, no enemy close "
                  "(it keeps its distance)")


def _disarmed(k: Core, view: View, me: Combatant, p: AIPacket,
              enemies: list[Combatant]) -> Action:
    """No weapon it can hold and fire: keep away from the enemies (unless it stays)."""
    g = view.battle.grid
    if p.distance != "stay":
        for e in sorted(enemies, key=lambda e: (g.dist(me.pos, e.pos), e.slot)):
            for kind in ("move", "sprint"):
                a = Action(kind, e.slot, "away")
                if k.legal(view, a):
                    return k.say(a, f"keeps away from {e.id}: no weapon it can use")
    if k.legal(view, Action("defend")):
        return k.say(Action("defend"), "defends itself: no weapon it can use")
    return k.end(view, "no weapon it can use")


def _keep_distance(k: Core, view: View, me: Combatant, p: AIPacket,
                   enemies: list[Combatant]) -> Action | None:
    """A sniper with a gun in hand backs away from an enemy that is too close before it
    shoots: PnP, one within SNIPE_CLOSE squares, in the small action so the large one
    is left for the shot; 2d20, one in reach or a brawler in its zone, with the free
    minor action, when it can still shoot from where the move ends."""
    b = view.battle
    if p.distance != "snipe" or me.weapon.kind != "ranged" or me.cond.get("prone"):
        return None  # prone, a move is a crawl that costs the shot (2d20)
    g = b.grid
    zones = _zones(b)
    if zones is None:
        if b.slot != "small":
            return None
        close = [e for e in enemies if g.dist(me.pos, e.pos) <= SNIPE_CLOSE]
    else:
        minor, major, _pool = _costs(b, me)
        if minor or major:
            return None
        close = [e for e in enemies if g.dist(me.pos, e.pos) <= 1
                 or (e.weapon.kind != "ranged" and zones.band(e.pos, me.pos) == 0)]
    if not close:
        return None
    near = min(close, key=lambda e: (g.dist(me.pos, e.pos), e.slot))
    a = Action("move", near.slot, "away")
    if not k.legal(view, a):
        return None
    if zones is not None and _value_after(k, view, me, near, "away", p) < max(
            1e-9, _shot_value(view, me, enemies, p)[0]):
        return None  # 2d20: only to where the shot is no worse than here
    return k.say(a, f"backs away from {near.id} to shoot from range")


def _shot_value(view: View, me: Combatant, enemies: list[Combatant],
                p: AIPacket) -> tuple[float, Combatant | None]:
    """The best expected damage of a shot from where it stands now, and at whom."""
    b = view.battle
    g = b.grid
    zones = _zones(b)
    sight = g.sight[me.pos]
    best, who = 0.0, None
    for e in enemies:
        if not sight[e.pos]:
            continue
        if _area_blocked(b, me, me.active_weapon, e, p):
            continue
        v = hit_chance(view, me, e, None) * shot_damage(view, me, me.active_weapon, e)
        if v > best:
            best, who = v, e
    if p.distance == "snipe" and any(
            g.dist(me.pos, e.pos) <= 1 or (zones is not None
                                           and not e.arm(e.active_weapon).ranged
                                           and zones.band(me.pos, e.pos) == 0)
            for e in enemies):
        best *= 0.5  # a sniper wants no one in reach of it, nor a brawler in its zone
    return best, who


def _value_after(k: Core, view: View, me: Combatant, t: Combatant, mode: str,
                 p: AIPacket) -> float:
    """2d20: the best shot's expected damage after a move (one zone) toward or away
    from ``t``, asking the ruleset where the move ends; 0 when it cannot say."""
    b = view.battle
    if not k.legal(view, Action("move", t.slot, mode)):
        return 0.0
    cell = tactics_of(b).destination(b, me, t, mode, 1)
    if cell is None:
        return 0.0
    start = me.pos
    me.pos = cell  # what-if: the odds from there; put back at once
    try:
        return _shot_value(view, me, b.enemies_of(me), p)[0]
    finally:
        me.pos = start


def _leader_far(b: Battle, me: Combatant) -> Combatant | None:
    """stay_close: its leader (the first-placed ally still standing) when it has
    strayed more than STAY_CLOSE squares from it; None when it is the leader."""
    allies = b.allies_of(me)
    if not allies:
        return None
    lead = min(allies, key=lambda a: a.slot)
    if lead.slot < me.slot and b.grid.dist(me.pos, lead.pos) > STAY_CLOSE:
        return lead
    return None


def _reposition(k: Core, view: View, me: Combatant, p: AIPacket,
                enemies: list[Combatant]) -> Action | None:
    """A zoned ruleset (2d20), gun in hand, free minor and major actions: a move (the
    minor) to where the shot (the major) has better odds - out of reach, into the
    weapon's range band, out of a zone whose cover shields the target. It asks the
    ruleset where a move ends."""
    b = view.battle
    if (_zones(b) is None or me.weapon.kind != "ranged" or p.distance == "stay"
            or me.cond.get("prone")):
        return None  # prone, a move is a crawl that costs the shot
    if _lie_low(view, me, p, enemies)[0]:
        return None  # hurt and in the open: it lies low where it is, not walk up
    if p.distance == "stay_close" and _leader_far(b, me) is not None:
        return None  # its place is by its leader first
    minor, major, _pool = _costs(b, me)
    if minor or major or _rounds(b, me, me.active_weapon) <= 0:
        return None
    here, _ = _shot_value(view, me, enemies, p)
    best_v, best_a, best_t = here * 1.15 + 0.1, None, None
    for e in enemies:
        for mode in ("toward", "away"):
            v = _value_after(k, view, me, e, mode, p)
            if v > best_v:
                best_v, best_a, best_t = v, Action("move", e.slot, mode), e
    if best_a is None or best_t is None:
        return None
    return k.say(best_a, f"moves {best_a.option} {best_t.id} for a better shot "
                             f"({here:.1f} -> {best_v:.1f} expected damage)")
