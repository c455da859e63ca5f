"""Fallout 2d20 (seeds 002_265a8a3b5c20fde4.txt and 003_938882289c4f9016.txt).

A turn is one minor and one major action in any order; more are bought with Action Points
from the side's pool (at most two of each and one movement action per turn). Tests roll
2d20 (up to 5d20 with dice bought with AP) under attribute + skill; successes beyond the
difficulty go to the pool. Combatants stand on the scenario's squares; ranges, movement
and cover read the squares as zones (wasteland/rules/zones.py). An attack opens two
decision windows for its attacker: how many d20s to buy, and, after a hit, how many combat
dice to add with AP (melee) or ammunition (ranged). Readings are in docs/rules/f2d20.md.

This module is the protocol (setting up, turn order, deciders, legality, apply); F2d20
inherits the rules by subject, one base on the next: aid.py (Aid: first aid, chems) on
movement.py (Movement) on attack.py (Attacks) on damage.py (Damage) on skills.py (Skills:
tests, the AP pool); reach.py holds who is within whose melee reach.
"""

from __future__ import annotations

import random
from typing import Any, Final

from mypy_extensions import mypyc_attr

from wasteland.bestiary.loader import Bestiary, default_bestiary
from wasteland.bestiary.models import Scenario
from wasteland.rules import goto
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, LOCATIONS, MAX_WEAPONS, Action, target_ids
from wasteland.rules.battle import ACTIVE, UNCONSCIOUS, Battle, Combatant, DiceHook, WeaponState
from wasteland.rules.decision import decision
from wasteland.rules.errors import IllegalActionError, battle_over
from wasteland.rules.events import (
    BattleEnded,
    BattleStarted,
    Event,
    InitiativeRolled,
    Note,
    RoundStarted,
    TurnStarted,
)
from wasteland.rules.protocol import Decision
from wasteland.rules.rollnotes import UNTIED, tie_note
from wasteland.rules.setup import lay_out
from wasteland.rules.tactics import Tactics
from wasteland.rules.zones import Zones, zones_for

from . import stats as S
from .aid import CHEM_KIND, Aid, _heal_item, _held_chem
from .book import F2d20Book, book
from .dice import EXTRA_DICE_COST, MAX_POOL
from .movement import _ends, _move_zones, move_key
from .reach import _enemy_reach
from .skills import DEFEND_AP, _pool

END: Final = ACTION_INDEX[Action("end")]
AIM: Final = ACTION_INDEX[Action("aim")]
DEFEND: Final = ACTION_INDEX[Action("defend")]
RALLY: Final = ACTION_INDEX[Action("rally")]
READY: Final = ACTION_INDEX[Action("ready")]
COVER: Final = ACTION_INDEX[Action("cover")]
DRAW: Final = [ACTION_INDEX[Action("draw", None, str(i))] for i in range(MAX_WEAPONS)]
BUY: Final = [ACTION_INDEX[Action("buy", None, str(i))] for i in range(4)]
BOOST: Final = [ACTION_INDEX[Action("boost", None, str(i))] for i in range(7)]


MOVE_TO: Final = target_ids("move", "toward")
MOVE_AWAY: Final = target_ids("move", "away")
SPRINT_TO: Final = target_ids("sprint", "toward")
SPRINT_AWAY: Final = target_ids("sprint", "away")
ATTACK: Final = {o: target_ids("attack", o) for o in (None, *LOCATIONS)}
STIM: Final = target_ids("stimpak", None)
FIRST_AID: Final = target_ids("first_aid", None)
RADAWAY: Final = target_ids("radaway", None)
DRAW_CHEM: Final = {k: ACTION_INDEX[Action("draw_chem", None, k)] for k in ("stimpak", "radaway")}
TAKE: Final = {"stimpak": STIM, "radaway": RADAWAY}
CALLED_TORSO: Final = target_ids("called", "torso")
ASSIST: Final = target_ids("assist", None)
PRONE: Final = ACTION_INDEX[Action("prone")]
STAND: Final = ACTION_INDEX[Action("stand")]
NOROLL: Final = ACTION_INDEX[Action("noroll")]
RALLY_SPEECH: Final = ACTION_INDEX[Action("rally_with", None, "speech")]
READY_DEFEND: Final = ACTION_INDEX[Action("ready_to", None, "defend")]

MINOR: Final = {"aim", "draw", "move", "stimpak", "cover", "draw_chem", "radaway", "prone",
         "stand"}  # the rest are major actions (a prone Move is one: a crawl)
EXTRA_MINOR_AP: Final = 1  # reading: the seeds leave the price open
EXTRA_MAJOR_AP: Final = 2


@mypyc_attr(serializable=True)
class F2d20(Aid):
    name = "f2d20"

    # --- setting up ----------------------------------------------------------------------
    def new_battle(self, scenario: Scenario, seed: int, bestiary: Bestiary | None = None,
                   keep_log: bool = True, max_rounds: Any = None,
                   rng: random.Random | None = None, dice_hook: DiceHook | None = None
                   ) -> Battle:
        """A battle of ``scenario`` with dice from ``seed`` (or from ``rng``, which tests
        use to script the dice); ``max_rounds`` is checked here (lay_out), so any value
        may be given: a one-line error names what is accepted."""
        b = lay_out(self, scenario, seed, rng or random.Random(seed),
                    bestiary or default_bestiary(), keep_log, max_rounds, dice_hook)
        # reading: player sides start with an empty pool; a side without player characters
        # (the GM's) starts with one AP per enemy player character
        pcs = [sum(1 for c in b.combatants if c.side == si and S.is_character(c))
               for si in range(len(scenario.sides))]
        b.book = F2d20Book([0 if pcs[si] else min(MAX_POOL, sum(pcs) - pcs[si])
                            for si in range(len(scenario.sides))])
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
        book(b).base_order.append(c.slot)
        if b.round > 0:
            b.order.append(c.slot)
        b.emit(events, Note(c.id, f"joins the fight (Initiative {c.initiative}) and acts "
                                  f"last in the round."))
        return events

    def zones(self, b: Battle) -> Zones:
        return zones_for(b.grid)

    @property
    def tactics(self) -> Tactics:
        """Its answers to the tactical questions (tactics.py)."""
        from .tactics import F2d20Tactics

        return F2d20Tactics(self)

    def _order(self, b: Battle, events: list[Event]) -> None:
        """Highest Initiative first; ties broken by a d20 (reading: the seed lets the GM
        decide). The initiator - the quickest combatant of the first side that is not
        ambushed - takes a turn at once, before round 1 (seed 002, Initiative)."""
        keys = {}
        tied: dict[int, list[int]] = {}
        for c in b.combatants:
            c.initiative = S.stats(c).initiative
            tied.setdefault(c.initiative, []).append(c.slot)
        for c in b.combatants:
            group = tied[c.initiative]
            if len(group) > 1:  # at the table, only a tie is rolled for
                if b.dice_hook is not None:
                    b.roll_note = tie_note(b, c.slot, group, [c.initiative], "a d20")
                d20 = b.roll(c.slot, 20, 1, "initiative tie")[0]
            else:  # drawn all the same, so that every fight keeps its dice; no table
                # hook asks it, but a save from before ties alone were asked holds it
                d20 = b.roll(c.slot, 20, 1, UNTIED)[0]
            keys[c.slot] = (c.initiative, d20)
        order = sorted(keys, key=lambda s: keys[s], reverse=True)
        book(b).base_order = order
        for s in order:
            c = b.combatants[s]
            b.emit(events, InitiativeRolled(
                c.id, [], c.initiative, c.initiative,
                [keys[s][1]] if len(tied[c.initiative]) > 1 else [], "d20", "Initiative"))
        alert = [si for si, side in enumerate(b.scenario.sides) if side.alert]
        opener = next(s for s in order if b.combatants[s].side == (alert[0] if alert else 0))
        b.order = [opener]
        b.round = 0
        b.turn = 0
        b.emit(events, Note(b.ids[opener], "starts the fight and takes a turn at once."))

    # --- whose decision ------------------------------------------------------------------
    def decider(self, b: Battle) -> Decision:
        if b.over:
            raise battle_over(b.winner, b.side_names)
        w = book(b).window
        if w is not None:
            return decision(w["attacker"], w["kind"], None, w["target"])
        if b.reactions:
            r = b.reactions[0]
            return decision(r.reactor, "free", r.kind, r.subject)
        return decision(b.order[b.turn], "act")

    def outcome(self, b: Battle) -> int | None:
        return b.winner

    # --- legality ------------------------------------------------------------------------
    def _rights(self, b: Battle, c: Combatant) -> tuple[bool, bool, bool, bool, bool, bool]:
        """What the turn still allows ``c``: a minor action, a major one, a move (a crawl
        when prone, a major action), a sprint; whether it may move at all, and is prone."""
        x = book(b)
        pool = _pool(b, c.side)
        torso = S.injuries(c, "torso")
        minor_ok = x.minor == 0 or (x.minor < 2 and pool >= EXTRA_MINOR_AP and not torso)
        major_ok = x.major == 0 or (x.major < 2 and pool >= EXTRA_MAJOR_AP and not torso)
        legs = c.crippled.get("leg", 0) if c.crippled else 0
        prone = bool(c.cond.get("prone"))
        can_move = not x.moved and legs < 2
        can_sprint = can_move and major_ok and not legs and not prone
        move_ok = can_move and (major_ok if prone else minor_ok)  # prone: a crawl, major
        return minor_ok, major_ok, move_ok, can_sprint, can_move, prone

    def destinations(self, b: Battle, sprint: bool = False) -> dict[int, int]:
        """The squares a `goto` can end on now, with the zones crossed to get there: a move
        reaches any free square of its own zone or the next (a minor action), a sprint
        one zone farther (a major action), as the turn still allows. ``sprint``: those a
        sprint reaches (`goto X Y sprint`, a major action however near)."""
        if b.over or book(b).window is not None or b.reactions:
            return {}
        c = b.combatants[b.order[b.turn]]
        _, _, move_ok, can_sprint, _, _ = self._rights(b, c)
        if sprint:
            move_ok = can_sprint
        far = 2 if can_sprint else 1 if move_ok else 0
        if not far:
            return {}
        z = zones_for(b.grid)
        here, occ = z.zone_of[c.pos], b.occupied
        out = {}
        for cell, zone in enumerate(z.zone_of):
            if zone >= 0 and cell not in occ:
                hops = z.zone_band(here, zone)
                if hops <= far and (hops == 2 or move_ok):
                    out[cell] = hops
        return out

    def legal_ids(self, b: Battle) -> list[int]:
        if b.over:
            return []
        w = book(b).window
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
        x = book(b)
        minor_ok, major_ok, move_ok, can_sprint, can_move, prone = self._rights(b, c)
        ids = [END]
        g = b.grid
        z = zones_for(g)
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
        attack_ok = major_ok and S.hands_hold(c, c.arm(c.active_weapon).hands)
        medic = c.traits().medic  # first aid: only those the bestiary says can give it
        # can_attack's checks on the weapon in hand, made once for every enemy below
        arm = c.arm(c.active_weapon)
        prof = arm.f2d20
        melee = prof and arm.melee2d20
        armed = attack_ok and prof and (
            melee or arm.ammo is None or c.ammo.get(arm.ammo, 0) > 0)
        sees = g.sight[c.pos]
        gun = prof and not melee  # _holds_gun
        reach: set[int] | None = None
        mine = c.pos
        moves = z.moves
        orders = z.orders
        for t in b.combatants:
            if t is c or t.status != ACTIVE:
                if t is c or t.status != UNCONSCIOUS:
                    continue
                if t.side != side:  # seed 002 Dying: damage while dying adds an injury
                    if attack_ok and self.can_attack(b, c, t, c.active_weapon):
                        ids.extend(self._attack_ids(t))
                elif major_ok and medic and self._needs_aid(t) and g.dist(c.pos, t.pos) <= 1:
                    ids.append(FIRST_AID[t.slot])
                continue
            ts, tp = t.slot, t.pos
            enemy = t.side != side
            if move_ok or (can_sprint and enemy):
                there = z.zone_of[tp]
                to1, to2, away1, away2 = (moves.get(move_key(z, here, there))
                                          or _move_zones(z, here, there))
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
                        and (not melee or g.dist(mine, tp) <= arm.reach)):
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
                if near and medic and self._needs_aid(t):
                    ids.append(FIRST_AID[ts])
        if minor_ok:
            if c.cond.get("aim") != b.round:
                ids.append(AIM)
            if len(c.weapons) > 1:
                for i in range(len(c.weapons)):
                    if i != c.active_weapon and S.hands_hold(c, c.arm(i).hands):
                        ids.append(DRAW[i])
            if (not c.cond.get("burrowed") and not x.moved and not x.attacked
                    and c.traits().burrow):  # make_combatant made sure of its block
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
            if medic and self._needs_aid(c):
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

    def _attack_ids(self, t: Combatant) -> tuple[int, ...]:
        # fixed for a combatant (its slot and body), and asked for at every decision
        got: tuple[int, ...] | None = t.memo.get("attack_ids")
        if got is None:
            ids = [ATTACK[None][t.slot]] + [ATTACK[loc][t.slot] for loc in LOCATIONS
                                            if loc in t.loc_kinds]
            if "torso" in t.loc_kinds:
                ids.append(CALLED_TORSO[t.slot])
            got = t.memo["attack_ids"] = tuple(ids)
        return got

    def _needs_aid(self, t: Combatant) -> bool:
        if t.status == ACTIVE:
            return t.hp < t.max_hp or S.injuries(t) > 0
        return t.status == UNCONSCIOUS and bool(t.cond.get("dying")) and not t.cond.get("stable")

    # --- applying ------------------------------------------------------------------------
    def legal_actions(self, b: Battle) -> list[Action]:
        return [ACTION_TABLE[i] for i in self.legal_ids(b)]

    def apply(self, b: Battle, action: Action, check: bool = True) -> list[Event]:
        if b.over:
            raise IllegalActionError("the battle is over; no action is legal")
        dec = self.decider(b)
        if check and action.kind == goto.KIND:
            g = b.grid
            cell = goto.square(action, g.width, g.height)
            can = self.destinations(b, goto.sprinting(action))
            if cell not in can:
                raise goto.not_reachable(action, g.xs[cell], g.ys[cell], can,
                                         "a move reaches this zone or the next, a sprint "
                                         "one more")
        elif check and ACTION_INDEX.get(action, -1) not in self.legal_ids(b):
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
        x = book(b)
        if k == "end":
            x.turn_done = True
            return
        dest = -1
        if k == goto.KIND:  # a move or a sprint, by the zones it crosses
            dest = goto.square(a, b.grid.width, b.grid.height)
            k = "sprint" if (goto.sprinting(a) or self.destinations(b).get(dest, 0) == 2
                             ) else "move"
        minor = k in MINOR and not (k == "move" and c.cond.get("prone"))
        if (x.minor if minor else x.major) >= 1:
            cost = EXTRA_MINOR_AP if minor else EXTRA_MAJOR_AP
            x.pools[c.side] -= cost
            if not b.quiet:
                b.emit(events, Note(c.id, f"spends {cost} AP on another "
                                          f"{'minor' if minor else 'major'} action "
                                          f"(pool {x.pools[c.side]})."))
        if minor:
            x.minor += 1
        else:
            x.major += 1
        t = b.combatants[a.target] if a.target is not None else None
        if k == "aim":
            c.cond["aim"] = b.round
            b.emit(events, Note(c.id, "takes aim."))
        elif k == "draw":
            c.active_weapon = int(a.option or 0)
            b.emit(events, Note(c.id, f"draws {c.weapon.name}."))
        elif k == "cover":  # reading: burrowing is the turn's movement, not after attacking
            c.cond["burrowed"] = True
            x.moved = True
            b.emit(events, Note(c.id, "burrows out of sight."))
        elif k in ("move", "sprint") and dest >= 0:
            self._arrive(b, c, dest, "sprints" if k == "sprint" else "moves", events)
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
            x.moved = True
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

    def _apply_window(self, b: Battle, a: Action, events: list[Event]) -> None:
        x = book(b)
        w = x.window
        assert w is not None  # the decider said a window was open
        x.window = None
        n = int(a.option or 0)
        if w["kind"] == "defend":
            c = b.combatants[w["attacker"]]
            if n:
                book(b).pools[c.side] -= DEFEND_AP
                c.cond["defend"] = 2
                if not b.quiet:
                    b.emit(events, Note(c.id, f"spends {DEFEND_AP} AP for another +1 Defense "
                                              f"(pool {book(b).pools[c.side]})."))
            return
        if w["kind"] == "dice":
            if n:
                book(b).pools[b.combatants[w["attacker"]].side] -= EXTRA_DICE_COST[n]
            self._roll_attack(b, {**w, "roll": a.kind != "noroll"}, n, events)
        else:
            c = b.combatants[w["attacker"]]
            wpn = c.weapons[w["ws"]]
            if n:
                if self._max_boost_uses_ap(c, w):
                    book(b).pools[c.side] -= n
                elif wpn.ammo is not None:
                    c.ammo[wpn.ammo] -= n
            self._damage(b, c, b.combatants[w["target"]], w, n, events)

    # --- turn flow -----------------------------------------------------------------------
    def _settle(self, b: Battle, events: list[Event]) -> None:
        while True:
            if b.over or self._check_end(b, events):
                return
            if book(b).window is not None or b.reactions:
                return
            c = b.combatants[b.order[b.turn]]
            if book(b).turn_done or c.status != ACTIVE:
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
        book(b).window = None
        name = b.side_names[b.winner] if b.winner is not None else None
        b.emit(events, BattleEnded(name, "last side standing" if standing else "no one left",
                                   b.round))
        return True

    def _end_turn(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """Persistent damage strikes at the end of the burning combatant's next turn (one
        that had begun when the hit landed waits a turn), once (reading). A Radiant
        creature irradiates the rest of its zone (reading)."""
        if c.status == ACTIVE and c.traits().radiant:
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

    def _next_turn(self, b: Battle, events: list[Event]) -> None:
        x = book(b)
        cs = b.combatants
        while True:
            b.turn += 1
            if b.turn >= len(b.order):
                if b.round >= b.max_rounds:
                    b.out_of_rounds()
                    b.emit(events, BattleEnded(None, f"{b.round} rounds fought", b.round))
                    return
                b.round += 1
                b.turn = 0
                b.order = list(x.base_order)
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

    def _start_turn(self, b: Battle, events: list[Event]) -> None:
        x = book(b)
        c = b.combatants[b.order[b.turn]]
        stunned = bool(c.cond.pop("stunned", False))  # the free major action is lost
        x.minor, x.major, x.moved, x.turn_done = 0, 1 if stunned else 0, False, False
        x.stunned, x.attacked = stunned, False
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
