"""Damage under Fallout 2d20 (seed 002: Inflict Damage, Damage Effects, Critical Hits,
Injuries, and Dying, Radiation Damage)."""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS, Battle, Combatant
from wasteland.rules.events import CombatDiceRolled, Downed, Event, Note, article
from wasteland.rules.rollnotes import location_note
from wasteland.rules.zones import zones_for

from . import stats as S
from .book import book
from .dice import score_cd
from .skills import Skills, SkillTest

# reading (published game): a character's melee and unarmed attacks gain +1 CD at STR 7-8,
# +2 at 9-10, +3 at 11 or more ("bonuses from derived statistics", seed 002 Inflict Damage)
MELEE_BONUS: Final = ((11, 3), (9, 2), (7, 1))

AURA_RADS: Final = 2  # reading: radiation a Radiant creature's aura deals at the end of its turn



class Hurt:
    """Damage as it was rolled, before ``Damage._hurt`` applies it: what gets through DR,
    of which type, where, and what the line a GM reads shows of it (the combat dice faces,
    their total and effects, what was added, the DR met and how it reads). Read-only by
    agreement: a plain class, not a frozen dataclass, because compiled its ``__init__``
    is native (a dataclass's generated one runs as Python, 1.6 us a hit)."""

    def __init__(self, dealt: int, dtype: str, loc: str, crit: bool, faces: list[int],
                 # params: the eleven parts of one rolled hit, what the value type is for
                 dmg: int, fx: int, bonus: list[tuple[str, int]], dr: tuple[int, str],
                 note: str = "") -> None:
        self.dealt = dealt  # after DR
        self.dtype = dtype  # physical, energy, radiation, poison
        self.loc = loc
        self.crit = crit  # 5 or more after DR: an injury
        self.faces = faces  # no faces: radiation that rides on effects, or an aura
        self.dmg = dmg  # before DR
        self.fx = fx  # effects rolled
        self.bonus = bonus
        self.resist, self.label = dr  # the DR met, and how it reads
        self.note = note

def cd_note(c: Combatant, t: Combatant, w: dict[str, Any], n: int, boost: int,
            strong: int, bonus: list[tuple[str, int]], half: bool) -> str:
    """What a combat dice roll is, for a GM rolling it at the table: how many and why, the
    DR the hit meets, and how to read the faces."""
    loc = w["loc"]
    wpn = c.weapons[w["ws"]]
    p = wpn.f2d20
    assert p is not None
    why = [f"{wpn.name} {p.cd}"]
    if boost:
        why.append(f"+{boost} extra")
    if strong:
        why.append(f"+{strong} for STR")
    if bonus:
        why.append("+2 sneak attack")
    resist = S.dr(t, loc, p.damage_type)
    pierce = f", Piercing {p.effects.piercing} per effect" if p.effects.piercing else ""
    return (f"combat dice for the hit on {t.id}'s {loc}: {n} CD ({', '.join(why)})"
            + (", halved (Spread)" if half else "")
            + f"; {p.damage_type} DR {resist} applies{pierce}; 5 or more after DR is a "
              f"critical hit (an injury). Each die: 1, 2, blank (0) or effect (1 and the "
              f"weapon's effects)")


@mypyc_attr(serializable=True)
class Damage(Skills):
    """Damage, injuries and dying, for F2d20 (a base class of it)."""

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
        loc = w["loc"]
        if b.dice_hook is not None:
            b.roll_note = cd_note(c, t, w, n, boost, strong, bonus, half)
        faces, dmg, fx = score_cd(b.roll(c.slot, 6, n, "combat dice"))
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
        self._hurt(b, c, t, Hurt(dealt, dtype, loc, crit, faces, dmg, fx, bonus, (resist - pierce,
                                 label), f" (+{strong} CD for STR "
                                        f"{S.stats(c).special['strength']})"  # type: ignore[index]
                                 if strong else ""), events)
        if t.status == DEAD:
            return
        if e.radioactive and fx:  # radiation comes after the other damage types
            rad = max(0, fx - S.dr(t, loc, "radiation"))
            if rad:
                self._hurt(b, c, t, Hurt(rad, "radiation", loc, False, [], fx, 0, [],
                                         (S.dr(t, loc, "radiation"), "radiation DR"),
                                         " (Radioactive)"), events)
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
            fresh = not b.over and b.order[b.turn] == t.slot and not book(b).turn_done
            t.cond.setdefault("persist", []).append([c.slot, w["ws"], loc, fresh])
        if e.spread and not secondary:
            table = S.location_table(t)
            for _ in range(fx):
                if t.status != ACTIVE:
                    break
                if b.dice_hook is not None:
                    b.roll_note = location_note(t.id, table, " (Spread: another hit)")
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
                if b.dice_hook is not None:
                    b.roll_note = location_note(o.id, S.location_table(o), " (Burst)")
                roll = b.roll(c.slot, 20, 1, "hit location")[0]
                spot = next(name for hi, name, _ in S.location_table(o) if roll <= hi)
                b.emit(events, Note(c.id, f"bursts into {o.id}."))
                self._damage(b, c, o, {**w, "loc": spot, "sneak": False, "target": o.slot},
                             0, events, secondary=True)

    def _hurt(self, b: Battle, c: Combatant, t: Combatant, h: Hurt, events: list[Event]
              ) -> None:
        """Apply damage ``h`` dealt by ``c`` to ``t``: radiation lowers maximum HP, 5+ after
        DR is an injury, 0 HP is an injury and dying for characters, death for creatures
        (seed 002)."""
        dealt, dtype, loc, crit = h.dealt, h.dtype, h.loc, h.crit
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
            b.emit(events, CombatDiceRolled(t.id, loc, h.faces, h.dmg, h.fx, h.bonus, h.resist,
                                            h.label, dealt, dtype, t.hp, t.max_hp,
                                            h.note + (" (critical hit)" if crit else "")))
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
        b.emit(events, Note(t.id, f"suffers {article(kind)} {kind} injury ({why}; "
                                  f"{S.injuries(t)} injur{'y' if S.injuries(t) == 1 else 'ies'})."))

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
                self._hurt(b, c, o, Hurt(dealt, "radiation", loc, False, [], AURA_RADS, 0, [],
                                         (resist, "lowest radiation DR"), " (whole body)"), events)

    def _dying_test(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """END + Survival, difficulty = injuries, complication range 19-20; failing kills
        (seed 002, Critical Hits, Injuries, and Dying)."""
        diff = S.injuries(c)
        passed, _, _ = self._test(b, c, SkillTest("fights for life (END + Survival)", "survival",
                                             diff, [("injuries", diff)], complication_from=19),
                                  events)
        if not passed:
            c.status = DEAD
            c.cond.pop("dying", None)
            b.emit(events, Downed(c.id, DEAD))

