"""Saving a battle to JSON and loading it back, and replaying a fight from its seed.

A save carries everything needed to rebuild the battle without the bestiary files that
made it (the scenario and every creature, weapon, armor and item used), the dynamic state
(including the RNG), the history of actions, and the log. Loading validates the data and
restores the state; `replay` rebuilds the same battle from the seed and the actions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from wasteland.bestiary.loader import Bestiary
from wasteland.bestiary.models import Armor, Creature, Item, Scenario, Weapon

from .actions import parse_action
from .battle import Battle
from .errors import SaveError, WastelandError
from .protocol import get_ruleset
from .savefile import write_atomic

FORMAT = "wasteland-battle"
VERSION = 1


def to_dict(b: Battle) -> dict[str, Any]:
    creatures = {c.creature.id: c.creature for c in b.combatants}
    weapons = {w.id: w for c in b.combatants for w in c.weapons}
    armor = {c.armor.id: c.armor for c in b.combatants if c.armor}
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": b.ruleset,
        "seed": b.seed,
        "scenario": b.scenario.model_dump(mode="json"),
        "bestiary": {
            "creatures": [x.model_dump(mode="json") for x in creatures.values()],
            "weapons": [x.model_dump(mode="json") for x in weapons.values()],
            "armor": [x.model_dump(mode="json") for x in armor.values()],
            "items": [x.model_dump(mode="json") for x in b.items.values()],
        },
        "max_rounds": b.extra.get("max_rounds"),
        "history": list(b.history),
        "state": b.state(),
        "log": [e.text() for e in b.log],
    }


def dumps(b: Battle) -> str:
    return json.dumps(to_dict(b), separators=(",", ":"))


def save(b: Battle, path: str | Path) -> None:
    write_atomic(path, dumps(b))


def _bestiary(d: dict[str, Any]) -> Bestiary:
    b = Bestiary()
    models: dict[str, type[BaseModel]] = {
        "creatures": Creature, "weapons": Weapon, "armor": Armor, "items": Item}
    for kind, model in models.items():
        for data in d.get(kind, []):
            obj: Any = model.model_validate(data)
            getattr(b, kind)[obj.id] = obj
    return b


def from_dict(d: dict[str, Any], where: str = "save") -> Battle:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise SaveError(f"{where}: not a Wasteland battle save (no format: {FORMAT})")
    if d.get("version") != VERSION:
        raise SaveError(f"{where}: save version {d.get('version')!r}, this build reads {VERSION}")
    try:
        scenario = Scenario.model_validate(d["scenario"])
        bestiary = _bestiary(d["bestiary"])
        rs = get_ruleset(d["ruleset"])
        b = rs.new_battle(scenario, int(d["seed"]), bestiary, max_rounds=d.get("max_rounds"))
        for j in d["state"]["extra"].get("joined", []):  # newcomers, before their state
            c = rs.make_combatant(bestiary, j["creature"], len(b.combatants), j["id"],
                                  j["side"], b.grid.index(*j["at"]))
            b.add(c)
        b.restore(d["state"])
        b.history = list(d["history"])
    except ValidationError as e:
        err = e.errors()[0]
        raise SaveError(f"{where}: {'.'.join(map(str, err['loc']))}: {err['msg']}") from None
    except (KeyError, TypeError, ValueError, IndexError, WastelandError) as e:
        if isinstance(e, WastelandError):
            raise SaveError(f"{where}: {e}") from None
        raise SaveError(f"{where}: damaged save ({type(e).__name__}: {e})") from None
    b.log = []
    return b


def loads(text: str, where: str = "save") -> Battle:
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(f"{where}: not JSON (line {e.lineno}: {e.msg})") from None
    return from_dict(d, where)


def load(path: str | Path) -> Battle:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SaveError(f"{path}: cannot read: {e.strerror}") from None
    return loads(text, str(path))


def replay(ruleset: str, scenario: Scenario, seed: int, history: list[str],
           bestiary: Bestiary | None = None, max_rounds: int | None = None) -> Battle:
    """Rebuild a battle from its seed and the recorded actions ("actor: action")."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(scenario, seed, bestiary, max_rounds=max_rounds)
    for i, line in enumerate(history):
        actor, _, text = line.partition(": ")
        dec = rs.decider(b)
        if b.ids[dec.combatant] != actor:
            raise SaveError(f"history[{i}]: expected {b.ids[dec.combatant]} to act, found {actor}")
        rs.apply(b, parse_action(text, b.ids, dec.combatant))
    return b
