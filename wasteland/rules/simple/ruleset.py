"""J.E. Sawyer's Simple (seed 001_0912b5c6442fb3b1.txt): sequence, and a round of three
phases on hexes.

Every combatant passes through the move phase (lowest sequence first), the charge phase
and the action phase (highest first). A combatant's move-phase decision is one move-phase
action (a move by its stance, a run, a stance change, evading, swapping weapons) with free
drops to a lower stance before or after it; its charge-phase decision is a charge (a blow
or a disarm) or nothing (offered only when a charge is possible); its action-phase
decision is one action (an attack, a disarm, reloading or unloading, a stimpak, first aid,
an overwatch cone). An
overwatch cone interrupts the next round's move phase as a reaction. Readings of what
the seed leaves open are in docs/rules/simple.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Final

from mypy_extensions import mypyc_attr

from wasteland.bestiary.loader import Bestiary, default_bestiary
from wasteland.bestiary.models import Scenario
from wasteland.rules import goto
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, MAX_WEAPONS, Action, target_ids
from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS, Battle, Combatant, DiceHook, WeaponState
from wasteland.rules.decision import decision
from wasteland.rules.errors import IllegalActionError, battle_over
from wasteland.rules.events import (
    BattleEnded,
    BattleStarted,
    Event,
    Healed,
    InitiativeRolled,
    Note,
    Reloaded,
    RoundStarted,
    TurnStarted,
)
from wasteland.rules.hexes import hexes_for
from wasteland.rules.protocol import Decision
from wasteland.rules.rollnotes import tie_note
from wasteland.rules.setup import lay_out
from wasteland.rules.tactics import Tactics

from . import movement as M
from . import stats as S
from .attack import (
    after_harm,
    attack_spots,
    can_attack,
    can_disarm,
    dice_of,
    disarm,
    disarmable,
    empty_handed,
    held,
    item_in_hand,
    item_size,
    jammed,
    knock_out,
    lost,
    offhand,
    rearmed,
    resolve_attack,
    rise,
)
from .book import SimpleBook, book
from .skills import check

END: Final = ACTION_INDEX[Action("end")]
RELOAD: Final = ACTION_INDEX[Action("reload")]
UNLOAD: Final = ACTION_INDEX[Action("unload")]
COVER: Final = ACTION_INDEX[Action("cover")]
EVADE: Final = ACTION_INDEX[Action("evade")]
CROUCH: Final = ACTION_INDEX[Action("crouch")]
PRONE: Final = ACTION_INDEX[Action("prone")]
STAND: Final = ACTION_INDEX[Action("stand")]
DRAW: Final = [ACTION_INDEX[Action("draw", None, str(i))] for i in range(MAX_WEAPONS)]
MOVE_TO: Final = target_ids("move", "toward")
MOVE_AWAY: Final = target_ids("move", "away")
RUN_TO: Final = target_ids("sprint", "toward")
RUN_AWAY: Final = target_ids("sprint", "away")
ATTACK: Final = {o: target_ids("attack", o) for o in (None, "head", "arm", "leg")}
CALLED_TORSO: Final = target_ids("called", "torso")
CHARGE: Final = target_ids("charge", None)
OVERWATCH: Final = target_ids("overwatch", None)
AIMED: Final = {o: target_ids("aimed", o) for o in ("eyes", "groin")}
ATTACK2: Final = target_ids("attack2", None)
REPAIR: Final = ACTION_INDEX[Action("repair")]
DISARM: Final = target_ids("disarm", None)
DROP: Final = ACTION_INDEX[Action("drop")]
STOW: Final = ACTION_INDEX[Action("stow")]
# each attack_spots location's action ids, by target slot
SPOT_IDS: Final[dict[str | None, list[int]]] = {
    **{loc: ATTACK[loc] for loc in (None, "head", "arm", "leg")},
    "torso": CALLED_TORSO, "eyes": AIMED["eyes"], "groin": AIMED["groin"]}
STIM: Final = target_ids("stimpak", None)
FIRST_AID: Final = target_ids("first_aid", None)

MOVE: Final = "move"
CHARGE_PHASE: Final = "charge"
ACTION: Final = "action"
CONCUSSION_CHANCE: Final = 10  # percent a round (seed 001, Crippled Head)


def _flag(c: Combatant, key: str, rnd: int) -> bool:
    return c.cond.get(key) == rnd


def _overwatching(b: Battle, c: Combatant) -> bool:
    """Declared overwatch last round: no move or charge this round (seed 001)."""
    return c.cond.get("watched") == b.round - 1  # kept after the cone fires or lapses


def _heal_item(b: Battle, c: Combatant) -> str | None:
    for item_id, n in c.items.items():
        if n > 0 and b.items[item_id].kind == "healing":
            return item_id
    return None


def _needs_aid(t: Combatant) -> bool:
    """First aid helps one bleeding out, or fixes a crippled part (Medic, or Mechanics for
    a robot: seed 001, Removing a Crippled status)."""
    if t.status == UNCONSCIOUS:
        return bool(t.cond.get("bleeding")) and not t.cond.get("stable")
    return t.status == ACTIVE and any(v > 0 for v in t.crippled.values())


@mypyc_attr(serializable=True)
class Simple:
    name = "simple"

    # --- setting up ----------------------------------------------------------------------
    def new_battle(self, scenario: Scenario, seed: int, bestiary: Bestiary | None = None,
                   keep_log: bool = True, max_rounds: Any = None,
                   rng: random.Random | None = None, dice_hook: DiceHook | None = None
                   ) -> Battle:
        bestiary = bestiary or default_bestiary()
        b = lay_out(self, scenario, seed, rng or random.Random(seed), bestiary, keep_log,
                    max_rounds, dice_hook)
        b.book = SimpleBook()
        hexes_for(b.grid)
        events: list[Event] = []
        b.emit(events, BattleStarted(scenario.id, "simple", seed, b.side_names))
        self._roll_sequence(b, [c.slot for c in b.combatants], events)
        b.round = 0
        self._start_round(b, events)
        self._advance(b, events)
        self._settle(b, events)
        return b

    def make_combatant(self, bestiary: Bestiary, creature: str, slot: int, cid: str,
                       side: int, pos: int, alert: bool = True) -> Combatant:
        cr = bestiary.creature(creature)
        s = cr.simple
        if s is None:
            from wasteland.rules.errors import WastelandError

            raise WastelandError(f"creature {creature!r} has no simple stat block")
        weapons = [bestiary.weapons[r.id] for r in s.weapons]
        return Combatant(
            slot=slot, id=cid, side=side, creature=cr,
            weapons=weapons, weapon_bonus=[r.bonus for r in s.weapons],
            armor=bestiary.armor[s.armor] if s.armor else None,
            pos=pos, hp=s.hp, max_hp=s.hp,
            weapon_states=[WeaponState(loaded=w.capacity) for w in weapons],
            ammo=dict(s.ammo), items=dict(s.items), unguarded=not alert,
        )

    def join(self, b: Battle, c: Combatant) -> list[Event]:
        """A newcomer goes to the end of the sequence; several joining in one round roll
        for their places among themselves (seed 001, Determining and Following
        Sequences). Reading: it first acts in the next phase that reaches its place."""
        events: list[Event] = []
        x = book(b)
        late = x.late
        if late is None or x.late_round != b.round:
            b.mark("late")
            x.late_round, late = b.round, []
            x.late = late
        late.append(c.slot)
        keep = [s for s in b.order if s not in late]
        current = b.order[b.turn] if 0 <= b.turn < len(b.order) else None
        ranked = self._ranked(b, late, events, fresh=[c.slot])
        b.order = keep + ranked
        if current is not None and current in b.order:
            b.turn = b.order.index(current)
        return events

    def _ranked(self, b: Battle, slots: list[int], events: list[Event],
                fresh: list[int] | None = None) -> list[int]:
        """d10 + Sequence each (only the ``fresh`` roll, when given: the others keep
        theirs); ties roll a d10 among themselves, highest first, until none are tied
        (seed 001)."""
        keys: dict[int, list[int]] = {}
        faces: dict[int, list[int]] = {}
        for s in slots:
            c = b.combatants[s]
            if fresh is None or s in fresh:
                if b.dice_hook is not None:
                    b.roll_note = (f"sequence for {c.id}: d10 {S.block(c).sequence:+d} (its "
                                   f"Sequence); the highest acts first in the charge and "
                                   f"action phases, last in the move phase"
                                   + (" (joining: placed after everyone in the fight)"
                                      if fresh is not None else ""))
                f = b.roll(s, 10, 1, "sequence")
                c.initiative = f[0] + S.block(c).sequence
            else:
                f = [c.initiative - S.block(c).sequence]
            faces[s] = f
            keys[s] = [c.initiative]
        breaks: dict[int, list[int]] = {s: [] for s in slots}
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
                        b.roll_note = tie_note(b, s, g, keys[s], "d10", "sequence")
                    r = b.roll(s, 10, 1, "sequence roll-off")[0]
                    keys[s].append(r)
                    breaks[s].append(r)
        ranked = sorted(slots, key=lambda s: keys[s], reverse=True)
        for s in ranked:
            if fresh is not None and s not in fresh and not breaks[s]:
                continue
            c = b.combatants[s]
            b.emit(events, InitiativeRolled(c.id, faces[s], S.block(c).sequence,
                                            c.initiative, breaks[s], "d10", "sequence"))
        return ranked

    def _roll_sequence(self, b: Battle, slots: list[int], events: list[Event]) -> None:
        b.order = self._ranked(b, slots, events)

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

    def legal_actions(self, b: Battle) -> list[Action]:
        return [ACTION_TABLE[i] for i in self.legal_ids(b)]

    @property
    def tactics(self) -> Tactics:
        """Its answers to the tactical questions (tactics.py)."""
        from .tactics import TACTICS

        return TACTICS

    def hit_chance(self, b: Battle, c: Combatant, t: Combatant,
                   location: str | None = None) -> float:
        """Exact chance that ``c``'s attack on ``t`` with the weapon in hand hits."""
        from .odds import hit_chance

        return hit_chance(b, c, t, c.active_weapon, location)

    # --- legality ------------------------------------------------------------------------
    def legal_ids(self, b: Battle) -> list[int]:
        if b.over:
            return []
        if b.reactions:
            r = b.reactions[0]
            c, t = b.combatants[r.reactor], b.combatants[r.subject]
            ids = [END] + self._attack_ids(b, c, t)
            return sorted(ids)
        c = b.combatants[b.order[b.turn]]
        if b.slot == MOVE:
            ids = self._move_ids(b, c)
        elif b.slot == CHARGE_PHASE:
            ids = ([END] + [CHARGE[t.slot] for t in self._charges(b, c)]
                   + [DISARM[t.slot] for t in self._charge_disarms(b, c)])
        else:
            ids = self._action_ids(b, c)
        return sorted(set(ids))

    def _attack_ids(self, b: Battle, c: Combatant, t: Combatant) -> list[int]:
        return [SPOT_IDS[loc][t.slot] for loc in attack_spots(b, c, t, c.active_weapon)]

    def _drops(self, c: Combatant) -> list[int]:
        """Free at the start or end of its move: stand to crouch or prone, crouch to prone."""
        if not S.traits(c).simple_stances:
            return []
        st = S.stance(c)
        return [CROUCH, PRONE] if st == S.STAND else ([PRONE] if st == S.CROUCH else [])

    def _free(self, c: Combatant) -> list[int]:
        """Its free actions: the stance drops, and dropping the item in hand (seed 001)."""
        return self._drops(c) + ([DROP] if item_in_hand(c) else [])

    def _move_ids(self, b: Battle, c: Combatant) -> list[int]:
        ids = [END] + self._free(c)
        if book(b).main:
            return ids
        st = S.stance(c)
        h = hexes_for(b.grid)
        stuck = bool(c.crippled.get("groin", 0))  # cannot stand or move without help
        ids.append(EVADE)
        if not stuck:
            if st == S.PRONE and S.traits(c).simple_stances:
                ids.append(CROUCH)
                if not S.heavy_armor(c):
                    ids.append(STAND)
            elif st == S.CROUCH:
                ids.append(STAND)
            hexes = S.move_hexes(c)
            run = st == S.STAND and not S.heavy_armor(c)
            for t in b.combatants:
                if t is c or t.status != ACTIVE:
                    continue
                enemy = t.side != c.side
                if hexes and M.can_step(b, h, c.pos, "toward", t.pos):
                    ids.append(MOVE_TO[t.slot])
                    if run:
                        ids.append(RUN_TO[t.slot])
                if enemy and hexes and M.can_step(b, h, c.pos, "away", t.pos):
                    ids.append(MOVE_AWAY[t.slot])
                    if run:
                        ids.append(RUN_AWAY[t.slot])
            if hexes and not b.grid.cover[c.pos] and M.nearest_cover(b, c, hexes) is not None:
                ids.append(COVER)
        stowed = bool(c.cond.get("stowed"))
        for i in range(min(len(c.weapons), MAX_WEAPONS)):  # `draw N` names the first three
            if (i != c.active_weapon or stowed) and not lost(c, i):
                ids.append(DRAW[i])
        if item_in_hand(c):
            ids.append(STOW)
        return ids

    def destinations(self, b: Battle, sprint: bool = False) -> dict[int, int]:
        """The hexes a `goto` can end on now, with the hexes walked to get there: in the
        move phase, before its main option, by stance, and as far as a run from standing
        (which forfeits the charge and action phases, as a run does). ``sprint``: a run
        however near (`goto X Y sprint`), so none where it cannot run."""
        if (b.over or b.reactions or b.pending_move is not None or b.slot != MOVE
                or book(b).main or book(b).done):
            return {}
        c = b.combatants[b.order[b.turn]]
        if sprint and not (S.stance(c) == S.STAND and not S.heavy_armor(c)):
            return {}
        return self._reach(b, c)

    def _reach(self, b: Battle, c: Combatant) -> dict[int, int]:
        if c.crippled.get("groin", 0):  # cannot move without help
            return {}
        run = S.stance(c) == S.STAND and not S.heavy_armor(c)
        far = S.move_hexes(c, run)
        if far <= 0:
            return {}
        h, occ, g = hexes_for(b.grid), b.occupied, b.grid
        if g.rough:  # climbing and swimming cap the walks that start on or enter them
            caps = g.move_cap
            return goto.reach_capped(c.pos, far, h.neighbors.__getitem__,
                                     lambda i: i not in occ, caps.__getitem__)[0]
        return goto.reach(c.pos, far, h.neighbors, occ)

    def _charges(self, b: Battle, c: Combatant) -> list[Combatant]:
        """Enemies it can charge: standing, a melee weapon it can use, a straight line of
        1-4 free hexes ending next to the enemy (seed 001, Charge Phase)."""
        if (S.stance(c) != S.STAND or _flag(c, "forfeit", b.round) or _overwatching(b, c)
                or S.profile(c.weapon).skill not in S.MELEE_SKILLS):
            return []
        out = []
        start = c.pos
        for t in b.enemies_of(c):
            path = M.charge_path(b, c, t)
            if path is None:
                continue
            c.pos = path[-1]  # what-if: the attack from where the charge ends
            try:
                ok = can_attack(b, c, t, c.active_weapon)
            finally:
                c.pos = start
            if ok:
                out.append(t)
        return out

    def _charge_disarms(self, b: Battle, c: Combatant) -> list[Combatant]:
        """Enemies it can charge to disarm (seed 001, Disarm: in the charge phase too):
        a charge's line, ending in a disarm rather than a blow, so open hands rather than
        a melee weapon (reading)."""
        if S.stance(c) != S.STAND or _flag(c, "forfeit", b.round) or _overwatching(b, c):
            return []
        return [t for t in b.enemies_of(c)
                if disarmable(c, t) and M.charge_path(b, c, t) is not None]

    def _action_ids(self, b: Battle, c: Combatant) -> list[int]:
        return [END, *self._actions(b, c)]

    def _actions(self, b: Battle, c: Combatant) -> Iterator[int]:
        """The action phase's ids but `end`, one at a time: whether there is any needs
        only the first (``_can_decide``)."""
        ws = c.active_weapon
        w = c.weapon
        p = S.profile(w)
        h = hexes_for(b.grid)
        inhand = held(c, ws)
        if inhand and jammed(c, ws):
            yield UNLOAD
        elif (inhand and w.magazine != "none" and c.weapon_states[ws].loaded < w.capacity
              and c.ammo.get(w.ammo or "", 0) > 0):
            yield RELOAD
        heal = _heal_item(b, c)
        medic = c.traits().medic  # first aid: only those the bestiary says can give it
        for t in b.combatants:
            if t.side == c.side:
                near = t is c or h.dist(c.pos, t.pos) <= 1
                if not near or t.status == DEAD:
                    continue
                if heal and (t.hp < t.max_hp or t.cond.get("bleeding")):
                    yield STIM[t.slot]
                if medic and _needs_aid(t):
                    yield FIRST_AID[t.slot]
                continue
            if t.status != ACTIVE:
                continue
            if can_disarm(b, c, t):
                yield DISARM[t.slot]
            spots = attack_spots(b, c, t, ws)
            for loc in spots:
                yield SPOT_IDS[loc][t.slot]
            if not spots or None not in spots:
                continue  # no attack on the whole target: no watch, no second weapon
            if p.skill in S.RANGED_SKILLS and p.skill != "throwing":
                yield OVERWATCH[t.slot]
            off = offhand(c)
            if off is not None and can_attack(b, c, t, off):
                yield ATTACK2[t.slot]
        if inhand and ws in c.cond.get("damaged", ()):
            yield REPAIR

    # --- applying ------------------------------------------------------------------------
    def apply(self, b: Battle, action: Action, check: bool = True) -> list[Event]:
        if b.over:
            raise IllegalActionError("the battle is over; no action is legal")
        actor = b.reactions[0].reactor if b.reactions else b.order[b.turn]
        if check and action.kind == goto.KIND:
            g = b.grid
            cell = goto.square(action, g.width, g.height)
            can = self.destinations(b, goto.sprinting(action))
            if cell not in can:
                raise goto.not_reachable(action, g.xs[cell], g.ys[cell], can,
                                         "the move phase walks or runs by stance, around "
                                         "walls and others")
        elif check and ACTION_INDEX.get(action, -1) not in self.legal_ids(b):
            legal = ", ".join(a.text(b.ids, actor) for a in self.legal_actions(b))
            raise IllegalActionError(
                f"{action.text(b.ids, actor)!r} is not legal for {b.ids[actor]} now; "
                f"legal: {legal}")
        b.moves.append((actor, action))
        events: list[Event] = []
        if b.reactions:
            r = b.reactions.pop(0)
            c, t = b.combatants[r.reactor], b.combatants[r.subject]
            c.cond.pop("overwatch", None)  # one interrupt (seed 001)
            if action.kind == "end":
                b.emit(events, Note(c.id, f"holds its overwatch fire as {t.id} moves."))
            else:
                loc = action.option
                resolve_attack(b, c, t, c.active_weapon, loc, events,
                               how="fires from overwatch at")
        elif b.slot == MOVE:
            self._apply_move(b, action, events)
        elif b.slot == CHARGE_PHASE:
            self._apply_charge(b, action, events)
        else:
            self._apply_action(b, action, events)
        self._settle(b, events)
        return events

    def _apply_move(self, b: Battle, a: Action, events: list[Event]) -> None:
        c = b.combatants[b.order[b.turn]]
        k = a.kind
        st = S.stance(c)
        if k == "end":
            book(b).done = True
            return
        if (k == "crouch" and st == S.STAND) or k == "prone":
            c.cond["stance"] = S.CROUCH if k == "crouch" else S.PRONE
            b.emit(events, Note(c.id, f"drops to {'a crouch' if k == 'crouch' else 'prone'} "
                                      f"(free)."))
            if book(b).main and not self._free(c):
                book(b).done = True
            return
        if k == "drop":  # free, any size (seed 001): it lies on the ground, out of the fight
            c.cond["gone"] = [*c.cond.get("gone", []), c.active_weapon]
            rearmed(b)
            b.emit(events, Note(c.id, f"drops {c.weapon.name} (free)."))
            if book(b).main and not self._free(c):
                book(b).done = True
            return
        if k == goto.KIND:  # measured before "main" is taken: it closes the destinations
            dest = goto.square(a, b.grid.width, b.grid.height)
            need = self._reach(b, c).get(dest, 0)
        book(b).main = True
        forfeit = False
        if k == goto.KIND:
            run = need > S.move_hexes(c) or goto.sprinting(a)
            forfeit = run
            verb = "runs" if run else {S.STAND: "moves", S.CROUCH: "moves crouching",
                                       S.PRONE: "crawls"}[st]
            M.walk(b, c, "square", dest, S.move_hexes(c, run), verb, events)
        elif k in ("move", "sprint"):
            assert a.target is not None
            t = b.combatants[a.target]
            run = k == "sprint"
            forfeit = run
            verb = "runs" if run else {S.STAND: "moves", S.CROUCH: "moves crouching",
                                       S.PRONE: "crawls"}[st]
            M.walk(b, c, a.option or "toward", t.pos, S.move_hexes(c, run),
                   f"{verb} {a.option} {t.id}", events)
        elif k == "cover":
            cell = M.nearest_cover(b, c, S.move_hexes(c))
            if cell is not None:  # on a map with water or climbs, the capped walk found
                M.walk(b, c, "square" if b.grid.rough else "to", cell, S.move_hexes(c),
                       "moves into cover", events)
        elif k == "crouch":  # from prone
            c.cond["stance"] = S.CROUCH
            b.emit(events, Note(c.id, "rises to a crouch (its move)."))
        elif k == "stand":
            forfeit = st == S.PRONE
            c.cond["stance"] = S.STAND
            b.emit(events, Note(c.id, "stands up" + (" from prone: no charge or action this "
                                                      "round." if forfeit else " (its move).")))
        elif k == "evade":
            forfeit = True
            c.cond["evade"] = b.round
            b.emit(events, Note(c.id, "evades: -5 to attacks against it this round; no charge "
                                      "or action."))
        elif k == "draw":  # put away what it holds (if anything) and take out weapon N
            new = int(a.option or 0)
            moved = [item_size(c, c.active_weapon)] if item_in_hand(c) else []
            if c.weapons[new].hands > 0:  # a natural weapon is no item
                moved.append(item_size(c, new))
            forfeit = len(moved) > 1 or "large" in moved  # seed 001: one small item only
            put = f"puts away {c.weapon.name} and " if item_in_hand(c) else ""
            c.active_weapon = new
            if c.cond.pop("stowed", None):
                rearmed(b)
            b.emit(events, Note(c.id, f"{put}takes out {c.weapon.name}" + (
                ": no charge or action this round." if forfeit else " (its move).")))
        elif k == "stow":  # put away the item in hand: its move if small (seed 001)
            forfeit = item_size(c, c.active_weapon) == "large"
            c.cond["stowed"] = True
            rearmed(b)
            b.emit(events, Note(c.id, f"puts away {c.weapon.name}" + (
                ": no charge or action this round." if forfeit else " (its move).")))
        else:
            raise IllegalActionError(f"{k!r} has no meaning in Simple's move phase")
        if forfeit:
            c.cond["forfeit"] = b.round
        elif S.heavy_weapon(c) and not empty_handed(c):
            c.cond["heavy_moved"] = b.round  # seed 001: a heavy weapon, then no action
        if not self._free(c):
            book(b).done = True

    def _apply_charge(self, b: Battle, a: Action, events: list[Event]) -> None:
        c = b.combatants[b.order[b.turn]]
        book(b).done = True
        if a.kind == "end":
            return
        assert a.target is not None
        t = b.combatants[a.target]
        path = M.charge_path(b, c, t)
        assert path is not None
        start = c.pos
        b.set_pos(c, path[-1])
        from wasteland.rules.events import Moved

        g = b.grid
        b.emit(events, Moved(c.id, f"charges {t.id}", g.xy(start), g.xy(c.pos), len(path)))
        if a.kind == "disarm":
            disarm(b, c, t, events, charge=True)
        else:
            resolve_attack(b, c, t, c.active_weapon, None, events, how="charges into",
                           charge=True)

    def _apply_action(self, b: Battle, a: Action, events: list[Event]) -> None:
        c = b.combatants[b.order[b.turn]]
        book(b).done = True
        k = a.kind
        if k == "end":
            return
        if k in ("attack", "called", "aimed"):
            assert a.target is not None
            resolve_attack(b, c, b.combatants[a.target], c.active_weapon, a.option, events)
        elif k == "attack2":  # two weapons at once, -8 each (seed 001, Using Two Weapons)
            assert a.target is not None
            t = b.combatants[a.target]
            off = offhand(c)
            assert off is not None
            resolve_attack(b, c, t, c.active_weapon, None, events, paired=True)
            if t.status == ACTIVE and c.status == ACTIVE and can_attack(b, c, t, off):
                resolve_attack(b, c, t, off, None, events, paired=True)
        elif k == "disarm":
            assert a.target is not None
            disarm(b, c, b.combatants[a.target], events)
        elif k == "repair":
            ws = c.active_weapon
            ok, _ev = check(b, c, "mechanics", f"repairs its {c.weapon.name}", S.AVERAGE, [],
                            events)
            if ok:
                c.cond["damaged"] = [i for i in c.cond.get("damaged", []) if i != ws]
        elif k == "reload":
            w, st = c.weapon, c.wstate
            ammo = w.ammo or ""
            c.ammo[ammo] += st.loaded
            n = min(w.capacity, c.ammo[ammo])
            st.loaded = n
            c.ammo[ammo] -= n
            b.emit(events, Reloaded(c.id, w.name, "reloads", n, w.capacity, c.ammo[ammo]))
        elif k == "unload":
            ws = c.active_weapon
            w, st = c.weapon, c.wstate
            if w.ammo:
                c.ammo[w.ammo] = c.ammo.get(w.ammo, 0) + st.loaded
            st.loaded = 0
            c.cond["jammed"] = [i for i in c.cond.get("jammed", []) if i != ws]
            b.emit(events, Reloaded(c.id, w.name, "unloads it to clear the jam", 0, w.capacity,
                                    c.ammo.get(w.ammo or "", 0)))
        elif k == "stimpak":
            assert a.target is not None
            self._stimpak(b, c, b.combatants[a.target], events)
        elif k == "first_aid":
            assert a.target is not None
            self._first_aid(b, c, b.combatants[a.target], events)
        elif k == "overwatch":
            assert a.target is not None
            t = b.combatants[a.target]
            p = S.profile(c.weapon)
            c.cond["overwatch"] = [b.round, t.pos, max(1, p.range) * 8]
            c.cond["watched"] = b.round
            b.emit(events, Note(c.id, f"watches a narrow cone toward {t.id}: it will fire at "
                                      f"the first enemy to enter it next move phase, and "
                                      f"neither moves nor charges next round."))
        else:
            raise IllegalActionError(f"{k!r} has no meaning in Simple's action phase")

    def _stimpak(self, b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
        """Heals the item's dice (reading) and staunches bleeding out (seed 001)."""
        item_id = _heal_item(b, c)
        assert item_id is not None
        item = b.items[item_id]
        c.items[item_id] -= 1
        d = dice_of(item.heal)
        if b.dice_hook is not None:
            b.roll_note = (f"healing: {d} HP for {t.id} from the {item.name} (HP "
                           f"{t.hp}/{t.max_hp})")
        faces = b.roll(c.slot, d.sides, d.count, "healing")
        amount = max(0, sum(faces) + d.bonus)
        before = t.hp
        t.hp = min(t.max_hp, t.hp + amount)
        b.emit(events, Healed(c.id, t.id, item.name, str(d), faces, t.hp - before, t.hp,
                              t.max_hp))
        if t.cond.pop("bleeding", None):
            b.emit(events, Note(t.id, f"stops bleeding out ({item.name})."))
            if t.hp <= 0:
                t.cond["stable"] = True
        if t.status == UNCONSCIOUS and t.hp > 0 and not t.cond.get("passed_out"):
            rise(b, t, events, item.name)

    def _first_aid(self, b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
        """An Average Medic check (Mechanics for a robot): staunches one bleeding out, or
        fixes one crippled part (seed 001)."""
        skill = "mechanics" if t.creature.kind == "robot" else "medic"
        who = "itself" if t is c else t.id
        ok, _ev = check(b, c, skill, f"gives first aid to {who}", S.AVERAGE, [], events)
        if not ok:
            return
        if t.status == UNCONSCIOUS:
            t.cond.pop("bleeding", None)
            t.cond["stable"] = True
            b.emit(events, Note(t.id, "stops bleeding out (first aid)."))
            return
        for part in ("head", "torso", "arm", "leg", "eye", "groin"):
            if t.crippled.get(part, 0):
                t.crippled[part] -= 1
                if part == "torso":
                    t.cond.pop("torso_bleed", None)
                b.emit(events, Note(t.id, f"has a crippled {part} fixed ({skill})."))
                return

    # --- flow ----------------------------------------------------------------------------
    def _settle(self, b: Battle, events: list[Event]) -> None:
        while True:
            if b.over or self._check_end(b, events):
                return
            if b.reactions:
                return
            if b.pending_move is not None:
                M.resume(b, events)
                continue
            if book(b).done or not self._can_decide(b, b.combatants[b.order[b.turn]]):
                self._advance(b, events)
                continue
            return

    def _can_decide(self, b: Battle, c: Combatant) -> bool:
        if c.status != ACTIVE:
            return False
        if b.slot == MOVE:
            return not _overwatching(b, c)
        if b.slot == CHARGE_PHASE:
            return bool(self._charges(b, c)) or bool(self._charge_disarms(b, c))
        if _flag(c, "forfeit", b.round) or _flag(c, "heavy_moved", b.round):
            return False
        return next(self._actions(b, c), -1) >= 0  # nothing but `end`: passed over

    def _advance(self, b: Battle, events: list[Event]) -> None:
        """The next combatant in the phase (move: down the sequence from its lowest; charge
        and action: from its highest), the next phase, or the next round."""
        book(b).done = False
        book(b).main = False
        n = len(b.order)
        while True:
            step = -1 if b.slot == MOVE else 1
            b.turn += step
            if 0 <= b.turn < n:
                c = b.combatants[b.order[b.turn]]
                if self._can_decide(b, c):
                    if b.keep_log:
                        b.emit(events, TurnStarted(c.id))
                    return
                continue
            if b.slot == MOVE:
                b.slot, b.turn = CHARGE_PHASE, -1
                for c in b.combatants:  # an overwatch lapses when the move phase ends
                    ow = c.cond.get("overwatch")
                    if ow and ow[0] < b.round:
                        del c.cond["overwatch"]
            elif b.slot == CHARGE_PHASE:
                b.slot, b.turn = ACTION, -1
            else:
                if b.round >= b.max_rounds:
                    b.out_of_rounds()
                    b.emit(events, BattleEnded(None, f"{b.round} rounds fought", b.round))
                    b.turn = 0
                    return
                self._start_round(b, events)
                if self._check_end(b, events):
                    return

    def _start_round(self, b: Battle, events: list[Event]) -> None:
        """Round upkeep, then the move phase from the lowest sequence (seed 001)."""
        b.round += 1
        b.slot = MOVE
        b.turn = len(b.order)
        book(b).done = False
        book(b).main = False
        if b.keep_log:
            b.emit(events, RoundStarted(b.round, [b.ids[i] for i in b.order
                                                  if b.combatants[i].status == ACTIVE]))
        if b.round > 1:
            for c in b.combatants:
                self._upkeep(b, c, events)

    def _upkeep(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """Each round: the dying bleed 1 HP (seed 001), a crippled torso bleeds, fatigue
        falls by 1, the passed out and knocked out come to, a concussion may knock out."""
        if c.status == DEAD:
            return
        cond = c.cond
        if c.status == UNCONSCIOUS and cond.get("bleeding") and not cond.get("stable"):
            c.hp -= 1
            c.damage_taken += 1
            b.emit(events, Note(c.id, f"bleeds out 1 HP (HP {c.hp}; dies at "
                                      f"{-(10 + S.block(c).endurance)})."))
            if c.hp <= -(10 + S.block(c).endurance):
                knock_out(b, c, DEAD, events)
                return
        if c.status == ACTIVE and cond.get("torso_bleed"):
            n = int(cond["torso_bleed"])
            c.hp -= n
            c.damage_taken += n
            b.emit(events, Note(c.id, f"bleeds {n} from a crippled torso (HP {c.hp}/"
                                      f"{c.max_hp})."))
            after_harm(b, c, events)
        if c.status == ACTIVE:  # reading: a recharging weapon (PnP's quality) regains its
            for i, ws in enumerate(c.weapon_states):  # rounds each round here too
                w = c.arm(i)
                if w.recharging and ws.loaded < w.capacity:
                    ws.loaded = min(w.capacity, ws.loaded + w.recharging)
        f = int(cond.get("fatigue", 0))
        if f:
            cond["fatigue"] = f - 1
            if cond.get("passed_out") and f - 1 < c.max_hp and c.hp > 0:
                rise(b, c, events, "fatigue below maximum HP")
        if cond.get("knocked_out") and c.hp > 0:
            rise(b, c, events, "the concussion passes")
        elif c.status == ACTIVE and c.crippled.get("head", 0):
            if b.dice_hook is not None:
                b.roll_note = (f"concussion ({c.id}'s crippled head): d100, "
                               f"{CONCUSSION_CHANCE} or less knocks {c.id} out")
            if b.roll(c.slot, 100, 1, "concussion")[0] <= CONCUSSION_CHANCE:
                cond["knocked_out"] = True
                knock_out(b, c, UNCONSCIOUS, events)

    def _check_end(self, b: Battle, events: list[Event]) -> bool:
        if b.sides_left > 1:
            return False
        standing = b.sides_standing()
        b.over = True
        b.winner = next(iter(standing)) if standing else None
        b.reactions.clear()
        b.pending_move = None
        name = b.side_names[b.winner] if b.winner is not None else None
        b.emit(events, BattleEnded(name, "last side standing" if standing else "no one left",
                                   b.round))
        return True


__all__ = ["Simple"]
