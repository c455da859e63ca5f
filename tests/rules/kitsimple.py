"""Helpers for the Simple rules tests (seed 001_0912b5c6442fb3b1.txt): creatures, weapons
and armor built in code with Simple stat blocks, arenas on an open map, and dice the test
scripts (kit.Rig: d10s, 2d10 checks, d100 criticals, damage dice)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wasteland.bestiary.loader import Bestiary
from wasteland.bestiary.models import (
    Armor,
    ArmorSimple,
    Creature,
    DTSimple,
    HitLocation,
    Item,
    PnPStats,
    Qualities,
    StatsSimple,
    Weapon,
    WeaponRef,
    WeaponSimple,
)
from wasteland.rules.actions import ACTION_INDEX, parse_action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.events import Event
from wasteland.rules.simple import Simple

from .kit import OPEN, Rig, arena_scenario

SEED = "Seed 001_0912b5c6442fb3b1.txt"


def _w(wid: str, kind: str, damage: str, skill: str, rng: int = 0, hands: int = 1,
       magazine: str = "none", capacity: int = 0, ammo: str | None = None, **simple: Any
       ) -> Weapon:
    return Weapon(id=wid, name=wid.replace("_", " "), kind=kind, damage="1d6", hands=hands,
                  magazine=magazine, capacity=capacity, ammo=ammo, range_ft=rng * 5,
                  simple=WeaponSimple(skill=skill, damage=damage, range=rng, **simple))


WEAPONS = {w.id: w for w in [
    _w("pistol", "ranged", "1d6+2", "guns", 8, 1, "clip", 12, "10mm"),
    _w("rifle", "ranged", "2d6", "guns", 15, 2, "clip", 10, "5mm", size="large"),
    _w("scoped_rifle", "ranged", "2d6", "guns", 15, 2, "clip", 10, "5mm", size="large",
       scope=True, crit=3),
    _w("minigun", "ranged", "1d10", "big_guns", 10, 2, "clip", 60, "5mm", size="large",
       heavy=True),
    _w("laser", "ranged", "2d6", "energy_weapons", 10, 1, "clip", 10, "cell",
       damage_type="laser"),
    _w("derringer", "ranged", "1d6", "guns", 2, 1, "clip", 2, "10mm"),
    _w("knife", "melee", "1d4+1", "melee"),
    _w("claws", "unarmed", "1d6", "unarmed", hands=0),
    _w("launcher", "ranged", "3d6", "big_guns", 10, 2, "clip", 2, "rocket", size="large",
       damage_type="explosive").model_copy(update={"qualities": Qualities(splash=True)}),
]}
ARMOR = {
    "leather": Armor(id="leather", name="leather armor",
                     simple=ArmorSimple(dt=DTSimple(normal=2, laser=1))),
    "power": Armor(id="power", name="power armor",
                   simple=ArmorSimple(dt=DTSimple(normal=5, laser=3), heavy=True)),
}
ITEMS = {"stimpak": Item(id="stimpak", name="stimpak", kind="healing", heal="2d6")}
HUMANOID = [HitLocation(name="head", kind="head"), HitLocation(name="torso", kind="torso"),
            HitLocation(name="arms", kind="arm", count=2),
            HitLocation(name="legs", kind="leg", count=2)]


def creature(cid: str, weapons: tuple[str, ...] = ("pistol",), kind: str = "human",
             **simple: Any) -> Creature:
    """A creature whose Simple block is ``simple`` over sensible defaults (HP 30, large,
    Sequence 5, END 5, Luck 3, Defense 0, guns/melee/unarmed 8, medic 5)."""
    block: dict[str, Any] = {
        "hp": 30, "sequence": 5, "endurance": 5, "luck": 3,
        "skills": {"guns": 8, "big_guns": 8, "energy_weapons": 8, "melee": 8, "unarmed": 8,
                   "medic": 5, "mechanics": 5},
        "weapons": [WeaponRef(id=w) for w in weapons],
        "ammo": {"10mm": 24, "5mm": 60, "cell": 20}, "items": {"stimpak": 2}}
    block.update(simple)
    return Creature(id=cid, name=cid, kind=kind, hit_locations=HUMANOID,
                    pnp=PnPStats(hp=10, defense=10, initiative=0, speed=5,
                                 weapons=[WeaponRef(id=w) for w in weapons]),
                    simple=StatsSimple(**block))


@dataclass
class SArena:
    rs: Simple
    b: Battle
    rig: Rig
    events: list[Event]

    def c(self, cid: str) -> Combatant:
        return self.b.by_id(cid)

    def act(self, text: str) -> list[Event]:
        dec = self.rs.decider(self.b)
        evs = self.rs.apply(self.b, parse_action(text, self.b.ids, dec.combatant))
        self.events += evs
        return evs

    def legal(self) -> set[str]:
        dec = self.rs.decider(self.b)
        return {a.text(self.b.ids, dec.combatant) for a in self.rs.legal_actions(self.b)}

    def is_legal(self, text: str) -> bool:
        dec = self.rs.decider(self.b)
        return ACTION_INDEX[parse_action(text, self.b.ids, dec.combatant)] in \
            self.rs.legal_ids(self.b)

    def whose(self) -> tuple[str, str]:
        d = self.rs.decider(self.b)
        return self.b.ids[d.combatant], d.slot

    def text(self) -> list[str]:
        return [e.text() for e in self.events]


def sarena(fighters: list[tuple[str, tuple[int, int], int, Creature]], rows: str = OPEN,
           seq: list[int] | None = None, extra: list[int] | None = None,
           lighting: str = "clear") -> SArena:
    """A Simple battle: (id, (x, y), side, creature) per fighter; ``seq`` the d10 face of
    each fighter's sequence roll in slot order (sides first; default 10, 9, 8 ...: the
    listed order is the sequence, highest first), ``extra`` further d10s (roll-offs)."""
    from .kit import F

    creatures = {cid: cr.model_copy(update={"id": cid}) for cid, _, _, cr in fighters}
    base = Bestiary(weapons=dict(WEAPONS), armor=dict(ARMOR), items=dict(ITEMS))
    marks = [F(cid, at, cid, side) for cid, at, side, _ in fighters]
    bestiary, scenario = arena_scenario("simple_test", marks, base, creatures, rows,
                                        lighting, (True, True))
    rig = Rig()
    slots = [f for si in (0, 1) for f in fighters if f[2] == si]
    if seq is None:
        order = [f[0] for f in fighters]
        seq = [10 - order.index(f[0]) for f in slots]
    rig.push(10, *seq)
    if extra:
        rig.push(10, *extra)
    b = Simple().new_battle(scenario, 1, bestiary, rng=rig)
    assert rig.left == 0, "the sequence rolls did not use every scripted face"
    return SArena(Simple(), b, rig, list(b.log))
