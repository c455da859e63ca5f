"""Attacks under Fallout 2d20 (seed 002: Making an Attack, Aim; seed 003: Range, Ranged
Attacks Within Reach, Sneak Attacks, Increasing Damage)."""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from wasteland.bestiary.models import RANGES_2D20
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.events import Event
from wasteland.rules.rollnotes import location_note
from wasteland.rules.zones import zones_for

from . import stats as S
from .book import book
from .damage import Damage
from .dice import EXTRA_DICE_COST
from .odds import aims
from .odds import hit_chance as odds_hit_chance
from .reach import _within_reach
from .skills import SkillTest, _pool

# reading: obscured +1, heavily obscured +2 (+1 for a melee attack: what is within arm's
# reach still shows against a moonless sky), barely visible (thick fog, -5) as heavily
# obscured, unseen +3; (ranged, melee) by the map's visibility (grid.VISIBILITY)
VIS_DIFFICULTY: Final = {0: (0, 0), -2: (1, 1), -4: (2, 1), -5: (2, 1), -10: (3, 3)}

# reading: a zone's cover makes ranged attacks into it harder; a zone is never all cover,
# so even one of full cover only adds +3 (a single square of full cover would forbid)
COVER_DIFFICULTY: Final = (0, 1, 2, 3)
# VIS_DIFFICULTY's columns (ranged, melee) as maps of ints: each difficulty reads one, and
# a pair of ints would be made into a tuple and taken apart again at every read
_VIS_RANGED: Final = {k: v[0] for k, v in VIS_DIFFICULTY.items()}
_VIS_MELEE: Final = {k: v[1] for k, v in VIS_DIFFICULTY.items()}


@mypyc_attr(serializable=True)
class Attacks(Damage):
    """Attacks, for F2d20 (a base class of it)."""

    def hit_chance(self, b: Battle, c: Combatant, t: Combatant,
                   location: str | None = None, extra_dice: int = 0,
                   aim: bool | None = None) -> float:
        """Exact chance that ``c``'s next attack on ``t`` passes, with ``extra_dice``
        d20s bought (none by default) and Aim's reroll if ``c`` has aimed (odds.py)."""
        # the difficulty asked here, of the class itself: a native call (from odds.py,
        # which this module imports, it was a generic one through the Python API)
        diff = self._difficulty(b, c, t, c.active_weapon, location, None)
        return odds_hit_chance(diff, b, c, extra_dice, aim)

    def can_attack(self, b: Battle, c: Combatant, t: Combatant, ws: int) -> bool:
        """Melee: the target within the weapon's reach and in sight; ranged: in sight, with
        ammunition; nobody attacks a burrowed creature or shoots into a full-cover zone."""
        # the native copy of the weapon (facts.Arm): asked for every weapon against every
        # enemy each turn, where the bestiary's model answers each field through pydantic
        a = c.arm(ws)
        if not a.f2d20 or not S.hands_hold(c, a.hands) or t.cond.get("burrowed"):
            return False
        g = b.grid
        if not g.sight[c.pos][t.pos]:
            return False
        if a.melee2d20:
            return g.dist(c.pos, t.pos) <= a.reach
        return a.ammo is None or c.ammo.get(a.ammo, 0) > 0

    # --- attacks -------------------------------------------------------------------------
    def _declare_attack(self, b: Battle, c: Combatant, t: Combatant, location: str | None,
                        events: list[Event]) -> None:
        window = {"kind": "dice", "attacker": c.slot, "target": t.slot, "ws": c.active_weapon,
                  "location": location}
        if not b.reactions and b.order[b.turn] == c.slot:
            book(b).attacked = True
        diff = self.difficulty(b, c, t, c.active_weapon, location)
        if diff == 0:  # seed 003 Sneak Attacks: no roll needed, but one may roll for AP
            book(b).window = {**window, "zero": True}
        elif _pool(b, c.side) >= EXTRA_DICE_COST[1]:
            book(b).window = window
        else:
            self._roll_attack(b, window, 0, events)

    def attack_difficulty(self, b: Battle, c: Combatant, t: Combatant, ws: int,
                          location: str | None) -> tuple[int, list[tuple[str, int]]]:
        """The target's Defense and every modifier the seeds and readings add."""
        parts: list[tuple[str, int]] = []
        return self._difficulty(b, c, t, ws, location, parts), parts

    def difficulty(self, b: Battle, c: Combatant, t: Combatant, ws: int,
                   location: str | None) -> int:
        """``attack_difficulty``'s number alone: the odds ask for it many times a decision,
        and naming each modifier would cost more than adding it up."""
        return self._difficulty(b, c, t, ws, location, None)

    def _difficulty(self, b: Battle, c: Combatant, t: Combatant, ws: int,
                    location: str | None, parts: list[tuple[str, int]] | None) -> int:
        a = c.arm(ws)  # the weapon's and the target's fields, as native copies
        assert a.f2d20
        z = zones_for(b.grid)
        g = b.grid
        traits = t.traits()
        total = traits.defense2d20
        if parts is not None:
            parts.append(("Defense", total))
        defend = t.cond.get("defend")
        if defend:
            v = int(defend)
            total += v
            if parts is not None:
                parts.append(("defending", v))
        melee = a.melee2d20
        if not melee:
            band = z.band(c.pos, t.pos)
            off = abs(band - a.band_index)
            if off:
                total += off
                if parts is not None:
                    parts.append((f"range {RANGES_2D20[band]} vs {a.band}", off))
            there = z.zone_of[t.pos]
            # reading: the zone's cover shields it from shots from other zones; inside one
            # zone, the target's own square decides
            cov = COVER_DIFFICULTY[g.cover[t.pos] if z.zone_of[c.pos] == there
                                   else z.cover(there)]
            if cov:
                total += cov
                if parts is not None:
                    parts.append(("cover", cov))
            if _within_reach(b, c):
                total += 2
                if parts is not None:
                    parts.append(("within an enemy's reach", 2))
        if location:
            total += 1
            if parts is not None:
                parts.append(("chosen location", 1))
        vis = (_VIS_MELEE if melee else _VIS_RANGED).get(min(g.vis[t.pos], b.ambient), 0)
        if vis:
            total += vis
            if parts is not None:
                parts.append(("visibility", vis))
        if c.crippled:  # injuries are kept there: none, as most of the time, adds nothing
            head = S.test_penalty(c)
            if head:
                total += head
                if parts is not None:
                    parts.append(("head injury", head))
            if S.injuries(c, "arm") and a.hands:
                total += 1
                if parts is not None:
                    parts.append(("arm injury", 1))
        if t.cond.get("prone"):  # reading (published game): prone
            if melee or z.band(c.pos, t.pos) == 0:
                total -= 1
                if parts is not None:
                    parts.append(("prone target, close", -1))
            else:
                total += 1
                if parts is not None:
                    parts.append(("prone target, medium or farther", 1))
        if traits.big:
            total -= 1
            if parts is not None:
                parts.append(("big target", -1))
        if traits.little:
            total += 1
            if parts is not None:
                parts.append(("little target", 1))
        if t.unguarded or c.cond.get("burrowed"):
            total -= 1
            if parts is not None:
                parts.append(("sneak attack", -1))
        return max(0, total)

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
        passed, excess, _ = self._test(b, c, SkillTest(f"attacks {t.id} with {wpn.name}", p.skill,
                                                  diff, parts, extra,
                                                  tn_tag=S.attack_test(c, ws), reroll=aim,
                                                  roll_anyway=bool(w.get("zero")
                                                                   and w.get("roll"))),
                                       events)
        t.last_attacker = c.slot
        if not passed:
            return
        if w["location"]:
            loc = S.location_of_kind(t, w["location"])
        else:
            if b.dice_hook is not None:
                b.roll_note = location_note(t.id, S.location_table(t), " (the attack hit)")
            roll = b.roll(c.slot, 20, 1, "hit location")[0]
            loc = next(name for hi, name, _ in S.location_table(t) if roll <= hi)
        w = {**w, "kind": "boost", "loc": loc, "sneak": sneak}
        if self._max_boost(b, c, w) > 0:
            book(b).window = w
        else:
            self._damage(b, c, t, w, 0, events)

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

    def _max_boost_uses_ap(self, c: Combatant, w: dict[str, Any]) -> bool:
        return S.boosts_with_ap(c.weapons[w["ws"]])

