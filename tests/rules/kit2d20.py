"""Helpers for the Fallout 2d20 rules tests: a fixture bestiary with f2d20 stat blocks,
arenas built in code, and dice that roll exactly the faces a test scripts.

The engine draws every die as ``int(rng.random() * sides) + 1``; ``Rig`` (tests/rules/kit.py)
returns ``(face - 0.5) / sides`` for each scripted face, so a test states the d20 and
combat-die (d6) faces and asserts exact successes and damage. A draw the test did not
script fails loudly, and so does a scripted face the engine did not use (``Arena.done``).

The default map is 30 x 6 open squares: five zones of 6 x 6 squares side by side
(Z0 = x 0-5, Z1 = x 6-11, Z2 = x 12-17, Z3 = x 18-23, Z4 = x 24-29), so a target in
the same zone is at Close range, one zone over at Medium, two at Long, three or more at
Extreme (wasteland/rules/zones.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from wasteland.bestiary.loader import Bestiary, load_bestiary
from wasteland.bestiary.models import Attack2d20, HitLocation
from wasteland.rules.actions import ACTION_INDEX, parse_action
from wasteland.rules.battle import UNCONSCIOUS, Battle, Combatant
from wasteland.rules.events import CombatDiceRolled, Event, Note, TestRolled
from wasteland.rules.f2d20 import F2d20

from .kit import DATA, Rig, arena_scenario

BESTIARY = DATA / "bestiary2d20"
S002 = "Seed 002_265a8a3b5c20fde4.txt"
S003 = "Seed 003_938882289c4f9016.txt"
RULES = "RULES.md, Fallout 2d20"
OPEN = "\n".join(["." * 30] * 6)


@lru_cache(maxsize=1)
def bestiary2d20() -> Bestiary:
    return load_bestiary(BESTIARY)


class Dice(Rig):
    """``Rig`` with a d20 helper."""

    def d20(self, *faces: int) -> Dice:
        self.push(20, *faces)
        return self


@dataclass
class Fighter:
    creature: str
    at: tuple[int, int]
    id: str
    side: int = 0
    stats: dict[str, Any] = field(default_factory=dict)


def F(creature: str, at: tuple[int, int], id: str, side: int = 0, **stats: Any) -> Fighter:
    """A fixture creature at square ``at``; keyword arguments replace fields of its f2d20
    stat block (``attacks`` may be weapon ids; ``hit_locations`` replaces the creature's)."""
    return Fighter(creature, at, id, side, stats)


@dataclass
class Arena:
    rs: F2d20
    b: Battle
    rig: Dice
    events: list[Event]

    def c(self, cid: str) -> Combatant:
        return self.b.by_id(cid)

    def act(self, text: str) -> list[Event]:
        """Apply an action in notation; ``apply`` checks it against the legal actions."""
        dec = self.rs.decider(self.b)
        return self.rs.apply(self.b, parse_action(text, self.b.ids, dec.combatant))

    def legal(self) -> set[str]:
        dec = self.rs.decider(self.b)
        return {a.text(self.b.ids, dec.combatant) for a in self.rs.legal_actions(self.b)}

    def is_legal(self, text: str) -> bool:
        dec = self.rs.decider(self.b)
        a = parse_action(text, self.b.ids, dec.combatant)
        return ACTION_INDEX[a] in self.rs.legal_ids(self.b)

    def whose(self) -> str:
        return self.b.ids[self.rs.decider(self.b).combatant]

    @property
    def slot(self) -> str:
        """The decision's slot; "" once the battle is over (nobody decides)."""
        return "" if self.b.over else self.rs.decider(self.b).slot

    def pool(self, side: int) -> int:
        return int(self.b.book.pools[side])

    def set_pool(self, side: int, n: int) -> None:
        self.b.book.pools[side] = n

    def pass_to(self, cid: str) -> None:
        """End turns (nobody rolls anything) until it is ``cid``'s turn."""
        for _ in range(40):
            if self.whose() == cid and self.slot == "act":
                return
            self.act("end")
        raise AssertionError(f"never {cid}'s turn")

    def done(self) -> None:
        assert self.rig.left == 0, f"{self.rig.left} scripted faces were not rolled"


def arena(fighters: list[Fighter], rows: str = OPEN, lighting: str = "clear",
          alert: tuple[bool, bool] = (True, True), ties: list[int] | None = None,
          pools: tuple[int, int] | None = (0, 0), keep_log: bool = True) -> Arena:
    """Build a battle of fixture creatures. Initiative comes from the stat blocks; the
    tie-break d20 of each combatant (slot order: side 0 first) is ``ties`` (default 10 for
    all, so ties keep slot order). ``pools`` sets both sides' AP pools after set-up
    (None keeps the engine's starting pools)."""
    base = bestiary2d20()
    creatures = dict(base.creatures)
    for f in fighters:
        cr = base.creatures[f.creature]
        st = cr.f2d20
        assert st is not None
        upd = dict(f.stats)
        hit_locations = [HitLocation(**h) if isinstance(h, dict) else h
                         for h in upd.pop("hit_locations", cr.hit_locations)]
        if "attacks" in upd:
            upd["attacks"] = [Attack2d20(id=a) if isinstance(a, str) else
                              a if isinstance(a, Attack2d20) else Attack2d20(**a)
                              for a in upd["attacks"]]
        creatures[f.id] = cr.model_copy(update={
            "id": f.id, "hit_locations": hit_locations, "f2d20": st.model_copy(update=upd)})
    bestiary, scenario = arena_scenario("test2d20", fighters, base, creatures, rows, lighting,
                                        alert)
    rig = Dice()
    rig.d20(*(ties or [10] * len(fighters)))
    b = F2d20().new_battle(scenario, 1, bestiary, keep_log=keep_log, rng=rig)
    assert rig.left == 0, "initiative did not use every scripted face"
    if pools is not None:
        b.book.pools = list(pools)
    return Arena(F2d20(), b, rig, list(b.log))


def rolls(events: list[Event]) -> list[TestRolled]:
    return [e for e in events if isinstance(e, TestRolled)]


def roll_of(events: list[Event]) -> TestRolled:
    found = rolls(events)
    assert len(found) == 1, f"expected one test, got {found}"
    return found[0]


def hits(events: list[Event]) -> list[CombatDiceRolled]:
    return [e for e in events if isinstance(e, CombatDiceRolled)]


def notes(events: list[Event]) -> list[str]:
    return [e.text() for e in events if isinstance(e, Note)]


__all__ = ["Arena", "F", "OPEN", "RULES", "S002", "S003", "arena", "hits", "notes", "roll_of",
           "rolls"]


def make_dying(a: Arena, cid: str, injuries: int = 1) -> None:
    """Put a character straight into the dying state: 0 HP, torso injuries, off the map."""
    c = a.c(cid)
    c.hp = 0
    c.crippled["torso"] = injuries
    c.cond["dying"] = True
    a.b.fall(c, UNCONSCIOUS)
