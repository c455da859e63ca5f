"""Helpers for the rules tests: a fixture bestiary, arenas built in code, and dice that
roll exactly the faces a test scripts.

The engine draws every die as ``int(rng.random() * sides) + 1``; ``Rig.random`` returns
``(face - 0.5) / sides`` for each scripted face, so a test states the faces and asserts
exact totals. A draw the test did not script fails loudly.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from wasteland.bestiary.loader import Bestiary, load_bestiary
from wasteland.bestiary.models import Creature, HitLocation, Placement, Scenario, Side, WeaponRef
from wasteland.rules.actions import ACTION_INDEX, Action, parse_action
from wasteland.rules.battle import Battle
from wasteland.rules.events import AttackRolled, DamageDealt, Event
from wasteland.rules.grid import Grid
from wasteland.rules.pnp import PnP

DATA = Path(__file__).resolve().parent.parent / "data"
BESTIARY = DATA / "bestiary"
SCENARIOS = DATA / "scenarios"
SEED = "Seed 000_4e72993430dea166.txt"

LEGEND: dict[str, Any] = {
    ".": "floor",
    "#": "wall",
    ",": "light_cover",
    "=": "heavy_cover",
    "O": "full_cover",
    "^": "high_ground",
    "~": "smoke",
    "*": "darkness",
    "f": "fog",
    "w": "water",
    "H": "climb",
}
OPEN = "\n".join(["." * 12] * 6)


@lru_cache(maxsize=1)
def fixture_bestiary() -> Bestiary:
    return load_bestiary(BESTIARY)


class Rig(random.Random):
    """A Random whose ``random()`` yields scripted die faces, in order."""

    def __init__(self) -> None:
        super().__init__(0)
        self.queue: deque[float] = deque()

    def push(self, sides: int, *faces: int) -> Rig:
        for f in faces:
            assert 1 <= f <= sides, f"face {f} is not on a d{sides}"
            self.queue.append((f - 0.5) / sides)
        return self

    def d6(self, *faces: int) -> Rig:
        return self.push(6, *faces)

    def random(self) -> float:
        if not self.queue:
            raise AssertionError("the engine rolled a die the test did not script")
        return self.queue.popleft()

    @property
    def left(self) -> int:
        return len(self.queue)


@dataclass
class Fighter:
    """One combatant of an arena: a fixture creature, where it stands, and overrides."""

    creature: str
    at: tuple[int, int]
    id: str
    side: int = 0
    weapons: list[str | tuple[str, int]] | None = None
    stats: dict[str, Any] = field(default_factory=dict)


def F(creature: str, at: tuple[int, int], id: str, side: int = 0,
      weapons: list[str | tuple[str, int]] | None = None, **stats: Any) -> Fighter:
    return Fighter(creature, at, id, side, weapons, stats)


@dataclass
class Arena:
    rs: PnP
    b: Battle
    rig: Rig
    events: list[Event]

    def c(self, cid: str):  # noqa: ANN201 - a Combatant
        return self.b.by_id(cid)

    def act(self, text: str) -> list[Event]:
        """Apply an action in notation, checked against the legal actions."""
        dec = self.rs.decider(self.b)
        action = parse_action(text, self.b.ids, dec.combatant)
        return self.rs.apply(self.b, action)

    def legal(self) -> set[str]:
        dec = self.rs.decider(self.b)
        return {a.text(self.b.ids, dec.combatant) for a in self.rs.legal_actions(self.b)}

    def is_legal(self, text: str) -> bool:
        dec = self.rs.decider(self.b)
        a = parse_action(text, self.b.ids, dec.combatant)
        return ACTION_INDEX[a] in self.rs.legal_ids(self.b)

    @property
    def decider(self):  # noqa: ANN201 - a Decision
        return self.rs.decider(self.b)

    def whose(self) -> str:
        return self.b.ids[self.rs.decider(self.b).combatant]


def _faces(total: int) -> tuple[int, int, int]:
    """Three d6 faces that sum to ``total`` (3-18)."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return a, b, total - a - b


def arena_scenario(sid: str, fighters: Sequence[Any], base: Bestiary,
                   creatures: dict[str, Creature], rows: str, lighting: str,
                   alert: tuple[bool, bool]) -> tuple[Bestiary, Scenario]:
    """The bestiary (``base`` with ``creatures``) and the two-sided scenario of an arena:
    each fighter (``id``, ``at``, ``side``) placed as the creature named by its id."""
    bestiary = Bestiary(weapons=base.weapons, armor=base.armor, items=base.items,
                        creatures=creatures)
    sides = [Side(name=f"side{si}", alert=alert[si], combatants=[
        Placement(creature=f.id, at=f.at, id=f.id) for f in fighters if f.side == si])
        for si in (0, 1)]
    scenario = Scenario(id=sid, name="test arena", map=rows, legend=LEGEND,
                        lighting=lighting, sides=sides)
    return bestiary, scenario


def arena(fighters: list[Fighter], rows: str = OPEN, lighting: str = "clear",
          alert: tuple[bool, bool] = (True, True), order: list[str] | None = None,
          init: list[tuple[int, int, int]] | None = None, extra: list[int] | None = None,
          keep_log: bool = True) -> Arena:
    """Build a battle from fixture creatures, with initiative scripted.

    ``order`` (default: the fighters' order) is the turn order, given by initiative
    totals 18, 17, 16, ... (fixture creatures have Initiative +0); or ``init`` gives
    the 3d6 faces of each fighter in slot order (sides first), and ``extra`` any further
    faces (tie rerolls), all d6.
    """
    base = fixture_bestiary()
    creatures = dict(base.creatures)
    for f in fighters:
        cr = base.creatures[f.creature]
        upd: dict[str, Any] = dict(f.stats)
        if f.weapons is not None:
            upd["weapons"] = [WeaponRef(id=w) if isinstance(w, str) else WeaponRef(id=w[0], bonus=w[1])
                              for w in f.weapons]
        hit_locations = [HitLocation(**h) if isinstance(h, dict) else h
                         for h in upd.pop("hit_locations", cr.hit_locations)]
        kind = upd.pop("kind", cr.kind)
        creatures[f.id] = cr.model_copy(update={
            "id": f.id, "kind": kind, "hit_locations": hit_locations,
            "pnp": cr.pnp.model_copy(update=upd)})
    bestiary, scenario = arena_scenario("test", fighters, base, creatures, rows, lighting, alert)
    rig = Rig()
    slots = [f for si in (0, 1) for f in fighters if f.side == si]
    if init is None:
        wanted = order or [f.id for f in fighters]
        for f in slots:
            rig.d6(*_faces(18 - wanted.index(f.id)))
    else:
        for faces in init:
            rig.d6(*faces)
    if extra:
        rig.d6(*extra)
    b = PnP().new_battle(scenario, 1, bestiary, keep_log=keep_log, rng=rig)
    assert rig.left == 0, "initiative did not use every scripted face"
    return Arena(PnP(), b, rig, list(b.log))


def private_grid(a: Arena) -> Grid:
    """A copy of the battle's map that a test may change (maps are shared per layout)."""
    g = a.b.grid
    a.b.grid = Grid(g.width, g.height, [replace(c) for c in g.cells])
    return a.b.grid


def attacks(events: list[Event]) -> list[AttackRolled]:
    return [e for e in events if isinstance(e, AttackRolled)]


def damage(events: list[Event]) -> list[DamageDealt]:
    return [e for e in events if isinstance(e, DamageDealt)]


def only(events: list[Event], kind: type) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def mods(ev: AttackRolled) -> dict[str, int]:
    return dict(ev.mods)


__all__ = ["Action", "Arena", "F", "Rig", "SEED", "arena", "attacks", "damage", "mods", "only"]
