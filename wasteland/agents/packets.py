"""The packet agent: a scripted NPC driven by its creature's AI packet (Fallout 2's
AI.TXT fields), the same under every ruleset. It only ever picks among the legal actions,
and every decision carries a one-line reason a GM can read ("charges ted: closest enemy,
aggression 90").

How each field acts (the fields: wasteland/bestiary/models.py AIPacket):

- ``aggression``: how readily it spends to hurt - 2d20 AP for another attack, for d20s
  and combat dice, and AP kept back for Defense; above 50 it buys Defense less.
- ``min_to_hit``: it does not attack, nor take a free attack, at lower odds (2d20: the
  odds with the d20s it would buy). Under 2d20 it also skips attacks under 10%: a rally
  banks AP that buy better odds later.
- ``min_hp`` / ``run_away_mode``: at or under that share of its HP it runs from the
  enemies that could reach it next turn (a gunman only when close); when none is near it
  fights on, so a coward keeps its distance rather than leave the fight. Cornered, it
  fights.
- ``hurt_too_much``: a crippled (PnP) or injured (2d20) location of these kinds makes it
  run too ("blind": the head).
- ``distance``: charge (closes in; a charger draws its melee weapon to do it), snipe
  (backs away from anyone close, then shoots), stay (never moves: shoots, readies, holds
  its post), stay_close (keeps within STAY_CLOSE squares of its leader, the first-placed
  ally still standing).
- ``attack_who``: closest, weakest (least HP), strongest (most HP), or whoever last
  attacked it (else the closest); a foe left with no weapon it can use comes last.
- ``chem_use``: the HP share under which it uses a healing item on itself (2d20: drawing
  the chem first); under 2d20 also RadAway, once radiation has cut its maximum HP to that
  share of its full HP.
- ``best_weapon``: draws a weapon of that kind when it has one it can use, unless another
  would do more than twice the damage; with "any", the best expected damage.
- ``called_freq``: percent of attacks aimed at a body part, with V.A.T.S. when it can:
  an arm that would leave the target nothing to hold, the head, a brawler's leg; a called
  shot that costs odds (PnP without V.A.T.S., 2d20) only when the spot makes up for it.
- ``area_attack_mode``: area weapons (PnP splash and spread, 2d20 burst): always, never,
  or be_careful (PnP: not when one of its allies stands within AREA_RADIUS of the target;
  2d20: as always, since a burst never carries on into allies); never a splash weapon at
  its own feet.

Tactics that are not packet fields but rules: PnP spends the small action before an
attack (a round loaded by hand, a step into cover from guns); 2d20 aims with a free
minor action, moves where a shot has better odds (asking the ruleset where a move
ends), burrows after striking when it can, rallies for AP when no attack is worth it,
and readies when an enemy may walk into reach.

Issue 9's actions, by field: ``chem_use`` - PnP ``pair X stimpak`` (in the Large action,
when the odds at -8 meet min_to_hit; a hurt creature with no one in reach walks up first,
keeping the stimpak for it), first aid on a bleeding patient or, with Medicine ranks and no
healing item to use, on a hurt one (2d20: people only, and first a dying ally next to it,
to stabilize it), ``extinguish`` a fire that would burn half the HP left; ``distance``
snipe - 2d20 ``prone`` for a hurt sniper in a zone without cover and no enemy close
(``stand`` once that no longer holds); ``aggression`` under 50 - 2d20 ``ready_to defend``
against a brawler that can reach it next turn; with no attack worth its major action,
2d20 ``assist`` an ally that can attack, ``rally_with speech`` when that pair banks more;
2d20 ``noroll`` at difficulty 0 when rolling would bank no more AP than the complications
it risks. Not used: ``speak`` (no effect), PnP ``prepare`` (the same thing done now, under
the same legality, is never worse), ``pair X whip``, 2d20 ``called X torso``.

The scenario's per-placement ``ai`` overrides apply on top of the creature's packet, and
the constructor's ``overrides`` (by combatant id) on top of both.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from wasteland.bestiary.models import AIPacket, Weapon
from wasteland.rules.actions import ACTION_INDEX, LOCATIONS, Action
from wasteland.rules.battle import ACTIVE, Battle, Combatant
from wasteland.rules.dice import Dice

from .base import View, rounds_ready

CHEM_BELOW = {"never": 0, "stims_when_hurt": 50, "sometimes": 35, "always": 75}
AREA_RADIUS = 2  # squares around the target an area weapon endangers
SNIPE_CLOSE = 3  # squares: a sniper backs away from an enemy this close
STAY_CLOSE = 4  # squares: stay_close keeps within this of its leader
EXTRA_DICE_COST = (0, 1, 3, 6)  # 2d20: total AP for 0..3 extra d20s
FLOOR_2D20 = 0.1  # 2d20: the least chance it attacks at (else it rallies or defends)
END = Action("end")
ASSIST_MIN = 0.4  # 2d20: the least chance of a success its assisting d20 must have
MEDICS = ("human", "character", "mutant")  # creature kinds that give first aid (2d20)


def hit_chance(view: View, me: Combatant, t: Combatant, location: str | None,
               ws: int | None = None, extra_dice: int = 0) -> float:
    """The ruleset's exact chance to hit with weapon slot ``ws`` (default: the one in
    hand) and ``extra_dice`` d20s bought (2d20), or 0.5 for a ruleset that cannot say."""
    fn = getattr(view.ruleset, "hit_chance", None)
    if fn is None:
        return 0.5
    b = view.battle
    held = me.active_weapon
    if ws is not None:
        me.active_weapon = ws  # the odds read the weapon in hand; put back at once
    try:
        if extra_dice:
            return float(fn(b, me, t, location, extra_dice=extra_dice))
        return float(fn(b, me, t, location))
    finally:
        me.active_weapon = held


def _pnp_chance(b: Battle, me: Combatant, t: Combatant, extra: int) -> float:
    """PnP: the chance that ``me``'s attack on ``t`` with the weapon in hand hits with
    ``extra`` more to the roll (-8 for two actions at once), as ``pnp.odds.hit_chance``."""
    from wasteland.rules.pnp.combat import attack_mods
    from wasteland.rules.pnp.odds import p_3d6_at_least

    mods, defense, _, _ = attack_mods(b, me, t, me.active_weapon, None, False, False)
    return p_3d6_at_least(defense - sum(v for _, v in mods) - extra)


def _area_weapon(c: Combatant, i: int, ruleset: str = "pnp") -> bool:
    """Whether weapon slot ``i`` hits around its target: splash or spread (PnP), burst
    (2d20; a 2d20 Spread lands its extra hits on the target itself)."""
    w = c.weapons[i]
    if ruleset == "f2d20":
        return bool(w.f2d20 and w.f2d20.effects.burst)
    return bool(w.qualities.splash or w.qualities.spread)


def weapon_kind(c: Combatant, i: int) -> str:
    w = c.weapons[i]
    return "ranged" if w.kind == "ranged" else ("unarmed" if w.kind == "unarmed" else "melee")


@cache
def _dice_mean(text: str) -> float:
    d = Dice.parse(text)
    return d.count * (d.sides + 1) / 2 + d.bonus


@cache
def _cd_expected(n: int, vicious: bool, piercing: int, resist: int) -> float:
    """2d20: expected damage of ``n`` combat dice after ``resist`` DR (faces 1, 2, 0, 0,
    1+effect, 1+effect; Vicious adds 1 per effect, Piercing ignores DR per effect)."""
    dist: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for _ in range(n):
        nxt: dict[tuple[int, int], float] = {}
        for (d, e), q in dist.items():
            for dd, ee, w in ((1, 0, 1), (2, 0, 1), (0, 0, 2), (1, 1, 2)):
                k = (d + dd, e + ee)
                nxt[k] = nxt.get(k, 0.0) + q * w / 6
        dist = nxt
    total = 0.0
    for (d, e), q in dist.items():
        dmg = d + (e if vicious else 0)
        total += q * max(0, dmg - max(0, resist - piercing * e))
    return total


def _f2d20_resist(t: Combatant, dtype: str) -> int:
    """2d20: the target's DR against ``dtype``, averaged over its hit-location table."""
    from wasteland.rules.f2d20 import stats as S

    rows = S.location_table(t)
    lo, total = 0, 0.0
    for hi, name, _kind in rows:
        total += (hi - lo) * S.dr(t, name, dtype)
        lo = hi
    return round(total / 20)


def damage_per_hit(b: Battle, me: Combatant, i: int, t: Combatant) -> float:
    """A rough expected damage of one hit with weapon slot ``i`` on ``t``, after armor."""
    w: Weapon = me.weapons[i]
    if b.ruleset == "f2d20" and w.f2d20 is not None:
        p = w.f2d20
        n = p.cd
        if w.kind == "ranged" and w.ammo is not None:  # combat dice bought with ammunition
            n += max(0, min(p.fire_rate, me.ammo.get(w.ammo, 0) - 1))
        return _cd_expected(min(n, 14), p.effects.vicious, p.effects.piercing,
                            _f2d20_resist(t, p.damage_type))
    raw = _dice_mean(w.damage)
    if b.ruleset == "pnp":
        from wasteland.rules.pnp.combat import threshold

        _, res = threshold(t, w)
        if w.damage_type in ("physical", "energy"):
            return max(1.0, raw - res)
        return 0.0 if res >= 100 else max(1.0, raw * (100 - res) / 100)
    return raw


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
    dmg = damage_per_hit(b, me, me.active_weapon, t)
    if b.ruleset == "f2d20":
        likely = min(1.0, dmg / 5)
    else:
        left = max(1, -(-t.max_hp // 4) - t.limb_damage.get(loc, 0))
        likely = min(1.0, dmg / left)
    return 1.0 + bonus * likely, what


class PacketAgent:
    """Plays one combatant by its packet; ``overrides`` (combatant id -> packet fields)
    replace packet fields on top of the scenario's own ``ai`` overrides (a GM's per-fight
    changes). ``seed`` drives its few coin flips (called shots)."""

    name = "packet"

    def __init__(self, seed: int = 0, overrides: dict[str, dict[str, Any]] | None = None
                 ) -> None:
        self.rng = random.Random(seed)
        self.overrides = overrides or {}
        self.last_reason = ""
        self._packets: dict[tuple[int, str], AIPacket] = {}
        self._scenario: object = None
        self._note = ""  # appended to this decision's reason (why it is not running)

    # --- the packet ----------------------------------------------------------------------
    def packet(self, c: Combatant, b: Battle | None = None) -> AIPacket:
        """``c``'s packet: its creature's, then the scenario placement's ``ai`` (the k-th
        placement over all sides is combatant slot k), then this agent's overrides."""
        if b is not None and b.scenario is not self._scenario:
            self._scenario = b.scenario
            self._packets.clear()
        key = (c.slot, c.id)
        got = self._packets.get(key)
        if got is None:
            fields: dict[str, Any] = {}
            if b is not None:
                placements = [p for side in b.scenario.sides for p in side.combatants]
                if c.slot < len(placements) and placements[c.slot].creature == c.creature.id:
                    fields.update(placements[c.slot].ai or {})
            fields.update(self.overrides.get(c.id) or {})
            got = (AIPacket.model_validate({**c.creature.ai.model_dump(), **fields})
                   if fields else c.creature.ai)
            if b is not None:
                self._packets[key] = got
        return got

    # --- helpers -------------------------------------------------------------------------
    def _legal(self, view: View, action: Action) -> bool:
        idx = ACTION_INDEX.get(action)
        return idx is not None and idx in view.legal_ids

    def _say(self, action: Action, reason: str) -> Action:
        self.last_reason = " ".join((reason + self._note).split())
        return action

    def _end(self, view: View, reason: str) -> Action:
        if self._legal(view, END):
            return self._say(END, reason)
        return self._say(view.legal[0], reason)

    @staticmethod
    def _costs(b: Battle, me: Combatant) -> tuple[int, int, int]:
        """(AP the next minor action costs, AP the next major costs, the side's pool);
        nothing costs AP outside 2d20."""
        x = b.extra
        if "pools" not in x:
            return 0, 0, 0
        return (0 if x.get("minor", 0) == 0 else 1, 0 if x.get("major", 0) == 0 else 2,
                int(x["pools"][me.side]))

    def _threats(self, b: Battle, me: Combatant, enemies: list[Combatant],
                 running: bool = False) -> list[Combatant]:
        """Enemies that could close in and strike on their next turn (2d20: in the same or
        the next zone; PnP: within their speed plus reach), nearest first. ``running``:
        those it is worth running from - a gunman only when it is close (running in the
        open from a gun does not help, so a coward shoots back at a distant one)."""
        g = b.grid
        zones = self._zones(b)
        out = []
        for e in enemies:
            gun = e.weapon.kind == "ranged"
            if zones is not None:
                near = zones.band(e.pos, me.pos) <= (0 if running and gun else 1)
            elif running and gun:
                near = g.dist(e.pos, me.pos) <= SNIPE_CLOSE
            else:
                reach = e.weapon.reach if not gun else 1
                near = g.dist(e.pos, me.pos) <= e.creature.pnp.speed + reach
            if near:
                out.append(e)
        return sorted(out, key=lambda e: (g.dist(me.pos, e.pos), e.slot))

    @staticmethod
    def _zones(b: Battle) -> Any:
        if b.ruleset != "f2d20":
            return None
        from wasteland.rules.zones import zones_for

        return zones_for(b.grid)

    def _target(self, b: Battle, me: Combatant, p: AIPacket,
                enemies: list[Combatant]) -> tuple[Combatant, str]:
        """The enemy its packet picks; a foe left with no weapon it can use is picked only
        when every foe is."""
        g = b.grid
        armed = [e for e in enemies if self._armed(b, e)]
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

    @staticmethod
    def _full_hp(b: Battle, me: Combatant) -> int:
        """Its maximum HP before radiation damage (2d20 lowers the maximum; elsewhere the
        maximum is the maximum)."""
        if b.ruleset != "f2d20":
            return me.max_hp
        from wasteland.rules.f2d20 import stats as S

        return int(S.stats(me).hp)

    def _flee_reason(self, me: Combatant, p: AIPacket) -> str | None:
        if p.flee_below and me.hp * 100 <= p.flee_below * me.max_hp:
            mode = f"min_hp {p.min_hp}" if p.min_hp else f"run_away_mode {p.run_away_mode}"
            return f"HP {me.hp}/{me.max_hp} at or under {p.flee_below}% ({mode})"
        for part in p.hurt_too_much:
            loc = "head" if part == "blind" else part
            if me.crippled.get(loc, 0):
                return f"{part} hurt too much"
        return None

    # --- odds ----------------------------------------------------------------------------
    def _odds(self, view: View, me: Combatant, t: Combatant, location: str | None,
              p: AIPacket, ws: int | None = None) -> tuple[float, int]:
        """(chance to hit, d20s it would buy for it): 2d20 buys dice with the side's AP
        while a die adds more to the odds than the AP are worth to it (less, the more
        aggressive it is); other rulesets buy nothing."""
        base = hit_chance(view, me, t, location, ws)
        b = view.battle
        if b.ruleset != "f2d20" or base >= 1.0:
            return base, 0
        _minor, major, pool = self._costs(b, me)
        if view.decision.slot == "act":
            pool -= major  # the attack itself may cost AP first
        worth = 0.2 - 0.12 * p.aggression / 100
        best, best_v, best_p = 0, base, base
        for n in (1, 2, 3):
            if EXTRA_DICE_COST[n] > pool:
                break
            pn = hit_chance(view, me, t, location, ws, n)
            v = pn - worth * EXTRA_DICE_COST[n]
            if v > best_v + 1e-9:
                best, best_v, best_p = n, v, pn
        return best_p, best

    def _floor(self, b: Battle, p: AIPacket) -> float:
        """The least chance it attacks at: min_to_hit, and under 2d20 at least 10% (a
        wasted major action there costs what a rally would have banked)."""
        return max(p.min_to_hit / 100, FLOOR_2D20 if b.ruleset == "f2d20" else 0.0)

    # --- weapons -------------------------------------------------------------------------
    @staticmethod
    def _can_hold(b: Battle, me: Combatant, w: Weapon) -> bool:
        """Crippled (PnP) or injured (2d20) arms: a weapon needs hands it has left."""
        if w.hands == 0:
            return True
        hurt = me.crippled.get("arm", 0)
        if b.ruleset == "f2d20":
            return hurt == 0 or (hurt == 1 and w.hands == 1)
        return me.loc_counts.get("arm", 0) - hurt >= w.hands

    def _armed(self, b: Battle, me: Combatant) -> bool:
        """Whether it has a weapon it can hold and fire (or reload)."""
        for i, w in enumerate(me.weapons):
            if not self._can_hold(b, me, w):
                continue
            if (w.kind != "ranged" or self._rounds(b, me, i) > 0
                    or (b.ruleset == "pnp" and me.ammo.get(w.ammo or "", 0) > 0)):
                return True
        return False

    def _can_reach(self, b: Battle, me: Combatant, i: int, t: Combatant) -> bool:
        """Whether weapon slot ``i`` could attack ``t`` from here (for the weapon in hand
        the legal actions say so exactly; for the others this is an estimate)."""
        w = me.weapons[i]
        g = b.grid
        if not g.sight[me.pos][t.pos]:
            return False
        d = g.dist(me.pos, t.pos)
        if w.kind != "ranged":
            return d <= w.reach
        if w.qualities.stunted_range and d * 5 > w.range_ft:
            return False
        return self._rounds(b, me, i) > 0

    @staticmethod
    def _rounds(b: Battle, me: Combatant, i: int) -> int:
        """Shots it can fire with weapon slot ``i`` without reloading first (a large number
        for weapons that use no ammunition)."""
        return rounds_ready(b, me, i)

    def _area_blocked(self, b: Battle, me: Combatant, i: int, t: Combatant,
                      p: AIPacket) -> str | None:
        """Why the packet forbids an area weapon on ``t`` (None: it may fire)."""
        if not _area_weapon(me, i, b.ruleset):
            return None
        g = b.grid
        if p.area_attack_mode == "never":
            return "area_attack_mode never"
        if me.weapons[i].qualities.splash and g.dist(me.pos, t.pos) <= AREA_RADIUS:
            return f"{t.id} too close to its own blast"
        # a 2d20 burst only carries on into enemies (docs/rules/f2d20.md), so there is no
        # ally to be careful of
        if p.area_attack_mode == "be_careful" and b.ruleset != "f2d20":
            friends = [a for a in b.allies_of(me) if g.dist(a.pos, t.pos) <= AREA_RADIUS]
            if friends:
                return f"{friends[0].id} stands near {t.id} (area_attack_mode be_careful)"
        return None

    def _usable(self, b: Battle, me: Combatant, i: int, t: Combatant, p: AIPacket) -> bool:
        """Whether weapon slot ``i`` could be used on ``t`` at all, wherever it stands: a
        hand to hold it, rounds to fire (PnP: or to load), and the packet allows it."""
        w = me.weapons[i]
        if self._area_blocked(b, me, i, t, p) or not self._can_hold(b, me, w):
            return False
        return (w.kind != "ranged" or self._rounds(b, me, i) > 0
                or (b.ruleset == "pnp" and me.ammo.get(w.ammo or "", 0) > 0))

    def _score(self, view: View, me: Combatant, i: int, t: Combatant,
               p: AIPacket) -> tuple[float, bool]:
        """(expected damage of an attack with weapon slot ``i`` on ``t``, halved when it
        cannot strike from here; whether it can strike from here at 5% or better). 0 when
        it cannot fire at all or the packet forbids it."""
        b = view.battle
        w = me.weapons[i]
        if not self._usable(b, me, i, t, p):
            return 0.0, False
        rounds = self._rounds(b, me, i)
        chance = hit_chance(view, me, t, None, i)
        shots = 1.0
        if b.ruleset == "pnp" and w.rof > 1:
            shots += max(0.0, min(w.rof, rounds) - 1) * 0.35
        score = chance * damage_per_hit(b, me, i, t) * shots
        now = self._can_reach(b, me, i, t) and chance >= 0.05
        if not now:
            score *= 0.5
        if w.kind == "ranged" and b.ruleset == "f2d20" and p.distance != "stay":
            step = self._step_back_value(view, me, i, t)
            if step > score:  # a step out of reach first, and the shot this turn
                score, now = step, step > 0.0
        if w.kind == "ranged" and rounds <= 0:
            score *= 0.5  # needs a reload first
        return score, now

    def _step_back_value(self, view: View, me: Combatant, i: int, t: Combatant) -> float:
        """2d20: the expected damage of a shot at ``t`` with weapon slot ``i`` after
        stepping out of an enemy's reach with the free minor action (a gun in reach pays +2
        difficulty); 0 when no enemy is in reach or the step is not to be had."""
        b = view.battle
        g = b.grid
        dest = getattr(view.ruleset, "_destination", None)
        close = [e for e in b.enemies_of(me) if g.dist(me.pos, e.pos) <= 1]
        if not close or dest is None or self._costs(b, me)[0]:
            return 0.0
        near = min(close, key=lambda e: e.slot)
        if not self._legal(view, Action("move", near.slot, "away")):
            return 0.0
        cell = dest(b, self._zones(b), me, near, "away", 1)
        if cell is None or not g.sight[cell][t.pos]:
            return 0.0
        held, start = me.active_weapon, me.pos
        me.active_weapon, me.pos = i, cell  # what-if; put back at once
        try:
            return hit_chance(view, me, t, None, i) * damage_per_hit(b, me, i, t)
        finally:
            me.active_weapon, me.pos = held, start

    def _weapon(self, view: View, me: Combatant, t: Combatant, p: AIPacket) -> Action | None:
        """Draw a better weapon for ``t``: the packet's best_weapon kind when it has one it
        can use, else the best expected damage."""
        b = view.battle
        n = len(me.weapons)
        if n < 2:
            return None
        draws = [i for i in range(n) if i != me.active_weapon
                 and self._legal(view, Action("draw", None, str(i)))]
        if not draws:
            return None
        cur = me.active_weapon
        scored = {i: self._score(view, me, i, t, p) for i in [cur, *draws]}
        scores = {i: v for i, (v, _) in scored.items()}
        want = p.best_weapon
        if want != "any":
            kind = [i for i in scores if weapon_kind(me, i) == want and scores[i] > 0]
            top = max(scores.values())
            # the preferred kind, unless another weapon would do more than twice as much
            if kind and max(scores[i] for i in kind) * 2 >= top:
                if weapon_kind(me, cur) != want:
                    best = max(kind, key=lambda i: (scores[i], -i))
                    return self._say(Action("draw", None, str(best)),
                                     f"draws {me.weapons[best].name} (best_weapon {want})")
                scores = {i: s for i, s in scores.items() if i in kind}
        if self._usable(b, me, cur, t, p) and not any(scored[i][1] for i in scores):
            # nothing reaches t from here: keep the weapon in hand on the way (even when
            # its odds from here are nil: out of sight or range), but a charger closes in
            # with its melee weapon out
            melee = [i for i in scores if weapon_kind(me, i) != "ranged" and scores[i] > 0]
            if p.distance != "charge" or weapon_kind(me, cur) != "ranged" or not melee:
                return None
            best = max(melee, key=lambda i: (scores[i], -i))
            return self._say(Action("draw", None, str(best)),
                             f"draws {me.weapons[best].name} to charge {t.id} (distance charge)")
        best = max(scores, key=lambda i: (scores[i], i == cur, -i))
        if best == cur or scores[best] <= scores.get(cur, 0.0) * 1.25 + 0.05:
            return None
        if cur in scored and scored[cur][1] and not scored[best][1]:
            return None  # never trade a weapon that can strike now for one that cannot
        others = [e for e in b.enemies_of(me)
                  if e is not t and self._legal(view, Action("attack", e.slot))]
        if others and max(self._score(view, me, cur, e, p)[0] for e in others
                          ) * 1.25 + 0.05 >= scores[best]:
            return None  # nor one that strikes another enemy from here as well
        minor, _major, pool = self._costs(b, me)
        if minor > pool:
            return None
        blocked = self._area_blocked(b, me, cur, t, p)
        why = (blocked if blocked else
               f"expects {scores[best]:.1f} damage a swing against {t.id}, "
               f"not {scores.get(cur, 0.0):.1f}")
        return self._say(Action("draw", None, str(best)),
                         f"draws {me.weapons[best].name}: {why}")

    # --- deciding ------------------------------------------------------------------------
    def act(self, view: View) -> Action:
        b, me, dec = view.battle, view.me, view.decision
        p = self.packet(me, b)
        self._note = ""
        if dec.slot in ("dice", "boost", "defend"):
            return self._window(view, me, p)
        if dec.reaction is not None:
            return self._react(view, me, p)
        return self._turn(view, me, p)

    def _window(self, view: View, me: Combatant, p: AIPacket) -> Action:
        """2d20's windows: d20s to buy for a test, combat dice to add after a hit, AP for
        more Defense."""
        b, dec = view.battle, view.decision
        opts = sorted(int(a.option or 0) for a in view.legal)
        kind = view.legal[0].kind
        if dec.slot == "defend":
            n = 1 if (p.aggression < 50 and 1 in opts) else 0
            return self._say(Action(kind, None, str(n)),
                             f"{'buys' if n else 'saves the AP instead of'} extra Defense "
                             f"(aggression {p.aggression})")
        t = b.combatants[dec.subject] if dec.subject is not None else None
        if dec.slot == "dice":
            if self._legal(view, Action("noroll")) and t is not None:
                return self._zero(view, me, t)
            if t is None or len(opts) == 1:
                return self._say(Action(kind, None, str(opts[0])), "no extra d20 to buy")
            w = b.extra.get("window") or {}
            loc = w.get("location")
            base = hit_chance(view, me, t, loc)
            chance, n = self._odds(view, me, t, loc, p)
            n = max(m for m in opts if m <= n)
            return self._say(Action(kind, None, str(n)),
                             f"buys {n} extra d20 ({base:.0%} -> {chance:.0%} to hit, "
                             f"aggression {p.aggression})")
        # boost: combat dice from AP (melee) or ammunition (guns)
        top = opts[-1]
        w = me.weapon
        if w.kind == "ranged" and w.ammo is not None:
            n = max(0, min(top, me.ammo.get(w.ammo, 0) - 2))
            what = "rounds of ammunition"
        else:
            _, _, pool = self._costs(b, me)
            keep = 0 if p.aggression >= 80 else (1 if p.aggression >= 50 else 2)
            n = max(0, min(top, pool - keep))
            what = "AP"
        if t is not None and t.hp <= 2:
            n = min(n, 1)
        return self._say(Action(kind, None, str(n)),
                         f"adds {n} combat dice for {n} {what} (aggression {p.aggression})")

    def _zero(self, view: View, me: Combatant, t: Combatant) -> Action:
        """2d20, an attack at difficulty 0 (a hit without a roll): roll anyway (``buy 0``)
        while the successes it would bank as AP are worth more than the complications it
        risks (each gives the other side 1 AP); else take the hit unrolled (``noroll``)."""
        from wasteland.rules.f2d20 import stats as S
        from wasteland.rules.f2d20.dice import MAX_POOL
        from wasteland.rules.f2d20.odds import aims, outcomes

        b = view.battle
        pool = int(b.extra["pools"][me.side])
        room = MAX_POOL - pool
        tn, tag = S.attack_test(me, me.active_weapon)
        banked = risked = 0.0
        for succ, comp, q in outcomes(tn, tag, 2, 20, aims(b, me)):
            banked += q * min(succ, room)
            risked += q * comp
        if banked > risked:
            return self._say(Action("buy", None, "0"),
                             f"rolls anyway at difficulty 0 against {t.id} to bank AP "
                             f"({banked:.1f} AP expected, pool {pool}/{MAX_POOL})")
        why = (f"AP pool full ({pool}/{MAX_POOL})" if room == 0 else
               f"{banked:.2f} AP expected against {risked:.2f} complications")
        return self._say(Action("noroll"), f"hits {t.id} without a roll at difficulty 0: "
                                           f"rolling gains nothing ({why})")

    def _turn(self, view: View, me: Combatant, p: AIPacket) -> Action:
        b = view.battle
        enemies = b.enemies_of(me)
        if not enemies:
            return self._end(view, "no enemy left standing")
        minor, major, pool = self._costs(b, me)
        # chems first when hurt
        below = CHEM_BELOW[p.chem_use]
        if below and me.hp * 100 <= me.max_hp * below and minor <= pool:
            a = Action("stimpak", me.slot)
            if self._legal(view, a):
                hurt = f"HP {me.hp}/{me.max_hp} under {below}% (chem_use {p.chem_use})"
                paired = self._paired_stimpak(view, me, p, enemies, hurt)
                if paired is not None:
                    return paired
                return self._say(a, f"HP {me.hp}/{me.max_hp} under {below}%: heals itself "
                                    f"(chem_use {p.chem_use})")
            a = Action("draw_chem", None, "stimpak")  # 2d20: a chem is drawn first
            if self._legal(view, a):
                return self._say(a, f"HP {me.hp}/{me.max_hp} under {below}%: draws a "
                                    f"stimpak to heal itself (chem_use {p.chem_use})")
        full = self._full_hp(b, me)
        if below and me.max_hp * 100 <= full * below and minor <= pool:
            why = (f"radiation has cut its maximum HP to {me.max_hp}/{full}, at or under "
                   f"{below}% (chem_use {p.chem_use})")
            for a, verb in ((Action("radaway", me.slot), "takes"),
                            (Action("draw_chem", None, "radaway"), "draws")):
                if self._legal(view, a):
                    return self._say(a, f"{verb} RadAway: {why}")
        flee = self._flee_reason(me, p)
        if not self._armed(b, me):
            return self._disarmed(view, me, p, enemies)
        note = ""
        if flee:
            threats = self._threats(b, me, enemies, running=True)
            if p.distance == "stay":
                note = f" ({flee}, but it holds its post: distance stay)"
            elif threats:
                near = threats[0]
                for kind in ("sprint", "move"):
                    a = Action(kind, near.slot, "away")
                    if self._legal(view, a):
                        return self._say(a, f"flees from {near.id}: {flee}")
                note = f" (cornered: {flee})"
            else:
                note = f" ({flee}, but no enemy is near)"
        self._note = note
        if not flee:
            care = self._care(view, me, p)
            if care is not None:
                return care
        if me.cond.get("prone") and self._legal(view, Action("stand")):
            low, why = self._lie_low(view, me, p, enemies)
            if low and not any(self._legal(view, Action("attack", e.slot)) for e in enemies):
                low, why = False, "nothing to shoot from the floor"
            if not low:
                return self._say(Action("stand"), f"stands up: {why}")
        return self._fight(view, me, p, enemies)

    def _lie_low(self, view: View, me: Combatant, p: AIPacket,
                 enemies: list[Combatant]) -> tuple[bool, str]:
        """2d20: whether a hurt sniper lies prone where it stands (shots from another zone
        are +1 against the prone, docs/rules/f2d20.md), and the fact that decides: it must
        hold a gun, be at or under half its HP, have no cover in its zone, no enemy in its
        zone and no brawler in the next (up close the prone are easier to hit)."""
        b = view.battle
        zones = self._zones(b)
        if zones is None or p.distance != "snipe" or me.weapon.kind != "ranged":
            return False, f"it fights on its feet (distance {p.distance})"
        if me.hp * 2 > me.max_hp:
            return False, f"HP {me.hp}/{me.max_hp}, over half"
        if zones.cover(zones.zone_of[me.pos]):
            return False, "its zone has cover"
        for e in sorted(enemies, key=lambda e: (b.grid.dist(me.pos, e.pos), e.slot)):
            band = zones.band(me.pos, e.pos)
            if band == 0 or (band == 1 and e.weapon.kind != "ranged"):
                return False, f"{e.id} is close, and the prone are easier to hit up close"
        return True, (f"HP {me.hp}/{me.max_hp}, no cover in its zone, no enemy close "
                      f"(distance snipe)")

    def _fight(self, view: View, me: Combatant, p: AIPacket,
               enemies: list[Combatant]) -> Action:
        """The rest of a turn: weapon, reload, position, attack or manoeuvre."""
        b = view.battle
        t, why = self._target(b, me, p, enemies)
        draw = self._weapon(view, me, t, p)
        if draw is not None:
            return draw
        w = me.weapon
        if (b.ruleset == "pnp" and w.magazine != "none"
                and (me.wstate.loaded == 0 or me.wstate.reload_step)
                and self._legal(view, Action("reload"))):
            return self._say(Action("reload"), f"{w.name} is empty: reloads")
        step = self._keep_distance(view, me, p, enemies) or self._reposition(view, me, p, enemies)
        if step is not None:
            return step
        strike = self._strike(view, me, t, p, why, enemies)
        if strike is not None:
            return strike
        return self._manoeuvre(view, me, t, p, why)

    def _paired_stimpak(self, view: View, me: Combatant, p: AIPacket,
                        enemies: list[Combatant], hurt: str) -> Action | None:
        """PnP, hurt enough for a stimpak: in the Large action (the Small one spent), a shot
        or blow and the stimpak at once (``pair X stimpak``, -8 to the attack) when the odds
        at -8 still meet min_to_hit; in the Small action with no one to attack from here,
        the move that brings it within reach first, keeping the stimpak for that pair."""
        b = view.battle
        if b.ruleset != "pnp" or me.weapon.hands != 1 or not self._armed(b, me):
            return None
        if self._flee_reason(me, p):
            return None
        t, why = self._target(b, me, p, enemies)
        g = b.grid
        if b.slot == "large":
            floor = self._floor(b, p)
            order = [t] + sorted((e for e in enemies if e is not t),
                                 key=lambda e: (g.dist(me.pos, e.pos), e.slot))
            for e in order:
                a = Action("pair", e.slot, "stimpak")
                if not self._legal(view, a) or self._area_blocked(b, me, me.active_weapon, e, p):
                    continue
                chance = _pnp_chance(b, me, e, -8)
                if chance > 0 and chance >= floor:
                    return self._say(a, f"attacks {e.id} and takes a stimpak at once (two "
                                        f"hands, -8: {chance:.0%} to hit, min_to_hit "
                                        f"{p.min_to_hit}): {hurt}")
            return None
        if b.slot != "small" or any(self._legal(view, Action("attack", e.slot))
                                    for e in enemies):
            return None
        plan = self._fight(view, me, p, enemies)
        if plan.kind == "move" and plan.option == "toward" and me.items:
            return self._say(plan, f"{self.last_reason}; keeps its stimpak to take with an "
                                   f"attack once there: {hurt}")
        return None

    def _care(self, view: View, me: Combatant, p: AIPacket) -> Action | None:
        """PnP: put out a fire (its own or an adjacent ally's) that would burn at least half
        the HP left; first aid for a bleeding patient (itself or an adjacent ally), or for a
        hurt one (HP at or under the chem_use share, 50% under chem_use never) when no
        healing item will do (none carried, or chem_use never) and it has Medicine ranks."""
        b = view.battle
        if b.ruleset == "f2d20":
            return self._care_2d20(view, me, p, heal=False)
        if b.ruleset != "pnp":
            return None
        g = b.grid
        patients = [me, *sorted(b.allies_of(me), key=lambda a: (g.dist(me.pos, a.pos), a.slot))]
        for c in patients:
            a = Action("extinguish", c.slot)
            if c.burn_left > 0 and c.burn_left * 2 >= c.hp and self._legal(view, a):
                who = "its own fire" if c is me else f"the fire on {c.id}"
                return self._say(a, f"puts out {who}: {c.burn_left} burn damage to come "
                                    f"against HP {c.hp}/{c.max_hp}")
        # the chem step before this one has used a healing item when chem_use allows one
        # and it carries one, so a hurt patient reaching here has no healing item to use
        care = CHEM_BELOW[p.chem_use] or CHEM_BELOW["stims_when_hurt"]
        ranks = me.creature.pnp.medicine
        for c in patients:
            a = Action("first_aid", c.slot)
            if not self._legal(view, a):
                continue
            who = "itself" if c is me else c.id
            if c.cond.get("bleeding"):
                return self._say(a, f"gives first aid to {who}: bleeding "
                                    f"{c.cond['bleeding']} HP a turn (HP {c.hp}/{c.max_hp})")
            if ranks > 0 and c.hp * 100 <= c.max_hp * care:
                why = "chem_use never" if p.chem_use == "never" else "no healing item left"
                return self._say(a, f"gives first aid to {who}: HP {c.hp}/{c.max_hp} under "
                                    f"{care}%, {why}, Medicine {ranks}")
        return None

    def _care_2d20(self, view: View, me: Combatant, p: AIPacket, heal: bool
                   ) -> Action | None:
        """2d20 first aid (seed 002), by people (MEDICS; the rules give every creature
        its Other as Medicine, but a ghoul or a robot does not bandage): stabilize a dying
        ally next to it (else its dying tests may kill it); with ``heal`` (its major
        action has nothing better to do: the healing is only its Medicine rank), heal
        itself or an ally next to it, at or under the chem_use share of HP (50% under
        chem_use never), when it has Medicine ranks and no healing item will do (none
        carried, or chem_use never)."""
        from wasteland.rules.battle import UNCONSCIOUS
        from wasteland.rules.f2d20 import stats as S

        b = view.battle
        if me.creature.kind not in MEDICS:
            return None
        g = b.grid
        near = sorted((c for c in b.combatants if c.side == me.side and c is not me),
                      key=lambda c: (g.dist(me.pos, c.pos), c.slot))
        for c in near:
            a = Action("first_aid", c.slot)
            if c.status == UNCONSCIOUS and c.cond.get("dying") and self._legal(view, a):
                return self._say(a, f"gives first aid to {c.id}: dying, to stabilize it "
                                    f"({S.injuries(c)} injuries)")
        ranks = S.medicine_rank(me)
        care = CHEM_BELOW[p.chem_use] or CHEM_BELOW["stims_when_hurt"]
        if ranks <= 0 or not heal:
            return None
        for c in [me, *near]:
            a = Action("first_aid", c.slot)
            if c.status == ACTIVE and c.hp * 100 <= c.max_hp * care and self._legal(view, a):
                if p.chem_use != "never" and c is me and any(
                        n > 0 and b.items[i].kind == "healing" for i, n in me.items.items()):
                    continue  # its own stimpak first (the chem step), when it can afford it
                why = "chem_use never" if p.chem_use == "never" else "no healing item to use"
                who = "itself" if c is me else c.id
                return self._say(a, f"gives first aid to {who}: HP {c.hp}/{c.max_hp} under "
                                    f"{care}%, {why}, Medicine {ranks}")
        return None

    def _disarmed(self, view: View, me: Combatant, p: AIPacket,
                  enemies: list[Combatant]) -> Action:
        """No weapon it can hold and fire: keep away from the enemies (unless it stays)."""
        g = view.battle.grid
        if p.distance != "stay":
            for e in sorted(enemies, key=lambda e: (g.dist(me.pos, e.pos), e.slot)):
                for kind in ("move", "sprint"):
                    a = Action(kind, e.slot, "away")
                    if self._legal(view, a):
                        return self._say(a, f"keeps away from {e.id}: no weapon it can use")
        if self._legal(view, Action("defend")):
            return self._say(Action("defend"), "defends itself: no weapon it can use")
        return self._end(view, "no weapon it can use")

    def _keep_distance(self, view: View, me: Combatant, p: AIPacket,
                       enemies: list[Combatant]) -> Action | None:
        """A sniper with a gun in hand backs away from an enemy that is too close before it
        shoots: PnP, one within SNIPE_CLOSE squares, in the small action so the large one
        is left for the shot; 2d20, one in reach or a brawler in its zone, with the free
        minor action, when it can still shoot from where the move ends."""
        b = view.battle
        if p.distance != "snipe" or me.weapon.kind != "ranged" or me.cond.get("prone"):
            return None  # prone, a move is a crawl that costs the shot (2d20)
        g = b.grid
        zones = self._zones(b)
        if zones is None:
            if b.slot != "small":
                return None
            close = [e for e in enemies if g.dist(me.pos, e.pos) <= SNIPE_CLOSE]
        else:
            minor, major, _pool = self._costs(b, me)
            if minor or major:
                return None
            close = [e for e in enemies if g.dist(me.pos, e.pos) <= 1
                     or (e.weapon.kind != "ranged" and zones.band(e.pos, me.pos) == 0)]
        if not close:
            return None
        near = min(close, key=lambda e: (g.dist(me.pos, e.pos), e.slot))
        a = Action("move", near.slot, "away")
        if not self._legal(view, a):
            return None
        if zones is not None and self._value_after(view, me, near, "away", p) < max(
                1e-9, self._shot_value(view, me, enemies, p)[0]):
            return None  # 2d20: only to where the shot is no worse than here
        return self._say(a, f"backs away from {near.id} to shoot from range (distance snipe)")

    def _shot_value(self, view: View, me: Combatant, enemies: list[Combatant],
                    p: AIPacket) -> tuple[float, Combatant | None]:
        """The best expected damage of a shot from where it stands now, and at whom."""
        b = view.battle
        g = b.grid
        zones = self._zones(b)
        sight = g.sight[me.pos]
        best, who = 0.0, None
        for e in enemies:
            if not sight[e.pos]:
                continue
            if self._area_blocked(b, me, me.active_weapon, e, p):
                continue
            v = hit_chance(view, me, e, None) * damage_per_hit(b, me, me.active_weapon, e)
            if v > best:
                best, who = v, e
        if p.distance == "snipe" and any(
                g.dist(me.pos, e.pos) <= 1 or (zones is not None and e.weapon.kind != "ranged"
                                               and zones.band(me.pos, e.pos) == 0)
                for e in enemies):
            best *= 0.5  # a sniper wants no one in reach of it, nor a brawler in its zone
        return best, who

    def _value_after(self, view: View, me: Combatant, t: Combatant, mode: str,
                     p: AIPacket) -> float:
        """2d20: the best shot's expected damage after a move (one zone) toward or away
        from ``t``, asking the ruleset where the move ends; 0 when it cannot say."""
        b = view.battle
        dest = getattr(view.ruleset, "_destination", None)
        if dest is None or not self._legal(view, Action("move", t.slot, mode)):
            return 0.0
        cell = dest(b, self._zones(b), me, t, mode, 1)
        if cell is None:
            return 0.0
        start = me.pos
        me.pos = cell  # what-if: the odds from there; put back at once
        try:
            return self._shot_value(view, me, b.enemies_of(me), p)[0]
        finally:
            me.pos = start

    @staticmethod
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

    def _reposition(self, view: View, me: Combatant, p: AIPacket,
                    enemies: list[Combatant]) -> Action | None:
        """2d20, gun in hand, free minor and major actions: a move (the minor) to where the
        shot (the major) has better odds - out of reach, into the weapon's range band, out
        of a zone whose cover shields the target. It asks the ruleset where a move ends."""
        b = view.battle
        if (b.ruleset != "f2d20" or me.weapon.kind != "ranged" or p.distance == "stay"
                or me.cond.get("prone")):
            return None  # prone, a move is a crawl that costs the shot
        if self._lie_low(view, me, p, enemies)[0]:
            return None  # hurt and in the open: it lies low where it is, not walk up
        if p.distance == "stay_close" and self._leader_far(b, me) is not None:
            return None  # its place is by its leader first
        minor, major, _pool = self._costs(b, me)
        dest = getattr(view.ruleset, "_destination", None)
        if minor or major or dest is None or self._rounds(b, me, me.active_weapon) <= 0:
            return None
        here, _ = self._shot_value(view, me, enemies, p)
        best_v, best_a, best_t = here * 1.15 + 0.1, None, None
        for e in enemies:
            for mode in ("toward", "away"):
                v = self._value_after(view, me, e, mode, p)
                if v > best_v:
                    best_v, best_a, best_t = v, Action("move", e.slot, mode), e
        if best_a is None or best_t is None:
            return None
        return self._say(best_a, f"moves {best_a.option} {best_t.id} for a better shot "
                                 f"({here:.1f} -> {best_v:.1f} expected damage)")

    def _strike(self, view: View, me: Combatant, t: Combatant, p: AIPacket, why: str,
                enemies: list[Combatant]) -> Action | None:
        """Attack ``t`` or, when it is out of reach, whoever is in reach, at odds the packet
        accepts; 2d20: aim first with a free minor action, and pay AP for another attack
        only at fair odds."""
        b = view.battle
        g = b.grid
        minor, major, pool = self._costs(b, me)
        if major > pool:
            return None
        floor = self._floor(b, p)
        order = [t] + sorted((e for e in enemies if e is not t),
                             key=lambda e: (g.dist(me.pos, e.pos), e.slot))
        for i, e in enumerate(order):
            if not self._legal(view, Action("attack", e.slot)):
                continue
            blocked = self._area_blocked(b, me, me.active_weapon, e, p)
            if blocked:
                if e is t:
                    self._note += f" (holds its {me.weapon.name}: {blocked})"
                continue
            chance, _ = self._odds(view, me, e, None, p)
            if chance < floor:
                continue
            if major and chance < 0.5 - 0.3 * p.aggression / 100:
                continue  # another attack costs AP: only at fair odds
            reason = why if i == 0 else f"in reach while {t.id} is not"
            first = self._small_first(view, me, e, enemies, p)
            if first is not None:
                return first
            if b.ruleset == "f2d20" and minor == 0 and not me.cond.get("prone"):
                low, how = self._lie_low(view, me, p, enemies)
                if low and self._legal(view, Action("prone")):
                    return self._say(Action("prone"), f"drops prone before shooting {e.id} "
                                                      f"rather than aim: {how}")
            if (b.ruleset == "f2d20" and minor == 0 and self._legal(view, Action("aim"))
                    and me.cond.get("attacked") != b.round and not self._burrower(me)):
                return self._say(Action("aim"), f"takes aim at {e.id} before attacking "
                                                f"({chance:.0%} to hit)")
            return self._attack(view, me, e, p, reason, chance, extra_ap=major)
        return None

    def _small_first(self, view: View, me: Combatant, t: Combatant,
                     enemies: list[Combatant], p: AIPacket) -> Action | None:
        """PnP: an attack taken first forgoes the small action, so before attacking ``t``
        it tops up a gun loaded round by round, or steps into cover from enemy guns when
        it can still shoot ``t`` from there."""
        b = view.battle
        if b.ruleset != "pnp" or b.slot != "small":
            return None
        w = me.weapon
        st = me.wstate
        if (w.magazine == "internal" and st.loaded < w.capacity
                and self._legal(view, Action("reload"))):
            return self._say(Action("reload"), f"tops up {w.name} ({st.loaded}/{w.capacity}) "
                                               f"before attacking {t.id}")
        g = b.grid
        guns = [e for e in enemies if e.weapon.kind == "ranged"]
        if (not guns or w.kind != "ranged" or g.cover[me.pos] or p.distance == "stay"
                or any(g.dist(me.pos, e.pos) <= 1 for e in enemies)
                or not self._legal(view, Action("cover"))):
            return None
        from wasteland.rules.pnp.movement import nearest_cover

        cell = nearest_cover(b, me)
        if cell is None:
            return None
        from wasteland.rules.pnp.combat import can_attack

        start = me.pos
        me.pos = cell  # what-if: can it still shoot from there; put back at once
        try:  # the ruleset's own test: sight, range, and no full cover at either end
            ok = can_attack(b, me, t, me.active_weapon)
        finally:
            me.pos = start
        if not ok:
            return None
        return self._say(Action("cover"), f"takes cover from {guns[0].id}'s "
                                          f"{guns[0].weapon.name}, then shoots {t.id}")

    @staticmethod
    def _burrower(me: Combatant) -> bool:
        s = me.creature.f2d20
        return s is not None and "burrow" in s.abilities

    def _attack(self, view: View, me: Combatant, t: Combatant, p: AIPacket, why: str,
                chance: float, extra_ap: int = 0) -> Action:
        b = view.battle
        location = None
        kind = "attack"
        aim = ""
        plain = chance
        if p.called_freq and self.rng.random() * 100 < p.called_freq:
            best = -1.0
            floor = self._floor(b, p)
            for loc in LOCATIONS:
                worth, purpose = _spot_worth(b, me, t, loc)
                for k in ("vats", "attack"):  # V.A.T.S. first: no penalty, paid with AP
                    if not self._legal(view, Action(k, t.slot, loc)):
                        continue
                    c2, _ = self._odds(view, me, t, None if k == "vats" else loc, p)
                    value = c2 * worth
                    # a penalty for aiming is paid only when the spot is worth it
                    fair = k == "vats" or value >= 0.8 * plain
                    if c2 >= floor and fair and value > best + 1e-9:
                        best, location, kind, chance, aim = value, loc, k, c2, purpose
                    break
        verb = "charges" if (p.distance == "charge" and b.grid.dist(me.pos, t.pos) <= 1
                             ) else "attacks"
        spot = (f" in the {location}" + (" with V.A.T.S." if kind == "vats" else "")
                + (f" {aim}" if aim else "") + f" (called_freq {p.called_freq})"
                if location else "")
        ap = f", {extra_ap} AP for another attack" if extra_ap else ""
        return self._say(Action(kind, t.slot, location),
                         f"{verb} {t.id}{spot}: {why}, {chance:.0%} to hit, "
                         f"aggression {p.aggression}{ap}")

    def _manoeuvre(self, view: View, me: Combatant, t: Combatant, p: AIPacket,
                   why: str) -> Action:
        b = view.battle
        minor, major, pool = self._costs(b, me)
        lead = self._leader_far(b, me) if p.distance == "stay_close" else None
        if lead is not None and minor <= pool:
            a = Action("move", lead.slot, "toward")
            if self._legal(view, a):
                return self._say(a, f"keeps close to {lead.id} (distance stay_close)")
        if self._legal(view, Action("attack", t.slot)) and (
                major or (b.ruleset == "f2d20" and me.weapon.kind == "ranged")):
            # it has struck and another is not worth AP, or a gun that can already fire
            # at it gains nothing by walking closer (a better square was weighed above)
            return self._spare(view, me, t, p, why)
        zones = self._zones(b)
        if p.distance != "stay" and zones is not None and me.weapon.kind == "ranged":
            here = self._shot_value(view, me, b.enemies_of(me), p)[0]
            if here > 0 and self._value_after(view, me, t, "toward", p) <= here:
                return self._spare(view, me, t, p, why)  # closer is no better a shot
        if p.distance != "stay":
            kinds = ["move", "sprint"]
            if zones is not None and zones.band(me.pos, t.pos) >= 2:
                kinds = ["sprint", "move"]  # two zones at once when it is far
                if (me.weapon.kind == "ranged" and major == 0
                        and self._value_after(view, me, t, "toward", p) > 0):
                    kinds = ["move", "sprint"]  # one zone, and the major left for a shot
            for kind in kinds:
                cost = minor if kind == "move" else major
                # AP for a move only while the major action is left to strike with
                spare = pool >= cost + (0 if kind == "move" and major == 0 else 2)
                a = Action(kind, t.slot, "toward")
                if cost <= pool and (cost == 0 or spare) and self._legal(view, a):
                    verb = {"charge": "charges", "snipe": "closes to shooting range of"}.get(
                        p.distance, "approaches")
                    return self._say(a, f"{verb} {t.id}: {why}, aggression {p.aggression}")
        return self._spare(view, me, t, p, why)

    def _spare(self, view: View, me: Combatant, t: Combatant, p: AIPacket,
               why: str) -> Action:
        """Nothing to attack at odds it accepts and nowhere to go: use what is left of the
        turn (2d20: burrow, ready, defend or rally; PnP: top up the gun, ready)."""
        b = view.battle
        g = b.grid
        minor, major, pool = self._costs(b, me)
        hold = " (distance stay)" if p.distance == "stay" else ""
        if b.ruleset == "f2d20":
            if minor == 0 and self._legal(view, Action("cover")):
                return self._say(Action("cover"), "burrows out of reach until it strikes again")
            enemies = b.enemies_of(me)
            if minor == 0 and not me.cond.get("prone") and self._legal(view, Action("prone")):
                low, how = self._lie_low(view, me, p, enemies)
                if low:
                    return self._say(Action("prone"), f"drops prone: {how}")
            if major == 0:
                close = [e for e in enemies if g.dist(me.pos, e.pos) <= 1]
                if close and self._legal(view, Action("defend")):
                    return self._say(Action("defend"), f"defends against {close[0].id}: no "
                                                       f"attack at odds it accepts{hold}")
                floor = self._floor(b, p)
                ready = [e for e in self._threats(b, me, enemies)
                         if self._odds(view, me, e, None, p)[0] >= floor]
                if ready and self._legal(view, Action("ready")):
                    return self._say(Action("ready"), f"readies an attack for {ready[0].id} "
                                                      f"or whoever comes close{hold}")
                coming = [e for e in self._threats(b, me, enemies) if e.weapon.kind != "ranged"]
                a = Action("ready_to", None, "defend")
                if coming and p.aggression < 50 and self._legal(view, a):
                    return self._say(a, f"readies a Defend for when {coming[0].id} comes "
                                        f"within reach: no attack at odds it accepts "
                                        f"(aggression {p.aggression}){hold}")
                aid = self._care_2d20(view, me, p, heal=True)
                if aid is not None:
                    return self._say(aid, f"{self.last_reason}: no attack at odds it "
                                          f"accepts{hold}")
                helped = self._assist(view, me, enemies)
                if helped is not None:
                    return helped
                rally = self._rally_best(view, me)
                if rally is not None:
                    return self._say(rally, f"{self.last_reason}: no attack on {t.id} at odds it "
                                        f"accepts{hold}")
        else:
            w = me.weapon
            st = me.wstate
            if (b.slot == "small" and w.magazine == "internal" and st.loaded < w.capacity
                    and self._legal(view, Action("reload"))):
                return self._say(Action("reload"), f"tops up {w.name} ({st.loaded}/"
                                                   f"{w.capacity}) while {t.id} is out of reach")
            if self._legal(view, Action("ready")):
                return self._say(Action("ready"), f"readies an attack: {t.id} out of reach"
                                                  f"{hold}")
        if self._legal(view, Action("attack", t.slot)):
            return self._end(view, f"ends its turn: no more attacks on {t.id} worth taking"
                                   f"{hold}")
        if p.distance == "stay":
            return self._end(view, f"holds position (distance stay): {t.id} out of reach")
        return self._end(view, f"{t.id} out of reach and no way closer this turn")

    def _assist(self, view: View, me: Combatant, enemies: list[Combatant]) -> Action | None:
        """2d20, no attack of its own worth its major action: Assist (seed 002) an ally in
        sight that can attack an enemy from where it stands, adding a d20 at the
        creature's own target number for that ally's skill, when that d20 succeeds at
        least ASSIST_MIN of the time (the ally acts before its next turn, when help
        lapses)."""
        from wasteland.rules.f2d20 import stats as S

        b = view.battle
        can_attack = getattr(view.ruleset, "can_attack", None)
        if can_attack is None:
            return None
        g = b.grid
        for ally in sorted(b.allies_of(me), key=lambda a: (g.dist(me.pos, a.pos), a.slot)):
            a = Action("assist", ally.slot)
            w = ally.weapon.f2d20
            if w is None or not self._legal(view, a):
                continue
            foes = [e for e in enemies if can_attack(b, ally, e, ally.active_weapon)]
            if not foes:
                continue
            tn, _tag = S.target_number(me, w.skill)
            if min(tn, 20) < ASSIST_MIN * 20:
                continue
            return self._say(a, f"assists {ally.id} against {foes[0].id} (1d20 at TN {tn} "
                                f"for {w.skill.replace('_', ' ')}, {min(tn, 20) / 20:.0%} a "
                                f"success): no attack of its own at odds it accepts")
        return None

    def _rally_best(self, view: View, me: Combatant) -> Action | None:
        """2d20 Rally (seed 002): END + Survival, or CHA + Speech (a creature: Mind + Other)
        while an ally stands, whichever is expected to bank more AP."""
        from wasteland.rules.f2d20 import stats as S
        from wasteland.rules.f2d20.odds import successes

        def mean(tn_tag: tuple[int, int]) -> float:
            return sum(k * q for k, q in enumerate(successes(tn_tag[0], tn_tag[1], 2)))

        plain = Action("rally")
        if not self._legal(view, plain):
            return None
        survival = S.target_number(me, "survival")
        speech_a = Action("rally_with", None, "speech")
        if self._legal(view, speech_a):
            speech = S.target_number(me, "speech", ("mind", "other"))
            if mean(speech) > mean(survival):
                self.last_reason = (f"rallies with CHA + Speech (TN {speech[0]}, not "
                                    f"{survival[0]} for END + Survival) to gain AP")
                return speech_a
        self.last_reason = f"rallies to gain AP (END + Survival, TN {survival[0]})"
        return plain

    def _react(self, view: View, me: Combatant, p: AIPacket) -> Action:
        b, dec = view.battle, view.decision
        if dec.reaction == "step":
            return self._end(view, "holds its square")
        t = b.combatants[dec.subject] if dec.subject is not None else None
        if t is not None and self._legal(view, Action("attack", t.slot)):
            chance, _ = self._odds(view, me, t, None, p)
            if chance > 0 and chance * 100 >= p.min_to_hit:
                return self._say(Action("attack", t.slot),
                                 f"free attack on {t.id}: {chance:.0%} to hit")
            return self._end(view, f"lets {t.id} go: {chance:.0%} to hit, min_to_hit "
                                   f"{p.min_to_hit}")
        return self._end(view, "nothing to react with")
