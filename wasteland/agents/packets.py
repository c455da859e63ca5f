"""The packet agent: a scripted NPC driven by its creature's AI packet (Fallout 2's
AI.TXT fields), the same under every ruleset. It only ever picks among the legal actions,
and every decision carries a one-line reason a GM can read ("charges ted: closest enemy,
aggression 90").
"""

from __future__ import annotations

import random
from typing import Any

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import ACTION_INDEX, Action
from wasteland.rules.battle import ACTIVE, Battle, Combatant

from .base import View

AREA = ("splash", "spread", "burst")  # qualities / effects that hit around the target
CHEM_BELOW = {"never": 0, "stims_when_hurt": 50, "sometimes": 35, "always": 75}


def hit_chance(view: View, me: Combatant, t: Combatant, location: str | None) -> float:
    """The ruleset's exact chance to hit, or 0.5 for a ruleset that cannot say."""
    fn = getattr(view.ruleset, "hit_chance", None)
    return fn(view.battle, me, t, location) if fn else 0.5


def _area_weapon(c: Combatant, i: int) -> bool:
    w = c.weapons[i]
    if w.qualities.splash or w.qualities.spread:
        return True
    p = w.f2d20
    return bool(p and (p.effects.burst or p.effects.spread))


def is_area(c: Combatant) -> bool:
    return _area_weapon(c, c.active_weapon)


def weapon_kind(c: Combatant, i: int) -> str:
    w = c.weapons[i]
    return "ranged" if w.kind == "ranged" else ("unarmed" if w.kind == "unarmed" else "melee")


class PacketAgent:
    """Plays one combatant by its packet; ``overrides`` replace packet fields (a GM's
    per-fight changes). ``seed`` drives its few coin flips (called shots, aggression)."""

    name = "packet"

    def __init__(self, seed: int = 0, overrides: dict[str, dict[str, Any]] | None = None
                 ) -> None:
        self.rng = random.Random(seed)
        self.overrides = overrides or {}
        self.last_reason = ""
        self._packets: dict[str, AIPacket] = {}

    def packet(self, c: Combatant) -> AIPacket:
        got = self._packets.get(c.id)
        if got is None:
            over = self.overrides.get(c.id)
            got = (AIPacket.model_validate({**c.creature.ai.model_dump(), **over}) if over
                   else c.creature.ai)
            self._packets[c.id] = got
        return got

    # --- helpers -------------------------------------------------------------------------
    def _legal(self, view: View, action: Action) -> bool:
        idx = ACTION_INDEX.get(action)
        return idx is not None and idx in view.legal_ids

    def _say(self, action: Action, reason: str) -> Action:
        self.last_reason = reason
        return action

    def _target(self, b: Battle, me: Combatant, p: AIPacket,
                enemies: list[Combatant]) -> tuple[Combatant, str]:
        g = b.grid
        if p.attack_who == "weakest":
            t = min(enemies, key=lambda e: (e.hp, g.dist(me.pos, e.pos), e.slot))
            return t, f"weakest enemy (HP {t.hp})"
        if p.attack_who == "strongest":
            t = max(enemies, key=lambda e: (e.hp, -g.dist(me.pos, e.pos), -e.slot))
            return t, f"strongest enemy (HP {t.hp})"
        if p.attack_who == "whomever_attacking_me" and me.last_attacker >= 0:
            t = b.combatants[me.last_attacker]
            if t.status == ACTIVE and t.side != me.side:
                return t, "it attacked me"
        t = min(enemies, key=lambda e: (g.dist(me.pos, e.pos), e.slot))
        return t, "closest enemy"

    def _flee_reason(self, me: Combatant, p: AIPacket) -> str | None:
        pct = 100 * me.hp / me.max_hp if me.max_hp else 0
        if p.flee_below and pct <= p.flee_below:
            mode = f"min_hp {p.min_hp}" if p.min_hp else f"run_away_mode {p.run_away_mode}"
            return f"HP {me.hp}/{me.max_hp} at or under {p.flee_below}% ({mode})"
        for part in p.hurt_too_much:
            loc = "head" if part == "blind" else part
            if me.crippled.get(loc, 0):
                return f"{part} hurt too much"
        return None

    # --- deciding ------------------------------------------------------------------------
    def act(self, view: View) -> Action:
        b, me, dec = view.battle, view.me, view.decision
        p = self.packet(me)
        if dec.slot == "dice":
            opts = sorted(int(a.option or 0) for a in view.legal)
            n = 1 if (p.aggression >= 50 and 1 in opts) else 0
            return self._say(Action("buy", None, str(n)),
                             f"buys {n} extra d20 (aggression {p.aggression})")
        if dec.slot == "defend":  # 2d20: 2 AP for one more point of Defense
            n = 1 if (p.aggression < 50 and self._legal(view, Action("boost", None, "1"))) else 0
            return self._say(Action("boost", None, str(n)),
                             f"{'buys' if n else 'saves the AP instead of'} extra Defense "
                             f"(aggression {p.aggression})")
        if dec.slot == "boost":
            opts = sorted(int(a.option or 0) for a in view.legal)
            n = opts[-1] if p.aggression >= 50 else opts[len(opts) // 2]
            return self._say(Action("boost", None, str(n)),
                             f"adds {n} combat dice (aggression {p.aggression})")
        enemies = b.enemies_of(me)
        if dec.reaction is not None:
            return self._react(view, me, p)
        flee = self._flee_reason(me, p)
        g = b.grid
        # chems first when hurt
        below = CHEM_BELOW[p.chem_use]
        if below and me.hp * 100 <= me.max_hp * below:
            a = Action("stimpak", me.slot)
            if self._legal(view, a):
                return self._say(a, f"HP {me.hp}/{me.max_hp} under {below}%: stimpak "
                                    f"(chem_use {p.chem_use})")
        if flee and enemies:
            near = min(enemies, key=lambda e: (g.dist(me.pos, e.pos), e.slot))
            for kind in ("sprint", "move"):
                a = Action(kind, near.slot, "away")
                if self._legal(view, a):
                    return self._say(a, f"flees from {near.id}: {flee}")
        if not enemies:
            return self._end(view, "no enemy left")
        # weapon preference
        want = p.best_weapon
        if want != "any" and weapon_kind(me, me.active_weapon) != want:
            for i in range(len(me.weapons)):
                a = Action("draw", None, str(i))
                if weapon_kind(me, i) == want and self._legal(view, a):
                    return self._say(a, f"draws {me.weapons[i].name} (best_weapon {want})")
        empty = me.weapon.magazine != "none" and me.wstate.loaded == 0 and b.ruleset == "pnp"
        if empty and self._legal(view, Action("reload")):
            return self._say(Action("reload"), f"{me.weapon.name} is empty: reloads")
        t, why = self._target(b, me, p, enemies)
        if is_area(me) and g.dist(me.pos, t.pos) <= 2:  # too close to its own blast
            for i in range(len(me.weapons)):
                a = Action("draw", None, str(i))
                if i != me.active_weapon and self._legal(view, a) and not _area_weapon(me, i):
                    return self._say(a, f"draws {me.weapons[i].name}: {t.id} too close for "
                                        f"{me.weapon.name}")
        attack = self._attack(view, me, t, p, why)
        if attack is not None:
            return attack
        # someone else in reach when the chosen one is not
        for e in sorted(enemies, key=lambda e: (g.dist(me.pos, e.pos), e.slot)):
            if e is not t:
                attack = self._attack(view, me, e, p, "in reach while the target is not")
                if attack is not None:
                    return attack
        return self._manoeuvre(view, me, t, p, why)

    def _attack(self, view: View, me: Combatant, t: Combatant, p: AIPacket,
                why: str) -> Action | None:
        if not self._legal(view, Action("attack", t.slot)):
            return None
        if is_area(me):
            g = view.battle.grid
            if g.dist(me.pos, t.pos) <= 2 or p.area_attack_mode == "never":
                return None
            friends = [a for a in view.battle.allies_of(me) if g.dist(a.pos, t.pos) <= 2]
            if friends and p.area_attack_mode == "be_careful":
                return None
        chance = hit_chance(view, me, t, None)
        location = None
        if p.called_freq and self.rng.random() * 100 < p.called_freq:
            for loc in ("head", "leg", "arm"):
                if self._legal(view, Action("attack", t.slot, loc)):
                    c2 = hit_chance(view, me, t, loc)
                    if c2 * 100 >= p.min_to_hit:
                        location, chance = loc, c2
                        break
        if chance * 100 < p.min_to_hit:
            return None
        verb = "charges" if p.distance == "charge" and view.battle.grid.dist(
            me.pos, t.pos) <= 1 else "attacks"
        spot = f" in the {location}" if location else ""
        return self._say(Action("attack", t.slot, location),
                         f"{verb} {t.id}{spot}: {why}, {chance:.0%} to hit, "
                         f"aggression {p.aggression}")

    def _manoeuvre(self, view: View, me: Combatant, t: Combatant, p: AIPacket,
                   why: str) -> Action:
        b = view.battle
        g = b.grid
        d = g.dist(me.pos, t.pos)
        if p.distance == "stay":
            if self._legal(view, Action("ready")):
                return self._say(Action("ready"), "holds position and readies (distance stay)")
            return self._end(view, "holds position (distance stay)")
        if p.distance == "snipe" and d <= 2:
            for kind in ("move", "sprint"):
                a = Action(kind, t.slot, "away")
                if self._legal(view, a):
                    return self._say(a, f"backs away from {t.id} to snipe (distance snipe)")
        if p.distance == "stay_close":
            allies = b.allies_of(me)
            if allies:
                far = max(allies, key=lambda a: (g.dist(me.pos, a.pos), a.slot))
                if g.dist(me.pos, far.pos) > 4 and self._legal(view, Action("move", far.slot,
                                                                            "toward")):
                    return self._say(Action("move", far.slot, "toward"),
                                     f"keeps close to {far.id} (distance stay_close)")
        if self._legal(view, Action("aim")) and me.weapon.kind == "ranged":
            return self._say(Action("aim"), f"aims at {t.id}: odds too low to fire")
        for kind in ("move", "sprint"):
            a = Action(kind, t.slot, "toward")
            if self._legal(view, a):
                verb = "charges" if p.distance == "charge" else "approaches"
                return self._say(a, f"{verb} {t.id}: {why}, aggression {p.aggression}")
        if self._legal(view, Action("ready")):
            return self._say(Action("ready"), f"readies an attack: {t.id} out of reach")
        return self._end(view, f"{t.id} out of reach and no way closer")

    def _react(self, view: View, me: Combatant, p: AIPacket) -> Action:
        b, dec = view.battle, view.decision
        if dec.reaction == "step":
            return self._end(view, "holds its square")
        t = b.combatants[dec.subject] if dec.subject is not None else None
        if t is not None and self._legal(view, Action("attack", t.slot)):
            chance = hit_chance(view, me, t, None)
            if chance * 100 >= p.min_to_hit:
                return self._say(Action("attack", t.slot),
                                 f"free attack on {t.id}: {chance:.0%} to hit")
            return self._end(view, f"lets {t.id} go: {chance:.0%} is under min_to_hit "
                                   f"{p.min_to_hit}")
        return self._end(view, "nothing to react with")

    def _end(self, view: View, reason: str) -> Action:
        if self._legal(view, Action("end")):
            return self._say(Action("end"), reason)
        return self._say(view.legal[0], reason)
