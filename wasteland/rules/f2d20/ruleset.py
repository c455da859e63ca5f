"""Fallout 2d20 (seeds 002_265a8a3b5c20fde4.txt and 003_938882289c4f9016.txt).

A turn is one minor and one major action in any order; more are bought with Action Points
from the side's pool (at most two of each and one movement action per turn). Tests roll
2d20 (up to 5d20 with dice bought with AP) under attribute + skill; successes beyond the
difficulty go to the pool. Combatants stand on the scenario's squares; ranges, movement
and cover read the squares as zones (wasteland/rules/zones.py). An attack opens two
decision windows for its attacker: how many d20s to buy, and, after a hit, how many combat
dice to add with AP (melee) or ammunition (ranged). Readings are in docs/rules/f2d20.md.
"""

from __future__ import annotations

import random
from typing import Any

from wasteland.bestiary.loader import Bestiary, default_bestiary
from wasteland.bestiary.models import RANGES_2D20, Scenario
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, LOCATIONS, MAX_WEAPONS, Action, target_ids
from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS, Battle, Combatant, Reaction, WeaponState
from wasteland.rules.errors import IllegalActionError
from wasteland.rules.events import (
    BattleEnded,
    BattleStarted,
    CombatDiceRolled,
    Downed,
    Event,
    Healed,
    Moved,
    Note,
    ReactionOffered,
    RoundStarted,
    TestRolled,
    TurnStarted,
)
from wasteland.rules.protocol import Decision
from wasteland.rules.setup import lay_out
from wasteland.rules.zones import Zones, zones_for

from . import stats as S
from .dice import EXTRA_DICE_COST, MAX_POOL, count, score_cd
from .odds import aims

END = ACTION_INDEX[Action("end")]
AIM = ACTION_INDEX[Action("aim")]
DEFEND = ACTION_INDEX[Action("defend")]
RALLY = ACTION_INDEX[Action("rally")]
READY = ACTION_INDEX[Action("ready")]
COVER = ACTION_INDEX[Action("cover")]
DRAW = [ACTION_INDEX[Action("draw", None, str(i))] for i in range(MAX_WEAPONS)]
BUY = [ACTION_INDEX[Action("buy", None, str(i))] for i in range(4)]
BOOST = [ACTION_INDEX[Action("boost", None, str(i))] for i in range(7)]


MOVE_TO, MOVE_AWAY = target_ids("move", "toward"), target_ids("move", "away")
SPRINT_TO, SPRINT_AWAY = target_ids("sprint", "toward"), target_ids("sprint", "away")
ATTACK = {o: target_ids("attack", o) for o in (None, *LOCATIONS)}
STIM, FIRST_AID = target_ids("stimpak", None), target_ids("first_aid", None)
RADAWAY = target_ids("radaway", None)
DRAW_CHEM = {k: ACTION_INDEX[Action("draw_chem", None, k)] for k in ("stimpak", "radaway")}
CHEM_KIND = {"stimpak": "healing", "radaway": "radaway"}  # draw_chem option -> item kind
TAKE = {"stimpak": STIM, "radaway": RADAWAY}
CALLED_TORSO = target_ids("called", "torso")
ASSIST = target_ids("assist", None)
PRONE = ACTION_INDEX[Action("prone")]
STAND = ACTION_INDEX[Action("stand")]
NOROLL = ACTION_INDEX[Action("noroll")]
RALLY_SPEECH = ACTION_INDEX[Action("rally_with", None, "speech")]
READY_DEFEND = ACTION_INDEX[Action("ready_to", None, "defend")]
# reading (published game): a character's melee and unarmed attacks gain +1 CD at STR 7-8,
# +2 at 9-10, +3 at 11 or more ("bonuses from derived statistics", seed 002 Inflict Damage)
MELEE_BONUS = ((11, 3), (9, 2), (7, 1))
AURA_RADS = 2  # reading: radiation a Radiant creature's aura deals at the end of its turn

MINOR = {"aim", "draw", "move", "stimpak", "cover", "draw_chem", "radaway", "prone",
         "stand"}  # the rest are major actions (a prone Move is one: a crawl)
EXTRA_MINOR_AP, EXTRA_MAJOR_AP = 1, 2  # reading: the seeds leave the price open
DEFEND_AP = 2  # seed 002, Defend: +1 more Defense for 2 AP
# reading: obscured +1, heavily obscured +2 (+1 for a melee attack: what is within arm's
# reach still shows against a moonless sky), unseen +3; (ranged, melee) by PnP penalty
VIS_DIFFICULTY = {0: (0, 0), -2: (1, 1), -4: (2, 1), -10: (3, 3)}
# reading: a zone's cover makes ranged attacks into it harder; a zone is never all cover,
# so even one of full cover only adds +3 (a single square of full cover would forbid)
COVER_DIFFICULTY = (0, 1, 2, 3)


def _pool(b: Battle, side: int) -> int:
    return int(b.extra["pools"][side])


def _gain(b: Battle, side: int, n: int) -> int:
    """Add AP to a side's pool, at most MAX_POOL; returns what was added."""
    pools = b.extra["pools"]
    added = max(0, min(n, MAX_POOL - pools[side]))
    pools[side] += added
    return added


def _by_distance(z: Zones, zone: int, cell: int, far: bool) -> tuple[int, ...]:
    """The squares of ``zone`` by walking distance to ``cell`` (nearest first, or farthest
    first), ties to the lower index; cached with the zones, which belong to one map."""
    cache: dict[tuple[int, int, bool], tuple[int, ...]] = z.__dict__.setdefault("_orders", {})
    key = (zone, cell, far)
    got = cache.get(key)
    if got is None:
        walk = z.grid.walk_distances(cell)
        sign = -1 if far else 1
        got = cache[key] = tuple(sorted(z.cells(zone), key=lambda s: (sign * walk[s], s)))
    return got


def _holds_gun(c: Combatant) -> bool:
    p = c.weapon.f2d20
    return p is not None and p.skill not in S.MELEE_SKILLS


def reach_of(c: Combatant) -> int:
    """How far ``c`` strikes in melee, in squares: the longest reach of the melee weapons it
    carries and can use, in hand or not (drawing one is a minor action, so it threatens
    that far this turn), and at least 1 (anyone can strike unarmed). Reading: one notion
    for attacking, for the +2 of seed 002 Range / seed 003 Ranged Attacks Within Reach,
    and for the moves that keep a gunman out of reach."""
    r = 1
    for w in c.weapons:
        p = w.f2d20
        if p is not None and w.reach > r and p.skill in S.MELEE_SKILLS and S.usable(c, w):
            r = w.reach
    return r


def _ball(g: Any, pos: int, r: int) -> tuple[int, ...]:
    """The squares a reach of ``r`` from ``pos`` covers: its own, the next ones, and
    those within ``r`` squares in sight of it (as ``_within_reach``); cached with the
    grid."""
    cache: dict[tuple[int, int], tuple[int, ...]] = g.__dict__.setdefault("_balls", {})
    got = cache.get((pos, r))
    if got is None:
        sight = g.sight[pos]
        w, h = g.width, g.height
        x0, y0 = pos % w, pos // w
        got = cache[(pos, r)] = tuple(
            y * w + x for y in range(max(0, y0 - r), min(h, y0 + r + 1))
            for x in range(max(0, x0 - r), min(w, x0 + r + 1))
            if (abs(x - x0) <= 1 and abs(y - y0) <= 1) or sight[y * w + x])
    return got


def _enemy_reach(b: Battle, c: Combatant) -> set[int]:
    """The squares within reach of ``c``'s standing enemies (``reach_of``; their own
    squares included)."""
    g = b.grid
    reach: set[int] = set()
    for e in b.combatants:
        if e.side != c.side and e.status == ACTIVE:
            reach.update(_ball(g, e.pos, reach_of(e)))
    return reach


def _toward_cell(b: Battle, z: Zones, c: Combatant, t: Combatant, zone: int,
                 reach: set[int] | None = None) -> int | None:
    """Where a move toward ``t`` ends in ``zone``: the free square nearest it; for one
    holding a gun, the nearest that is out of every enemy's reach (a gun in reach pays +2),
    when there is one. ``reach``: ``_enemy_reach``, when the caller has it already."""
    order = _by_distance(z, zone, t.pos, False)
    occ = b.occupied
    if _holds_gun(c):
        reach = _enemy_reach(b, c) if reach is None else reach
        for s in order:
            if s not in occ and s not in reach:
                return s
    return _first_free(order, occ)


def _zone_reached(z: Zones, here: int, there: int, toward: bool, zones_n: int) -> int:
    """The zone a move of ``zones_n`` zones toward (or away from) zone ``there`` ends in;
    cached with the zones, since it depends on the map only."""
    cache: dict[tuple[int, int, bool, int], int] = z.__dict__.setdefault("_reached", {})
    key = (here, there, toward, zones_n)
    got = cache.get(key)
    if got is None:
        zone = here
        for _ in range(zones_n):
            if toward:
                nxt = z.next_zone_toward(zone, there)
                if nxt == zone:
                    break
                zone = nxt
            else:
                away = z.zones_away_from(zone, there)
                if not away:
                    break
                zone = away[0]
        got = cache[key] = zone
    return got


def _move_zones(z: Zones, here: int, there: int) -> tuple[int, int, int, int]:
    """The zones a move and a sprint toward, and a move and a sprint away from, zone
    ``there`` end in; cached with the zones (legal_ids reads the cache directly)."""
    got = (_zone_reached(z, here, there, True, 1), _zone_reached(z, here, there, True, 2),
           _zone_reached(z, here, there, False, 1), _zone_reached(z, here, there, False, 2))
    z.__dict__.setdefault("_moves", {})[(here, there)] = got
    return got


def _ends(z: Zones, orders: dict[tuple[int, int, bool], tuple[int, ...]], zone: int,
          here: int, tp: int, occ: dict[int, int], walk: list[int], mine: int, far: bool,
          reach: set[int] | None) -> bool:
    """Whether a move toward (or, ``far``, away from) the square ``tp`` into ``zone`` ends
    anywhere: a free square there (``reach``: one out of it first, as ``_toward_cell``),
    which within the mover's own zone must be nearer to (farther from) ``tp``. The same
    squares as ``F2d20._destination``, for legal_ids."""
    order = orders.get((zone, tp, far))
    if order is None:
        order = _by_distance(z, zone, tp, far)
    cell = None
    if reach is not None:
        for s in order:
            if s not in occ and s not in reach:
                cell = s
                break
    if cell is None:
        for s in order:
            if s not in occ:
                cell = s
                break
    if cell is None:
        return False
    if zone != here:
        return True
    return walk[cell] > walk[mine] if far else walk[cell] < walk[mine]


def _first_free(cells: tuple[int, ...], occupied: dict[int, int]) -> int | None:
    for s in cells:
        if s not in occupied:
            return s
    return None


def _within_reach(b: Battle, c: Combatant) -> bool:
    """An active enemy that could strike ``c`` in melee: within its ``reach_of`` squares
    and in sight of it."""
    g = b.grid
    pos = c.pos
    for e in b.combatants:
        if e.side != c.side and e.status == ACTIVE:
            d = g.dist(e.pos, pos)
            if d <= 1 or (d <= 3 and d <= reach_of(e) and g.sight[e.pos][pos]):
                return True
    return False


def _test_penalties(b: Battle, c: Combatant) -> list[tuple[str, int]]:
    """What a test that is not an attack adds to its difficulty: a head injury (reading)
    and being within an enemy's reach, +2 to any test but a melee attack (seed 002, Range;
    seed 003, Ranged Attacks Within Reach)."""
    parts = []
    if S.test_penalty(c):
        parts.append(("head injury", S.test_penalty(c)))
    if _within_reach(b, c):
        parts.append(("within an enemy's reach", 2))
    return parts


def _heal_item(b: Battle, c: Combatant, kind: str = "healing") -> str | None:
    """The first item of ``kind`` that ``c`` has a dose of."""
    for item_id, n in c.items.items():
        if n > 0 and b.items[item_id].kind == kind:
            return item_id
    return None


def _held_chem(b: Battle, c: Combatant) -> str | None:
    """The chem ``c`` holds ready (``draw_chem``: "stimpak" or "radaway"), if a dose of it
    is left (seed 002, Take Chem: a chem not in hand is drawn first)."""
    held = c.cond.get("chem")
    if held is None or _heal_item(b, c, CHEM_KIND[held]) is None:
        return None
    return str(held)


class F2d20:
    name = "f2d20"

    # --- setting up ----------------------------------------------------------------------
    def new_battle(self, scenario: Scenario, seed: int, bestiary: Bestiary | None = None,
                   keep_log: bool = True, max_rounds: int | None = None) -> Battle:
        b = lay_out(self, scenario, seed, random.Random(seed), bestiary or default_bestiary(),
                    keep_log, max_rounds)
        # reading: player sides start with an empty pool; a side without player characters
        # (the GM's) starts with one AP per enemy player character
        pcs = [sum(1 for c in b.combatants if c.side == si and S.is_character(c))
               for si in range(len(scenario.sides))]
        b.extra["pools"] = [0 if pcs[si] else min(MAX_POOL, sum(pcs) - pcs[si])
                            for si in range(len(scenario.sides))]
        b.extra.update(minor=0, major=0, moved=False, window=None, stunned=False,
                       attacked=False)
        events: list[Event] = []
        b.emit(events, BattleStarted(scenario.id, "f2d20", seed, b.side_names))
        self._order(b, events)
        self._start_turn(b, events)
        return b

    def make_combatant(self, bestiary: Bestiary, creature: str, slot: int, cid: str,
                       side: int, pos: int, alert: bool = True) -> Combatant:
        cr = bestiary.creature(creature)
        if cr.f2d20 is None:
            from wasteland.bestiary.loader import BestiaryError

            raise BestiaryError(f"creature {cr.id!r} has no f2d20 stat block; it "
                                f"cannot fight under f2d20")
        st = cr.f2d20
        weapons = [bestiary.weapons[a.id] for a in st.attacks]
        return Combatant(
            slot=slot, id=cid, side=side, creature=cr,
            weapons=weapons, weapon_bonus=[0] * len(weapons),
            armor=bestiary.armor[st.armor] if st.armor else None,
            pos=pos, hp=st.hp, max_hp=st.hp,
            weapon_states=[WeaponState() for _ in weapons],
            ammo=dict(st.ammo), items=dict(st.items), ap=0,
            unguarded=not alert,
        )

    def join(self, b: Battle, c: Combatant) -> list[Event]:
        """A newcomer takes its turns after everyone already in the fight (reading)."""
        events: list[Event] = []
        c.initiative = S.stats(c).initiative
        b.extra["base_order"].append(c.slot)
        if b.round > 0:
            b.order.append(c.slot)
        b.emit(events, Note(c.id, f"joins the fight (Initiative {c.initiative}) and acts "
                                  f"last in the round."))
        return events

    def zones(self, b: Battle) -> Zones:
        return zones_for(b.grid)

    def _order(self, b: Battle, events: list[Event]) -> None:
        """Highest Initiative first; ties broken by a d20 (reading: the seed lets the GM
        decide). The initiator - the quickest combatant of the first side that is not
        ambushed - takes a turn at once, before round 1 (seed 002, Initiative)."""
        keys = {}
        for c in b.combatants:
            c.initiative = S.stats(c).initiative
            keys[c.slot] = (c.initiative, b.roll(c.slot, 20, 1, "initiative tie")[0])
        order = sorted(keys, key=lambda s: keys[s], reverse=True)
        b.extra["base_order"] = order
        for s in order:
            c = b.combatants[s]
            b.emit(events, Note(c.id, f"has Initiative {c.initiative} (tie-break d20: "
                                      f"{keys[s][1]})."))
        alert = [si for si, side in enumerate(b.scenario.sides) if side.alert]
        opener = next(s for s in order if b.combatants[s].side == (alert[0] if alert else 0))
        b.order = [opener]
        b.round = 0
        b.turn = 0
        b.emit(events, Note(b.ids[opener], "starts the fight and takes a turn at once."))

    # --- whose decision ------------------------------------------------------------------
    def decider(self, b: Battle) -> Decision:
        w = b.extra["window"]
        if w is not None:
            return Decision(w["attacker"], w["kind"], None, w["target"])
        if b.reactions:
            r = b.reactions[0]
            return Decision(r.reactor, "free", r.kind, r.subject)
        return Decision(b.order[b.turn], "act")

    def outcome(self, b: Battle) -> int | None:
        return b.winner

    # --- legality ------------------------------------------------------------------------
    def legal_ids(self, b: Battle) -> list[int]:
        if b.over:
            return []
        w = b.extra["window"]
        if w is not None:
            return self._window_ids(b, w)
        if b.reactions:
            r = b.reactions[0]
            c, t = b.combatants[r.reactor], b.combatants[r.subject]
            ids = [END]
            if r.kind == "ready_defend":
                ids.append(DEFEND)
            elif t.status == ACTIVE and self.can_attack(b, c, t, c.active_weapon):
                ids.extend(self._attack_ids(t))
            return sorted(ids)
        c = b.combatants[b.order[b.turn]]
        x = b.extra
        pool = _pool(b, c.side)
        torso = S.injuries(c, "torso")
        minor_ok = x["minor"] == 0 or (x["minor"] < 2 and pool >= EXTRA_MINOR_AP and not torso)
        major_ok = x["major"] == 0 or (x["major"] < 2 and pool >= EXTRA_MAJOR_AP and not torso)
        ids = [END]
        g = b.grid
        z = zones_for(g)
        legs = c.crippled.get("leg", 0) if c.crippled else 0
        prone = bool(c.cond.get("prone"))
        can_move = not x["moved"] and legs < 2
        can_sprint = can_move and major_ok and not legs and not prone
        move_ok = can_move and (major_ok if prone else minor_ok)  # prone: a crawl, major
        here = z.zone_of[c.pos]
        occ = b.occupied
        side = c.side
        held = _held_chem(b, c) if (minor_ok and c.items) else None
        take = None
        heals = derads = False
        if held:
            take = TAKE[held]
            chem = b.items[_heal_item(b, c, CHEM_KIND[held]) or ""]
            heals, derads = chem.f2d20_heal > 0, chem.f2d20_rads > 0
        attack_ok = major_ok and S.usable(c, c.weapon)
        # can_attack's checks on the weapon in hand, made once for every enemy below
        wpn = c.weapon
        prof = wpn.f2d20
        melee = prof is not None and prof.skill in S.MELEE_SKILLS
        armed = attack_ok and prof is not None and (
            melee or wpn.ammo is None or c.ammo.get(wpn.ammo, 0) > 0)
        sees = g.sight[c.pos]
        gun = prof is not None and not melee  # _holds_gun
        reach: set[int] | None = None
        mine = c.pos
        moves: dict[tuple[int, int], tuple[int, int, int, int]] = z.__dict__.setdefault(
            "_moves", {})
        orders: dict[tuple[int, int, bool], tuple[int, ...]] = z.__dict__.setdefault(
            "_orders", {})
        for t in b.combatants:
            if t is c or t.status != ACTIVE:
                if t is c or t.status != UNCONSCIOUS:
                    continue
                if t.side != side:  # seed 002 Dying: damage while dying adds an injury
                    if attack_ok and self.can_attack(b, c, t, c.active_weapon):
                        ids.extend(self._attack_ids(t))
                elif major_ok and self._needs_aid(t) and g.dist(c.pos, t.pos) <= 1:
                    ids.append(FIRST_AID[t.slot])
                continue
            ts, tp = t.slot, t.pos
            enemy = t.side != side
            if move_ok or (can_sprint and enemy):
                key = (here, z.zone_of[tp])
                to1, to2, away1, away2 = moves.get(key) or _move_zones(z, *key)
                walk = g.walk_distances(tp)
                if g.dist(mine, tp) > 1:  # toward: the free square nearest the target
                    if gun and reach is None and here in (to1, to2):
                        reach = _enemy_reach(b, c)  # a gunman stops out of reach in its zone
                    ok = False
                    if move_ok:
                        ok = _ends(z, orders, to1, here, tp, occ, walk, mine, False,
                                   reach if to1 == here else None)
                        if ok:
                            ids.append(MOVE_TO[ts])
                    if can_sprint and enemy:
                        if to2 != to1 or not move_ok:
                            ok = _ends(z, orders, to2, here, tp, occ, walk, mine, False,
                                       reach if to2 == here else None)
                        if ok:
                            ids.append(SPRINT_TO[ts])
                if enemy:  # away: the free square farthest from it, in a farther zone
                    ok = False  # or, from the last zone, farther off within this one
                    if move_ok:
                        ok = _ends(z, orders, away1, here, tp, occ, walk, mine, True, None)
                        if ok:
                            ids.append(MOVE_AWAY[ts])
                    if can_sprint:
                        if away2 != away1 or not move_ok:
                            ok = _ends(z, orders, away2, here, tp, occ, walk, mine, True, None)
                        if ok:
                            ids.append(SPRINT_AWAY[ts])
            if enemy:  # as can_attack(b, c, t, c.active_weapon)
                if (armed and sees[tp] and not t.cond.get("burrowed")
                        and (not melee or g.dist(mine, tp) <= wpn.reach)):
                    ids.extend(self._attack_ids(t))
                continue
            if not (take or major_ok):
                continue
            near = g.dist(mine, tp) <= 1
            if take and near and ((heals and t.hp < t.max_hp)
                                  or (derads and t.max_hp < S.stats(t).hp)):  # as _chem_helps
                ids.append(take[ts])
            if major_ok:
                if g.sight[mine][tp] and not t.cond.get("assist"):
                    ids.append(ASSIST[ts])
                if near and self._needs_aid(t):
                    ids.append(FIRST_AID[ts])
        if minor_ok:
            if c.cond.get("aim") != b.round:
                ids.append(AIM)
            if len(c.weapons) > 1:
                for i, wpn in enumerate(c.weapons):
                    if i != c.active_weapon and S.usable(c, wpn):
                        ids.append(DRAW[i])
            if (not c.cond.get("burrowed") and not x["moved"] and not x.get("attacked")
                    and "burrow" in S.stats(c).abilities):
                ids.append(COVER)
            if take and self._chem_helps(b, c, held, c):
                ids.append(take[c.slot])
            if not prone:
                ids.append(PRONE)
            elif can_move:
                ids.append(STAND)
            if c.items:
                items = b.items
                kinds = {items[i].kind for i, n in c.items.items() if n > 0}
                for opt, kind in CHEM_KIND.items():
                    if held != opt and kind in kinds:
                        ids.append(DRAW_CHEM[opt])
        if major_ok:
            if not c.cond.get("defend"):
                ids.append(DEFEND)
            ids.append(RALLY)
            if b.standing[side] > 1:
                ids.append(RALLY_SPEECH)
            if not c.readied and not c.cond.get("ready"):
                ids.append(READY)
                ids.append(READY_DEFEND)
            if self._needs_aid(c):
                ids.append(FIRST_AID[c.slot])
        ids.sort()
        return ids

    def _window_ids(self, b: Battle, w: dict[str, Any]) -> list[int]:
        c = b.combatants[w["attacker"]]
        if w["kind"] == "dice":
            pool = _pool(b, c.side)
            ids = [BUY[k] for k in range(4) if EXTRA_DICE_COST[k] <= pool]
            return ids + [NOROLL] if w.get("zero") else ids
        if w["kind"] == "defend":
            return [BOOST[0], BOOST[1]] if _pool(b, c.side) >= DEFEND_AP else [BOOST[0]]
        return [BOOST[k] for k in range(min(self._max_boost(b, c, w), len(BOOST) - 1) + 1)]

    def _max_boost(self, b: Battle, c: Combatant, w: dict[str, Any]) -> int:
        """Melee and thrown: +1 CD per AP, at most 3; ranged: +1 CD per extra round of
        ammunition, at most the fire rate (seed 003, Increasing Damage)."""
        wpn = c.weapons[w["ws"]]
        p = wpn.f2d20
        assert p is not None
        if S.boosts_with_ap(wpn):
            return min(3, _pool(b, c.side))
        if wpn.ammo is None:  # reading: a self-charging weapon has no rounds to spend
            return 0
        return min(p.fire_rate, c.ammo.get(wpn.ammo, 0))

    def _attack_ids(self, t: Combatant) -> list[int]:
        ids = [ATTACK[None][t.slot]] + [ATTACK[loc][t.slot] for loc in LOCATIONS
                                        if loc in t.loc_kinds]
        if "torso" in t.loc_kinds:
            ids.append(CALLED_TORSO[t.slot])
        return ids

    def _needs_aid(self, t: Combatant) -> bool:
        if t.status == ACTIVE:
            return t.hp < t.max_hp or S.injuries(t) > 0
        return t.status == UNCONSCIOUS and bool(t.cond.get("dying")) and not t.cond.get("stable")

    def hit_chance(self, b: Battle, c: Combatant, t: Combatant,
                   location: str | None = None, extra_dice: int = 0,
                   aim: bool | None = None) -> float:
        """Exact chance that ``c``'s next attack on ``t`` passes, with ``extra_dice``
        d20s bought (none by default) and Aim's reroll if ``c`` has aimed (odds.py)."""
        from .odds import hit_chance

        return hit_chance(b, c, t, location, extra_dice, aim)

    def can_attack(self, b: Battle, c: Combatant, t: Combatant, ws: int) -> bool:
        """Melee: the target within the weapon's reach and in sight; ranged: in sight, with
        ammunition; nobody attacks a burrowed creature or shoots into a full-cover zone."""
        wpn = c.weapons[ws]
        p = wpn.f2d20
        if p is None or not S.usable(c, wpn) or t.cond.get("burrowed"):
            return False
        g = b.grid
        if not g.sight[c.pos][t.pos]:
            return False
        if p.skill in S.MELEE_SKILLS:
            return g.dist(c.pos, t.pos) <= wpn.reach
        return wpn.ammo is None or c.ammo.get(wpn.ammo, 0) > 0

    # --- movement ------------------------------------------------------------------------
    def _destination(self, b: Battle, z: Zones, c: Combatant, t: Combatant, mode: str,
                     zones_n: int) -> int | None:
        """Where a move (1 zone) or sprint (2 zones) toward or away from ``t`` ends: the free
        square of the zone reached that is nearest to ``t`` (into reach when ``t`` is in the
        zone, unless the mover holds a gun: ``_toward_cell``) or, moving away, farthest
        from it - within its own zone when no zone lies farther off (a move is "up to one
        zone")."""
        here, there = z.zone_of[c.pos], z.zone_of[t.pos]
        toward = mode == "toward"
        if toward and b.grid.dist(c.pos, t.pos) <= 1:
            return None
        zone = _zone_reached(z, here, there, toward, zones_n)
        cell = (_toward_cell(b, z, c, t, zone) if toward
                else _first_free(_by_distance(z, zone, t.pos, True), b.occupied))
        if cell is not None and zone == here:  # within the zone: only if it gets nearer / farther
            walk = b.grid.walk_distances(t.pos)
            if (walk[cell] >= walk[c.pos]) if toward else (walk[cell] <= walk[c.pos]):
                return None
        return cell

    def _move(self, b: Battle, c: Combatant, t: Combatant, mode: str, zones_n: int,
              events: list[Event]) -> None:
        z = zones_for(b.grid)
        dest = self._destination(b, z, c, t, mode, zones_n)
        assert dest is not None
        start = c.pos
        b.set_pos(c, dest)
        c.cond.pop("burrowed", None)
        b.extra["moved"] = True
        verb = "sprints" if zones_n == 2 else "moves"
        if not b.quiet:
            b.emit(events, Moved(c.id, f"{verb} {mode} {t.id}", b.grid.xy(start),
                                 b.grid.xy(dest), b.grid.dist(start, dest),
                                 f" ({z.name(z.zone_of[start])} -> {z.name(z.zone_of[dest])})"))
        for s in b.extra["base_order"]:  # readied enemies act, in initiative order (seed 002, Ready)
            o = b.combatants[s]
            if o.side == c.side or o.status != ACTIVE:
                continue
            if o.readied and self.can_attack(b, o, c, o.active_weapon):
                b.reactions.append(Reaction(o.slot, "readied", c.slot))
                b.emit(events, ReactionOffered(o.id, "readied_attack", c.id))
            elif o.cond.get("ready") == "defend" and self.can_attack(b, c, o, c.active_weapon):
                b.reactions.append(Reaction(o.slot, "ready_defend", c.slot))
                b.emit(events, ReactionOffered(o.id, "readied_defend", c.id))

    # --- applying ------------------------------------------------------------------------
    def legal_actions(self, b: Battle) -> list[Action]:
        return [ACTION_TABLE[i] for i in self.legal_ids(b)]

    def apply(self, b: Battle, action: Action, check: bool = True) -> list[Event]:
        if b.over:
            raise IllegalActionError("the battle is over; no action is legal")
        dec = self.decider(b)
        if check and ACTION_INDEX.get(action, -1) not in self.legal_ids(b):
            legal = ", ".join(a.text(b.ids, dec.combatant) for a in self.legal_actions(b))
            raise IllegalActionError(
                f"{action.text(b.ids, dec.combatant)!r} is not legal for "
                f"{b.ids[dec.combatant]} now; legal: {legal}")
        b.moves.append((dec.combatant, action))
        events: list[Event] = []
        if dec.slot in ("dice", "boost", "defend"):
            self._apply_window(b, action, events)
        elif dec.slot == "free":
            r = b.reactions.pop(0)
            c = b.combatants[r.reactor]
            if action.kind == "end":
                if not b.quiet:
                    b.emit(events, Note(c.id, "holds the readied " + (
                        "defence." if r.kind == "ready_defend" else "attack.")))
            elif r.kind == "ready_defend":
                c.cond.pop("ready", None)
                self._defend(b, c, events)
            else:
                c.readied = False
                self._declare_attack(b, c, b.combatants[r.subject], action.option, events)
        else:
            self._apply_turn(b, action, events)
        self._settle(b, events)
        return events

    def _apply_turn(self, b: Battle, a: Action, events: list[Event]) -> None:
        c = b.combatants[b.order[b.turn]]
        k = a.kind
        x = b.extra
        if k == "end":
            x["turn_done"] = True
            return
        slot = "minor" if k in MINOR and not (k == "move" and c.cond.get("prone")) else "major"
        if x[slot] >= 1:
            cost = EXTRA_MINOR_AP if slot == "minor" else EXTRA_MAJOR_AP
            x["pools"][c.side] -= cost
            if not b.quiet:
                b.emit(events, Note(c.id, f"spends {cost} AP on another {slot} action "
                                          f"(pool {x['pools'][c.side]})."))
        x[slot] += 1
        t = b.combatants[a.target] if a.target is not None else None
        if k == "aim":
            c.cond["aim"] = b.round
            b.emit(events, Note(c.id, "takes aim."))
        elif k == "draw":
            c.active_weapon = int(a.option or 0)
            b.emit(events, Note(c.id, f"draws {c.weapon.name}."))
        elif k == "cover":  # reading: burrowing is the turn's movement, not after attacking
            c.cond["burrowed"] = True
            x["moved"] = True
            b.emit(events, Note(c.id, "burrows out of sight."))
        elif k in ("move", "sprint"):
            assert t is not None
            self._move(b, c, t, a.option or "toward", 1 if k == "move" else 2, events)
        elif k == "draw_chem":
            opt = a.option or "stimpak"
            c.cond["chem"] = opt
            item = b.items[_heal_item(b, c, CHEM_KIND[opt]) or ""]
            b.emit(events, Note(c.id, f"draws a {item.name} ({c.items[item.id]} left; "
                                      f"{c.weapon.name} stays in hand)."))
        elif k in ("stimpak", "radaway"):
            assert t is not None
            self._take_chem(b, c, t, events)
        elif k in ("attack", "called"):
            assert t is not None
            self._declare_attack(b, c, t, a.option, events)
        elif k == "prone":
            c.cond["prone"] = True
            b.emit(events, Note(c.id, "drops prone."))
        elif k == "stand":
            c.cond.pop("prone", None)
            x["moved"] = True
            b.emit(events, Note(c.id, "stands up (the turn's movement action)."))
        elif k == "rally_with":
            self._rally(b, c, events, "speech")
        elif k == "assist":
            assert t is not None
            t.cond["assist"] = c.slot
            c.cond["assisting"] = t.slot
            b.emit(events, Note(c.id, f"gets ready to assist {t.id} with its next test."))
        elif k == "ready_to":
            c.cond["ready"] = a.option
            b.emit(events, Note(c.id, "readies a Defend for when an enemy comes within "
                                      "striking distance."))
        elif k == "defend":
            self._defend(b, c, events)
        elif k == "rally":
            self._rally(b, c, events)
        elif k == "ready":
            c.readied = True
            b.emit(events, Note(c.id, f"readies an attack with {c.weapon.name}."))
        elif k == "first_aid":
            assert t is not None
            self._first_aid(b, c, t, events)
        else:
            raise IllegalActionError(f"{k!r} has no meaning under f2d20")

    # --- tests ---------------------------------------------------------------------------
    def _test(self, b: Battle, c: Combatant, what: str, skill: str, difficulty: int,
              parts: list[tuple[str, int]], events: list[Event], extra: int = 0,
              attack: tuple[str, str | None] | None = None, tn_tag: tuple[int, int] | None = None,
              complication_from: int = 20, reroll: bool = False, roll_anyway: bool = False
              ) -> tuple[bool, int, int]:
        """Roll a 2d20 test; returns (passed, successes beyond the difficulty, complications).
        Difficulty 0 passes without a roll unless ``roll_anyway`` (seed 003, Sneak Attacks).
        An ally's assistance (``assist``) adds its d20 (seed 002, Assist)."""
        tn, tag = tn_tag or S.target_number(c, skill, attack)
        if difficulty <= 0 and not roll_anyway:
            if not b.quiet:
                b.emit(events, TestRolled(c.id, what, [], tn, tag, 0, parts, 0, 0, True, 0))
            return True, 0, 0
        faces = b.roll(c.slot, 20, 2 + extra, what)
        note = ""
        if reroll:  # Aim: reroll one d20 - the highest die that failed
            worst = max(range(len(faces)), key=lambda i: faces[i])
            if faces[worst] > tn:
                new = b.roll(c.slot, 20, 1, "aim reroll")[0]
                note = f" (aim: {faces[worst]} rerolled to {new})"
                faces[worst] = new
        succ, comp = count(faces, tn, tag, complication_from)
        helper = c.cond.pop("assist", None)
        if helper is not None:
            succ, comp = self._assisted(b, c, b.combatants[helper], skill, succ, comp,
                                        complication_from, events)
        passed = succ >= difficulty
        excess = succ - difficulty if passed else 0
        gained = _gain(b, c.side, excess) if excess else 0
        if comp:  # reading: each complication gives every opposing side 1 AP
            for si in range(len(b.side_names)):
                if si != c.side:
                    _gain(b, si, comp)
        if not b.quiet:
            b.emit(events, TestRolled(c.id, what, faces, tn, tag, difficulty, parts, succ, comp,
                                      passed, gained, extra, note))
        return passed, excess, comp

    def _assisted(self, b: Battle, c: Combatant, h: Combatant, skill: str, succ: int,
                  comp: int, complication_from: int, events: list[Event]) -> tuple[int, int]:
        """Assist (seed 002): the helper rolls 1d20 against its own target number for the
        same skill; reading (the published rule): its successes count only if the leader
        scored at least one, its complications always count."""
        h.cond.pop("assisting", None)
        if h.status != ACTIVE:
            return succ, comp
        tn, tag = S.target_number(h, skill)
        face = b.roll(h.slot, 20, 1, "assist")
        hs, hc = count(face, tn, tag, complication_from)
        counted = succ > 0
        if not b.quiet:
            b.emit(events, Note(h.id, f"assists {c.id}: 1d20 ({face[0]}) vs TN {tn}"
                                      + (f", tag {tag}" if tag else "")
                                      + f" = {hs} success{'es' if hs != 1 else ''}"
                                      + ("" if counted or not hs else
                                         f", not counted ({c.id} scored none)") + "."))
        return succ + (hs if counted else 0), comp + hc

    def _defend(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """AGI + Athletics against the current Defense; success: +1 Defense until the start
        of the next turn, and a window to pay 2 AP for another +1 (seed 002, Defend)."""
        parts = [("Defense", S.stats(c).defense), *_test_penalties(b, c)]
        passed, _, _ = self._test(b, c, "defends (AGI + Athletics)", "athletics",
                                  sum(v for _, v in parts), parts, events)
        if passed:
            c.cond["defend"] = 1
            if _pool(b, c.side) >= DEFEND_AP:  # for 2 AP, +1 more: the defender decides
                b.extra["window"] = {"kind": "defend", "attacker": c.slot, "target": c.slot}

    def _rally(self, b: Battle, c: Combatant, events: list[Event], skill: str = "survival"
               ) -> None:
        """END + Survival at difficulty 0, rolled anyway to bank AP (seed 002, Rally); or
        CHA + Speech (Mind + Other for a creature), the seed's example of another pair."""
        tn, tag = S.target_number(c, skill, ("mind", "other") if skill == "speech" else None)
        faces = b.roll(c.slot, 20, 2, "rally")
        succ, comp = count(faces, tn, tag)
        parts = _test_penalties(b, c)
        pen = sum(v for _, v in parts)
        gained = _gain(b, c.side, max(0, succ - pen))
        for si in range(len(b.side_names)):  # complications, as in every other test
            if comp and si != c.side:
                _gain(b, si, comp)
        if not b.quiet:
            what = "END + Survival" if skill == "survival" else "CHA + Speech"
            b.emit(events, TestRolled(c.id, f"rallies ({what})", faces, tn, tag, pen,
                                      parts, succ, comp, succ >= pen, gained))

    def _first_aid(self, b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
        """INT + Medicine, difficulty = the patient's injuries (+1 on yourself); success
        stabilizes the dying, else heals Medicine rank HP, else treats an injury (reading:
        this order; a medic of rank 0 treats an injury rather than heal nothing)."""
        parts = [("injuries", S.injuries(t))]
        if t is c:
            parts.append(("on yourself", 1))
        parts += _test_penalties(b, c)
        diff = sum(v for _, v in parts)
        passed, _, _ = self._test(b, c, f"gives first aid to {t.id} (INT + Medicine)",
                                  "medicine", diff, parts, events)
        if not passed:
            return
        if t.cond.get("dying"):
            t.cond["stable"] = True
            b.emit(events, Note(t.id, "is stabilized."))
        elif t.hp < t.max_hp and (S.medicine_rank(c) > 0 or not S.injuries(t)):
            before = t.hp
            t.hp = min(t.max_hp, t.hp + S.medicine_rank(c))
            b.emit(events, Healed(c.id, t.id, "first aid", "Medicine", [], t.hp - before, t.hp,
                                  t.max_hp))
        else:
            kind = next(k for k, v in t.crippled.items() if v)
            t.crippled[kind] -= 1
            b.emit(events, Note(t.id, f"has a {kind} injury treated."))

    def _chem_helps(self, b: Battle, c: Combatant, held: str | None, t: Combatant) -> bool:
        """Whether the chem ``c`` holds would do anything for ``t``: restore HP it lacks, or
        remove radiation damage it has."""
        if held is None:
            return False
        item = b.items[_heal_item(b, c, CHEM_KIND[held]) or ""]
        return ((item.f2d20_heal > 0 and t.hp < t.max_hp)
                or (item.f2d20_rads > 0 and t.max_hp < S.stats(t).hp))

    def _take_chem(self, b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
        """Take Chem (seed 002): the dose in hand is used up and the hand is empty again.
        Radiation damage goes first, then HP (seed 002, Radiation Damage)."""
        held = c.cond.pop("chem")
        item_id = _heal_item(b, c, CHEM_KIND[held])
        assert item_id is not None
        item = b.items[item_id]
        c.items[item_id] -= 1
        rads = min(item.f2d20_rads, S.stats(t).hp - t.max_hp)
        if rads > 0:
            t.max_hp += rads
            b.emit(events, Note(c.id, f"uses a {item.name}" + ("" if t is c else f" on {t.id}")
                                + f": {rads} radiation damage removed (of {item.f2d20_rads}; "
                                f"maximum HP {t.max_hp - rads} -> {t.max_hp})."))
        if item.f2d20_heal or not rads:
            before = t.hp
            t.hp = min(t.max_hp, t.hp + item.f2d20_heal)
            b.emit(events, Healed(c.id, t.id, item.name, str(item.f2d20_heal), [],
                                  t.hp - before, t.hp, t.max_hp))

    # --- attacks -------------------------------------------------------------------------
    def _declare_attack(self, b: Battle, c: Combatant, t: Combatant, location: str | None,
                        events: list[Event]) -> None:
        window = {"kind": "dice", "attacker": c.slot, "target": t.slot, "ws": c.active_weapon,
                  "location": location}
        if not b.reactions and b.order[b.turn] == c.slot:
            b.extra["attacked"] = True
        diff = self.attack_difficulty(b, c, t, c.active_weapon, location)[0]
        if diff == 0:  # seed 003 Sneak Attacks: no roll needed, but one may roll for AP
            b.extra["window"] = {**window, "zero": True}
        elif _pool(b, c.side) >= EXTRA_DICE_COST[1]:
            b.extra["window"] = window
        else:
            self._roll_attack(b, window, 0, events)

    def _apply_window(self, b: Battle, a: Action, events: list[Event]) -> None:
        w = b.extra["window"]
        b.extra["window"] = None
        n = int(a.option or 0)
        if w["kind"] == "defend":
            c = b.combatants[w["attacker"]]
            if n:
                b.extra["pools"][c.side] -= DEFEND_AP
                c.cond["defend"] = 2
                if not b.quiet:
                    b.emit(events, Note(c.id, f"spends {DEFEND_AP} AP for another +1 Defense "
                                              f"(pool {b.extra['pools'][c.side]})."))
            return
        if w["kind"] == "dice":
            if n:
                b.extra["pools"][b.combatants[w["attacker"]].side] -= EXTRA_DICE_COST[n]
            self._roll_attack(b, {**w, "roll": a.kind != "noroll"}, n, events)
        else:
            c = b.combatants[w["attacker"]]
            wpn = c.weapons[w["ws"]]
            if n:
                if self._max_boost_uses_ap(c, w):
                    b.extra["pools"][c.side] -= n
                elif wpn.ammo is not None:
                    c.ammo[wpn.ammo] -= n
            self._damage(b, c, b.combatants[w["target"]], w, n, events)

    def _max_boost_uses_ap(self, c: Combatant, w: dict[str, Any]) -> bool:
        return S.boosts_with_ap(c.weapons[w["ws"]])

    def attack_difficulty(self, b: Battle, c: Combatant, t: Combatant, ws: int,
                          location: str | None) -> tuple[int, list[tuple[str, int]]]:
        """The target's Defense and every modifier the seeds and readings add."""
        wpn = c.weapons[ws]
        p = wpn.f2d20
        assert p is not None
        z = zones_for(b.grid)
        g = b.grid
        parts: list[tuple[str, int]] = [("Defense", S.stats(t).defense)]
        if t.cond.get("defend"):
            parts.append(("defending", int(t.cond["defend"])))
        melee = p.skill in S.MELEE_SKILLS
        if not melee:
            band = z.band(c.pos, t.pos)
            off = abs(band - RANGES_2D20.index(p.range))
            if off:
                parts.append((f"range {RANGES_2D20[band]} vs {p.range}", off))
            there = z.zone_of[t.pos]
            # reading: the zone's cover shields it from shots from other zones; inside one
            # zone, the target's own square decides
            cov = COVER_DIFFICULTY[g.cover[t.pos] if z.zone_of[c.pos] == there
                                   else z.cover(there)]
            if cov:
                parts.append(("cover", cov))
            if _within_reach(b, c):
                parts.append(("within an enemy's reach", 2))
        if location:
            parts.append(("chosen location", 1))
        vis = VIS_DIFFICULTY.get(min(g.vis[t.pos], b.extra.get("ambient", 0)), (0, 0))[melee]
        if vis:
            parts.append(("visibility", vis))
        if S.test_penalty(c):
            parts.append(("head injury", S.test_penalty(c)))
        if S.injuries(c, "arm") and wpn.hands:
            parts.append(("arm injury", 1))
        if t.cond.get("prone"):  # reading (published game): prone
            if melee or z.band(c.pos, t.pos) == 0:
                parts.append(("prone target, close", -1))
            else:
                parts.append(("prone target, medium or farther", 1))
        abilities = S.stats(t).abilities
        if "big" in abilities:
            parts.append(("big target", -1))
        if "little" in abilities:
            parts.append(("little target", 1))
        total = sum(v for _, v in parts)
        if t.unguarded or c.cond.get("burrowed"):
            parts.append(("sneak attack", -1))
            total -= 1
        return max(0, total), parts

    def _roll_attack(self, b: Battle, w: dict[str, Any], extra: int,
                     events: list[Event]) -> None:
        c = b.combatants[w["attacker"]]
        t = b.combatants[w["target"]]
        ws = w["ws"]
        wpn = c.weapons[ws]
        p = wpn.f2d20
        assert p is not None
        diff, parts = self.attack_difficulty(b, c, t, ws, w["location"])
        sneak = t.unguarded or bool(c.cond.get("burrowed"))
        c.cond.pop("burrowed", None)
        if wpn.ammo is not None and p.skill not in S.MELEE_SKILLS:
            c.ammo[wpn.ammo] -= 1
        aim = aims(b, c)
        c.cond["attacked"] = b.round  # Aim: only the first attack of the round rerolls
        passed, excess, _ = self._test(b, c, f"attacks {t.id} with {wpn.name}",
                                       p.skill, diff, parts, events, extra,
                                       tn_tag=S.attack_test(c, ws), reroll=aim,
                                       roll_anyway=bool(w.get("zero") and w.get("roll")))
        t.last_attacker = c.slot
        if not passed:
            return
        if w["location"]:
            loc = S.location_of_kind(t, w["location"])
        else:
            roll = b.roll(c.slot, 20, 1, "hit location")[0]
            loc = next(name for hi, name, _ in S.location_table(t) if roll <= hi)
        w = {**w, "kind": "boost", "loc": loc, "sneak": sneak}
        if self._max_boost(b, c, w) > 0:
            b.extra["window"] = w
        else:
            self._damage(b, c, t, w, 0, events)

    def _damage(self, b: Battle, c: Combatant, t: Combatant, w: dict[str, Any], boost: int,
                events: list[Event], half: bool = False, secondary: bool = False) -> None:
        """Roll the combat dice of a hit and apply DR, damage and the effects rolled.
        ``half``: a Spread hit; ``secondary`` (Spread, Burst and Persistent hits): its
        effects do not spread or burst again."""
        wpn = c.weapons[w["ws"]]
        p = wpn.f2d20
        assert p is not None
        e = p.effects
        strong = 0 if secondary else S.melee_bonus(c, wpn)  # extra hits: the weapon's CD
        n = p.cd + boost + strong
        vicious = e.vicious
        bonus: list[tuple[str, int]] = []
        if w.get("sneak"):  # seed 003, Sneak Attacks: Vicious, or +2 CD if already Vicious
            if vicious:
                n += 2
                bonus.append(("sneak attack CD", 0))
            vicious = True
        faces, dmg, fx = score_cd(b.roll(c.slot, 6, n, "combat dice"))
        loc = w["loc"]
        if vicious and fx:
            bonus.append(("Vicious", fx))
            dmg += fx
        if half:
            dmg //= 2
        dtype = p.damage_type
        resist = S.dr(t, loc, dtype)
        pierce = min(resist, e.piercing * fx)
        dealt = max(0, dmg - (resist - pierce))
        label = f"{dtype} DR" + (f" (Piercing ignores {pierce})" if pierce else "")
        crit = dealt >= 5
        self._hurt(b, c, t, dealt, dtype, loc, crit, events, faces, dmg, fx, bonus, resist - pierce,
                   label, f" (+{strong} CD for STR {S.stats(c).special['strength']})"  # type: ignore[index]
                   if strong else "")
        if t.status == DEAD:
            return
        if e.radioactive and fx:  # radiation comes after the other damage types
            rad = max(0, fx - S.dr(t, loc, "radiation"))
            if rad:
                self._hurt(b, c, t, rad, "radiation", loc, False, events, [], fx, 0, [],
                           S.dr(t, loc, "radiation"), "radiation DR", " (Radioactive)")
        if not fx or t.status == DEAD:
            return
        if e.breaking:
            broken = t.cond.setdefault("broken", {})
            broken[loc] = broken.get(loc, 0) + fx
            b.emit(events, Note(t.id, f"has its {loc} DR broken by {fx}."))
        if e.stun and t.status == ACTIVE:
            t.cond["stunned"] = True
            b.emit(events, Note(t.id, "is stunned and loses its next major action."))
        if e.persistent:  # at the end of the target's next turn: not this one if it is acting
            fresh = not b.over and b.order[b.turn] == t.slot and not b.extra.get("turn_done")
            t.cond.setdefault("persist", []).append([c.slot, w["ws"], loc, fresh])
        if e.spread and not secondary:
            table = S.location_table(t)
            for _ in range(fx):
                if t.status != ACTIVE:
                    break
                roll = b.roll(c.slot, 20, 1, "hit location")[0]
                spot = next(name for hi, name, _ in table if roll <= hi)
                self._damage(b, c, t, {**w, "loc": spot, "sneak": False}, 0, events, half=True,
                             secondary=True)
        if e.burst and not secondary:
            z = zones_for(b.grid)
            near = [o for o in b.combatants if o is not t and o.side != c.side
                    and o.status == ACTIVE and z.zone_of[o.pos] == z.zone_of[t.pos]]
            for o in near[:fx]:
                if wpn.ammo is not None:
                    if c.ammo.get(wpn.ammo, 0) <= 0:
                        break
                    c.ammo[wpn.ammo] -= 1
                roll = b.roll(c.slot, 20, 1, "hit location")[0]
                spot = next(name for hi, name, _ in S.location_table(o) if roll <= hi)
                b.emit(events, Note(c.id, f"bursts into {o.id}."))
                self._damage(b, c, o, {**w, "loc": spot, "sneak": False, "target": o.slot},
                             0, events, secondary=True)

    def _hurt(self, b: Battle, c: Combatant, t: Combatant, dealt: int, dtype: str, loc: str,
              crit: bool, events: list[Event], faces: list[int], dmg: int, fx: int,
              bonus: list[tuple[str, int]], resist: int, label: str, note: str = "") -> None:
        """Apply damage: radiation lowers maximum HP, 5+ after DR is an injury, 0 HP is an
        injury and dying for characters, death for creatures (seed 002)."""
        before = t.hp
        if dtype == "radiation":
            t.max_hp = max(0, t.max_hp - dealt)
            t.hp = min(t.hp, t.max_hp)
        else:
            t.hp = max(0, t.hp - dealt)
        taken = before - t.hp
        t.damage_taken += taken
        if t.side != c.side:  # harm to one's own side is not damage dealt (it is taken)
            c.damage_dealt += taken
        if not b.quiet:
            b.emit(events, CombatDiceRolled(t.id, loc, faces, dmg, fx, bonus, resist, label,
                                            dealt, dtype, t.hp, t.max_hp,
                                            note + (" (critical hit)" if crit else "")))
        kind = S.kind_of(t, loc)
        if crit:
            self._injure(b, t, kind, events, "critical hit")
        if t.cond.get("dying") and dealt > 0:  # in addition to a critical hit's injury
            self._injure(b, t, kind, events, "damage while dying")
            if t.cond.pop("stable", None):
                b.emit(events, Note(t.id, "is no longer stable."))
        if t.status == ACTIVE and (t.hp <= 0 or t.max_hp <= 0):
            if S.is_character(t) and t.max_hp > 0:
                self._injure(b, t, kind, events, "dropped to 0 HP")
                t.cond["dying"] = True
                t.cond["prone"] = True
                b.fall(t, UNCONSCIOUS)
                b.emit(events, Note(t.id, "falls prone and is dying."))
            else:
                b.fall(t, DEAD)
                b.emit(events, Downed(t.id, DEAD))
            t.readied = False
            b.reactions = [r for r in b.reactions if r.reactor != t.slot and r.subject != t.slot]

    def _injure(self, b: Battle, t: Combatant, kind: str, events: list[Event], why: str) -> None:
        t.crippled[kind] = t.crippled.get(kind, 0) + 1
        b.emit(events, Note(t.id, f"suffers a {kind} injury ({why}; "
                                  f"{S.injuries(t)} injur{'y' if S.injuries(t) == 1 else 'ies'})."))

    # --- turn flow -----------------------------------------------------------------------
    def _settle(self, b: Battle, events: list[Event]) -> None:
        while True:
            if b.over or self._check_end(b, events):
                return
            if b.extra["window"] is not None or b.reactions:
                return
            c = b.combatants[b.order[b.turn]]
            if b.extra.get("turn_done") or c.status != ACTIVE:
                self._end_turn(b, c, events)
                self._next_turn(b, events)
                continue
            return

    def _check_end(self, b: Battle, events: list[Event]) -> bool:
        if b.sides_left > 1:
            return False
        standing = b.sides_standing()
        b.over = True
        b.winner = next(iter(standing)) if standing else None
        b.reactions.clear()
        b.extra["window"] = None
        name = b.side_names[b.winner] if b.winner is not None else None
        b.emit(events, BattleEnded(name, "last side standing" if standing else "no one left",
                                   b.round))
        return True

    def _end_turn(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """Persistent damage strikes at the end of the burning combatant's next turn (one
        that had begun when the hit landed waits a turn), once (reading). A Radiant
        creature irradiates the rest of its zone (reading)."""
        if c.status == ACTIVE and "radiant" in S.stats(c).abilities:
            self._aura(b, c, events)
        persist = c.cond.pop("persist", None)
        if persist and c.status == ACTIVE:
            later = [[src, ws, loc, False] for src, ws, loc, fresh in persist if fresh]
            for src, ws, loc, fresh in persist:
                if c.status != ACTIVE:
                    break
                if fresh:
                    continue
                attacker = b.combatants[src]
                b.emit(events, Note(c.id, f"suffers persistent damage from "
                                          f"{attacker.weapons[ws].name}."))
                self._damage(b, attacker, c, {"ws": ws, "loc": loc, "sneak": False,
                                              "target": c.slot}, 0, events, secondary=True)
                c.cond.pop("persist", None)  # damage does not renew itself (reading)
            if later and c.status == ACTIVE:
                c.cond["persist"] = later

    def _aura(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """Reading: at the end of its turn a Radiant creature deals AURA_RADS radiation to
        every other combatant in its zone, the dying included; a whole-body effect, so
        each uses its lowest radiation DR (seed 002, Radiation Damage)."""
        z = zones_for(b.grid)
        here = z.zone_of[c.pos]
        for o in b.combatants:
            if o is c or o.status == DEAD or z.zone_of[o.pos] != here:
                continue
            resist, loc = S.whole_body(o, "radiation")
            dealt = max(0, AURA_RADS - resist)
            b.emit(events, Note(c.id, f"irradiates {o.id}: {AURA_RADS} radiation - lowest "
                                      f"radiation DR {resist} = {dealt}."))
            if dealt:
                self._hurt(b, c, o, dealt, "radiation", loc, False, events, [], AURA_RADS,
                           0, [], resist, "lowest radiation DR", " (whole body)")

    def _next_turn(self, b: Battle, events: list[Event]) -> None:
        x = b.extra
        cs = b.combatants
        while True:
            b.turn += 1
            if b.turn >= len(b.order):
                if b.round >= x["max_rounds"]:
                    b.over = True
                    b.winner = None
                    x["reason"] = "max_rounds"
                    b.emit(events, BattleEnded(None, f"{b.round} rounds fought", b.round))
                    return
                b.round += 1
                b.turn = 0
                b.order = list(x["base_order"])
                if b.keep_log:
                    b.emit(events, RoundStarted(b.round, [b.ids[i] for i in b.order
                                                          if cs[i].status == ACTIVE]))
            c = cs[b.order[b.turn]]
            if c.status == ACTIVE:
                break
            if c.cond.get("dying") and not c.cond.get("stable"):
                self._dying_test(b, c, events)
                if self._check_end(b, events):
                    return
        self._start_turn(b, events)

    def _dying_test(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """END + Survival, difficulty = injuries, complication range 19-20; failing kills
        (seed 002, Critical Hits, Injuries, and Dying)."""
        diff = S.injuries(c)
        passed, _, _ = self._test(b, c, "fights for life (END + Survival)", "survival", diff,
                                  [("injuries", diff)], events, complication_from=19)
        if not passed:
            c.status = DEAD
            c.cond.pop("dying", None)
            b.emit(events, Downed(c.id, DEAD))

    def _start_turn(self, b: Battle, events: list[Event]) -> None:
        x = b.extra
        c = b.combatants[b.order[b.turn]]
        stunned = bool(c.cond.pop("stunned", False))  # the free major action is lost
        x.update(minor=0, major=1 if stunned else 0, moved=False, turn_done=False,
                 stunned=stunned, attacked=False)
        if b.keep_log:
            b.emit(events, TurnStarted(c.id))
        c.readied = False
        c.unguarded = False
        c.cond.pop("defend", None)
        c.cond.pop("ready", None)
        helped = c.cond.pop("assisting", None)  # reading: assistance lasts until then
        if helped is not None:
            b.combatants[helped].cond.pop("assist", None)


__all__ = ["F2d20"]
