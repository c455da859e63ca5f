"""Fallout PnP (seed 000_4e72993430dea166.txt): turn order, action economy, legality.

A turn is a Small action then a Large action; a Large action may be spent as a second
Small one; taking a Large action first forgoes the Small one. Between turns each
combatant has one Free action, offered to it as a reaction (the decider becomes the
reacting combatant). Readings of what the seed leaves open are in docs/rules/pnp.md.
"""

from __future__ import annotations

import random
from typing import Any, Final

from mypy_extensions import mypyc_attr

from wasteland.bestiary.loader import Bestiary, default_bestiary
from wasteland.bestiary.models import Scenario
from wasteland.rules import goto
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, LOCATIONS, MAX_WEAPONS, Action, target_ids
from wasteland.rules.battle import ACTIVE, Battle, Combatant, DiceHook, Reaction, WeaponState
from wasteland.rules.decision import decision
from wasteland.rules.errors import IllegalActionError, battle_over
from wasteland.rules.events import (
    BattleEnded,
    BattleStarted,
    Event,
    Healed,
    InitiativeRolled,
    Moved,
    Note,
    OpposedInitiative,
    ReactionOffered,
    Reloaded,
    RoundStarted,
    TurnStarted,
)
from wasteland.rules.grid import COVER_FULL
from wasteland.rules.protocol import Decision
from wasteland.rules.rollnotes import tie_note
from wasteland.rules.setup import lay_out
from wasteland.rules.tactics import Tactics

from . import movement
from .book import PnpBook
from .combat import can_attack, deal_damage, down, resolve_attack, weapon_dice
from .odds import hit_chance as odds_hit_chance
from .stats import LARGE_ONLY, PAIR_PENALTY, VATS_COST, can_hold, free_hands, offhand, speed

END: Final = ACTION_INDEX[Action("end")]
RELOAD: Final = ACTION_INDEX[Action("reload")]
READY: Final = ACTION_INDEX[Action("ready")]
WARMUP: Final = ACTION_INDEX[Action("warmup")]
COVER: Final = ACTION_INDEX[Action("cover")]
DRAW: Final = [ACTION_INDEX[Action("draw", None, str(i))] for i in range(MAX_WEAPONS)]


MOVE_TO: Final = target_ids("move", "toward")
MOVE_AWAY: Final = target_ids("move", "away")
STEP_TO: Final = target_ids("step", "toward")
STEP_AWAY: Final = target_ids("step", "away")
ATTACK: Final = {o: target_ids("attack", o) for o in (None, *LOCATIONS)}
VATS: Final = {o: target_ids("vats", o) for o in LOCATIONS}
ATTACK2: Final = target_ids("attack2", None)
WHIP: Final = target_ids("whip", None)
STIM: Final = target_ids("stimpak", None)
SPEAK: Final = ACTION_INDEX[Action("speak")]
PREPARE: Final = {o: ACTION_INDEX[Action("prepare", None, o)] for o in ("cover", "stimpak", "reload")}
EXTINGUISH: Final = target_ids("extinguish", None)
FIRST_AID: Final = target_ids("first_aid", None)
PAIR_STIM: Final = target_ids("pair", "stimpak")
PAIR_WHIP: Final = target_ids("pair", "whip")
REACTION_NAMES: Final = {"opportunity": "attack of opportunity", "unguarded": "unguarded enemy",
                  "readied": "readied attack", "step": "5-ft step",
                  "prepared": "readied action"}
FIRST_AID_DC: Final = 12  # reading: an average Medicine check (3d6 + ranks >= 12)
FIRST_AID_HEAL: Final = "1d6"  # reading: plus the Medicine ranks


_ATTACK_IDS: Final[dict[tuple[int, frozenset[str]], tuple[int, ...]]] = {}


def _attack_ids(slot: int, locs: frozenset[str]) -> tuple[int, ...]:
    """Plain attack and a called shot at each location the target has."""
    key = (slot, locs)
    got = _ATTACK_IDS.get(key)
    if got is None:
        got = _ATTACK_IDS[key] = (ATTACK[None][slot],
                                  *(ATTACK[loc][slot] for loc in LOCATIONS if loc in locs))
    return got


def _initiative_note(c: Combatant, then: str) -> str:
    """What an initiative roll is, for a GM rolling it at the table."""
    mod = c.creature.pnp.initiative
    return f"initiative for {c.id}: 3d6 {mod:+d} (its Initiative modifier){then}"


def _heal_item(c: Combatant, b: Battle) -> str | None:
    for item_id, n in c.items.items():
        if n > 0 and b.items[item_id].kind == "healing":
            return item_id
    return None


def _can_reload(c: Combatant) -> bool:
    """Whether a reload step would add rounds: ammunition left, room in the weapon (or a
    reload under way), and a hand to do it with."""
    w = c.arm(c.active_weapon)
    if w.magazine == "none":
        return False
    st = c.weapon_states[c.active_weapon]
    return (c.ammo.get(w.ammo or "", 0) > 0 and (st.loaded < w.capacity or st.reload_step > 0)
            and (w.hands == 0 or c.crippled.get("arm", 0) < 2))


def _needs_first_aid(t: Combatant) -> bool:
    """First aid helps a bleeding patient, or a hurt one it has not healed yet this fight
    (reading: its healing works once per patient per fight); robots need a mechanic."""
    cond = t.cond
    if t.traits().robot:
        return False
    return bool(cond.get("bleeding")) or (t.hp < t.max_hp and not cond.get("first_aid"))


@mypyc_attr(serializable=True)
class PnP:
    name = "pnp"

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
        b.book = PnpBook()
        events: list[Event] = []
        b.emit(events, BattleStarted(scenario.id, "pnp", seed, b.side_names))
        self._roll_initiative(b, events)
        b.round = 1
        b.turn = 0
        b.emit(events, RoundStarted(1, [b.ids[i] for i in b.order]))
        self._offer_unguarded(b, events)
        if b.reactions:
            # the first turn starts once the unguarded attacks are settled, so a free action
            # spent on one belongs to the window before the reactor's first turn
            b.slot = "start"
        else:
            self._start_turn(b, events)
        return b

    def make_combatant(self, bestiary: Bestiary, creature: str, slot: int, cid: str,
                       side: int, pos: int, alert: bool = True) -> Combatant:
        cr = bestiary.creature(creature)
        weapons = [bestiary.weapons[r.id] for r in cr.pnp.weapons]
        return Combatant(
            slot=slot, id=cid, side=side, creature=cr,
            weapons=weapons, weapon_bonus=[r.bonus for r in cr.pnp.weapons],
            armor=bestiary.armor[cr.pnp.armor] if cr.pnp.armor else None,
            pos=pos, hp=cr.pnp.hp, max_hp=cr.pnp.hp,
            weapon_states=[WeaponState(loaded=w.capacity) for w in weapons],
            ammo=dict(cr.pnp.ammo), items=dict(cr.pnp.items), ap=cr.pnp.ap,
            unguarded=not alert,
        )

    def join(self, b: Battle, c: Combatant) -> list[Event]:
        """A newcomer rolls initiative and acts after everyone already in the fight
        (reading: the seed has no rule for late arrivals; Simple's is used)."""
        events: list[Event] = []
        if b.dice_hook is not None:
            b.roll_note = _initiative_note(c, " (joining: acts after everyone in the fight)")
        faces = b.roll(c.slot, 6, 3, "initiative")
        c.initiative = sum(faces) + c.creature.pnp.initiative
        b.order.append(c.slot)
        b.emit(events, InitiativeRolled(c.id, faces, c.creature.pnp.initiative, c.initiative))
        return events

    def _roll_initiative(self, b: Battle, events: list[Event]) -> None:
        """3d6 + Initiative modifier; ties are rerolled among the tied (seed 000, Initiative)."""
        keys: dict[int, list[int]] = {}
        faces_of: dict[int, list[int]] = {}
        for c in b.combatants:
            if b.dice_hook is not None:
                b.roll_note = _initiative_note(c, "; the highest total acts first")
            faces = b.roll(c.slot, 6, 3, "initiative")
            faces_of[c.slot] = faces
            c.initiative = sum(faces) + c.creature.pnp.initiative
            keys[c.slot] = [c.initiative]
        tiebreaks: dict[int, list[int]] = {c.slot: [] for c in b.combatants}
        while True:
            groups: dict[tuple[int, ...], list[int]] = {}
            for s, k in keys.items():
                groups.setdefault(tuple(k), []).append(s)
            tied = [g for g in groups.values() if len(g) > 1]
            if not tied:
                break
            for g in tied:
                for s in g:
                    if b.dice_hook is not None:
                        b.roll_note = tie_note(b, s, g, keys[s], "3d6")
                    roll = sum(b.roll(s, 6, 3, "initiative tie"))
                    keys[s].append(roll)
                    tiebreaks[s].append(roll)
        b.order = sorted(keys, key=lambda s: keys[s], reverse=True)
        for s in b.order:
            c = b.combatants[s]
            b.emit(events, InitiativeRolled(c.id, faces_of[s], c.creature.pnp.initiative,
                                            c.initiative, tiebreaks[s]))

    def _offer_unguarded(self, b: Battle, events: list[Event]) -> None:
        """Alert combatants may make a free attack on an unguarded enemy in reach (seed 000,
        Attack of Opportunity (Prone)); offered once, before the first turn."""
        for s in b.order:
            c = b.combatants[s]
            if c.unguarded:
                continue
            for t in b.enemies_of(c):
                if t.unguarded and can_attack(b, c, t, c.active_weapon):
                    b.reactions.append(Reaction(c.slot, "unguarded", t.slot))
                    b.emit(events, ReactionOffered(c.id, "unguarded_enemy", t.id))
                    break

    # --- whose decision ------------------------------------------------------------------
    def decider(self, b: Battle) -> Decision:
        if b.over:
            raise battle_over(b.winner, b.side_names)
        if b.reactions:
            r = b.reactions[0]
            return decision(r.reactor, "free", r.kind, r.subject)
        return decision(b.order[b.turn], b.slot)

    def outcome(self, b: Battle) -> int | None:
        return b.winner

    # --- legality ------------------------------------------------------------------------
    def legal_ids(self, b: Battle) -> list[int]:
        if b.over:
            return []
        if b.reactions:
            return self._reaction_ids(b, b.reactions[0])
        cs = b.combatants
        c = cs[b.order[b.turn]]
        ids = [END]
        g = b.grid
        aw = c.active_weapon
        w = c.arm(aw)  # the native copy: this runs at every decision
        tr = c.traits()
        st = c.weapon_states[aw]
        crippled = c.crippled
        has_mag = w.magazine != "none"
        loaded = not has_mag or (st.loaded > 0 and st.reload_step == 0)
        # small actions
        can_reload = _can_reload(c)
        if can_reload:
            ids.append(RELOAD)
        n_weapons = len(c.weapons)
        if n_weapons > 1:
            for i in range(n_weapons):
                if i != aw and can_hold(c, c.arm(i).hands):
                    ids.append(DRAW[i])
        sp = speed(c) if crippled else tr.pnp_speed
        if sp > 0 and g.cover[c.pos] == 0 and movement.nearest_cover(b, c, sp) is not None:
            ids.append(COVER)
        heal = _heal_item(c, b) if c.items else None
        # large actions
        hands = free_hands(c)
        medic = hands > 0 and tr.medic  # who can: the bestiary (first_aid)
        prepared = c.readied or bool(c.cond and c.cond.get("ready"))
        if not prepared:
            if sp > 0:
                ids.append(PREPARE["cover"])
            if heal:
                ids.append(PREPARE["stimpak"])
            if can_reload:
                ids.append(PREPARE["reload"])
        if c.burn_left > 0:
            ids.append(EXTINGUISH[c.slot])
        if medic and _needs_first_aid(c):
            ids.append(FIRST_AID[c.slot])
        # two one-handed actions at once: an attack and a stimpak on oneself
        pair_stim = (heal is not None and c.hp < c.max_hp and w.hands == 1 and hands >= 2)
        if (w.warm_up and loaded and st.warm < w.rof):
            ids.append(WARMUP)
        vats = tr.pnp_vats
        ap = c.ap
        off = offhand(c) if (n_weapons > 1 and not crippled.get("arm", 0)) else None
        pos = c.pos
        occ = b.occupied
        free = g.free_steps(pos, occ) if sp > 0 else 0
        downhill, uphill = g.downhill[pos], g.uphill[pos]
        sight = g.sight[pos]
        xs, ys = g.xs, g.ys
        px, py = xs[pos], ys[pos]
        cover = g.cover
        # what can_attack checks, split into the part that does not depend on the target
        wieldable = can_hold(c, w.hands)
        ranged = w.ranged
        can_hit = wieldable and loaded
        reach = w.reach
        max_sq = w.range_ft // 5 if w.stunted else 1 << 20
        shoot_full = w.lobbed
        me_full = cover[pos] == COVER_FULL
        whip_ok = ranged and wieldable and w.hands > 0
        side = c.side
        for t in cs:
            if t.status != ACTIVE or t is c:
                continue
            ts = t.slot
            tp = t.pos
            dx = xs[tp] - px
            dy = ys[tp] - py
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            d = dx if dx > dy else dy
            if free:
                if d > 1 and downhill[tp] & free:
                    ids.append(MOVE_TO[ts])
                if t.side != side and uphill[tp] & free:
                    ids.append(MOVE_AWAY[ts])
            if t.side == side:
                if d <= 1:
                    if heal and t.hp < t.max_hp:
                        ids.append(STIM[ts])
                    if t.burn_left > 0 and hands > 0:
                        ids.append(EXTINGUISH[ts])
                    if medic and _needs_first_aid(t):
                        ids.append(FIRST_AID[ts])
                continue
            if can_hit:
                if ranged:
                    ok = (d <= max_sq and (shoot_full or (cover[tp] != COVER_FULL and not me_full))
                          and sight[tp])
                else:
                    ok = d <= reach and sight[tp]
                if ok:
                    ids.extend(_attack_ids(ts, t.loc_kinds))
                    if vats:
                        for loc in LOCATIONS:
                            if loc in t.loc_kinds and ap >= VATS_COST[loc]:
                                ids.append(VATS[loc][ts])
                    if off is not None and can_attack(b, c, t, off):
                        ids.append(ATTACK2[ts])
                    if pair_stim:
                        ids.append(PAIR_STIM[ts])
                    if (off is not None and d <= 1 and c.arm(off).ranged
                            and can_attack(b, c, t, off, whip=True)):
                        ids.append(PAIR_WHIP[ts])
            if whip_ok and d <= 1:
                ids.append(WHIP[ts])
        if heal and c.hp < c.max_hp:
            ids.append(STIM[c.slot])
        if not prepared and loaded and wieldable:
            ids.append(READY)
        ids.sort()
        return ids

    def _reaction_ids(self, b: Battle, r: Reaction) -> list[int]:
        c = b.combatants[r.reactor]
        t = b.combatants[r.subject]
        ids = [END, SPEAK]
        if r.kind == "prepared":
            what = c.cond.get("ready")
            if what == "cover":
                if (c.status == ACTIVE and speed(c) > 0 and b.grid.cover[c.pos] == 0
                        and movement.nearest_cover(b, c) is not None):
                    ids.append(PREPARE["cover"])
            elif what == "stimpak":
                if _heal_item(c, b) and c.hp < c.max_hp:
                    ids.append(PREPARE["stimpak"])
            elif what == "reload" and _can_reload(c):
                ids.append(PREPARE["reload"])
        elif r.kind == "step":
            g = b.grid
            free = g.free_steps(c.pos, b.occupied)
            if free:
                downhill, uphill = g.downhill[c.pos], g.uphill[c.pos]
                for o in b.combatants:
                    if o.status == ACTIVE and o is not c:
                        if downhill[o.pos] & free and g.dist(c.pos, o.pos) > 1:
                            ids.append(STEP_TO[o.slot])
                        if o.side != c.side and uphill[o.pos] & free:
                            ids.append(STEP_AWAY[o.slot])
        elif t.status == ACTIVE and can_attack(b, c, t, c.active_weapon):
            ids.extend(_attack_ids(t.slot, t.loc_kinds))
        ids.sort()
        return ids

    @property
    def tactics(self) -> Tactics:
        """Its answers to the tactical questions (tactics.py)."""
        from .tactics import TACTICS

        return TACTICS

    def hit_chance(self, b: Battle, c: Combatant, t: Combatant,
                   location: str | None = None) -> float:
        """Exact chance that ``c``'s next attack on ``t`` hits (first shot)."""
        return odds_hit_chance(b, c, t, location)

    def legal_actions(self, b: Battle) -> list[Action]:
        return [ACTION_TABLE[i] for i in self.legal_ids(b)]

    def destinations(self, b: Battle, sprint: bool = False) -> dict[int, int]:
        """The squares a `goto` can end on now, with the squares walked to get there: in
        the turn's Small or Large action, up to Speed squares through free squares; in a
        5-ft step reaction, a free square next to the one stepping. PnP has no sprint."""
        if b.over or sprint:
            return {}
        if b.reactions:
            r = b.reactions[0]
            if r.kind != "step":
                return {}
            c = b.combatants[r.reactor]
            g = b.grid
            free = g.free_steps(c.pos, b.occupied)
            return {n: 1 for n, bit in g._step_bits[c.pos] if bit & free}
        if b.pending_move is not None or b.slot not in ("small", "large"):
            return {}
        c = b.active
        sp = speed(c) if c.crippled else c.creature.pnp.speed
        if sp <= 0:
            return {}
        g, occ = b.grid, b.occupied
        return goto.reach(c.pos, sp, g.step_cells, occ)

    def _check_goto(self, b: Battle, a: Action) -> None:
        g = b.grid
        cell = goto.square(a, g.width, g.height)
        can = self.destinations(b, goto.sprinting(a))
        if cell not in can:
            raise goto.not_reachable(a, g.xs[cell], g.ys[cell], can,
                                     "a move walks up to Speed squares, around walls and "
                                     "others; a 5-ft step one square; PnP has no sprint")

    # --- applying ------------------------------------------------------------------------
    def apply(self, b: Battle, action: Action, check: bool = True) -> list[Event]:
        if b.over:
            raise IllegalActionError("the battle is over; no action is legal")
        actor = b.reactions[0].reactor if b.reactions else b.order[b.turn]
        if check and action.kind == goto.KIND:
            self._check_goto(b, action)
        elif check and ACTION_INDEX.get(action, -1) not in self.legal_ids(b):
            legal = ", ".join(a.text(b.ids, actor) for a in self.legal_actions(b))
            raise IllegalActionError(
                f"{action.text(b.ids, actor)!r} is not legal for {b.ids[actor]} "
                f"now; legal: {legal}"
            )
        b.moves.append((actor, action))
        events: list[Event] = []
        if b.reactions:
            self._apply_reaction(b, action, events)
        else:
            self._apply_turn(b, action, events)
        self._settle(b, events)
        return events

    def _apply_reaction(self, b: Battle, a: Action, events: list[Event]) -> None:
        r = b.reactions.pop(0)
        c = b.combatants[r.reactor]
        t = b.combatants[r.subject]
        if a.kind == "end":
            if not b.quiet:
                b.emit(events, Note(c.id, f"lets the {REACTION_NAMES[r.kind]} pass."))
            return
        c.free_used = True
        if a.kind == "speak":
            b.emit(events, Note(c.id, "speaks a short line (Speak, its free action; no effect "
                                      "on the fight)."))
            return
        if a.kind == "prepare":
            c.cond.pop("ready", None)
            b.emit(events, Note(c.id, f"does its readied action ({a.option}) as {t.id} moves."))
            self._prepared(b, c, a.option or "", events)
            return
        if a.kind == goto.KIND:  # a 5-ft step to a chosen square (destinations)
            here, there = c.pos, goto.square(a, b.grid.width, b.grid.height)
            b.set_pos(c, there)
            b.emit(events, Moved(c.id, "takes a 5-ft step", b.grid.xy(here),
                                 b.grid.xy(there), 1))
            return
        if a.kind == "step":
            o = b.combatants[a.target] if a.target is not None else t
            nxt = (movement.step_toward(b, c, o.pos) if a.option == "toward"
                   else movement.step_away(b, c, o.pos))
            if nxt is not None:
                start = c.pos
                b.set_pos(c, nxt)
                b.emit(events, Moved(c.id, f"takes a 5-ft step {a.option} {o.id}",
                                     b.grid.xy(start), b.grid.xy(nxt), 1))
            return
        if r.kind in ("opportunity", "unguarded"):
            won = self._opposed_initiative(b, c, t, events)
            if not won:
                return
        else:
            c.readied = False
        resolve_attack(b, c, t, c.active_weapon, a.option, events, how="makes a free attack on")

    def _opposed_initiative(self, b: Battle, c: Combatant, t: Combatant,
                            events: list[Event]) -> bool:
        """Both roll 3d6 + Initiative modifier, ties rerolled; the reactor attacks if it wins."""
        while True:
            if b.dice_hook is not None:
                b.roll_note = (f"opposed initiative, {c.id} against {t.id}: 3d6 "
                               f"{c.creature.pnp.initiative:+d} for {c.id}; if {c.id} "
                               f"beats {t.id} it makes its free attack")
            fc = b.roll(c.slot, 6, 3, "opposed initiative")
            if b.dice_hook is not None:
                b.roll_note = (f"opposed initiative, {t.id} against {c.id}: 3d6 "
                               f"{t.creature.pnp.initiative:+d} for {t.id}; if {t.id} "
                               f"wins or ties {c.id} does not attack (a tie is rolled again)")
            ft = b.roll(t.slot, 6, 3, "opposed initiative")
            tc = sum(fc) + c.creature.pnp.initiative
            tt = sum(ft) + t.creature.pnp.initiative
            if tc != tt:
                break
        b.emit(events, OpposedInitiative(c.id, fc, tc, t.id, ft, tt, tc > tt))
        return tc > tt

    def _apply_turn(self, b: Battle, a: Action, events: list[Event]) -> None:
        c = b.active
        k = a.kind
        large = k in LARGE_ONLY
        if k == "end":
            b.slot = "done"
            return
        if k == "move":
            assert a.target is not None
            movement.walk(b, c, a.option or "toward", a.target, speed(c), events)
        elif k == goto.KIND:
            movement.walk(b, c, "to", goto.square(a, b.grid.width, b.grid.height), speed(c),
                          events)
        elif k == "cover":
            cell = movement.nearest_cover(b, c)
            if cell is not None:
                movement.walk(b, c, "cover", cell, speed(c), events)
        elif k == "draw":
            c.active_weapon = int(a.option or 0)
            b.emit(events, Note(c.id, f"draws {c.weapon.name}."))
        elif k == "reload":
            self._reload(b, c, events)
        elif k == "stimpak":
            assert a.target is not None
            self._heal(b, c, b.combatants[a.target], events)
        elif k == "ready":
            c.readied = True
            b.emit(events, Note(c.id, f"readies an attack with {c.weapon.name}."))
        elif k == "warmup":
            st = c.wstate
            if st.last_fired_round != b.round:
                st.warm = min(c.weapon.rof, st.warm + 1)
            st.last_fired_round = b.round
            b.emit(events, Note(c.id, f"warms up {c.weapon.name} (RoF {st.warm} next)."))
        elif k in ("attack", "vats"):
            assert a.target is not None
            resolve_attack(b, c, b.combatants[a.target], c.active_weapon, a.option, events,
                           vats=k == "vats")
        elif k == "whip":
            assert a.target is not None
            resolve_attack(b, c, b.combatants[a.target], c.active_weapon, None, events, whip=True,
                           how="pistol-whips")
        elif k == "first_aid":
            assert a.target is not None
            self._first_aid(b, c, b.combatants[a.target], events)
        elif k == "extinguish":
            assert a.target is not None
            t = b.combatants[a.target]
            t.burn_left = t.burn_rate = 0
            who = "its own fire" if t is c else f"the fire on {t.id}"
            b.emit(events, Note(c.id, f"puts out {who} (its Large action)."))
        elif k == "prepare":
            c.cond["ready"] = a.option
            b.emit(events, Note(c.id, f"readies an action: {a.option}, when an enemy it can "
                                      f"see ends a move."))
        elif k == "pair":
            assert a.target is not None
            t = b.combatants[a.target]
            pen = [("two weapons", PAIR_PENALTY)]
            resolve_attack(b, c, t, c.active_weapon, None, events, extra=pen)
            if a.option == "stimpak":
                if c.status == ACTIVE:
                    self._heal(b, c, c, events)
            else:
                off = offhand(c)
                assert off is not None
                if t.status == ACTIVE and c.status == ACTIVE and can_attack(b, c, t, off, whip=True):
                    resolve_attack(b, c, t, off, None, events, whip=True, extra=pen,
                                   how="pistol-whips")
        elif k == "attack2":
            assert a.target is not None
            t = b.combatants[a.target]
            off = offhand(c)
            assert off is not None
            pen = [("two weapons", PAIR_PENALTY)]
            resolve_attack(b, c, t, c.active_weapon, None, events, extra=pen)
            if t.status == ACTIVE and can_attack(b, c, t, off):
                resolve_attack(b, c, t, off, None, events, extra=pen)
        else:
            raise IllegalActionError(f"{k!r} has no meaning under pnp")
        if large or b.slot == "large":
            b.slot = "done"
        else:
            b.slot = "large"

    def _reload(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """Internal: 2 rounds per action; clip/battery: unload then load (2 actions);
        complex: 3 actions (seed 000, Magazine Types and Reloading)."""
        w = c.weapon
        st = c.wstate
        ammo = w.ammo or ""
        if w.magazine == "internal":
            n = min(2, w.capacity - st.loaded, c.ammo[ammo])
            st.loaded += n
            c.ammo[ammo] -= n
            step = f"loads {n} round{'s' if n != 1 else ''}"
        else:
            steps = 2 if w.magazine == "clip" else 3
            if st.reload_step == 0:
                c.ammo[ammo] += st.loaded  # the rounds left in the magazine go back to the pack
                st.loaded = 0
            st.reload_step += 1
            if st.reload_step >= steps:
                n = min(w.capacity, c.ammo[ammo])
                st.loaded = n
                c.ammo[ammo] -= n
                st.reload_step = 0
                step = f"reloads (step {steps} of {steps})"
            else:
                what = "unloads" if st.reload_step == 1 else "works the reload"
                step = f"{what} (step {st.reload_step} of {steps})"
        b.emit(events, Reloaded(c.id, w.name, step, st.loaded, w.capacity, c.ammo[ammo]))

    def _heal(self, b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
        item_id = _heal_item(c, b)
        assert item_id is not None
        item = b.items[item_id]
        c.items[item_id] -= 1
        dice = weapon_dice(item.heal)
        if b.dice_hook is not None:
            b.roll_note = (f"healing: {dice} HP for {t.id} from the {item.name} (HP "
                           f"{t.hp}/{t.max_hp})")
        faces = b.roll(c.slot, dice.sides, dice.count, "healing")
        amount = sum(faces) + dice.bonus
        before = t.hp
        t.hp = min(t.max_hp, t.hp + amount)
        b.emit(events, Healed(c.id, t.id, item.name, str(dice), faces, t.hp - before, t.hp,
                              t.max_hp))
        if t.cond.get("bleeding"):
            del t.cond["bleeding"]
            b.emit(events, Note(t.id, f"stops bleeding ({item.name})."))

    def _first_aid(self, b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
        """A Skill Check (Large action): 3d6 + Medicine ranks against the difficulty; a
        success stops bleeding and, once per patient per fight, heals 1d6 + ranks
        (readings: docs/rules/pnp.md)."""
        med = c.creature.pnp.medicine
        if b.dice_hook is not None:
            b.roll_note = (f"first aid: 3d6 {med:+d} Medicine against {FIRST_AID_DC}: "
                           f"{FIRST_AID_DC - med} or more on the dice")
        faces = b.roll(c.slot, 6, 3, "first aid")
        total = sum(faces) + med
        ok = total >= FIRST_AID_DC
        who = "itself" if t is c else t.id
        text = (f"gives first aid to {who}: Medicine check 3d6 ({'+'.join(map(str, faces))}) "
                f"{'+' if med >= 0 else '-'}{abs(med)} Medicine = {total} vs {FIRST_AID_DC}, ")
        if not ok:
            b.emit(events, Note(c.id, text + "failure."))
            return
        text += "success"
        if t.cond.get("bleeding"):
            del t.cond["bleeding"]
            text += "; bleeding stopped"
        if t.hp < t.max_hp and not t.cond.get("first_aid"):
            t.cond["first_aid"] = True
            dice = weapon_dice(FIRST_AID_HEAL)
            if b.dice_hook is not None:
                b.roll_note = (f"first aid worked: {dice} {med:+d} Medicine HP for {t.id} "
                               f"(HP {t.hp}/{t.max_hp})")
            hf = b.roll(c.slot, dice.sides, dice.count, "first aid healing")
            amount = max(0, sum(hf) + med)
            before = t.hp
            t.hp = min(t.max_hp, t.hp + amount)
            text += (f"; heals {dice} ({'+'.join(map(str, hf))}) {'+' if med >= 0 else '-'}"
                     f"{abs(med)} = {amount}, {t.hp - before} HP healed (HP {t.hp}/{t.max_hp})")
        b.emit(events, Note(c.id, text + "."))

    def _prepared(self, b: Battle, c: Combatant, what: str, events: list[Event]) -> None:
        """A readied non-attack action, done as the free action."""
        if what == "cover":
            cell = movement.nearest_cover(b, c)
            if cell is not None:
                movement.walk(b, c, "cover", cell, speed(c), events)
        elif what == "stimpak":
            self._heal(b, c, c, events)
        elif what == "reload":
            self._reload(b, c, events)

    # --- turn flow -----------------------------------------------------------------------
    def _settle(self, b: Battle, events: list[Event]) -> None:
        """After an action: finish paused movement, end the battle or the turn."""
        while True:
            if b.over or self._check_end(b, events):
                return
            if b.reactions:
                return
            if b.pending_move is not None:
                movement.resume(b, events)
                continue
            if b.slot == "start":
                b.slot = "small"
                self._start_turn(b, events)
                continue
            if b.slot == "done" or b.combatants[b.order[b.turn]].status != ACTIVE:
                self._next_turn(b, events)
                continue
            return

    def _check_end(self, b: Battle, events: list[Event]) -> bool:
        if b.sides_left > 1:
            return False
        standing = b.sides_standing()
        if len(standing) <= 1:
            b.over = True
            b.winner = next(iter(standing)) if standing else None
            b.reactions.clear()
            b.pending_move = None
            name = b.side_names[b.winner] if b.winner is not None else None
            b.emit(events, BattleEnded(name, "last side standing" if standing else "no one left",
                                       b.round))
            return True
        return False

    def _next_turn(self, b: Battle, events: list[Event]) -> None:
        """Advance to the next standing combatant, starting a new round after the last."""
        cs, order = b.combatants, b.order
        while True:
            b.turn += 1
            if b.turn >= len(order):
                if b.round >= b.max_rounds:
                    b.out_of_rounds()
                    b.emit(events, BattleEnded(None, f"{b.round} rounds fought", b.round))
                    b.slot = "done"
                    return
                b.round += 1
                b.turn = 0
                if b.keep_log:
                    b.emit(events, RoundStarted(b.round, [b.ids[i] for i in order
                                                          if cs[i].status == ACTIVE]))
            if cs[order[b.turn]].status == ACTIVE:
                break
        b.slot = "small"
        self._start_turn(b, events)

    def _start_turn(self, b: Battle, events: list[Event]) -> None:
        c = b.combatants[b.order[b.turn]]
        if c.status != ACTIVE:
            b.slot = "done"
            return
        if b.keep_log:
            b.emit(events, TurnStarted(c.id))
        c.free_used = False
        c.readied = False
        c.unguarded = False
        if c.cond:
            self._conditions(b, c, events)
            if c.status != ACTIVE:
                return
        c.ap = c.traits().pnp_ap
        if _timed(c):
            for w, st in zip(c.weapons, c.weapon_states):
                if w.qualities.recharging and st.loaded < w.capacity:
                    st.loaded = min(w.capacity, st.loaded + w.qualities.recharging)
                if w.qualities.warm_up and st.last_fired_round < b.round - 1:
                    st.warm = 0
        if c.burn_left > 0:
            n = min(c.burn_rate, c.burn_left)
            c.burn_left -= n
            c.hp = max(0, c.hp - n)
            c.damage_taken += n
            b.emit(events, Note(c.id, f"burns for {n} damage ({c.burn_left} burn left, "
                                      f"HP {c.hp}/{c.max_hp})"))
            if c.burn_left == 0:
                c.burn_rate = 0
            if c.hp <= 0:
                down(b, c, events)
                b.slot = "done"


    def _conditions(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """Start of turn: a readied action lapses, a bleeding creature bleeds, a prone one
        stands up with its Small action (readings: docs/rules/pnp.md)."""
        cond = c.cond
        cond.pop("ready", None)
        bleed = cond.get("bleeding", 0)
        if bleed:
            c.hp = max(0, c.hp - bleed)
            c.damage_taken += bleed
            b.emit(events, Note(c.id, f"bleeds for {bleed} damage (HP {c.hp}/{c.max_hp})."))
            if c.hp <= 0:
                down(b, c, events)
                b.slot = "done"
                return
        if cond.pop("prone", None):
            b.slot = "large"
            b.emit(events, Note(c.id, "stands up (its Small action)."))


_TIMED: Final[dict[tuple[str, ...], bool]] = {}


def _timed(c: Combatant) -> bool:
    """Whether any of the combatant's weapons recharges or warms up (checked each turn)."""
    key = tuple([c.arm(i).id for i in range(len(c.weapons))])
    got = _TIMED.get(key)
    if got is None:
        got = _TIMED[key] = any(w.qualities.recharging or w.qualities.warm_up for w in c.weapons)
    return got


__all__ = ["PnP", "deal_damage"]
