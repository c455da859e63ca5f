"""Attacks and damage under Simple (seed 001: Calculating to Hit, Range Penalty; Size,
Stance and Range Penalties; Visibility and Proximity Penalties; Causing Damage; Critical
Hits; Critical Failure; Disarm; Called Shots; Crippled Effects; Death and Fatigue)."""

from __future__ import annotations

from functools import cache
from typing import Final

from wasteland.bestiary.models import SIZES_SIMPLE
from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS, Battle, Combatant, WeaponState
from wasteland.rules.dice import Dice
from wasteland.rules.events import DamageDealt, Downed, Event, Mods, Note
from wasteland.rules.grid import COVER_FULL
from wasteland.rules.hexes import hexes_for

from . import stats as S
from .skills import check

RANGE_STEPS: Final = ((1, 0), (2, -2), (3, -4), (4, -6), (8, -8))  # seed 001, Range Penalty
SCOPE_PENALTY: Final = -10  # within point blank
# visibility of a square (grid.VISIBILITY values) as seed 001's Visibility Penalty steps,
# by the seed's own examples: obscured (dim light, light smoke) is partially obscured,
# heavily obscured (darkness, heavy smoke) moderately, barely visible (thick fog: only
# vaguely made out) heavily obscured, unseen completely obscured
VISIBILITY_PENALTY: Final = {0: 0, -2: -4, -4: -8, -5: -16, -10: -20}
EYE_PENALTY: Final = -4  # a crippled eye: lightly obscured; all: moderately
EYES_PENALTY: Final = -8
EVADE_PENALTY: Final = -5
CRIPPLED_LIMB: Final = -8
TWO_WEAPONS: Final = -8  # each of two actions made at once (seed 001, Using Two Weapons)
# called shots: size categories below the creature (a human's torso or leg is small, its
# arm or head tiny, its eyes or groin minute: seed 001, Called Shots)
PART_SHRINK: Final = {"torso": 1, "leg": 1, "arm": 2, "head": 2, "eye": 3, "groin": 3}
CRIT_FAIL_AT: Final = 5  # a d100 of 5 or less on the critical roll
CRIT_BASE: Final = 95  # a critical at or above 95 - Luck
CRIPPLE_SHARE: Final = 10  # a called shot cripples past 10% of total HP


@cache
def dice_of(text: str) -> Dice:
    return Dice.parse(text)


AIMED_PARTS: Final = {"eyes": "eye", "groin": "groin"}  # the `aimed` options, as body parts
GROIN_KINDS: Final = frozenset({"human", "character", "ghoul", "mutant"})  # reading: humanoids


def part_of(location: str | None) -> str:
    """The body part a called shot's option names: head, arm, leg, torso, eye, groin."""
    return AIMED_PARTS.get(location or "", location or "")


def has_part(t: Combatant, location: str) -> bool:
    """Whether ``t`` has the part a called shot aims at: its hit locations (head, arm,
    leg, torso); eyes by its stat block; a groin if it is a humanoid (reading)."""
    if location == "eyes":
        return S.traits(t).simple_eyes > 0
    if location == "groin":
        return t.creature.kind in GROIN_KINDS
    return location in t.loc_kinds


def offhand(c: Combatant) -> int | None:
    """A second one-handed weapon to use with the one in hand, both one-handed (seed 001,
    Using Two Weapons: the actions must be possible one-handed), with an arm for each."""
    if c.weapon.hands != 1 or c.crippled.get("arm", 0) or empty_handed(c):
        return None
    for i, w in enumerate(c.weapons):
        if i != c.active_weapon and w.hands == 1 and not lost(c, i):
            return i
    return None


def lost(c: Combatant, ws: int) -> bool:
    """Weapon ``ws`` is gone: taken from it by a disarm, or dropped. The entry stays in its
    list (the other weapons keep their numbers); if it was the weapon in hand, the hands
    are empty until it takes out another."""
    return ws in c.cond.get("gone", ())


def empty_handed(c: Combatant) -> bool:
    """No weapon in hand: the one it held is gone, or put away (``stowed``)."""
    return bool(c.cond.get("stowed")) or lost(c, c.active_weapon)


def held(c: Combatant, ws: int) -> bool:
    """Weapon ``ws`` is still its own and, if it is the one in hand, not put away."""
    return not lost(c, ws) and not (ws == c.active_weapon and c.cond.get("stowed"))


def item_in_hand(c: Combatant) -> bool:
    """It holds an item: a weapon in its hands (a natural weapon is no item)."""
    return not empty_handed(c) and c.arm(c.active_weapon).hands > 0


def item_size(c: Combatant, ws: int) -> str:
    """The weapon's size as an item: small or large (seed 001, Move Phase)."""
    return S.profile(c.weapons[ws]).size


def open_hands(c: Combatant) -> int:
    """Hands free to disarm with (reading): its arms that are not crippled, less those the
    weapon in hand takes (none for a natural weapon or empty hands)."""
    hands = 0 if empty_handed(c) else c.weapon.hands
    return max(0, c.loc_counts.get("arm", 0) - c.crippled.get("arm", 0) - hands)


def hands_to_take(t: Combatant) -> int:
    """Open hands a disarm of ``t`` needs: one for a small item, two for a large one;
    0 when it holds nothing that can be taken (empty hands, a natural weapon)."""
    ws = t.active_weapon
    if empty_handed(t) or t.arm(ws).hands == 0:
        return 0
    return 1 if S.profile(t.weapons[ws]).size == "small" else 2


def disarmable(c: Combatant, t: Combatant) -> bool:
    """``c`` has the open hands to take what ``t`` holds (seed 001, Disarm), wherever they
    stand."""
    need = hands_to_take(t)
    return (need > 0 and t.status == ACTIVE and t.side != c.side
            and open_hands(c) >= need)


def can_disarm(b: Battle, c: Combatant, t: Combatant) -> bool:
    """A disarm in the action phase: ``t`` within reach of a hand (one hex)."""
    return disarmable(c, t) and hexes_for(b.grid).dist(c.pos, t.pos) <= 1


def visibility_mod(b: Battle, c: Combatant, t: Combatant) -> int:
    """The visibility penalty of ``t``'s hex for ``c``, made worse by crippled eyes."""
    vis = VISIBILITY_PENALTY.get(min(b.grid.vis[t.pos], b.ambient), -20)
    if c.crippled.get("eye", 0):  # all of them crippled implies one is
        vis = min(vis, EYES_PENALTY if S.all_crippled(c, "eye") else EYE_PENALTY)
    return vis


def disarm_mods(b: Battle, c: Combatant, t: Combatant, charge: bool = False
                ) -> tuple[Mods, int, Mods]:
    """(modifiers to the roll, difficulty, the difficulty's parts) of a disarm: Very Easy
    + the target's Melee total (seed 001, Disarm); the roll's modifiers are those of an
    unarmed attack on it (reading)."""
    mods: Mods = []
    vis = visibility_mod(b, c, t)
    if vis:
        mods.append(("visibility", vis))
    if t.cond.get("evade") == b.round:
        mods.append(("evading target", EVADE_PENALTY))
    if charge and c.crippled.get("leg", 0) and not S.all_crippled(c, "leg"):
        mods.append(("crippled leg", CRIPPLED_LIMB))
    theirs = S.skill(t, "melee")
    diff_mods: Mods = [("Very Easy", S.VERY_EASY)] + (
        [(f"{t.id}'s Melee", theirs)] if theirs else [])
    return mods, S.VERY_EASY + theirs, diff_mods


def disarm(b: Battle, c: Combatant, t: Combatant, events: list[Event],
           charge: bool = False) -> bool:
    """A Melee check against Very Easy + the target's Melee total; on a success the item
    is in the attacker's hands (seed 001, Disarm). Reading: the modifiers are those of an
    unarmed attack on it (visibility, an evading target, a crippled leg on a charge).
    Returns whether it took the item."""
    ws = t.active_weapon
    w = t.weapons[ws]
    mods, diff, diff_mods = disarm_mods(b, c, t, charge)
    how = "charges to disarm" if charge else "tries to disarm"
    ok, _ev = check(b, c, "melee", f"{how} {t.id} of {w.name}", diff, mods, events,
                    diff_mods)
    if ok:
        take_weapon(b, c, t, ws, events)
    return ok


def rearmed(b: Battle) -> None:
    """What a combatant holds or carries changed: the envs' encoder works its weapon
    features out again when this count moves."""
    b.disarmed()


def take_weapon(b: Battle, c: Combatant, t: Combatant, ws: int, events: list[Event]) -> None:
    """Weapon ``ws`` of ``t`` passes into ``c``'s hands as it is: its rounds, a jam, damage.
    Reading: it becomes ``c``'s weapon in hand when ``c``'s hands held no weapon (empty,
    or a natural weapon); otherwise ``c`` holds it in its open hand, its second weapon.
    The lists are rebuilt, not appended to: a copy of the battle may share them."""
    w = t.weapons[ws]
    free = empty_handed(c) or c.weapon.hands == 0
    t.cond["gone"] = [*t.cond.get("gone", []), ws]
    st = t.weapon_states[ws]
    c.weapons = [*c.weapons, w]
    c.weapon_bonus = [*c.weapon_bonus, 0]
    c.weapon_states = [*c.weapon_states, WeaponState(loaded=st.loaded)]
    st.loaded = 0
    new = len(c.weapons) - 1
    for key in ("jammed", "damaged"):
        if ws in t.cond.get(key, ()):
            t.cond[key] = [i for i in t.cond[key] if i != ws]
            c.cond[key] = [*c.cond.get(key, []), new]
    c.cond["taken"] = [*c.cond.get("taken", []), [t.slot, ws]]
    if free:
        c.active_weapon = new
        c.cond.pop("stowed", None)
    rearmed(b)
    where = "now in its hands" if free else "now in its open hand"
    b.emit(events, Note(c.id, f"takes {w.name} out of {t.id}'s hands: {where}."))


def target_factor(b: Battle, t: Combatant, location: str | None) -> float:
    """How many times farther than it is the target counts for range: its size (or the
    called part's), one category smaller crouching, two prone, and (reading) one smaller
    in light cover, two in heavy cover; never smaller than minute."""
    size = S.size_index(t) - (PART_SHRINK[part_of(location)] if location else 0)
    size -= S.STANCE_SHRINK[S.stance(t)]
    cover = b.grid.cover[t.pos]
    if cover and cover < COVER_FULL:
        size -= cover
    return S.SIZE_FACTOR[max(0, min(len(SIZES_SIMPLE) - 1, size))]


def range_penalty(point_blank: int, distance: float) -> int | None:
    """The penalty of the band the (effective) distance falls in; None past Maximum."""
    # RANGE_STEPS written out: walked as a tuple, each step was a generic unpacking and
    # product (2.4k instructions a call); test_simple_attack holds the two equal
    if distance <= point_blank:
        return 0
    if distance <= point_blank * 2:
        return -2
    if distance <= point_blank * 3:
        return -4
    if distance <= point_blank * 4:
        return -6
    if distance <= point_blank * 8:
        return -8
    return None


def loaded(c: Combatant, ws: int) -> bool:
    """A round to fire: in the magazine, or carried for a weapon without one (thrown);
    natural and melee weapons always strike."""
    a = c.arm(ws)  # the weapon's native copy (rules/facts.py): read on every legality check
    if a.magazine != "none":
        return c.weapon_states[ws].loaded > 0
    if a.ammo:
        return c.ammo.get(a.ammo, 0) > 0
    return True


def jammed(c: Combatant, ws: int) -> bool:
    return ws in c.cond.get("jammed", ())


def usable(c: Combatant, ws: int) -> bool:
    """It can strike or fire with it now: not jammed, loaded, and a hand for it (reading:
    a weapon held in hands needs one arm that is not crippled)."""
    if jammed(c, ws) or not held(c, ws) or not loaded(c, ws):
        return False
    return c.arm(ws).hands == 0 or not S.all_crippled(c, "arm")


def can_attack(b: Battle, c: Combatant, t: Combatant, ws: int,
               location: str | None = None) -> bool:
    """Whether ``c`` may attack ``t`` with weapon ``ws`` (and at ``location``)."""
    if t.status != ACTIVE or t.side == c.side or not usable(c, ws):
        return False
    if location is not None and not has_part(t, location):
        return False
    h = hexes_for(b.grid)
    a = c.arm(ws)
    d = h.dist(c.pos, t.pos)
    if a.simple_skill in S.MELEE_SKILLS:
        return d <= a.reach
    if not h.sees(c.pos, t.pos) or b.grid.cover[t.pos] == COVER_FULL:
        return False
    return range_penalty(max(1, a.simple_range), d * target_factor(b, t, location)) is not None


SPOTS: Final[tuple[str | None, ...]] = (None, "head", "arm", "leg", "torso", "eyes", "groin")


def attack_spots(b: Battle, c: Combatant, t: Combatant, ws: int) -> list[str | None]:
    """Every location ``c`` may attack ``t`` at with weapon ``ws`` (None: the whole
    target), as ``can_attack`` says for each, with the checks they share made once."""
    if t.status != ACTIVE or t.side == c.side or not usable(c, ws):
        return []
    h = hexes_for(b.grid)
    a = c.arm(ws)
    d = h.dist(c.pos, t.pos)
    melee = a.simple_skill in S.MELEE_SKILLS
    if melee:
        if d > a.reach:
            return []
    elif not h.sees(c.pos, t.pos) or b.grid.cover[t.pos] == COVER_FULL:
        return []
    out: list[str | None] = []
    if melee:
        for loc in SPOTS:
            if loc is None or has_part(t, loc):
                out.append(loc)
        return out
    # target_factor's size steps, taken once: the target's size, stance and cover
    base = S.size_index(t) - S.STANCE_SHRINK[S.stance(t)]
    cover = b.grid.cover[t.pos]
    if cover and cover < COVER_FULL:
        base -= cover
    reach = max(1, a.simple_range) * RANGE_STEPS[-1][0]  # maximum range: nothing beyond
    top = len(SIZES_SIMPLE) - 1
    for loc in SPOTS:
        if loc is not None and not has_part(t, loc):
            continue
        size = base - (PART_SHRINK[part_of(loc)] if loc is not None else 0)
        if d * S.SIZE_FACTOR[max(0, min(top, size))] <= reach:
            out.append(loc)
    return out


def enemy_adjacent(b: Battle, c: Combatant) -> bool:
    """An enemy within one hex that is not stunned (seed 001, Proximity Penalty)."""
    h = hexes_for(b.grid)
    for e in b.combatants:
        if (e.side != c.side and e.status == ACTIVE and not e.cond.get("stunned")
                and h.dist(e.pos, c.pos) <= 1):
            return True
    return False


def attack_mods(b: Battle, c: Combatant, t: Combatant, ws: int, location: str | None,
                charge: bool = False, paired: bool = False) -> tuple[Mods, int, Mods]:
    """(modifiers to the roll, difficulty, the difficulty's parts) of an attack;
    ``paired``: one of two made at once, -8 (seed 001, Using Two Weapons)."""
    a = c.arm(ws)
    h = hexes_for(b.grid)
    mods: Mods = [("two weapons", TWO_WEAPONS)] if paired else []
    skill = a.simple_skill
    if skill in S.RANGED_SKILLS:
        pb = max(1, a.simple_range)
        eff = h.dist(c.pos, t.pos) * target_factor(b, t, location)
        pen = range_penalty(pb, eff)
        if pen:
            mods.append(("range", pen))
        if a.simple_scope and eff <= pb:
            mods.append(("scope within point blank", SCOPE_PENALTY))
        if skill != "throwing" and enemy_adjacent(b, c):
            mods.append(("enemy within 1 hex", -4 if a.hands <= 1 else -8))
    vis = visibility_mod(b, c, t)
    if vis:
        mods.append(("visibility", vis))
    if t.cond.get("evade") == b.round:
        mods.append(("evading target", EVADE_PENALTY))
    arms = c.crippled.get("arm", 0)
    if arms and a.hands == 2:
        mods.append(("crippled arm", CRIPPLED_LIMB * min(arms, 2)))
    if charge and c.crippled.get("leg", 0) and not S.all_crippled(c, "leg"):
        mods.append(("crippled leg", CRIPPLED_LIMB))
    if ws in c.cond.get("damaged", ()):
        mods.append(("damaged weapon", -2))
    defense = S.defense(t)
    diff_mods: Mods = ([(S.ATTACK_BASE_NAME, S.ATTACK_BASE)]
                       + ([("Defense", defense)] if defense else []))
    return mods, S.ATTACK_BASE + defense, diff_mods


def spend_rounds(c: Combatant, ws: int, shots: int) -> int:
    """Fire up to ``shots`` rounds (what is loaded, for a gun); returns how many."""
    w = c.weapons[ws]
    if w.magazine != "none":
        n = min(shots, c.weapon_states[ws].loaded)
        c.weapon_states[ws].loaded -= n
    elif w.ammo:
        n = min(shots, c.ammo.get(w.ammo, 0))
        c.ammo[w.ammo] -= n
    else:
        n = shots
    return n


def resolve_attack(b: Battle, c: Combatant, t: Combatant, ws: int, location: str | None,
                   events: list[Event], how: str = "attacks", charge: bool = False,
                   paired: bool = False) -> None:
    # params: the engine's hot path: one call per attack, options as keywords
    """One attack: the skill check, on a hit the d100 critical roll, damage less DT,
    crippling by a called shot; a critical failure still hits but jams or damages the
    weapon."""
    w = c.weapons[ws]
    p = S.profile(w)
    mods, diff, diff_mods = attack_mods(b, c, t, ws, location, charge, paired)
    shots = spend_rounds(c, ws, p.shots)
    at = f" ({location})" if location else ""
    burst = f" ({shots} rounds)" if shots > 1 and p.skill in S.RANGED_SKILLS else (
        f" ({shots} strikes)" if shots > 1 else "")
    what = f"{how} {t.id}{at} with {w.name}{burst}"
    ok, ev = check(b, c, p.skill, what, diff, mods, events, diff_mods)
    if not ok:
        return
    crit_at = CRIT_BASE - S.block(c).luck
    if b.dice_hook is not None:
        b.roll_note = (f"critical roll for {c.id}'s hit on {t.id}: d100, {crit_at} or more "
                       f"(95 - Luck {S.block(c).luck}) is a critical, damage "
                       f"x{crit_multiplier(c, ws)}; {CRIT_FAIL_AT} or less still hits but "
                       f"jams or damages the weapon")
    roll = b.roll(c.slot, 100, 1, "critical")[0]
    ev.crit_roll, ev.crit_at = roll, crit_at
    mult = 1
    if roll >= crit_at:
        mult = crit_multiplier(c, ws)
        ev.crit = f"critical, damage x{mult}"
    elif roll <= CRIT_FAIL_AT:
        ev.crit = "critical failure: it still hits"
    # reading: one check for the burst, every round of it hits, each less DT (seed 001:
    # "DTs are applied on a per-hit basis"); only the first can be a critical
    for k in range(shots):
        if t.status == DEAD:
            break
        deal_damage(b, c, t, w.name, p.damage, p.damage_type, mult if k == 0 else 1,
                    location, events)
    if roll <= CRIT_FAIL_AT and crit_at > CRIT_FAIL_AT:
        _critical_failure(b, c, ws, events)


def crit_multiplier(c: Combatant, ws: int) -> int:
    """The critical damage multiplier of ``c``'s weapon ``ws`` with its perks': they add,
    each its excess over x1, rather than multiply (seed 001, Critical Hits: a x2 and a x3
    make x4, not x6)."""
    return S.profile(c.weapons[ws]).crit + sum(m - 1 for m in S.block(c).crit_perks)


def _critical_failure(b: Battle, c: Combatant, ws: int, events: list[Event]) -> None:
    w = c.weapons[ws]
    damaged = list(c.cond.get("damaged", []))
    if ws not in damaged:
        damaged.append(ws)
        c.cond["damaged"] = damaged
    if w.magazine != "none":
        jam = list(c.cond.get("jammed", []))
        if ws not in jam:
            jam.append(ws)
            c.cond["jammed"] = jam
        b.emit(events, Note(c.id, f"'s {w.name} jams and is damaged (-2 to hit with it): "
                                  f"it must be unloaded to fire again."))
    else:
        b.emit(events, Note(c.id, f"'s {w.name} is damaged (-2 to hit with it)."))


def deal_damage(b: Battle, c: Combatant | None, t: Combatant, source: str, dice_text: str,
                damage_type: str, mult: int, location: str | None,
                events: list[Event]) -> int:
    # params: the engine's hot path; a hit's dice, type and multiplier as rolled
    """Roll ``dice_text`` (a critical multiplies the dice and the bonus: (1d6+2) x2 is
    2d6+4, seed 001), take the target's DT for the type off the hit, and apply it. The
    damage DT stops becomes fatigue (reading). Returns the damage dealt."""
    base = dice_of(dice_text)
    dice = Dice(base.count * mult, base.sides, base.bonus * mult)
    who = c.slot if c is not None else -1
    if b.dice_hook is not None:
        at = f" ({location})" if location else ""
        crit = f", a critical: {base} x{mult}" if mult > 1 else ""
        b.roll_note = (f"damage to {t.id}{at}: {dice} ({source}{crit}), "
                       f"{damage_type} DT {S.dt(t, damage_type)} applies per hit; what DT "
                       f"stops becomes fatigue")
    faces = b.roll(who, dice.sides, dice.count, "damage")
    raw = max(0, sum(faces) + dice.bonus)
    threshold = S.dt(t, damage_type)
    dealt = max(0, raw - threshold)
    soaked = raw - dealt
    t.hp -= dealt
    t.damage_taken += dealt
    if c is not None:
        c.damage_dealt += dealt
        t.last_attacker = c.slot
    if soaked:
        t.cond["fatigue"] = int(t.cond.get("fatigue", 0)) + soaked
    note = f" ({location})" if location else ""
    if soaked:
        note += f"; {soaked} fatigue"
    b.emit(events, DamageDealt(t.id, str(dice), faces, [], 1.0, raw, "DT", threshold, dealt,
                               damage_type, t.hp, t.max_hp, note))
    if location and dealt * 100 > t.max_hp * CRIPPLE_SHARE:
        cripple(b, t, part_of(location), dealt, events)
    after_harm(b, t, events)
    return dealt


def cripple(b: Battle, t: Combatant, part: str, dealt: int, events: list[Event]) -> None:
    """A called shot past 10% of total HP cripples the part (seed 001, Called Shots)."""
    n = S.count_of(t, part)
    if n and t.crippled.get(part, 0) < n:
        t.crippled[part] = t.crippled.get(part, 0) + 1
        b.emit(events, Note(t.id, f"'s {part} is crippled ({dealt} damage, over "
                                  f"{CRIPPLE_SHARE}% of its {t.max_hp} HP)."))
        if part == "torso":  # reading: the torso bleeds 10% of that hit each later round
            t.cond["torso_bleed"] = int(t.cond.get("torso_bleed", 0)) + dealt // 10
        if part == "groin":
            t.cond["stance"] = S.PRONE


def after_harm(b: Battle, t: Combatant, events: list[Event]) -> None:
    """At 0 HP unconscious and bleeding out; dead after losing 10 + END more (seed 001,
    Death and Fatigue); fatigue past maximum HP: passed out."""
    if t.status == DEAD:
        return
    if t.hp <= -(10 + S.block(t).endurance):
        knock_out(b, t, DEAD, events)
        return
    if t.hp <= 0 and t.status == ACTIVE:
        t.cond["bleeding"] = True
        t.cond.pop("stable", None)
        knock_out(b, t, UNCONSCIOUS, events)
    elif t.status == ACTIVE and int(t.cond.get("fatigue", 0)) > t.max_hp:
        t.cond["passed_out"] = True
        knock_out(b, t, UNCONSCIOUS, events)


def knock_out(b: Battle, t: Combatant, status: str, events: list[Event]) -> None:
    b.fall(t, status)
    for k in ("overwatch", "evade"):
        t.cond.pop(k, None)
    if status == DEAD:
        for k in ("bleeding", "stable", "passed_out", "knocked_out"):
            t.cond.pop(k, None)
    b.reactions = [r for r in b.reactions if r.reactor != t.slot and r.subject != t.slot]
    b.emit(events, Downed(t.id, status))


def rise(b: Battle, t: Combatant, events: list[Event], why: str) -> None:
    """Back in the fight: onto its own hex if free, else the nearest free one."""
    if t.status != UNCONSCIOUS:
        return
    pos = t.pos
    if pos in b.occupied:
        h = hexes_for(b.grid)
        free = [i for i in range(b.grid.n_cells)
                if b.grid.passable[i] and i not in b.occupied]
        if not free:
            return
        pos = min(free, key=lambda i: (h.dist(t.pos, i), i))
    t.status = ACTIVE
    t.pos = pos
    b.occupied[pos] = t.slot
    b.count_standing()
    for k in ("bleeding", "stable", "passed_out", "knocked_out"):
        t.cond.pop(k, None)
    b.emit(events, Note(t.id, f"comes to ({why}) and fights on (HP {t.hp}/{t.max_hp})."))
