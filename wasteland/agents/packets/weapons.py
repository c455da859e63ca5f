"""The packet agent's target and weapons: whom its packet picks, which weapons it can
hold and fire, what the packet forbids (area weapons), and when to draw another."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import ACTIVE, Battle, Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View, rounds_ready
from .odds import hit_chance, shot_damage
from .packet import Core, _costs
from .traits import prefers

AREA_RADIUS: Final = 2  # squares around the target an area weapon endangers


def _area_weapon(b: Battle, c: Combatant, i: int) -> bool:
    """Whether weapon slot ``i`` hits around its target, as the ruleset says: splash or
    spread (PnP), burst (2d20; a 2d20 Spread lands its extra hits on the target itself)."""
    return tactics_of(b).area_weapon(c, i)


def weapon_kind(c: Combatant, i: int) -> str:
    kind = c.arm(i).kind
    return "ranged" if kind == "ranged" else ("unarmed" if kind == "unarmed" else "melee")


def _target(b: Battle, me: Combatant, p: AIPacket,
            enemies: list[Combatant]) -> tuple[Combatant, str]:
    """The enemy its packet picks; a foe left with no weapon it can use is picked only
    when every foe is."""
    g = b.grid
    armed = [e for e in enemies if _armed(b, e)]
    enemies = armed or enemies
    if p.attack_who == "weakest":
        t = min(enemies, key=lambda e: (e.hp, g.dist(me.pos, e.pos), e.slot))
        return t, f"weakest enemy (HP {t.hp})"
    if p.attack_who == "strongest":
        t = max(enemies, key=lambda e: (e.hp, -g.dist(me.pos, e.pos), -e.slot))
        return t, f"strongest enemy (HP {t.hp})"
    if p.attack_who == "whomever_attacking_me" and me.last_attacker >= 0:
        t = b.combatants[me.last_attacker]
        if t.status == ACTIVE and t.side != me.side and t in enemies:
            return t, "it attacked me"
    t = min(enemies, key=lambda e: (g.dist(me.pos, e.pos), e.slot))
    return t, "closest enemy"


# --- weapons -------------------------------------------------------------------------
def _can_hold(b: Battle, me: Combatant, hands: int) -> bool:
    """Crippled (PnP) or injured (2d20) arms: a weapon needs hands it has left."""
    return tactics_of(b).can_hold(me, hands)


def _armed(b: Battle, me: Combatant) -> bool:
    """Whether it has a weapon it can hold and fire (or reload: from the ammunition
    carried into a magazine, a ruleset with magazines that a turn's reload fills)."""
    loads = _loads(b)
    for i in range(len(me.weapons)):
        a = me.arm(i)
        if not _can_hold(b, me, a.hands):
            continue
        if (not a.ranged or _rounds(b, me, i) > 0
                or (loads and me.ammo.get(a.ammo or "", 0) > 0)):
            return True
    return False


def _loads(b: Battle) -> bool:
    """Whether an empty gun with ammunition carried counts as armed: a ruleset with
    magazines that a turn's reload fills (PnP). Under phases (Simple) a reload is an
    action phase's whole decision, and whom it targets counts loaded rounds only."""
    tac = tactics_of(b)
    return tac.magazines and not tac.phases


def _can_reach(b: Battle, me: Combatant, i: int, t: Combatant) -> bool:
    """Whether weapon slot ``i`` could attack ``t`` from here (for the weapon in hand
    the legal actions say so exactly; for the others this is an estimate)."""
    a = me.arm(i)
    g = b.grid
    if not g.sight[me.pos][t.pos]:
        return False
    d = g.dist(me.pos, t.pos)
    if not a.ranged:
        return d <= a.reach
    if a.stunted and d * 5 > a.range_ft:
        return False
    return _rounds(b, me, i) > 0


def _rounds(b: Battle, me: Combatant, i: int) -> int:
    """Shots it can fire with weapon slot ``i`` without reloading first (a large number
    for weapons that use no ammunition)."""
    return rounds_ready(b, me, i)


def _area_blocked(b: Battle, me: Combatant, i: int, t: Combatant,
                  p: AIPacket) -> str | None:
    """Why the packet forbids an area weapon on ``t`` (None: it may fire)."""
    if not _area_weapon(b, me, i):
        return None
    g = b.grid
    if p.area_attack_mode == "never":
        return "it never fires area weapons"
    if me.arm(i).splash and g.dist(me.pos, t.pos) <= AREA_RADIUS:
        return f"{t.id} too close to its own blast"
    # a 2d20 burst only carries on into enemies (docs/rules/f2d20.md), so there is no
    # ally to be careful of
    if p.area_attack_mode == "be_careful" and tactics_of(b).friendly_fire:
        friends = [a for a in b.allies_of(me) if g.dist(a.pos, t.pos) <= AREA_RADIUS]
        if friends:
            return f"{friends[0].id} stands near {t.id} (it keeps area fire off its own)"
    return None


def _usable(b: Battle, me: Combatant, i: int, t: Combatant, p: AIPacket) -> bool:
    """Whether weapon slot ``i`` could be used on ``t`` at all, wherever it stands: a
    hand to hold it, rounds to fire (PnP: or to load), and the packet allows it."""
    a = me.arm(i)
    if _area_blocked(b, me, i, t, p) or not _can_hold(b, me, a.hands):
        return False
    return (not a.ranged or _rounds(b, me, i) > 0
            or (_loads(b) and me.ammo.get(a.ammo or "", 0) > 0))


def _score(k: Core, view: View, me: Combatant, i: int, t: Combatant,
           p: AIPacket) -> tuple[float, bool]:
    """(expected damage of an attack with weapon slot ``i`` on ``t``, halved when it
    cannot strike from here; whether it can strike from here at 5% or better). 0 when
    it cannot fire at all or the packet forbids it."""
    b = view.battle
    a = me.arm(i)
    tac = tactics_of(b)
    if not _usable(b, me, i, t, p):
        return 0.0, False
    rounds = _rounds(b, me, i)
    chance = hit_chance(view, me, t, None, i)
    shots = 1.0
    if tac.multi_shot and a.rof > 1:
        shots += max(0.0, min(a.rof, rounds) - 1) * 0.35
    score = chance * shot_damage(view, me, i, t) * shots
    now = _can_reach(b, me, i, t) and chance >= 0.05
    if not now:
        score *= 0.5
    if a.ranged and tac.ap_economy and p.distance != "stay":
        step = _step_back_value(k, view, me, i, t)
        if step > score:  # a step out of reach first, and the shot this turn
            score, now = step, step > 0.0
    if a.ranged and rounds <= 0:
        score *= 0.5  # needs a reload first
    return score, now


def _step_back_value(k: Core, view: View, me: Combatant, i: int, t: Combatant) -> float:
    """An AP economy (2d20): the expected damage of a shot at ``t`` with weapon slot
    ``i`` after stepping out of an enemy's reach with the free minor action (a gun in
    reach pays +2 difficulty); 0 when no enemy is in reach or the step is not to be
    had (the ruleset does not say where it ends)."""
    b = view.battle
    g = b.grid
    close = [e for e in b.enemies_of(me) if g.dist(me.pos, e.pos) <= 1]
    if not close or _costs(b, me)[0]:
        return 0.0
    near = min(close, key=lambda e: e.slot)
    if not k.legal(view, Action("move", near.slot, "away")):
        return 0.0
    cell = tactics_of(b).destination(b, me, near, "away", 1)
    if cell is None or not g.sight[cell][t.pos]:
        return 0.0
    held, start = me.active_weapon, me.pos
    me.active_weapon, me.pos = i, cell  # what-if; put back at once
    try:
        return hit_chance(view, me, t, None, i) * shot_damage(view, me, i, t)
    finally:
        me.active_weapon, me.pos = held, start


def _weapon(k: Core, view: View, me: Combatant, t: Combatant, p: AIPacket) -> Action | None:
    """Draw a better weapon for ``t``: the packet's best_weapon kind when it has one it
    can use, else the best expected damage."""
    b = view.battle
    n = len(me.weapons)
    if n < 2:
        return None
    draws = [i for i in range(n) if i != me.active_weapon
             and k.legal(view, Action("draw", None, str(i)))]
    if not draws:
        return None
    cur = me.active_weapon
    scored = {i: _score(k, view, me, i, t, p) for i in [cur, *draws]}
    scores = {i: v for i, (v, _) in scored.items()}
    want = p.best_weapon
    if want != "any":
        kind = [i for i in scores if weapon_kind(me, i) == want and scores[i] > 0]
        top = max(scores.values())
        # the preferred kind, unless another weapon would do more than twice as much
        if kind and max(scores[i] for i in kind) * 2 >= top:
            if weapon_kind(me, cur) != want:
                best = max(kind, key=lambda i: (scores[i], -i))
                return k.say(Action("draw", None, str(best)),
                                 f"draws {me.weapons[best].name} ({prefers(want)})")
            scores = {i: s for i, s in scores.items() if i in kind}
    if _usable(b, me, cur, t, p) and not any(scored[i][1] for i in scores):
        # nothing reaches t from here: keep the weapon in hand on the way (even when
        # its odds from here are nil: out of sight or range), but a charger closes in
        # with its melee weapon out
        melee = [i for i in scores if weapon_kind(me, i) != "ranged" and scores[i] > 0]
        if p.distance != "charge" or weapon_kind(me, cur) != "ranged" or not melee:
            return None
        best = max(melee, key=lambda i: (scores[i], -i))
        return k.say(Action("draw", None, str(best)),
                         f"draws {me.weapons[best].name} to charge {t.id}")
    best = max(scores, key=lambda i: (scores[i], i == cur, -i))
    if best == cur or scores[best] <= scores.get(cur, 0.0) * 1.25 + 0.05:
        return None
    if cur in scored and scored[cur][1] and not scored[best][1]:
        return None  # never trade a weapon that can strike now for one that cannot
    others = [e for e in b.enemies_of(me)
              if e is not t and k.legal(view, Action("attack", e.slot))]
    if others and max(_score(k, view, me, cur, e, p)[0] for e in others
                      ) * 1.25 + 0.05 >= scores[best]:
        return None  # nor one that strikes another enemy from here as well
    minor, _major, pool = _costs(b, me)
    if minor > pool:
        return None
    blocked = _area_blocked(b, me, cur, t, p)
    why = (blocked if blocked else
           f"expects {scores[best]:.1f} damage a swing against {t.id}, "
           f"not {scores.get(cur, 0.0):.1f}")
    return k.say(Action("draw", None, str(best)),
                     f"draws {me.weapons[best].name}: {why}")
