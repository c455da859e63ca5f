"""Load and cross-check the bestiary and scenario files.

Every problem becomes a BestiaryError whose one-line message names the file, the entry
and the field, and says what is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from wasteland.rules.errors import WastelandError

from .models import Armor, Creature, Item, Scenario, Weapon

DATA = Path(__file__).parent / "data"
SCENARIOS = Path(__file__).parent / "scenarios"
KINDS: dict[str, type[BaseModel]] = {
    "weapons": Weapon,
    "armor": Armor,
    "items": Item,
    "creatures": Creature,
}
M = TypeVar("M", bound=BaseModel)


class BestiaryError(WastelandError, ValueError):
    """A bestiary or scenario file that is broken; the message is one line."""


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise BestiaryError(f"{path}: cannot read: {e.strerror}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or "invalid YAML"
        raise BestiaryError(f"{path}: bad YAML{at}: {problem}") from None


def parse_entry(model: type[M], data: Any, path: Path | str, kind: str) -> M:
    if not isinstance(data, dict):
        raise BestiaryError(f"{path}: expected a mapping of fields for a {kind} entry")
    entry = data.get("id", "?")
    try:
        return model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        more = f" (and {len(e.errors()) - 1} more)" if len(e.errors()) > 1 else ""
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            fields = ", ".join(model.model_fields)
            msg = f"unknown field (accepted here: see the schema; top-level fields: {fields})"
        elif err["type"] == "missing":
            msg = "missing required field"
        raise BestiaryError(f"{path}: {kind} {entry!r}: {_where(err['loc'])}: {msg}{more}") from None


@dataclass
class Bestiary:
    weapons: dict[str, Weapon] = field(default_factory=dict)
    armor: dict[str, Armor] = field(default_factory=dict)
    items: dict[str, Item] = field(default_factory=dict)
    creatures: dict[str, Creature] = field(default_factory=dict)
    sources: dict[tuple[str, str], Path] = field(default_factory=dict)

    def add(self, kind: str, entry: BaseModel, path: Path) -> None:
        table: dict = getattr(self, kind)
        key = entry.id  # type: ignore[attr-defined]
        if key in table:
            raise BestiaryError(
                f"{path}: {kind[:-1]} {key!r}: id: duplicate, already defined in "
                f"{self.sources[(kind, key)]}"
            )
        table[key] = entry
        self.sources[(kind, key)] = path

    def creature(self, cid: str) -> Creature:
        try:
            return self.creatures[cid]
        except KeyError:
            raise BestiaryError(
                f"unknown creature {cid!r}; known: {', '.join(sorted(self.creatures))}"
            ) from None

    def check(self) -> None:
        """Cross-references: weapons, armor, ammunition and items named by creatures."""
        ammo_types = {w.ammo for w in self.weapons.values() if w.ammo}
        for cid, c in self.creatures.items():
            path = self.sources[("creatures", cid)]
            for i, ref in enumerate(c.pnp.weapons):
                if ref.id not in self.weapons:
                    raise BestiaryError(
                        f"{path}: creature {cid!r}: pnp.weapons[{i}].id: unknown weapon "
                        f"{ref.id!r}; known: {', '.join(sorted(self.weapons))}"
                    )
            if c.pnp.armor and c.pnp.armor not in self.armor:
                raise BestiaryError(
                    f"{path}: creature {cid!r}: pnp.armor: unknown armor {c.pnp.armor!r}; "
                    f"known: {', '.join(sorted(self.armor))}"
                )
            for a in c.pnp.ammo:
                if a not in ammo_types:
                    raise BestiaryError(
                        f"{path}: creature {cid!r}: pnp.ammo.{a}: no weapon uses ammunition "
                        f"{a!r}; known: {', '.join(sorted(ammo_types))}"
                    )
            for it in c.pnp.items:
                if it not in self.items:
                    raise BestiaryError(
                        f"{path}: creature {cid!r}: pnp.items.{it}: unknown item; known: "
                        f"{', '.join(sorted(self.items))}"
                    )


def load_bestiary(root: Path | None = None) -> Bestiary:
    """Read every entry under ``root`` (default: the built-in data)."""
    root = Path(root) if root else DATA
    if not root.is_dir():
        raise BestiaryError(f"{root}: not a bestiary folder (expected {', '.join(KINDS)} inside)")
    b = Bestiary()
    for kind, model in KINDS.items():
        for path in sorted((root / kind).glob("*.yaml")):
            b.add(kind, parse_entry(model, read_yaml(path), path, kind[:-1]), path)
    b.check()
    return b


@lru_cache(maxsize=1)
def default_bestiary() -> Bestiary:
    return load_bestiary()


def check_scenario(s: Scenario, bestiary: Bestiary, path: Path | str) -> None:
    rows = s.rows()
    width = max(len(r) for r in rows)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in s.legend:
                raise BestiaryError(
                    f"{path}: scenario {s.id!r}: map row {y} column {x}: character {ch!r} "
                    f"is not in the legend ({''.join(sorted(s.legend))})"
                )
    walls = {k for k, v in s.legend.items() if v == "wall" or (isinstance(v, list) and "wall" in v)}
    seen: dict[tuple[int, int], str] = {}
    for si, side in enumerate(s.sides):
        for ci, p in enumerate(side.combatants):
            where = f"{path}: scenario {s.id!r}: sides[{si}].combatants[{ci}]"
            if p.creature not in bestiary.creatures:
                raise BestiaryError(
                    f"{where}.creature: unknown creature {p.creature!r}; known: "
                    f"{', '.join(sorted(bestiary.creatures))}"
                )
            x, y = p.at
            if not (0 <= y < len(rows) and 0 <= x < width):
                raise BestiaryError(f"{where}.at: {list(p.at)} is off the {width}x{len(rows)} map")
            if x < len(rows[y]) and rows[y][x] in walls:
                raise BestiaryError(f"{where}.at: {list(p.at)} is a wall")
            if p.at in seen:
                raise BestiaryError(f"{where}.at: {list(p.at)} is already taken by {seen[p.at]}")
            seen[p.at] = p.creature
    n = sum(len(side.combatants) for side in s.sides)
    from wasteland.rules.actions import MAX_COMBATANTS

    if n > MAX_COMBATANTS:
        raise BestiaryError(f"{path}: scenario {s.id!r}: sides: {n} combatants, at most {MAX_COMBATANTS}")


def load_scenario(name_or_path: str | Path, bestiary: Bestiary | None = None) -> Scenario:
    """A built-in scenario by name, or a scenario file by path."""
    bestiary = bestiary or default_bestiary()
    path = Path(name_or_path)
    if not path.suffix:
        path = SCENARIOS / f"{name_or_path}.yaml"
        if not path.exists():
            raise BestiaryError(
                f"unknown scenario {str(name_or_path)!r}; built-in: {', '.join(scenario_names())}"
            )
    s = parse_entry(Scenario, read_yaml(path), path, "scenario")
    check_scenario(s, bestiary, path)
    return s


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.yaml"))
