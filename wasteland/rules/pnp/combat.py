"""Attacks and damage under Fallout PnP (seed 000: Attacking, Critical Hits, Damage,
Weapon Qualities, Pistol Whip, Using Two Weapons)."""

from __future__ import annotations

from functools import cache
from typing import Final

from wasteland.bestiary.models import Weapon
from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS, Battle, Combatant, Reaction
from wasteland.rules.dice import Dice
from wasteland.rules.events import (
    AttackRolled,
    Crippled,
    DamageDealt,
    Downed,
    Event,
    Mods,
    Note,
    ReactionOffered,
    fmt_mods,
)
from wasteland.rules.grid import COVER_FULL, COVER_HEAVY, COVER_LIGHT

from .stats import (
    CALLED_PENALTY,
    VATS_COST,
    can_wield,
    free_hands,
    has_round,
    location_count,
    perception,
)

COVER_BONUS: Final = {COVER_LIGHT: ("light cover", 2), COVER_HEAVY: ("heavy cover", 4)}
# reading: the map's barely visible (-5: Simple's only vaguely made out, seed 001) is still
# seen, so seed 000's heavily obscured (-4); the other levels are seed 000's penalties
PNP_VISIBILITY: Final = {-5: -4}
BLEED_RATE: Final = 1  # reading: a bleeding creature loses 1 HP at the start of each of its turns
RATE_PENALTY: Final = (0, 3, 6)  # seed 000, Rate of Fire: 2nd shot -3, every later one -6
WHIP_DICE: Final = {1: Dice(1, 4), 2: Dice(1, 6)}


@cache
def weapon_dice(text: str) -> Dice:
    return Dice.parse(text)


def can_attack(b: Battle, c: Combatant, t: Combatant, ws: int, whip: bool = False) -> bool:
    """Whether ``c`` may attack ``t`` with weapon slot ``ws`` from where both stand."""
    # the native copy of the weapon (facts.Arm): asked for every weapon against every
    # enemy each turn, where the bestiary's model answers each field through pydantic
    a = c.arm(ws)
    if a.hands != 0 and free_hands(c) < a.hands:  # can_wield
        return False
    g = b.grid
    d = g.dist(c.pos, t.pos)
    if whip:
        return a.ranged and d <= 1 and a.hands > 0
    if not has_round(c, ws):
        return False
    if not a.ranged:
        return d <= a.reach and g.los(c.pos, t.pos)
    if not g.los(c.pos, t.pos):
        return False
    if a.stunted and d * 5 > a.range_ft:
        return False
    if g.cover[t.pos] == COVER_FULL or g.cover[c.pos] == COVER_FULL:
        return c.weapons[ws].qualities.lobbed
    return True


def range_penalty(range_ft: int, min_range_ft: int, squares: int) -> int:
    """-1 per 5 ft beyond the range or under the minimum range (seed 000, Weapon Range)."""
    feet = squares * 5
    if feet > range_ft:
        return -((feet - range_ft + 4) // 5)
    if feet < min_range_ft:
        return -((min_range_ft - feet + 4) // 5)
    return 0


def attack_mods(b: Battle, c: Combatant, t: Combatant, ws: int, location: str | None,
                vats: bool, whip: bool) -> tuple[Mods, int, Mods, int]:
    """Attack modifiers, defense and its modifiers, and the drop-attack damage bonus."""
    a = c.arm(ws)  # native copies (rules/facts.py): the odds ask this for every weapon and
    tr = c.traits()  # enemy each decision
    g = b.grid
    melee = whip or not a.ranged
    mods: Mods = [("PER", perception(c))]
    if melee:
        mods.append(("STR", tr.pnp_strength))
    if c.weapon_bonus[ws] and not whip:
        mods.append(("skill", c.weapon_bonus[ws]))
    if whip:
        mods.append(("pistol whip", -1))
    drop = 0
    rise = g.heights[c.pos] - g.heights[t.pos]
    if rise >= 5:
        if melee:
            mods.append(("drop attack", 2))
            drop = 2 + (rise - 5) // 5
        else:
            mods.append(("height", 1))
    vis = min(g.vis[t.pos], b.ambient)
    vis = PNP_VISIBILITY.get(vis, vis)
    if vis:
        mods.append(("visibility", vis))
    if not melee:
        rp = range_penalty(a.range_ft, a.min_range_ft, g.dist(c.pos, t.pos))
        if rp:
            mods.append(("range", rp))
    if location and not vats:
        mods.append((f"called {location}", CALLED_PENALTY[location]))
    defense = t.traits().pnp_defense
    dmods: Mods = []
    if not melee:
        cov = g.cover[t.pos]
        if cov == COVER_FULL or g.cover[c.pos] == COVER_FULL:
            mods.append(("lobbed over full cover", -5))
        elif cov:
            dmods.append(COVER_BONUS[cov])
            defense += COVER_BONUS[cov][1]
    return mods, defense, dmods, drop


def to_hit_note(t: Combatant, mods: Mods, defense: int, dmods: Mods) -> str:
    """What an attack roll must reach, for a GM rolling it at the table."""
    dm = fmt_mods(dmods)
    need = defense - sum(v for _, v in mods)
    return (f"to hit {t.id}: 3d6{fmt_mods(mods)} against Defense {defense}"
            f"{' (' + dm.strip() + ')' if dm else ''}: {need} or more on the dice")


def resolve_attack(b: Battle, c: Combatant, t: Combatant, ws: int, location: str | None,
                   events: list[Event], vats: bool = False, whip: bool = False,
                   extra: Mods | None = None, how: str = "attacks") -> None:
    # params: the engine's hot path: one call per attack, options as keywords
    w = c.weapons[ws]
    st = c.weapon_states[ws]
    mods, defense, dmods, drop = attack_mods(b, c, t, ws, location, vats, whip)
    if extra:
        mods.extend(extra)
    if vats and location:
        c.ap -= VATS_COST[location]
    if b.dice_hook is not None:
        b.roll_note = to_hit_note(t, mods, defense, dmods)
    faces = b.roll(c.slot, 6, 3, "attack")
    total = faces[0] + faces[1] + faces[2]
    for _, v in mods:
        total += v
    triple = faces[0] == faces[1] == faces[2] == 6
    rof = 1
    if not whip:
        rof = w.rof
        if w.qualities.warm_up:
            # RoF rises once per round of firing, not per attack (seed 000, Warm-Up)
            if st.last_fired_round != b.round:
                st.warm = min(w.rof, st.warm + 1)
            rof = max(1, st.warm)
        if w.magazine != "none":
            rof = min(rof, st.loaded)
            st.loaded -= rof
        st.last_fired_round = b.round
    shots = []
    for i in range(rof):
        pen = RATE_PENALTY[i] if i < 3 else 6
        shots.append(total - pen >= defense or (i == 0 and triple))
    q = w.qualities
    crit_mods: Mods = [("Luck", c.creature.pnp.luck)]
    if q.lucky and not whip:
        crit_mods.append(("Lucky", q.lucky))
    crit = shots[0] and (triple or total + sum(v for _, v in crit_mods) >= defense + 10)
    if not b.quiet:
        label = f"{w.name} (pistol whip)" if whip else w.name
        b.emit(events, AttackRolled(c.id, t.id, label, faces, mods, total, defense, dmods,
                                    shots, crit, crit_mods, how,
                                    location if vats and location else "",
                                    VATS_COST[location] if vats and location else 0))
    t.last_attacker = c.slot
    raw_first = 0
    for i, hit in enumerate(shots):
        if hit and t.status == ACTIVE:
            raw = deal_damage(b, c, t, ws, events, Hit(crit and i == 0, location, drop, whip))
            raw_first = raw_first or raw
    if drop and c.status == ACTIVE:
        _land(b, c, t, events)
    if whip:
        return
    if q.spread:
        _spread(b, c, t, ws, mods, events)
    if q.splash and raw_first:
        _splash(b, c, t, ws, raw_first, events)


def _spread(b: Battle, c: Combatant, t: Combatant, ws: int, mods: Mods,
            events: list[Event]) -> None:
    """Each point of Spread may also hit one foe next to the target, for half damage,
    with an attack roll of its own; only a foe the weapon could attack from here (line of
    sight, not in full cover unless Lobbed, within a Stunted range or a melee reach)."""
    w = c.weapons[ws]
    g = b.grid
    q = w.qualities
    pos = c.pos
    others = [o for o in b.enemies_of(c)
              if o is not t and g.dist(o.pos, t.pos) <= 1 and g.los(pos, o.pos)
              and (q.lobbed or g.cover[o.pos] != COVER_FULL)
              and not (w.kind != "ranged" and g.dist(pos, o.pos) > w.reach)
              and not (q.stunted_range and g.dist(pos, o.pos) * 5 > w.range_ft)]
    for o in others[: w.qualities.spread]:
        omods, odef, odmods, _ = attack_mods(b, c, o, ws, None, False, False)
        if b.dice_hook is not None:
            b.roll_note = to_hit_note(o, omods, odef, odmods)
        faces = b.roll(c.slot, 6, 3, "spread attack")
        total = sum(faces) + sum(v for _, v in omods)
        hit = total >= odef
        b.emit(events, AttackRolled(c.id, o.id, f"{w.name} (spread)", faces, omods, total,
                                    odef, odmods, [hit], False, [], "sprays"))
        if hit:
            deal_damage(b, c, o, ws, events, Hit(scale=0.5, note=" (spread: half damage)"))


def _splash(b: Battle, c: Combatant, t: Combatant, ws: int, raw: int,
            events: list[Event]) -> None:
    """Splash: every foot from the point of impact takes 1 off the damage (squares are 5 ft)."""
    g = b.grid
    for o in b.combatants:
        if o is t or o.status != ACTIVE:
            continue
        feet = 5 * g.dist(o.pos, t.pos)
        if raw - feet > 0 and g.los(t.pos, o.pos):
            deal_damage(b, c, o, ws, events, Hit(fixed=raw - feet,
                                                 note=f" (splash, {feet} ft from impact)"))


def threshold_value(t: Combatant, i: int, c: Combatant) -> int:
    """``threshold``'s number for ``c``'s weapon slot ``i`` against ``t``, from the native
    copies (rules/facts.py): the odds ask it for every weapon and enemy each decision."""
    a = c.arm(i)
    tr = t.traits()
    arm = t.armor
    kind = a.damage_type
    if kind == "physical":
        dt = tr.pnp_pdt + (arm.pdt if arm else 0)
    elif kind == "energy":
        dt = tr.pnp_edt + (arm.edt if arm else 0)
    else:
        return tr.pnp_rad if kind == "radiation" else tr.pnp_poison
    return lowered(dt, a.armor_piercing, a.armor_vulnerable)


def lowered(dt: int, piercing: int, vulnerable: float) -> int:
    """A DT after Armor Piercing, then Armor Vulnerable (seed 000)."""
    if piercing:
        dt = max(0, dt - piercing)
    if vulnerable != 1:
        dt = int(dt * vulnerable)
    return dt


def threshold(t: Combatant, w: Weapon) -> tuple[str, int]:
    """The DT or resistance a damage type meets, after Armor Piercing and Armor Vulnerable."""
    s = t.creature.pnp
    arm = t.armor
    if w.damage_type in ("physical", "energy"):
        if w.damage_type == "physical":
            label, dt = "PDT", s.pdt + (arm.pdt if arm else 0)
        else:
            label, dt = "EDT", s.edt + (arm.edt if arm else 0)
        return _lowered(label, dt, w)
    if w.damage_type == "radiation":
        return "Radiation Resistance %", s.rad_resistance
    return "Poison Resistance %", s.poison_resistance


def _lowered(label: str, dt: int, w: Weapon) -> tuple[str, int]:
    """A DT after the weapon's Armor Piercing, then its Armor Vulnerable (seed 000)."""
    q = w.qualities
    if q.armor_piercing:
        label += f" (less {q.armor_piercing} for armor piercing)"
    if q.armor_vulnerable != 1:
        label += f" (x{q.armor_vulnerable:g} for armor vulnerable)"
    return label, lowered(dt, q.armor_piercing, q.armor_vulnerable)


def damage_note(t: Combatant, w: Weapon, dice: Dice, drop: int, whip: bool,
                crit: bool, scale: float, location: str | None) -> str:
    """What a damage roll is, for a GM rolling it at the table: the dice, what is added,
    the threshold the hit meets."""
    if whip:
        label, res = "PDT", t.creature.pnp.pdt + (t.armor.pdt if t.armor else 0)
    else:
        label, res = threshold(t, w)
    percent = not whip and w.damage_type not in ("physical", "energy")
    meets = f"{label} {res} applies" if not percent else f"{label.replace(' %', '')} {res}% applies"
    what = f"{w.name}, pistol whip" if whip else w.name
    at = f" ({location})" if location else ""
    return (f"damage to {t.id}{at}: {dice}{f' +{drop} drop' if drop else ''} ({what}), "
            f"{meets}" + (f", x{scale:g}" if scale != 1 else "")
            + (", then a second roll for the critical" if crit else "")
            + ("; a hit deals at least 1" if not percent else ""))


class Hit:
    """How one hit's damage is rolled and read (``deal_damage``): a crit's second roll, the
    body part aimed at, a drop's bonus, a pistol whip, a fraction (a Spread hit's half),
    or a set amount (a bystander in a splash), and what the log adds. Read-only by
    agreement (PLAIN_HIT is shared): a plain class, so that compiled its ``__init__`` is
    native, not a dataclass's generated Python."""

    def __init__(self, crit: bool = False, location: str | None = None, drop: int = 0,
                 whip: bool = False, scale: float = 1.0, fixed: int | None = None,
                 note: str = "") -> None:
        self.crit = crit
        self.location = location
        self.drop = drop
        self.whip = whip
        self.scale = scale
        self.fixed = fixed
        self.note = note

PLAIN_HIT: Final = Hit()


def deal_damage(b: Battle, c: Combatant, t: Combatant, ws: int, events: list[Event],
                hit: Hit = PLAIN_HIT) -> int:
    """Roll and apply one hit's damage; returns the damage before DT."""
    crit, location, drop, whip = hit.crit, hit.location, hit.drop, hit.whip
    scale, fixed, note = hit.scale, hit.fixed, hit.note
    w = c.weapons[ws]
    q = w.qualities
    faces: tuple[int, ...] = ()
    mult = scale
    if fixed is not None:
        dice, raw = Dice(0, 1, fixed), fixed
        bonus: Mods = []
    else:
        dice = WHIP_DICE[2 if w.hands == 2 else 1] if whip else weapon_dice(w.damage)
        if b.dice_hook is not None:
            b.roll_note = damage_note(t, w, dice, drop, whip, crit, scale, location)
        faces = tuple(b.roll(c.slot, dice.sides, dice.count, "damage"))
        bonus = [("drop", drop)] if drop else []
        raw = sum(faces) + dice.bonus + drop
        if crit:
            # x2 is a second damage roll (the seed's Ted example); Brutal's fraction is of
            # one roll; a crippled head's 50% more multiplies the whole (seed 000)
            if b.dice_hook is not None:
                b.roll_note = (f"crit damage to {t.id}: {dice} again, added to the first "
                               f"roll ({sum(faces) + dice.bonus + drop}) for x2"
                               + (f", then Brutal {q.brutal:g} x the first roll"
                                  if q.brutal and not whip else "")
                               + (", then x1.5 on a crippled head"
                                  if location == "head" and t.crippled.get("head") else ""))
            again = b.roll(c.slot, dice.sides, dice.count, "crit damage")
            second = sum(again) + dice.bonus + drop
            drop_txt = f" +{drop} drop" if drop else ""
            bonus.append((f"crit, second roll {dice} ({'+'.join(map(str, again))}){drop_txt}",
                          second))
            extra = 0 if whip else int(q.brutal * raw)
            if q.brutal and not whip:
                bonus.append((f"Brutal {q.brutal:g} x {raw}", extra))
            raw += second + extra
            if location == "head" and t.crippled.get("head"):
                mult *= 1.5
    raw = int(raw * mult)
    if whip:
        label, res = ("PDT", t.creature.pnp.pdt + (t.armor.pdt if t.armor else 0))
        dealt = max(1, raw - res)
    else:
        label, res = threshold(t, w)
        # a bystander caught in a splash was not hit: no minimum of 1 (seed 000, Damage)
        least = 0 if fixed is not None else 1
        if w.damage_type in ("physical", "energy"):
            dealt = max(least, raw - res)
        elif res >= 100:
            dealt = 0
        else:
            dealt = max(least, raw - raw * res // 100)
    hp_before = t.hp
    t.hp -= dealt
    if not whip and fixed is None and q.lethal and 0 < t.hp <= q.lethal:
        t.hp -= q.lethal
        note += f"; Lethal ({q.lethal}) deals {q.lethal} more"
    t.hp = max(0, t.hp)
    taken = hp_before - t.hp
    t.damage_taken += taken
    if t.side != c.side:  # harm to one's own side is not damage dealt (it is taken)
        c.damage_dealt += taken
    if not b.quiet:
        dtype = "physical" if whip else w.damage_type
        b.emit(events, DamageDealt(t.id, str(dice), list(faces), bonus, mult, raw, label, res,
                                   dealt, dtype, t.hp, t.max_hp,
                                   note + (" (critical)" if crit else "")))
    if not whip and q.burning and fixed is None and t.hp > 0:
        _ignite(b, t, w, events)
    if location and t.hp > 0:
        _wound_limb(b, t, location, taken, events)
        if crit and t.hp > 0:
            _called_effect(b, t, location, events)
    if t.hp <= 0:
        down(b, t, events)
    return raw


def _ignite(b: Battle, t: Combatant, w: Weapon, events: list[Event]) -> None:
    """Burning: a second damage roll, less EDT, dealt at most Burning per turn."""
    dice = weapon_dice(w.damage)
    faces = b.roll(-1, dice.sides, dice.count, "burning")
    label, edt = _lowered("EDT", t.creature.pnp.edt + (t.armor.edt if t.armor else 0), w)
    pool = max(0, sum(faces) + dice.bonus - edt)
    if pool <= 0:
        return
    t.burn_rate = max(t.burn_rate, w.qualities.burning)
    t.burn_left = max(t.burn_left, pool)
    b.emit(events, Note(t.id, f"catches fire: {dice} ({'+'.join(map(str, faces))}) - {label} {edt} = "
                              f"{pool} burn damage, {t.burn_rate} per turn"))


def _wound_limb(b: Battle, t: Combatant, location: str, dealt: int, events: list[Event]) -> None:
    """25% of max HP dealt to a limb by called shots cripples it (seed 000)."""
    t.limb_damage[location] = t.limb_damage.get(location, 0) + dealt
    need = -(-t.max_hp // 4)
    if t.limb_damage[location] >= need and t.crippled.get(location, 0) < max(
        1, location_count(t, location)
    ):
        t.crippled[location] = t.crippled.get(location, 0) + 1
        b.emit(events, Crippled(t.id, location, t.limb_damage[location], need))
        t.limb_damage[location] = 0
        if not can_wield(t, t.weapon):
            usable = [i for i, w in enumerate(t.weapons) if can_wield(t, w)]
            if usable:
                t.active_weapon = usable[0]


def _called_effect(b: Battle, t: Combatant, location: str, events: list[Event]) -> None:
    """A called shot's special bonus besides crippling (seed 000, Called Shots and V.A.T.S.:
    bleeding, knocking down). Reading: a critical called shot to a leg knocks the target
    down; to the head or an arm it makes the target bleed (robots do not bleed)."""
    if location == "leg":
        if not t.cond.get("prone"):
            t.cond["prone"] = True
            b.emit(events, Note(t.id, "is knocked down (critical called shot to the leg): "
                                      "prone until it spends a Small action standing up."))
            offer_prone(b, t, events)
    elif t.creature.kind != "robot" and not t.cond.get("bleeding"):
        t.cond["bleeding"] = BLEED_RATE
        b.emit(events, Note(t.id, f"is bleeding (critical called shot to the {location}): "
                                  f"{BLEED_RATE} damage at the start of each of its turns "
                                  f"until first aid or a stimpak stops it."))


def offer_prone(b: Battle, t: Combatant, events: list[Event]) -> None:
    """Attack of Opportunity (Prone): every alert enemy within attacking distance of the
    fallen ``t``, its free action unused and not in its own turn, may roll initiative
    against it for a free attack (seed 000, Free Action)."""
    turn = b.order[b.turn]
    waiting = {r.reactor for r in b.reactions}
    for e in b.combatants:
        if (e.side != t.side and e.status == ACTIVE and not e.free_used and not e.unguarded
                and e.slot != turn and e.slot not in waiting
                and can_attack(b, e, t, e.active_weapon)):
            b.reactions.append(Reaction(e.slot, "unguarded", t.slot))
            b.emit(events, ReactionOffered(e.id, "unguarded_enemy", t.id))


def _land(b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
    """The drop attack's other side: the attacker jumps down to a free square next to the
    target and to itself, the lowest there is, and takes 1 falling damage per 5 ft dropped
    beyond the first 5, DT not applying (reading of seed 000, Drop Attack: "you might take
    damage in the process"). With no free square to land on it strikes from where it
    stands and does not fall."""
    g = b.grid
    occ = b.occupied
    hs = g.heights
    spots = [n for n in g.neighbors[c.pos] if n not in occ and g.dist(n, t.pos) <= 1
             and hs[n] < hs[c.pos]]
    if not spots:
        return
    spot = min(spots, key=lambda n: hs[n])
    fall = hs[c.pos] - hs[spot]
    start = c.pos
    b.set_pos(c, spot)
    hurt = max(0, (fall - 5) // 5)
    c.hp = max(0, c.hp - hurt)
    c.damage_taken += hurt
    b.emit(events, Note(c.id, f"drops {fall} ft from {g.xy(start)} to {g.xy(spot)}: falling "
                              f"damage 1 per 5 ft beyond the first 5 = {hurt} "
                              f"(HP {c.hp}/{c.max_hp})"))
    if c.hp <= 0:
        down(b, c, events)


def down(b: Battle, t: Combatant, events: list[Event]) -> None:
    """0 HP: creatures die, player characters fall unconscious (reading, docs/rules/pnp.md)."""
    t.hp = 0
    b.fall(t, UNCONSCIOUS if t.creature.kind == "character" else DEAD)
    t.readied = False
    t.burn_left = t.burn_rate = 0
    if t.cond:
        for k in ("prone", "bleeding", "ready"):
            t.cond.pop(k, None)
    b.reactions = [r for r in b.reactions if r.reactor != t.slot and r.subject != t.slot]
    b.emit(events, Downed(t.id, t.status))


__all__ = ["DEAD", "can_attack", "resolve_attack", "deal_damage", "down", "threshold"]
