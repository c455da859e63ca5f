"""The packet agent under J.E. Sawyer's Simple (seed 001): a decision per phase. In the
move phase it runs when its packet says so, closes in on its target (running only when a
charge could not reach it anyway) or, with empty hands, on an enemy whose weapon it can
take, stands its ground when it has a shot, and drops to a
crouch or prone, free, to be a smaller target; in the charge phase it charges when the
odds meet its floor; in the action phase it heals, helps a dying ally, clears a jam,
attacks (calling shots at called_freq), takes an enemy's weapon when it has nothing to
strike with, reloads, or watches a cone for the next move."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.simple import stats as SS
from wasteland.rules.simple.attack import can_attack, dice_of, disarmable, held
from wasteland.rules.simple.movement import charge_path
from wasteland.rules.simple.odds import disarm_chance
from wasteland.rules.simple.odds import hit_chance as simple_hit

from ..base import View
from .aid import CHEM_BELOW
from .movement import _leader_far
from .packet import SNIPE_CLOSE, Core, _flee_reason, _floor, _run
from .traits import aims, chems, odds_floor, prefers, temper
from .weapons import _target, weapon_kind

CALLED: Final = ("head", "arm", "leg")
GOOD_SHOT: Final = 0.5  # a shot it stands its ground for rather than closing in
CALL_COST: Final = 0.10  # a called shot may cut the odds this much at most (a limb is worth it)
RUN_MARGIN: Final = 5  # hexes past a standing move (4) plus a charge (4) or so: too far to strike


def _dist(b: Battle, a: int, c: int) -> int:
    from wasteland.rules.hexes import hexes_for

    return hexes_for(b.grid).dist(a, c)


def expected_damage(me: Combatant, ws: int, t: Combatant) -> float:
    """The mean damage of a hit (every round of a burst) after the target's DT per round,
    criticals left out."""
    p = SS.profile(me.weapons[ws])
    d = dice_of(p.damage)
    per = max(0.0, d.count * (d.sides + 1) / 2 + d.bonus - SS.dt(t, p.damage_type))
    return per * p.shots


def _simple(k: Core, view: View, me: Combatant, p: AIPacket) -> Action:
    b = view.battle
    dec = view.decision
    enemies = b.enemies_of(me)
    if not enemies:
        return k.end(view, "no enemy left standing")
    if dec.reaction is not None:
        return _overwatch_fire(k, view, me, p)
    if dec.slot == "move":
        return _move_phase(k, view, me, p, enemies)
    if dec.slot == "charge":
        return _charge_phase(k, view, me, p, enemies)
    return _action_phase(k, view, me, p, enemies)


def _value(b: Battle, me: Combatant, t: Combatant, loc: str | None = None,
           charge: bool = False) -> tuple[float, float]:
    """(chance to hit, expected damage of the attack) with the weapon in hand."""
    ws = me.active_weapon
    h = simple_hit(b, me, t, ws, loc, charge)
    return h, h * expected_damage(me, ws, t)


def _best_shot(view: View, me: Combatant, enemies: list[Combatant]
               ) -> tuple[Combatant | None, float, float]:
    """The enemy it can attack from here with the best expected damage."""
    b = view.battle
    best: tuple[Combatant | None, float, float] = (None, 0.0, 0.0)
    for e in enemies:
        if can_attack(b, me, e, me.active_weapon):
            h, v = _value(b, me, e)
            if v > best[2]:
                best = (e, h, v)
    return best


# --- move phase ----------------------------------------------------------------------
def _move_phase(k: Core, view: View, me: Combatant, p: AIPacket,
                enemies: list[Combatant]) -> Action:
    b = view.battle
    ranged = SS.is_ranged(me.weapon) and held(me, me.active_weapon)  # empty hands close in
    if b.book.main_taken():
        who, h, _v = _best_shot(view, me, enemies)
        if who is not None and h >= _floor(b, p):  # else it moves on next round
            return _settle_stance(k, view, me, p, enemies,
                                       f"after its move, a shot at {who.id}")
        return k.end(view, "after its move")
    flee = _flee_reason(me, p)
    flight = _run(k, view, me, p, enemies, flee)
    if flight is not None:
        return flight
    t, why = _target(b, me, p, enemies)
    if not _can_fire(me, me.active_weapon):
        draw = _draw_usable(k, view, me)
        if draw is not None:
            return draw
    draw = _draw_preferred(k, view, me, p, enemies)
    if draw is not None:
        return draw
    lead = _leader_far(b, me) if p.distance == "stay_close" else None
    if lead is not None and _dist(b, me.pos, t.pos) > 2 * SS.STANCE_HEXES[SS.STAND]:
        # its place is by its leader, unless its target is within a move and a charge
        a = Action("move", lead.slot, "toward")
        if k.legal(view, a):
            return k.say(a, f"keeps close to {lead.id}")
    if p.distance == "stay":
        return _settle_stance(k, view, me, p, enemies, "it holds its post")
    d = _dist(b, me.pos, t.pos)
    if ranged and SS.profile(me.weapon).heavy:
        # a heavy weapon fires only after free actions alone (seed 001): any shot it
        # can take from here beats a move that silences it for the round
        who, h, _v = _best_shot(view, me, enemies)
        if who is not None and h >= _floor(b, p) and h > 0:
            return _settle_stance(k, view, me, p, enemies,
                                       f"a heavy weapon: it fires from here at {who.id} "
                                       f"({h:.0%}) rather than move")
    if ranged:
        close = sorted((e for e in enemies if _dist(b, me.pos, e.pos) <= SNIPE_CLOSE),
                       key=lambda e: (_dist(b, me.pos, e.pos), e.slot))
        if close and p.distance == "snipe" and SS.stance(me) != SS.PRONE:
            a = Action("move", close[0].slot, "away")
            if k.legal(view, a):
                return k.say(a, f"backs away from {close[0].id} to shoot from range "
                                    "(it keeps its distance)")
        who, h, _v = _best_shot(view, me, enemies)
        if who is not None and h >= max(_floor(b, p), GOOD_SHOT):
            return _settle_stance(k, view, me, p, enemies,
                                       f"it has a shot at {who.id} ({h:.0%})")
    elif not held(me, me.active_weapon):
        return _empty_handed_move(k, view, me, p, enemies)
    else:
        reach = me.weapon.reach
        in_reach = [e for e in enemies if _dist(b, me.pos, e.pos) <= reach]
        if in_reach:  # a blow now beats a walk to its chosen target
            who = t if t in in_reach else in_reach[0]
            return _settle_stance(k, view, me, p, enemies, f"{who.id} is within reach")
    st = SS.stance(me)
    if st != SS.STAND and not ranged:
        up = Action("stand" if st == SS.CROUCH else "crouch")
        if k.legal(view, up):
            return k.say(up, f"gets up to close in on {t.id}: {why}")
    run = not ranged and d > 4 + RUN_MARGIN and p.aggression >= 50
    for kind in (("sprint", "move") if run else ("move",)):
        a = Action(kind, t.slot, "toward")
        if k.legal(view, a):
            verb = {"charge": "charges", "snipe": "closes to shooting range of"}.get(
                p.distance, "approaches")
            how = " (running)" if kind == "sprint" else ""
            return k.say(a, f"{verb} {t.id}{how}: {why}, {temper(p.aggression)}")
    return _settle_stance(k, view, me, p, enemies, f"no way closer to {t.id}")


def _empty_handed_move(k: Core, view: View, me: Combatant, p: AIPacket,
                       enemies: list[Combatant]) -> Action:
    """Its hands are empty (disarmed, or nothing left to draw): it closes in on the
    nearest enemy holding a weapon it can take (the action phase's disarm), else keeps
    out of reach, since it cannot strike."""
    b = view.battle
    near = sorted(enemies, key=lambda e: (_dist(b, me.pos, e.pos), e.slot))
    prey = [e for e in near if disarmable(me, e)]
    if prey:
        e = prey[0]
        if _dist(b, me.pos, e.pos) <= 1:
            return k.end(view, f"{e.id} is within a hand's reach: it will take its "
                                   f"{e.weapon.name}")
        for kind in ("move", "sprint"):
            a = Action(kind, e.slot, "toward")
            if k.legal(view, a):
                return k.say(a, f"nothing to strike with: closes in on {e.id} to "
                                    f"take its {e.weapon.name}")
    if p.distance != "stay":
        for e in near:
            a = Action("move", e.slot, "away")
            if k.legal(view, a):
                return k.say(a, f"keeps away from {e.id}: nothing to strike with, "
                                    f"nothing it can take")
    return k.end(view, "nothing to strike with, and nowhere better to be")


def _settle_stance(k: Core, view: View, me: Combatant, p: AIPacket,
                   enemies: list[Combatant], why: str) -> Action:
    """A free drop before the end of its move, when it fights from range: to a crouch
    (one size smaller to shots), or prone for a sniper with no enemy near."""
    b = view.battle
    brawlers = [_dist(b, me.pos, e.pos) for e in enemies if not SS.is_ranged(e.weapon)]
    if brawlers and min(brawlers) <= SS.STANCE_HEXES[SS.STAND] * 2 + 1:
        return k.end(view, why)  # down low it could not get away from a brawler
    if SS.is_ranged(me.weapon) and SS.block(me).stances:
        near = min(_dist(b, me.pos, e.pos) for e in enemies)
        want = "prone" if (p.distance == "snipe" and near > 4) else "crouch"
        st = SS.stance(me)
        if (st == SS.STAND or (want == "prone" and st == SS.CROUCH)) and \
                k.legal(view, Action(want)):
            return k.say(Action(want), f"drops {'prone' if want == 'prone' else 'to a crouch'} "
                                           f"to be harder to hit: {why}")
    return k.end(view, why)


def _draw_preferred(k: Core, view: View, me: Combatant, p: AIPacket,
                    enemies: list[Combatant]) -> Action | None:
    """best_weapon: the kind it prefers, drawn when the one in hand is another kind
    (a melee weapon only with an enemy within its reach); a swap costs the round."""
    want = p.best_weapon
    if want == "any" or weapon_kind(me, me.active_weapon) == want:
        return None
    b = view.battle
    for i, w in enumerate(me.weapons):
        if (i == me.active_weapon or weapon_kind(me, i) != want
                or not _can_fire(me, i) or i in me.cond.get("jammed", ())):
            continue
        if want != "ranged" and not any(_dist(b, me.pos, e.pos) <= w.reach
                                        for e in enemies):
            continue
        a = Action("draw", None, str(i))
        if k.legal(view, a):
            return k.say(a, f"draws {w.name} ({prefers(want)})")
    return None


def _can_fire(me: Combatant, i: int) -> bool:
    """Weapon ``i`` can strike or fire now or after a reload or unload, under Simple's
    rules (a crippled arm is -8 to a two-handed weapon, not a bar: attack.usable)."""
    w = me.weapons[i]
    hands_ok = (w.hands == 0 or not SS.all_crippled(me, "arm")
                or me.loc_counts.get("arm", 0) == 0)
    return hands_ok and held(me, i) and not _spent(me, i)


def _spent(me: Combatant, i: int | None = None) -> bool:
    """Weapon ``i`` (default: the one in hand) fires no more: empty with nothing to
    reload. A jam is not: an unload clears it, a swap would cost the round."""
    i = me.active_weapon if i is None else i
    w = me.weapons[i]
    if w.magazine != "none":
        return me.weapon_states[i].loaded == 0 and me.ammo.get(w.ammo or "", 0) == 0
    return bool(w.ammo) and me.ammo.get(w.ammo or "", 0) == 0


def _draw_usable(k: Core, view: View, me: Combatant) -> Action | None:
    for i in range(len(me.weapons)):
        if (i != me.active_weapon and _can_fire(me, i)
                and i not in me.cond.get("jammed", ())):
            a = Action("draw", None, str(i))
            if k.legal(view, a):
                return k.say(a, f"draws {me.weapons[i].name}: "
                                    f"{me.weapon.name} is out of use")
    return None


# --- charge phase --------------------------------------------------------------------
def _charge_phase(k: Core, view: View, me: Combatant, p: AIPacket,
                  enemies: list[Combatant]) -> Action:
    b = view.battle
    best: tuple[float, float, Combatant | None] = (0.0, 0.0, None)
    start = me.pos
    for e in enemies:
        if not k.legal(view, Action("charge", e.slot)):
            continue
        path = charge_path(b, me, e)
        if path is None:
            continue
        me.pos = path[-1]  # what-if: the attack from where the charge ends
        try:
            h, v = _value(b, me, e, None, True)
        finally:
            me.pos = start
        if v > best[1]:
            best = (h, v, e)
    h, _v, who = best
    if who is not None and h >= _floor(b, p):
        return k.say(Action("charge", who.slot),
                         f"charges {who.id} ({h:.0%} to hit, {temper(p.aggression)})")
    return k.end(view, "no charge worth making")


# --- action phase --------------------------------------------------------------------
def _action_phase(k: Core, view: View, me: Combatant, p: AIPacket,
                  enemies: list[Combatant]) -> Action:
    b = view.battle
    below = CHEM_BELOW[p.chem_use]
    if below and me.hp * 100 <= me.max_hp * below:
        a = Action("stimpak", me.slot)
        if k.legal(view, a):
            return k.say(a, f"HP {me.hp}/{me.max_hp} under {below}%: heals itself "
                                f"({chems(p.chem_use)})")
    for ally in b.combatants:
        if ally.side == me.side and ally is not me and ally.cond.get("bleeding"):
            for kind in ("stimpak", "first_aid"):
                a = Action(kind, ally.slot)
                if k.legal(view, a):
                    return k.say(a, f"keeps {ally.id} from bleeding out ({kind.replace('_', ' ')})")
    if k.legal(view, Action("unload")):
        return k.say(Action("unload"), f"clears the jam in {me.weapon.name}")
    strike = _simple_strike(k, view, me, p, enemies)
    if strike is not None:
        return strike
    grab = _disarm(k, view, me, p, enemies)
    if grab is not None:
        return grab
    w, st = me.weapon, me.wstate
    if k.legal(view, Action("reload")) and st.loaded * 2 <= w.capacity:
        return k.say(Action("reload"), f"reloads {w.name} ({st.loaded}/{w.capacity})")
    near = min(enemies, key=lambda e: (_dist(b, me.pos, e.pos), e.slot))
    a = Action("overwatch", near.slot)
    # a watch costs next round's move: only for those who would hold their ground
    if (p.distance in ("stay", "snipe") and k.legal(view, a)
            and _value(b, me, near)[0] > 0):
        return k.say(a, f"no shot worth taking ({odds_floor(p.min_to_hit)}): watches "
                            f"for {near.id} to move")
    return k.end(view, "nothing worth doing")


def _simple_strike(k: Core, view: View, me: Combatant, p: AIPacket,
                   enemies: list[Combatant]) -> Action | None:
    """Its packet's target if it can strike it at odds it accepts, else the best other
    shot; a called shot (at called_freq) at the spot with the best odds, unless it cuts
    the odds by more than CALL_COST."""
    b = view.battle
    floor = _floor(b, p)
    t, why = _target(b, me, p, enemies)
    ranked = sorted((e for e in enemies if e is not t),
                    key=lambda e: (-_value(b, me, e)[1], e.slot))
    for e in [t] + ranked:
        a = Action("attack", e.slot)
        if not k.legal(view, a):
            continue
        h, v = _value(b, me, e)
        if h < floor or h <= 0:
            continue
        reason = why if e is t else "the best shot it has"
        if p.called_freq and k.rng.random() * 100 < p.called_freq:
            spots = [(_value(b, me, e, loc)[0], loc) for loc in CALLED
                     if k.legal(view, Action("attack", e.slot, loc))]
            if spots:
                hc, loc = max(spots, key=lambda x: (x[0], -CALLED.index(x[1])))
                if hc >= floor and hc >= h - CALL_COST:
                    return k.say(Action("attack", e.slot, loc),
                                     f"attacks {e.id} in the {loc}: {reason}, {hc:.0%} "
                                     f"to hit ({aims(p.called_freq)})")
        return k.say(a, f"attacks {e.id}: {reason}, {h:.0%} to hit, {v:.1f} "
                            f"expected damage")
    return None


def _disarm(k: Core, view: View, me: Combatant, p: AIPacket, enemies: list[Combatant]
            ) -> Action | None:
    """With nothing in hand it can strike with (disarmed, or spent), it takes the
    weapon of an enemy within reach, the likeliest first, at odds its floor accepts."""
    if _can_fire(me, me.active_weapon):
        return None
    b = view.battle
    best: tuple[float, int, Combatant | None] = (0.0, 0, None)
    for e in enemies:
        if k.legal(view, Action("disarm", e.slot)):
            h = disarm_chance(b, me, e)
            if (h, -e.slot) > best[:2]:
                best = (h, -e.slot, e)
    h, _s, who = best
    if who is None or h < _floor(b, p) or h <= 0:
        return None
    return k.say(Action("disarm", who.slot),
                     f"nothing to strike with: takes {who.weapon.name} from {who.id} "
                     f"({h:.0%})")


def _overwatch_fire(k: Core, view: View, me: Combatant, p: AIPacket) -> Action:
    b = view.battle
    t = b.combatants[view.decision.subject or 0]
    a = Action("attack", t.slot)
    if k.legal(view, a):
        h, _v = _value(b, me, t)
        if h > 0 and h >= _floor(b, p):
            return k.say(a, f"fires from overwatch at {t.id} ({h:.0%} to hit)")
    return k.end(view, f"holds its fire at {t.id} ({odds_floor(p.min_to_hit)})")
