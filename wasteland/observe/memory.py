"""What each combatant last saw of the others: the observation's memory (encoding.py's
``Encoder.look`` writes it, ``observe``, ``order``, fog.py's believed board and
training/belief.py read it).

A memory belongs to whoever observes a battle, not to the battle: the env holds one per
battle, a game hands one to the agents that observe for it (agents/base.py
``share_memory``), and an agent playing alone keeps its own. Encoders that must agree
(the env's and the policy agents of one game) are handed the same instance. A fork of the
battle (the search's continuations) starts from a ``copy``.

In a battle save the memory is a part the observe layer adds (rules/saves.py cannot
import this layer): ``state.extra.sightings`` as saves made before the memory left the
battle wrote it, so those load unchanged. ``dumps``/``save`` write a battle with its
memory, ``loads``/``load`` read both back, the part checked here (one line for a crafted
one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from wasteland.limits import read_file
from wasteland.rules import saves
from wasteland.rules.battle import Battle
from wasteland.rules.errors import SaveError, one_line
from wasteland.rules.savefile import write_atomic

# the save part's name, where saves have always kept it (``state.extra.sightings``)
PART: Final = saves.SIGHTINGS
# what a combatant shows to anyone who sees it: encoding.py's STATE_FEATURES has this many
SEEN_FEATURES: Final = 20


class Sighting:
    """One combatant as another last saw it: where, in which round, and what it showed
    (encoding.py's ``STATE_FEATURES``). Read-only by agreement (a copy of a memory shares
    its records). A plain class, not a NamedTuple: compiled, making one is a native call
    (two a turn in the env), where a NamedTuple's ``__new__`` runs as Python."""

    def __init__(self, square: int, round: int, state: tuple[Any, ...]) -> None:
        self.square = square
        self.round = round
        self.state = state

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Sighting) and self.square == other.square
                and self.round == other.round and self.state == other.state)

    def __hash__(self) -> int:
        return hash((self.square, self.round, self.state))

    def __repr__(self) -> str:
        return f"Sighting(square={self.square}, round={self.round}, state={self.state!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # copied and pickled with a memory (compiled it has no __dict__ to copy)
        return (Sighting, (self.square, self.round, self.state))


class Memory:
    """Per observer slot, per combatant slot: the last ``Sighting``, or None (never seen).
    ``rows`` grows as combatants join; a row shorter than the line-up reads as "never
    seen" past its end."""

    def __init__(self, rows: list[list[Sighting | None]] | None = None) -> None:
        self.rows: list[list[Sighting | None]] = rows if rows is not None else []

    def seen_by(self, me: int) -> list[Sighting | None] | None:
        """What ``me`` has seen, or None when it has seen nothing yet."""
        rows = self.rows
        return rows[me] if me < len(rows) else None

    def row(self, me: int, n: int) -> list[Sighting | None]:
        """``me``'s row to write in, every row grown to ``n`` combatants first."""
        rows = self.rows
        if me >= len(rows) or len(rows[me]) < n:
            while len(rows) < n:
                rows.append([])
            for r in rows:
                while len(r) < n:
                    r.append(None)
        return rows[me]

    def copy(self) -> Memory:
        """A memory that starts as this one and goes its own way (records are immutable,
        so the rows are all that is copied)."""
        return Memory([list(r) for r in self.rows])

    def replace(self, other: Memory) -> None:
        """Become ``other``'s copy in place, for those who hold this instance (a look
        worked out on a battle that was put back)."""
        self.rows = [list(r) for r in other.rows]

    def __reduce__(self) -> tuple[Any, ...]:
        # copied and pickled with an env (compiled it has no __dict__ to copy)
        return (Memory, (self.rows,))

    def to_json(self) -> list[list[list[Any] | None]]:
        """The save part: a list per observer of null or [square, round, [numbers]]."""
        return [[None if s is None else [s.square, s.round, list(s.state)] for s in r]
                for r in self.rows]


def from_json(seen: Any, b: Battle, where: str = "save") -> Memory:
    """The memory a save's part holds for battle ``b`` (the loaded battle); SaveError,
    one line, unless it is a list per combatant of a list per combatant of null or
    [square on the map, round up to now, 20 numbers from -1 to 1]."""
    at = f"{where}: state.extra.{PART}"
    n = len(b.combatants)
    cells = b.grid.n_cells
    ok_row = isinstance(seen, list) and len(seen) <= n
    out: list[list[Sighting | None]] = []
    for row in seen if ok_row else ():
        if not (isinstance(row, list) and len(row) <= n):
            ok_row = False
            break
        got: list[Sighting | None] = []
        for rec in row:
            if rec is None:
                got.append(None)
                continue
            good = (isinstance(rec, list) and len(rec) == 3
                    and type(rec[0]) is int and 0 <= rec[0] < cells
                    and type(rec[1]) is int and 0 <= rec[1] <= b.round
                    and isinstance(rec[2], list) and len(rec[2]) == SEEN_FEATURES
                    and all(type(x) in (int, float, bool) and -1 <= x <= 1 for x in rec[2]))
            if not good:
                raise SaveError(f"{at}: {json.dumps(rec)[:40]} is not null or [square on the "
                                f"{cells}-square map, round, {SEEN_FEATURES} numbers from -1 "
                                f"to 1]")
            got.append(Sighting(rec[0], rec[1], tuple(rec[2])))
        out.append(got)
    if not ok_row:
        raise SaveError(f"{at}: a list per combatant ({n}) of a list per combatant is "
                        f"accepted")
    return Memory(out)


def parts(memory: Memory | None) -> dict[str, Any]:
    """The save parts of ``memory`` (none for no memory, or one nobody has written to:
    a save without sightings, as before)."""
    return {PART: memory.to_json()} if memory is not None and memory.rows else {}


def dumps(b: Battle, memory: Memory | None) -> str:
    return saves.dumps(b, parts(memory))


def save(b: Battle, memory: Memory | None, path: str | Path) -> None:
    write_atomic(path, dumps(b, memory))


def from_dict(d: Any, where: str = "save") -> tuple[Battle, Memory]:
    b, got = saves.from_dict_parts(d, where)
    seen = got.get(PART)
    return b, (Memory() if seen is None else from_json(seen, b, where))


def loads(text: str, where: str = "save") -> tuple[Battle, Memory]:
    """A battle save and the memory it carries (empty when it carries none)."""
    b, got = saves.loads_parts(text, where)
    seen = got.get(PART)
    try:
        return b, (Memory() if seen is None else from_json(seen, b, where))
    except SaveError as e:
        raise SaveError(one_line(str(e))) from None


def load_part(path: str | Path, b: Battle) -> Memory:
    """The memory the save at ``path`` carries for ``b``, the battle just loaded from it
    (``rules.saves.load``), for a caller that loaded the battle on its own."""
    text = saves.decode(read_file(Path(path), "save", SaveError), Path(path))
    try:
        d = json.loads(text)
        seen = d["state"]["extra"].get(PART)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise SaveError(f"{path}: not a Wasteland battle save") from None
    try:
        return Memory() if seen is None else from_json(seen, b, str(path))
    except SaveError as e:
        raise SaveError(one_line(str(e))) from None


def load(path: str | Path) -> tuple[Battle, Memory]:
    path = Path(path)
    text = saves.decode(read_file(path, "save", SaveError), path)
    return loads(text, str(path))
