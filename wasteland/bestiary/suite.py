"""The seat suite's definition: benchmark seats with room, where the packet in the
creatures' seat wins 35-65% of its fights against packets, so that "agent X plays this
seat better than the packet" can come out either way (issue 24; docs/seats.md).

A seat is a scenario file, a ruleset and the creatures' side: the agent under test plays
the family's creatures there, the rest of that side and the other side are packets; a
mirror seat puts the same line-up on both sides of a reflected map and swaps sides every
other fight. This module reads and checks the suite (its file, the Seat value); the envs
register each seat as a task (envs/tasks.py) and the arena measures agents in them
(arena/suite.py), both from here, which is why it sits in the bestiary, below them.

    from wasteland.bestiary.suite import load_suite, select
    for s in select(load_suite(), family="robots", bar_only=True):
        print(s.id, s.rate, s.load().name)

The data lives in wasteland/bestiary/seats/: suite.yaml (the seats, each with its
recorded packet rate) and one tuned scenario file a seat. ``benchmarks/seat_suite.py``
tunes the line-ups (arena/tuner.py), re-measures them and prints the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from wasteland.limits import MAX_FIGHTS
from wasteland.rules.actions import MAX_COMBATANTS
from wasteland.rules.errors import WastelandError
from wasteland.rules.names import RULESETS, RulesetName

if TYPE_CHECKING:
    from wasteland.bestiary.models import Scenario

FOLDER = Path(__file__).resolve().parent / "seats"
SUITE_FILE = FOLDER / "suite.yaml"
FAMILIES: dict[str, tuple[str, ...]] = {
    "radscorpions": ("radscorpion", "young_radscorpion", "giant_radscorpion"),
    "super_mutants": ("super_mutant", "super_mutant_brute"),
    "robots": ("protectron", "mr_handy", "sentry_bot"),
    "raiders": ("raider",),
    "ghouls": ("feral_ghoul", "glowing_one"),
}
# The order the suite walks the rulesets (the tuner's plan, so suite.yaml's order and the
# tasks'): PnP, then Simple (its simplification), then 2d20, as the suite was first tuned
# and written. Only the order is the suite's; the names are rules/names.py's.
SUITE_ORDER: tuple[str, ...] = tuple(sorted(RULESETS, key=lambda r: r == "f2d20"))
SEAT_KINDS = ("built-in", "held-out", "mirror")
BAND = (0.35, 0.65)  # a seat with a bar has its packet rate in here
FIRST = 100  # the stored exact count: wins over seeds 0 .. FIRST - 1


class SuiteError(WastelandError, ValueError):
    """A broken suite file; the message is one line naming the file and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PacketRecord(_Strict):
    """The packet's results in the seat over seeds 0 .. fights - 1."""

    fights: StrictInt = Field(ge=1, le=MAX_FIGHTS)
    wins: StrictInt = Field(ge=0, le=MAX_FIGHTS)
    losses: StrictInt = Field(ge=0, le=MAX_FIGHTS)
    draws: StrictInt = Field(ge=0, le=MAX_FIGHTS)
    first100: StrictInt = Field(ge=0, le=FIRST, description="wins over seeds 0-99")


class SeatEntry(_Strict):
    id: StrictStr
    family: StrictStr
    ruleset: RulesetName
    kind: Literal["built-in", "held-out", "mirror"]
    map: StrictStr = Field(description="the map's name")
    base: StrictStr = Field(description="where the map came from: a built-in scenario's "
                                        "name or a path under wasteland/")
    scenario: StrictStr = Field(description="the tuned scenario file, in the suite's folder")
    side: StrictInt | None = Field(None, ge=0, le=MAX_COMBATANTS - 1,
                                   description="the creatures' side; none: mirror")
    change: StrictStr = Field("", description="the line-up change from the map's own")
    packet: PacketRecord
    bar: StrictBool
    note: StrictStr = ""


Share = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]


class SuiteFile(_Strict):
    fights: StrictInt = Field(ge=1, le=MAX_FIGHTS)
    band: tuple[Share, Share]
    seats: list[SeatEntry] = Field(min_length=1)


@dataclass(frozen=True)
class Seat:
    """One benchmark seat and the packet's recorded results in it."""

    id: str
    family: str
    kinds: tuple[str, ...]
    ruleset: str
    kind: str  # built-in, held-out or mirror
    map: str
    base: str
    scenario: Path
    side: int | None  # the creatures' side; None for a mirror (both sides, swapped)
    change: str
    fights: int
    wins: int
    losses: int
    draws: int
    first100: int
    bar: bool
    note: str

    @property
    def rate(self) -> float:
        return self.wins / self.fights

    def load(self) -> Scenario:
        from wasteland.bestiary.loader import load_scenario

        sc = load_scenario(self.scenario)
        if self.side is not None and self.side >= len(sc.sides):
            raise SuiteError(f"seat {self.id}: side {self.side}, but "
                             f"{self.scenario.name} has sides 0-{len(sc.sides) - 1}")
        return sc

    def sides_for(self, seed: int) -> int:
        """The side the seat's agent plays in the fight of ``seed`` (a mirror's: ``mirror_side``)."""
        return mirror_side(seed) if self.side is None else self.side


def mirror_side(seed: int) -> int:
    """The side a mirror seat's agent plays in the fight of ``seed``: 0 on even seeds, 1 on
    odd ones. By the seed, not the fight's place in a run, so that seeds cut into blocks (a
    resumed run, several workers, another --first-seed) play each fight the same."""
    return seed % 2


def _where(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _fail(path: Path, where: str, msg: str) -> SuiteError:
    return SuiteError(f"{path}: {where}: {' '.join(msg.split())}")


def parse_suite(data: Any, path: Path) -> SuiteFile:
    if not isinstance(data, dict):
        raise SuiteError(f"{path}: expected a mapping with fights, band and seats")
    try:
        return SuiteFile.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        msg = {"extra_forbidden": "unknown field", "missing": "missing required field"}.get(
            err["type"], str(err["msg"]))
        raise _fail(path, _where(err["loc"]), msg) from None


def check_entry(e: SeatEntry, i: int, band: tuple[float, float], folder: Path,
                path: Path) -> None:
    at = f"seats[{i}]"
    if e.family not in FAMILIES:
        raise _fail(path, f"{at}.family", f"unknown family {e.family!r}; known: "
                                          f"{', '.join(FAMILIES)}")
    file = folder / e.scenario
    if Path(e.scenario).name != e.scenario or not file.is_file():
        raise _fail(path, f"{at}.scenario", f"no scenario file {e.scenario!r} in {folder}")
    if (e.side is None) != (e.kind == "mirror"):
        raise _fail(path, f"{at}.side", "a mirror seat has no side (null); every other seat "
                                        "names the creatures' side")
    p = e.packet
    if p.wins + p.losses + p.draws != p.fights:
        raise _fail(path, f"{at}.packet", f"wins {p.wins} + losses {p.losses} + draws "
                                          f"{p.draws} is not fights {p.fights}")
    if p.first100 > p.wins or p.fights < FIRST:
        raise _fail(path, f"{at}.packet.first100", f"{p.first100} wins over the first "
                                                   f"{FIRST} seeds does not fit the record")
    rate = p.wins / p.fights
    if e.bar and not band[0] <= rate <= band[1]:
        raise _fail(path, f"{at}.packet", f"rate {rate:.3f} is outside the band "
                                          f"{band[0]}-{band[1]}, so the seat cannot carry a "
                                          f"bar (set bar: false and say why in note)")
    if not e.bar and not e.note:
        raise _fail(path, f"{at}.note", "a seat without a bar says why in note")


def load_suite(path: Path | str | None = None) -> tuple[Seat, ...]:
    """The seats of a suite file (default: the shipped suite), checked: every problem is
    a SuiteError naming the file and the field."""
    from wasteland.bestiary.loader import BestiaryError, read_yaml

    path = Path(path) if path is not None else SUITE_FILE
    try:
        data = read_yaml(path)
    except BestiaryError as err:
        raise SuiteError(str(err)) from None
    suite = parse_suite(data, path)
    lo, hi = suite.band
    out = []
    ids: set[str] = set()
    for i, e in enumerate(suite.seats):
        check_entry(e, i, (lo, hi), path.parent, path)
        if e.id in ids:
            raise _fail(path, f"seats[{i}].id", f"seat id {e.id!r} is used twice")
        ids.add(e.id)
        p = e.packet
        out.append(Seat(e.id, e.family, FAMILIES[e.family], e.ruleset, e.kind, e.map, e.base,
                        path.parent / e.scenario, e.side, e.change, p.fights, p.wins, p.losses,
                        p.draws, p.first100, e.bar, e.note))
    return tuple(out)


def select(seats: Iterable[Seat], family: str | None = None, ruleset: str | None = None,
           bar_only: bool = False) -> list[Seat]:
    """The seats of a family and a ruleset (None: any); with ``bar_only`` only those
    whose packet rate leaves room either way."""
    if family is not None and family not in FAMILIES:
        raise SuiteError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")
    if ruleset is not None and ruleset not in SUITE_ORDER:
        raise SuiteError(f"unknown ruleset {ruleset!r}; known: {', '.join(SUITE_ORDER)}")
    return [s for s in seats if (family is None or s.family == family)
            and (ruleset is None or s.ruleset == ruleset) and (s.bar or not bar_only)]

