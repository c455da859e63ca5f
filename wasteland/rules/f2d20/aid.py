"""First aid and chems under Fallout 2d20 (seed 002: First Aid, Take Chem, Radiation
Damage)."""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.events import Event, Healed, Note, article

from . import stats as S
from .movement import Movement
from .skills import SkillTest, _test_penalties

CHEM_KIND: Final = {"stimpak": "healing", "radaway": "radaway"}  # draw_chem option -> item kind



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



@mypyc_attr(serializable=True)
class Aid(Movement):
    """First aid and chems, for F2d20 (a base class of it). The bases form one chain
    (skills, damage, attacks, movement, aid), not a diamond, so mypyc can compile them."""

    def _first_aid(self, b: Battle, c: Combatant, t: Combatant, events: list[Event]) -> None:
        """INT + Medicine, difficulty = the patient's injuries (+1 on yourself); success
        stabilizes the dying, else heals Medicine rank HP, else treats an injury (reading:
        this order; a medic of rank 0 treats an injury rather than heal nothing)."""
        parts = [("injuries", S.injuries(t))]
        if t is c:
            parts.append(("on yourself", 1))
        parts += _test_penalties(b, c)
        diff = sum(v for _, v in parts)
        passed, _, _ = self._test(b, c, SkillTest(f"gives first aid to {t.id} (INT + Medicine)",
                                             "medicine", diff, parts), events)
        if not passed:
            return
        if t.cond.get("dying"):
            t.cond["stable"] = True
            b.emit(events, Note(t.id, "is stabilized."))
        elif t.hp < t.max_hp and (S.medicine_rank(c) > 0 or not S.injuries(t)):
            before = t.hp
            t.hp = min(t.max_hp, t.hp + S.medicine_rank(c))
            b.emit(events, Healed(c.id, t.id, "first aid", f"Medicine rank {S.medicine_rank(c)}",
                                  [], t.hp - before, t.hp, t.max_hp))
        else:
            kind = next(k for k, v in t.crippled.items() if v)
            t.crippled[kind] -= 1
            b.emit(events, Note(t.id, f"has {article(kind)} {kind} injury treated."))

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

