"""The packet agent's spare actions: what it does with a turn that has no attack at odds
it accepts and nowhere to go (2d20: burrow, prone, defend, ready, aid, assist, rally;
PnP: top up the gun, ready), then the end of its turn."""

from __future__ import annotations

from typing import Final

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .aid import _care_2d20
from .movement import _leader_far, _lie_low, _shot_value, _value_after
from .packet import Core, _costs, _floor, _odds, _threats, _zones
from .traits import temper

ASSIST_MIN: Final = 0.4  # 2d20: the least chance of a success its assisting d20 must have


def _manoeuvre(k: Core, view: View, me: Combatant, t: Combatant, p: AIPacket,
               why: str) -> Action:
    b = view.battle
    minor, major, pool = _costs(b, me)
    lead = _leader_far(b, me) if p.distance == "stay_close" else None
    if lead is not None and minor <= pool:
        a = Action("move", lead.slot, "toward")
        if k.legal(view, a):
            return k.say(a, f"keeps close to {lead.id}")
    zones = _zones(b)
    if k.legal(view, Action("attack", t.slot)) and (
            major or (zones is not None and me.weapon.kind == "ranged")):
        # it has struck and another is not worth AP, or a gun that can already fire
        # at it gains nothing by walking closer (a better square was weighed above)
        return _spare(k, view, me, t, p, why)
    if p.distance != "stay" and zones is not None and me.weapon.kind == "ranged":
        here = _shot_value(view, me, b.enemies_of(me), p)[0]
        if here > 0 and _value_after(k, view, me, t, "toward", p) <= here:
            return _spare(k, view, me, t, p, why)  # closer is no better a shot
    if p.distance != "stay":
        kinds = ["move", "sprint"]
        if zones is not None and zones.band(me.pos, t.pos) >= 2:
            kinds = ["sprint", "move"]  # two zones at once when it is far
            if (me.weapon.kind == "ranged" and major == 0
                    and _value_after(k, view, me, t, "toward", p) > 0):
                kinds = ["move", "sprint"]  # one zone, and the major left for a shot
        for kind in kinds:
            cost = minor if kind == "move" else major
            # AP for a move only while the major action is left to strike with
            spare = pool >= cost + (0 if kind == "move" and major == 0 else 2)
            a = Action(kind, t.slot, "toward")
            if cost <= pool and (cost == 0 or spare) and k.legal(view, a):
                verb = {"charge": "charges", "snipe": "closes to shooting range of"}.get(
                    p.distance, "approaches")
                return k.say(a, f"{verb} {t.id}: {why}, {temper(p.aggression)}")
    return _spare(k, view, me, t, p, why)


def _spare(k: Core, view: View, me: Combatant, t: Combatant, p: AIPacket,
           why: str) -> Action:
    """Nothing to attack at odds it accepts and nowhere to go: use what is left of the
    turn (2d20: burrow, ready, defend or rally; PnP: top up the gun, ready)."""
    b = view.battle
    g = b.grid
    minor, major, pool = _costs(b, me)
    hold = " (it holds its post)" if p.distance == "stay" else ""
    if tactics_of(b).ap_economy:  # a minor and a major to spend, AP to bank
        if minor == 0 and k.legal(view, Action("cover")):
            return k.say(Action("cover"), "burrows out of reach until it strikes again")
        enemies = b.enemies_of(me)
        if minor == 0 and not me.cond.get("prone") and k.legal(view, Action("prone")):
            low, how = _lie_low(view, me, p, enemies)
            if low:
                return k.say(Action("prone"), f"drops prone: {how}")
        if major == 0:
            close = [e for e in enemies if g.dist(me.pos, e.pos) <= 1]
            if close and k.legal(view, Action("defend")):
                return k.say(Action("defend"), f"defends against {close[0].id}: no "
                                                   f"attack at odds it accepts{hold}")
            floor = _floor(b, p)
            ready = [e for e in _threats(b, me, enemies)
                     if _odds(view, me, e, None, p)[0] >= floor]
            if ready and k.legal(view, Action("ready")):
                return k.say(Action("ready"), f"readies an attack for {ready[0].id} "
                                                  f"or whoever comes close{hold}")
            coming = [e for e in _threats(b, me, enemies) if e.weapon.kind != "ranged"]
            a = Action("ready_to", None, "defend")
            if coming and p.aggression < 50 and k.legal(view, a):
                return k.say(a, f"readies a Defend for when {coming[0].id} comes "
                                    f"within reach: no attack at odds it accepts "
                                    f"({temper(p.aggression)}){hold}")
            aid = _care_2d20(k, view, me, p, heal=True)
            if aid is not None:
                return k.say(aid, f"{k.last_reason}: no attack at odds it "
                                      f"accepts{hold}")
            helped = _assist(k, view, me, enemies)
            if helped is not None:
                return helped
            rally = _rally_best(k, view, me)
            if rally is not None:
                return k.say(rally, f"{k.last_reason}: no attack on {t.id} at odds it "
                                    f"accepts{hold}")
    else:
        w = me.weapon
        st = me.wstate
        if (b.slot == "small" and w.magazine == "internal" and st.loaded < w.capacity
                and k.legal(view, Action("reload"))):
            return k.say(Action("reload"), f"tops up {w.name} ({st.loaded}/"
                                               f"{w.capacity}) while {t.id} is out of reach")
        if k.legal(view, Action("ready")):
            return k.say(Action("ready"), f"readies an attack: {t.id} out of reach"
                                              f"{hold}")
    if k.legal(view, Action("attack", t.slot)):
        return k.end(view, f"ends its turn: no more attacks on {t.id} worth taking"
                               f"{hold}")
    if (tactics_of(b).can_attack(b, me, t, me.active_weapon)
            or (me.cond and me.cond.get("attacked") == b.round)):
        # in reach, or just attacked (2d20: its major actions, bought ones too, spent):
        # what stops it is the turn, not the distance
        return k.end(view, f"ends its turn: no action left this turn to attack "
                               f"{t.id} with{hold}")
    if p.distance == "stay":
        return k.end(view, f"holds its post: {t.id} out of reach")
    return k.end(view, f"{t.id} out of reach and no way closer this turn")


def _assist(k: Core, view: View, me: Combatant, enemies: list[Combatant]) -> Action | None:
    """2d20, no attack of its own worth its major action: Assist (seed 002) an ally in
    sight that can attack an enemy from where it stands, adding a d20 at the
    creature's own target number for that ally's skill, when that d20 succeeds at
    least ASSIST_MIN of the time (the ally acts before its next turn, when help
    lapses)."""

    b = view.battle
    tac = tactics_of(b)
    g = b.grid
    for ally in sorted(b.allies_of(me), key=lambda a: (g.dist(me.pos, a.pos), a.slot)):
        a = Action("assist", ally.slot)
        w = ally.weapon.f2d20
        if w is None or not k.legal(view, a):
            continue
        foes = [e for e in enemies if tac.can_attack(b, ally, e, ally.active_weapon)]
        if not foes:
            continue
        tn, _tag = tac.target_number(me, w.skill)
        if min(tn, 20) < ASSIST_MIN * 20:
            continue
        return k.say(a, f"assists {ally.id} against {foes[0].id} (1d20 at TN {tn} "
                            f"for {w.skill.replace('_', ' ')}, {min(tn, 20) / 20:.0%} a "
                            f"success): no attack of its own at odds it accepts")
    return None


def _rally_best(k: Core, view: View, me: Combatant) -> Action | None:
    """2d20 Rally (seed 002): END + Survival, or CHA + Speech (a creature: Mind + Other)
    while an ally stands, whichever is expected to bank more AP."""

    tac = tactics_of(view.battle)

    def mean(tn_tag: tuple[int, int]) -> float:
        return tac.mean_successes(tn_tag[0], tn_tag[1], 2)

    plain = Action("rally")
    if not k.legal(view, plain):
        return None
    survival = tac.target_number(me, "survival")
    speech_a = Action("rally_with", None, "speech")
    if k.legal(view, speech_a):
        speech = tac.target_number(me, "speech", ("mind", "other"))
        if mean(speech) > mean(survival):
            k.last_reason = (f"rallies with CHA + Speech (TN {speech[0]}, not "
                                f"{survival[0]} for END + Survival) to gain AP")
            return speech_a
    k.last_reason = f"rallies to gain AP (END + Survival, TN {survival[0]})"
    return plain
