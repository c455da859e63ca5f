"""Saving a battle to JSON and loading it back, and replaying a fight from its seed.

A save carries everything needed to continue the fight exactly, without the bestiary
files that made it: the scenario and every creature, weapon, armor and item used, the
seed, the history (every action, the faces of dice rolled at the table, newcomers), the
state (including the RNG), the log, and the session that ran it (command, options,
agents' random state).

Loading trusts nothing in the file: the schema (rules/savemodel.py) types and bounds every
field, the scenario and bestiary entries are checked as if they were files, the state is
checked against the map, and then the history is replayed from the seed; the replay must
reach the saved state and log exactly. The loaded battle is the replayed one, so its log
is the whole fight's.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from wasteland.bestiary.loader import Bestiary, check_scenario, parse_entry
from wasteland.bestiary.models import Armor, Creature, Item, Scenario, Weapon
from wasteland.limits import MAX_SAVE_BYTES, check_json_nesting, read_file

from .actions import MAX_COMBATANTS, parse_action
from .battle import ACTIVE, Battle
from .edits import apply_edit
from .errors import SaveError, WastelandError, one_line
from .names import RULESETS
from .protocol import Ruleset
from .rollnotes import LEGACY
from .rulesets import get_ruleset
from .savefile import write_atomic
from .savemodel import SaveFile
from .setup import scenario_ids

FORMAT = "wasteland-battle"
VERSION = 2


def to_dict(b: Battle, parts: dict[str, Any] | None = None) -> dict[str, Any]:
    """The save of ``b``; ``parts``: what a higher layer keeps with it, by a name of
    ``PARTS`` (observe/memory.py's sightings), written into ``state.extra``."""
    state = b.state()
    for name, part in (parts or {}).items():
        assert name in PARTS, f"{name!r} is not a save part"
        state["extra"][name] = part
    creatures = {c.creature.id: c.creature for c in b.combatants}
    weapons = {w.id: w for c in b.combatants for w in c.weapons}
    armor = {c.armor.id: c.armor for c in b.combatants if c.armor}
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": b.ruleset,
        "seed": b.seed,
        **({"session": b.session} if b.session else {}),
        "scenario": b.scenario.model_dump(mode="json"),
        "bestiary": {
            "creatures": [x.model_dump(mode="json") for x in creatures.values()],
            "weapons": [x.model_dump(mode="json") for x in weapons.values()],
            "armor": [x.model_dump(mode="json") for x in armor.values()],
            "items": [x.model_dump(mode="json") for x in b.items.values()],
        },
        "max_rounds": b.max_rounds or None,
        "history": list(b.history),
        "state": state,
        "log": [e.text() for e in b.log],
    }


def beginning(b: Battle) -> dict[str, Any]:
    """What the battle began from, as a save has it: ruleset, seed, scenario, bestiary,
    round limit; ``replay_beginning`` with its history rebuilds it (the agent protocol's
    ``start`` carries this, so that a program can keep its own copy of the battle)."""
    d = to_dict(b)
    return {k: d[k] for k in ("ruleset", "seed", "scenario", "bestiary", "max_rounds")}


def replay_beginning(d: dict[str, Any], history: list[str], where: str = "battle") -> Battle:
    """The battle ``beginning`` describes, with ``history`` replayed; SaveError (one
    line) if the entries or the history do not check."""
    try:
        scenario = parse_entry(Scenario, d["scenario"], f"{where}: scenario", "scenario")
        bestiary = _bestiary(d["bestiary"], where, str(d["ruleset"]))
        check_scenario(scenario, bestiary, f"{where}: scenario")
        max_rounds = d.get("max_rounds")
        return replay(str(d["ruleset"]), scenario, int(d["seed"]), history, bestiary,
                      max_rounds if isinstance(max_rounds, int) else None, where)
    except (KeyError, TypeError, ValueError) as e:
        raise SaveError(f"{where}: not a battle's beginning ({type(e).__name__}: {e})") from None
    except WastelandError as e:
        raise SaveError(str(e)) from None


def rewind(b: Battle, history: list[str]) -> Battle:
    """``b`` replayed from its seed up to ``history`` (a prefix of its own), with its
    session and dice hook: how an undo or an interrupted action is taken back."""
    back = replay(b.ruleset, b.scenario, b.seed, history, bestiary_of(b),
                  b.max_rounds or None)
    back.session, back.dice_hook = b.session, b.dice_hook
    return back


def bestiary_of(b: Battle) -> Bestiary:
    """The entries a battle was built from (what its save carries)."""
    return _bestiary(to_dict(b)["bestiary"], "battle", b.ruleset)


def dumps(b: Battle, parts: dict[str, Any] | None = None) -> str:
    return json.dumps(to_dict(b, parts), separators=(",", ":"))


def save(b: Battle, path: str | Path, parts: dict[str, Any] | None = None) -> None:
    write_atomic(path, dumps(b, parts))


# --- loading ------------------------------------------------------------------------------
def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not str(part).startswith(("literal[", "tuple[", "list[", "int", "str", "dict[")):
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def _bestiary(d: dict[str, Any], where: str, ruleset: str) -> Bestiary:
    """The bestiary a save carries: the entries its fight used, whose stat blocks for its
    own ruleset name only entries it carries (another ruleset's blocks may name more)."""
    b = Bestiary()
    models: dict[str, type[BaseModel]] = {
        "creatures": Creature, "weapons": Weapon, "armor": Armor, "items": Item}
    src = Path(f"{where}: bestiary")
    for kind, model in models.items():
        for i, data in enumerate(d[kind]):
            if kind == "creatures" and isinstance(data, dict) and "first_aid" not in data:
                # saved before the bestiary said who gives first aid, when anyone with a
                # free hand could: such a fight replays, and goes on, as it was played
                data = {**data, "first_aid": True}
            obj: Any = parse_entry(model, data, f"{where}: bestiary.{kind}[{i}]", kind)
            b.add(kind, obj, src)
    b.check((ruleset,) if ruleset in RULESETS else RULESETS)
    return b


def _check_state(d: SaveFile, scenario: Scenario, where: str) -> None:
    """What the schema cannot see: squares on the map and free, HP under the maximum, the
    right number of combatants and weapons, turn order made of them."""
    rows = scenario.rows()
    width, height = len(rows[0]), len(rows)
    st = d.state
    n = sum(len(s.combatants) for s in scenario.sides)
    n += sum(1 for h in d.history if h.startswith("@join "))
    if len(st.combatants) != n or n > MAX_COMBATANTS:
        raise SaveError(f"{where}: state.combatants: {len(st.combatants)} combatants, but the "
                        f"scenario and newcomers place {n} (at most {MAX_COMBATANTS})")
    walls = {k for k, v in scenario.legend.items() if v == "wall" or
             (isinstance(v, list) and "wall" in v)}
    taken: dict[int, int] = {}
    for i, c in enumerate(st.combatants):
        at = f"{where}: state.combatants[{i}]"
        if c.pos >= width * height:
            raise SaveError(f"{at}.pos: square {c.pos} is off the {width}x{height} map")
        if c.hp > c.max_hp:
            raise SaveError(f"{at}.hp: {c.hp} is over its maximum {c.max_hp}")
        if c.status == ACTIVE:
            if c.hp < 0:
                raise SaveError(f"{at}.hp: {c.hp} while active; an active combatant has HP >= 0")
            x, y = c.pos % width, c.pos // width
            if rows[y][x] in walls:
                raise SaveError(f"{at}.pos: ({x}, {y}) is a wall")
            if c.pos in taken:
                raise SaveError(f"{at}.pos: ({x}, {y}) is also where combatant {taken[c.pos]} "
                                f"stands")
            taken[c.pos] = i
    if any(s >= len(st.combatants) for s in st.order):
        raise SaveError(f"{where}: state.order: names a combatant that does not exist")
    if st.turn > len(st.order):  # equal once the last turn of a round (or fight) is done
        raise SaveError(f"{where}: state.turn: {st.turn}, but the turn order has "
                        f"{len(st.order)} entries")
    if st.winner is not None and st.winner >= len(scenario.sides):
        raise SaveError(f"{where}: state.winner: side {st.winner} does not exist")


# what a higher layer keeps in a save beside the battle, in ``state.extra`` under these
# names: the observation's memory (observe/memory.py, which checks it), where saves made
# while it lived in the battle have it. No rule makes a part, so the replay cannot check
# it: loading hands it back as read (``from_dict_parts``)
SIGHTINGS = "sightings"
PARTS = (SIGHTINGS,)


def _check_ruleset(f: SaveFile, scenario: Scenario, bestiary: Bestiary, where: str) -> None:
    """A state made under another ruleset (a save whose "ruleset" was edited) is named as
    such: each ruleset's battles carry their own bookkeeping from the first round."""
    saved = set(f.state.extra)
    marks: dict[str, set[str]] = {}
    for name in RULESETS:
        try:
            marks[name] = set(get_ruleset(name).new_battle(scenario, f.seed, bestiary).extra_json())
        except (WastelandError, KeyError):  # no stat block for it, or one naming entries
            # the save does not carry (it holds what its own ruleset used): not this one
            continue
    fits = [name for name, keys in marks.items() if keys <= saved]
    best = max(fits, key=lambda name: len(marks[name]), default=None)
    if best != f.ruleset:
        made = f"a {best} battle's" if best else "no ruleset's"
        raise SaveError(f"{where}: ruleset: {f.ruleset!r}, but the state is {made}; "
                        f"was the ruleset edited?")


def _first_difference(a: Any, b: Any, path: str) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {_short(a)} in the file, {_short(b)} by replaying the history"


def _short(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


def from_dict(d: Any, where: str = "save") -> Battle:
    return from_dict_parts(d, where)[0]


def from_dict_parts(d: Any, where: str = "save") -> tuple[Battle, dict[str, Any]]:
    """The battle a save holds, and its parts (``PARTS``) as read, unchecked: the layer
    that wrote a part checks it."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise SaveError(f"{where}: not a Wasteland battle save (no format: {FORMAT})")
    if d.get("version") not in (1, VERSION):
        raise SaveError(f"{where}: save version {d.get('version')!r}, this build reads 1 and "
                        f"{VERSION}")
    try:
        f = SaveFile.model_validate(d)
    except ValidationError as e:
        err = e.errors()[0]
        more = f" (and {len(e.errors()) - 1} more)" if len(e.errors()) > 1 else ""
        msg = " ".join(str(err["msg"]).split())
        raise SaveError(f"{where}: {_loc(tuple(err['loc']))}: {msg}{more}") from None
    if f.ruleset not in RULESETS:
        raise SaveError(f"{where}: ruleset: unknown ruleset {f.ruleset!r}; available: "
                        f"{', '.join(RULESETS)}")
    try:
        scenario = parse_entry(Scenario, f.scenario, f"{where}: scenario", "scenario")
        bestiary = _bestiary(d["bestiary"], where, f.ruleset)
        check_scenario(scenario, bestiary, f"{where}: scenario")
    except WastelandError as e:
        raise SaveError(str(e)) from None
    _check_state(f, scenario, where)
    _check_ruleset(f, scenario, bestiary, where)
    b = replay(f.ruleset, scenario, f.seed, f.history, bestiary, f.max_rounds, where)
    replayed = json.loads(json.dumps(b.state()))
    parts = {name: f.state.extra[name] for name in PARTS
             if f.state.extra.get(name) is not None}
    replayed["extra"].update(parts)
    if replayed != d["state"]:
        raise SaveError(f"{where}: {_first_difference(d['state'], replayed, 'state')}")
    if f.log:
        texts = [e.text() for e in b.log]
        if texts != f.log:
            i = next((i for i, (x, y) in enumerate(zip(f.log, texts)) if x != y),
                     min(len(f.log), len(texts)))
            raise SaveError(f"{where}: log[{i}]: differs from the replayed fight "
                            f"({len(f.log)} lines in the file, {len(texts)} replayed)")
    b.session = f.session.model_dump() if f.session else {}
    return b, parts


def loads(text: str, where: str = "save") -> Battle:
    return loads_parts(text, where)[0]


def loads_parts(text: str, where: str = "save") -> tuple[Battle, dict[str, Any]]:
    if len(text) > MAX_SAVE_BYTES:
        raise SaveError(f"{where}: {len(text)} characters; a save is at most {MAX_SAVE_BYTES}")
    check_json_nesting(text, where, SaveError)
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(f"{where}: not JSON (line {e.lineno}: {e.msg})") from None
    except ValueError:  # a number of thousands of digits
        raise SaveError(f"{where}: not a Wasteland save (a number too long to read)") from None
    except RecursionError:
        raise SaveError(f"{where}: nested too deep; not a Wasteland save") from None
    try:
        return from_dict_parts(d, where)
    except SaveError as e:
        raise SaveError(one_line(str(e))) from None


def load(path: str | Path) -> Battle:
    path = Path(path)
    return loads(decode(read_file(path, "save", SaveError), path), str(path))


def decode(data: bytes, path: Path) -> str:
    """A save file's text; one line when it is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveError(f"{path}: not a Wasteland save (not UTF-8 text at byte {e.start})") from None


# --- replaying ----------------------------------------------------------------------------
def _parse_dice(line: str, where: str) -> tuple[str, int, int, str, list[int]]:
    """'@dice ted 3d6 4 6 5 (why)' -> (who, sides, n, why, faces)."""
    head, _, why = line.partition(" (")
    parts = head.split()
    try:
        n_s, sides_s = parts[2].split("d")
        n, sides = int(n_s), int(sides_s)
        faces = [int(x) for x in parts[3:]]
    except (IndexError, ValueError):
        raise SaveError(f"{where}: not a dice entry (expected '@dice WHO NdS FACES... (WHY)')"
                        ) from None
    if not (1 <= n <= 100 and 2 <= sides <= 1000 and len(faces) == n
            and all(1 <= x <= sides for x in faces) and why.endswith(")")):
        raise SaveError(f"{where}: dice entry {line[:60]!r}: need N faces from 1 to S")
    return parts[1], sides, n, why[:-1], faces


def _apply_join(b: Battle, line: str, bestiary: Bestiary | None, where: str) -> None:
    from .newcomers import join

    parts = line.split()
    if len(parts) != 6 or not all(p.lstrip("-").isdigit() for p in parts[3:]):
        raise SaveError(f"{where}: not a newcomer entry (expected '@join ID CREATURE X Y SIDE')")
    join(b, parts[2], (int(parts[3]), int(parts[4])), int(parts[5]), parts[1], bestiary)


def replay(ruleset: str | Ruleset, scenario: Scenario, seed: int, history: list[str],
           bestiary: Bestiary | None = None, max_rounds: int | None = None,
           where: str = "replay") -> Battle:
    """Rebuild a battle from its seed and its history: actions ("actor: action"), the
    faces of dice rolled at the table ("@dice ..."), newcomers ("@join ...")."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    pending: deque[tuple[str, int, int, str, list[int]]] = deque()
    # dice rolled at the table before the first action (a GM's initiative rolls) come first
    i = 0
    while i < len(history) and history[i].startswith("@dice "):
        pending.append(_parse_dice(history[i], f"{where}: history[{i}]"))
        i += 1
    ids = scenario_ids(scenario)  # the battle's ids, until it exists to ask
    made: list[Battle] = []

    def table_dice(who: int, sides: int, n: int, why: str) -> list[int] | None:
        name = "-" if who < 0 else (made[0].ids if made else ids)[who]
        if pending and pending[0][:4] in ((name, sides, n, why),
                                          (name, sides, n, LEGACY.get(why, why))):
            return pending.popleft()[4]
        return None

    try:
        b = rs.new_battle(scenario, seed, bestiary, max_rounds=max_rounds, dice_hook=table_dice)
    except WastelandError as e:
        raise SaveError(f"{where}: {e}") from None
    made.append(b)
    if pending:
        raise SaveError(f"{where}: history[0]: {len(pending)} table dice were never asked for "
                        f"({pending[0][3]})")
    try:
        while i < len(history):
            line = history[i]
            at = f"{where}: history[{i}]"
            j = i + 1
            while j < len(history) and history[j].startswith("@dice "):
                pending.append(_parse_dice(history[j], f"{where}: history[{j}]"))
                j += 1
            try:
                if line.startswith("@join "):
                    _apply_join(b, line, bestiary, at)
                elif line.startswith("@gm "):
                    apply_edit(b, rs, line[4:])
                elif line.startswith("@"):
                    raise SaveError(f"{at}: {line.split()[0]!r} is not a history entry "
                                    f"(accepted: actions, @dice after them, @join, @gm)")
                else:
                    actor, _, text = line.partition(": ")
                    if b.over:
                        raise SaveError(f"{at}: the fight was already over")
                    dec = rs.decider(b)
                    if b.ids[dec.combatant] != actor:
                        raise SaveError(f"{at}: expected {b.ids[dec.combatant]} to act, "
                                        f"found {actor}")
                    rs.apply(b, parse_action(text, b.ids, dec.combatant))
            except SaveError:
                raise
            except WastelandError as e:
                raise SaveError(f"{at}: {e}") from None
            if pending:
                raise SaveError(f"{at}: {len(pending)} table dice were never asked for "
                                f"({pending[0][3]})")
            i = j
    except (KeyError, IndexError, TypeError, ValueError, RecursionError) as e:
        if isinstance(e, WastelandError):
            raise
        raise SaveError(f"{where}: history[{i}]: damaged save ({type(e).__name__})") from None
    finally:
        b.dice_hook = None
    return b
