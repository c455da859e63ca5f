"""Load and cross-check the bestiary and scenario files.

Every problem becomes a BestiaryError whose one-line message names the file, the entry
and the field, and says what is accepted.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from wasteland.limits import check_yaml, read_file
from wasteland.rules.errors import WastelandError, did_you_mean
from wasteland.rules.names import RULESETS

from .models import AIPacket, Armor, Creature, Item, Scenario, Weapon

DATA = Path(__file__).parent / "data"
SCENARIOS = Path(__file__).parent / "scenarios"
KINDS: dict[str, type[BaseModel]] = {
    "weapons": Weapon,
    "armor": Armor,
    "items": Item,
    "creatures": Creature,
}
SINGULAR = {"weapons": "weapon", "armor": "armor", "items": "item", "creatures": "creature"}
M = TypeVar("M", bound=BaseModel)
# libyaml when installed: a file within the caps then loads in milliseconds
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCENARIO_NAME = re.compile(r"[a-z0-9_]+")
_UNION_TAG = re.compile(r"^[a-z][a-z_-]*\[.*\]$")  # pydantic's "literal[...]", "list[...]"


class BestiaryError(WastelandError, ValueError):
    """A bestiary or scenario file that is broken; the message is one line."""


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, str) and _UNION_TAG.match(part):
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def read_yaml(path: Path) -> Any:
    """The data of a YAML file, after the caps of wasteland/limits.py: a regular file (not
    a pipe or device) within the YAML size cap (limits.read_file), UTF-8, its
    nesting depth and its value count with aliases expanded."""
    raw = read_file(path, "yaml", BestiaryError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BestiaryError(f"{path}: not UTF-8 text (byte {e.start}: {e.reason}); "
                            f"bestiary and scenario files are UTF-8 YAML") from None
    try:
        check_yaml(text, str(path), BestiaryError)  # before anything recurses into the data
        return yaml.load(text, Loader=_LOADER)
    except BestiaryError:
        raise
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = " ".join((e.problem or "invalid YAML").split())
        raise BestiaryError(f"{path}: bad YAML{at}: {problem}") from None
    except yaml.reader.ReaderError as e:
        raise BestiaryError(f"{path}: bad YAML at character {e.position}: {e.reason}") from None
    except (yaml.YAMLError, ValueError) as e:  # ValueError: an integer of 5,000 digits
        reason = " ".join(str(e).split(";")[0].split())  # not python's advice on sys limits
        raise BestiaryError(f"{path}: bad YAML: {reason}") from None


def _models_in(tp: Any) -> list[type[BaseModel]]:
    if get_origin(tp) is None and isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for a in get_args(tp) for m in _models_in(a)]


def _accepted(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    """The field names accepted where ``loc`` (the path to an unknown field) points."""
    current = model
    for part in loc[:-1]:
        info = current.model_fields.get(str(part)) if not isinstance(part, int) else None
        nested = _models_in(info.annotation) if info is not None else []
        if nested:
            current = nested[0]
    return ", ".join(current.model_fields)


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
            msg = f"unknown field (accepted here: {_accepted(model, tuple(err['loc']))})"
        elif err["type"] == "missing":
            msg = "missing required field"
        elif err["type"] == "value_error":  # our validators' messages, without pydantic's tag
            msg = str(msg).removeprefix("Value error, ")
        msg = " ".join(str(msg).split())  # one line, whatever the validator said
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
                f"{path}: {SINGULAR[kind]} {key!r}: id: duplicate, already defined in "
                f"{self.sources[(kind, key)]}"
            )
        table[key] = entry
        self.sources[(kind, key)] = path

    def creature(self, cid: str) -> Creature:
        try:
            return self.creatures[cid]
        except KeyError:
            raise BestiaryError(
                f"unknown creature {cid!r}{did_you_mean(cid, self.creatures)}; known: "
                f"{', '.join(sorted(self.creatures))}"
            ) from None

    def check(self, rulesets: tuple[str, ...] = RULESETS) -> None:
        """Cross-references: weapons, armor, ammunition and items named by creatures, in
        every ruleset's stat block (or those of ``rulesets``: a save holds what its own
        ruleset's blocks name); a weapon named by an f2d20 or simple block needs that
        ruleset's profile, and armor named by a simple block its simple DT. The first
        problem is raised."""
        for problem in self.problems(rulesets):
            raise BestiaryError(problem)

    def problems(self, rulesets: tuple[str, ...] = RULESETS
                 ) -> Iterator[str]:
        """Each broken cross-reference (see check) as a one-line message."""
        ammo_types = {w.ammo for w in self.weapons.values() if w.ammo}
        for cid, c in self.creatures.items():
            path = self.sources[("creatures", cid)]
            where = f"{path}: creature {cid!r}"
            refs = [(f"pnp.weapons[{i}].id", r.id) for i, r in enumerate(c.pnp.weapons)]
            blocks = [("pnp", c.pnp.armor, c.pnp.ammo, c.pnp.items)]
            if c.f2d20 is not None:
                refs += [(f"f2d20.attacks[{i}].id", r.id) for i, r in enumerate(c.f2d20.attacks)]
                blocks.append(("f2d20", c.f2d20.armor, c.f2d20.ammo, c.f2d20.items))
            if c.simple is not None:
                refs += [(f"simple.weapons[{i}].id", r.id) for i, r in enumerate(c.simple.weapons)]
                blocks.append(("simple", c.simple.armor, c.simple.ammo, c.simple.items))
            refs = [r for r in refs if r[0].split(".")[0] in rulesets]
            blocks = [blk for blk in blocks if blk[0] in rulesets]
            for field_, wid in refs:
                if wid not in self.weapons:
                    yield (f"{where}: {field_}: unknown weapon {wid!r}"
                           f"{did_you_mean(wid, self.weapons)}; known: "
                           f"{', '.join(sorted(self.weapons))}")
                    continue
                ruleset = field_.split(".")[0]
                if ruleset != "pnp" and getattr(self.weapons[wid], ruleset) is None:
                    yield (f"{where}: {field_}: weapon {wid!r} has no {ruleset} "
                           f"profile ({self.sources[('weapons', wid)]})")
            for block, armor, ammo, items in blocks:
                if armor and armor not in self.armor:
                    yield (f"{where}: {block}.armor: unknown armor {armor!r}"
                           f"{did_you_mean(armor, self.armor)}; known: "
                           f"{', '.join(sorted(self.armor))}")
                elif armor and block == "simple" and self.armor[armor].simple is None:
                    yield (f"{where}: simple.armor: armor {armor!r} has no simple "
                           f"DT ({self.sources[('armor', armor)]})")
                for a in ammo:
                    if a not in ammo_types:
                        yield (f"{where}: {block}.ammo.{a}: no weapon uses ammunition "
                               f"{a!r}{did_you_mean(a, ammo_types)}; known: "
                               f"{', '.join(sorted(ammo_types))}")
                for it in items:
                    if it not in self.items:
                        yield (f"{where}: {block}.items.{it}: unknown item"
                               f"{did_you_mean(it, self.items)}; known: "
                               f"{', '.join(sorted(self.items))}")


def load_bestiary(root: Path | None = None) -> Bestiary:
    """Read every entry under ``root`` (default: the built-in data)."""
    root = Path(root) if root else DATA
    if not root.is_dir():
        raise BestiaryError(f"{root}: not a bestiary folder (expected {', '.join(KINDS)} inside)")
    b = Bestiary()
    for kind, model in KINDS.items():
        for path in sorted((root / kind).glob("*.yaml")):
            b.add(kind, parse_entry(model, read_yaml(path), path, SINGULAR[kind]), path)
    b.check()
    return b


def bestiary_problems(root: Path) -> tuple[Bestiary, list[str]]:
    """Every problem of the bestiary under ``root``, one line each, where load_bestiary
    stops at the first: each file is read on its own, then the entries that loaded are
    cross-checked. The Bestiary holds the entries that loaded."""
    if not root.is_dir():
        raise BestiaryError(f"{root}: not a bestiary folder (expected {', '.join(KINDS)} inside)")
    b = Bestiary()
    problems: list[str] = []
    for kind, model in KINDS.items():
        for path in sorted((root / kind).glob("*.yaml")):
            try:
                b.add(kind, parse_entry(model, read_yaml(path), path, SINGULAR[kind]), path)
            except BestiaryError as e:
                problems.append(str(e))
    problems += b.problems()
    return b, problems


@lru_cache(maxsize=1)
def default_bestiary() -> Bestiary:
    return load_bestiary()


def check_scenario(s: Scenario, bestiary: Bestiary, path: Path | str) -> None:
    rows = s.rows()
    # the width most rows have (the first row's on a tie) is the map's: one row made
    # wider is that row's mistake, not row 0's
    width, count = Counter(len(r) for r in rows).most_common(1)[0]
    for y, row in enumerate(rows):
        if len(row) != width:
            raise BestiaryError(
                f"{path}: scenario {s.id!r}: map row {y}: {len(row)} characters wide, but "
                f"{count} of the {len(rows)} rows are {width}; every row must be the same width"
            )
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in s.legend:
                raise BestiaryError(
                    f"{path}: scenario {s.id!r}: map row {y} column {x}: character {ch!r} "
                    f"is not in the legend ({''.join(sorted(s.legend))})"
                )
    walls = {k for k, v in s.legend.items() if v == "wall" or (isinstance(v, list) and "wall" in v)}
    seen: dict[tuple[int, int], str] = {}
    ids: set[str] = set()
    counts: dict[str, int] = {}
    for si, side in enumerate(s.sides):
        for ci, p in enumerate(side.combatants):
            where = f"{path}: scenario {s.id!r}: sides[{si}].combatants[{ci}]"
            n = counts.get(p.creature, 0)  # the id a battle gives it (see PnP.new_battle)
            counts[p.creature] = n + 1
            cid = p.id or f"{p.creature}_{n}"
            if cid in ids:
                raise BestiaryError(f"{where}.id: combatant id {cid!r} is used twice")
            ids.add(cid)
            if p.creature not in bestiary.creatures:
                raise BestiaryError(
                    f"{where}.creature: unknown creature {p.creature!r}"
                    f"{did_you_mean(p.creature, bestiary.creatures)}; known: "
                    f"{', '.join(sorted(bestiary.creatures))}"
                )
            if p.ai:
                try:
                    AIPacket.model_validate({**bestiary.creatures[p.creature].ai.model_dump(),
                                             **p.ai})
                except ValidationError as e:
                    err = e.errors()[0]
                    raise BestiaryError(f"{where}.ai.{_where(err['loc'])}: {err['msg']}; see "
                                        f"the AI packet fields in the creature schema") from None
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
    problem = reach_problem(s)
    if problem:
        raise BestiaryError(f"{path}: scenario {s.id!r}: sides: {problem}")


def reach_problem(s: Scenario) -> str | None:
    """Why some side of ``s`` can never fight: walls close every way to every other side
    and no one sees across (the fight would run to max_rounds as a draw), or None."""
    from wasteland.rules.grid import grid_for

    legend: dict[str, list[str]] = {k: list(v) if isinstance(v, list) else [v]
                                    for k, v in s.legend.items()}
    g = grid_for(s.rows(), legend)
    cells = [[g.index(*p.at) for p in side.combatants] for side in s.sides]

    def meet(a: list[int], b: list[int]) -> bool:
        n = g.n_cells
        return any(g.walk_distances(y)[x] <= n or g.los(x, y) for x in a for y in b)

    for i, mine in enumerate(cells):
        if not any(meet(mine, theirs) for j, theirs in enumerate(cells) if j != i):
            return (f"side {s.sides[i].name!r} cannot reach any other side: walls close every "
                    f"way between them and no one sees across, so nobody could ever be hurt")
    return None


def looks_like_path(name: str) -> bool:
    """A scenario argument is a file path only when it says so: a folder separator or a
    .yaml/.yml ending. Anything else is a built-in name, never joined onto a folder."""
    return ("/" in name or os.sep in name or bool(os.altsep and os.altsep in name)
            or name.lower().endswith((".yaml", ".yml")))


def load_scenario(name_or_path: str | Path, bestiary: Bestiary | None = None) -> Scenario:
    """A built-in scenario by name (``[a-z0-9_]+``), or a scenario file by path (a Path, or
    a string that looks like one); a path is read as given."""
    bestiary = bestiary or default_bestiary()
    if isinstance(name_or_path, Path) or looks_like_path(name_or_path):
        path = Path(name_or_path)
    else:
        names = scenario_names()
        if not (_SCENARIO_NAME.fullmatch(name_or_path) and name_or_path in names):
            raise BestiaryError(
                f"unknown scenario {name_or_path!r}{did_you_mean(name_or_path, names)}; "
                f"built-in: {', '.join(names)} "
                f"(or the path of a scenario file, ending in .yaml)")
        path = SCENARIOS / f"{name_or_path}.yaml"
    s = parse_entry(Scenario, read_yaml(path), path, "scenario")
    check_scenario(s, bestiary, path)
    return resolve_agents(s, path)


def resolve_agents(s: Scenario, path: Path) -> Scenario:
    """The scenario with each side's ``policy:`` agent checked: a shipped policy's name, or
    the path of a NAME.npz (with NAME.json beside it) relative to the scenario file, made
    absolute so that the agent is found from anywhere (and in a save)."""
    from .models import AGENT_CHOICES

    sides = list(s.sides)
    for i, side in enumerate(sides):
        if side.agent is None or not side.agent.startswith("policy:"):
            continue
        where = f"{path}: scenario {s.id!r}: sides[{i}].agent"
        name = side.agent[len("policy:"):]
        if "/" in name or os.sep in name or name.endswith((".npz", ".json")):
            p = Path(os.path.abspath(path.parent / name))  # an absolute name stays as it is
            stem = p.with_suffix("") if p.suffix in (".npz", ".json") else p
            missing = [f for f in (stem.with_suffix(".npz"), stem.with_suffix(".json"))
                       if not f.is_file()]
            if missing:
                raise BestiaryError(f"{where}: no policy file {missing[0]}; accepted: "
                                    f"{AGENT_CHOICES}")
            sides[i] = side.model_copy(update={"agent": f"policy:{stem.with_suffix('.npz')}"})
        else:
            from wasteland.policies import shipped_names

            if name not in shipped_names():
                raise BestiaryError(
                    f"{where}: unknown policy {name!r}; shipped policies: "
                    f"{', '.join(shipped_names()) or 'none'}; accepted: {AGENT_CHOICES}")
    return s if sides == list(s.sides) else s.model_copy(update={"sides": sides})


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.yaml"))
