"""What benchmarks/benchmark_table.py reads: its results files and policy_seats.py's sweeps,
checked whole before anything is played or written (issue 39, item 4).

The page docs/benchmark.md is written from these files and a results file may come from
someone else, so every value that reaches the page is an id (agents, seats, families,
algorithms) or a number checked here: counts are whole, never negative, wins never more
than fights, rates finite and within 0..1. A file is read with the shared caps
(wasteland.limits: regular files only, MAX_FILE_BYTES["results"], depth, huge integers,
NaN and Infinity refused), and any problem is one line naming the file, the field and
what is accepted. Checked files are used as they were read (not dumped from the models),
so a file written by an older version keeps its fields as they are.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from wasteland.bestiary.models import Id
from wasteland.limits import load_json, read_text
from wasteland.rules.errors import WastelandError, one_line
from wasteland.rules.names import RulesetName

MAX_FIGHTS = 100_000
# a manifest's counts (training.py's manifest_count reads past 1e12 as 0)
MAX_TRAINING = 1e12
MAX_SECONDS = 1e9
MAX_SPEC = 1000


class ResultsError(WastelandError, ValueError):
    """A results or sweep file benchmark_table cannot use; the message is one line."""


def _line(v: str) -> str:
    if not v or len(v) > MAX_SPEC or not v.isprintable():
        raise ValueError(f"one printable line of 1 to {MAX_SPEC} characters is accepted")
    return v


def _seed_zero(v: int) -> int:
    if v != 0:
        raise ValueError(f"first_seed {v}: the table's rows are seeds 0..N-1, so only 0 is "
                         f"accepted")
    return v


Line = Annotated[StrictStr, AfterValidator(_line)]
Fights = Annotated[StrictInt, Field(ge=1, le=MAX_FIGHTS)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_FIGHTS)]
Rate = Annotated[float, Field(ge=0.0, le=1.0)]
Interval = Annotated[list[Rate], Field(min_length=2, max_length=2)]
Difference = Annotated[float, Field(ge=-1.0, le=1.0)]
Seconds = Annotated[float, Field(ge=0.0, le=MAX_SECONDS)]
Amount = Annotated[float, Field(ge=0.0, le=MAX_TRAINING)]
Seed = Annotated[StrictInt, Field(ge=-2**63, le=2**63 - 1)]
# a partial seat's key in a results file: "AGENT|SEAT", both ids, so the `|` is unambiguous
PartialKey = Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9_-]{1,64}\|[A-Za-z0-9_-]{1,64}$")]
BlockKey = Annotated[StrictStr, Field(pattern=r"^[0-9]{1,6}$")]


class Strict(BaseModel):
    # strict: a boolean or a string never passes as a number, a float never as a count
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False,
                              populate_by_name=True)


class Counts(Strict):
    fights: Fights
    wins: Count
    losses: Count
    draws: Count

    @model_validator(mode="after")
    def _adds_up(self) -> Counts:
        if self.wins + self.losses + self.draws != self.fights:
            raise ValueError(f"wins {self.wins} + losses {self.losses} + draws {self.draws} "
                             f"must equal fights {self.fights}")
        return self


class Rated(Counts):
    """Counts with the win rate and Wilson interval they were printed with."""

    win_rate: Rate
    wilson95: Interval

    @model_validator(mode="after")
    def _rate_matches(self) -> Rated:
        # written rounded to 4 places (Record.as_dict)
        if abs(self.win_rate - self.wins / self.fights) > 6e-5:
            raise ValueError(f"win_rate {self.win_rate} is not wins / fights "
                             f"({self.wins / self.fights:.4f})")
        if self.wilson95[0] > self.wilson95[1]:
            raise ValueError("wilson95 must be [low, high] with low <= high")
        return self


class Training(Strict):
    algorithm: Id
    seed: Seed | None
    steps: Amount
    wall_s: Amount
    labels: Amount = 0


class Row(Counts):
    agent: Id
    # the agent as `run` played it; not printed on the page
    spec: Line | None = None
    test: Literal["seat", "unseen", "mirror"]
    seat: Id
    first_seed: Annotated[StrictInt, AfterValidator(_seed_zero)] = 0
    win_rate: Rate | None = None
    wilson95: Interval | None = None
    seconds: Seconds | None = None
    training: Training | None = None

    @model_validator(mode="after")
    def _rate_matches(self) -> Row:
        if self.win_rate is not None and abs(self.win_rate - self.wins / self.fights) > 6e-5:
            raise ValueError(f"win_rate {self.win_rate} is not wins / fights "
                             f"({self.wins / self.fights:.4f})")
        return self


class Block(Counts):
    pass


class Partial(Strict):
    spec: Line
    fights: Fights
    seconds: Seconds = 0.0
    blocks: dict[BlockKey, Block]


class Results(Strict):
    family: Id
    ruleset: RulesetName
    rows: list[Row]
    partial: dict[PartialKey, Partial] = {}

    @model_validator(mode="after")
    def _one_row_each(self) -> Results:
        seen: set[tuple[str, str, str]] = set()
        for i, r in enumerate(self.rows):
            key = (r.agent, r.test, r.seat)
            if key in seen:
                raise ValueError(f"rows[{i}]: a second row of {r.agent} in {r.test} "
                                 f"{r.seat}; one row per agent and seat is accepted")
            seen.add(key)
        return self


class SeatResult(Strict):
    scenario: Id
    policy: Rated
    packet: Rated
    difference: Difference
    difference95: Annotated[list[Difference], Field(min_length=2, max_length=2)]
    passed: StrictBool = Field(alias="pass")
    seconds: Seconds


class MirrorArena(Rated):
    # the arena's map as text (lines); not used by the table
    arena: StrictStr


class Mirror(Rated):
    arena: Line
    decided: Count
    decided_win_rate: Rate | None
    decided95: Interval
    passed: StrictBool = Field(alias="pass")


class Sweep(Strict):
    """The JSON line benchmarks/policy_seats.py prints per policy (older sweeps lack
    ``seats`` and ``first_seed``)."""

    policy: Line
    ruleset: RulesetName
    fights: Fights
    seats: Literal["suite", "maps"] = "suite"
    first_seed: Annotated[StrictInt, Field(ge=0, le=2**31 - 1)] = 0
    seat: list[SeatResult]
    unseen: list[SeatResult]
    mirror: list[Mirror]
    mirror_arenas: list[MirrorArena] = []
    # the verdict; not used by the table
    passed: StrictBool = Field(True, alias="pass")

    @model_validator(mode="after")
    def _same_seeds(self) -> Sweep:
        for test in ("seat", "unseen"):
            for i, s in enumerate(getattr(self, test)):
                if s.policy.fights != self.fights or s.packet.fights != self.fights:
                    raise ValueError(f"{test}[{i}]: the policy and the packet must each play "
                                     f"the sweep's {self.fights} fights")
        return self


class SearchRow(Strict):
    """One seat of benchmarks/search.py's --json: the agent's and the packet's shares of
    the same fights (seeds first_seed..), and how many of the agent's were decided; its
    timing fields are not used by the table."""

    model_config = ConfigDict(extra="ignore", strict=True, allow_inf_nan=False)
    seat: Id
    fights: Fights
    packet: Rate
    agent: Rate
    decided: Count
    mirror: StrictBool = False

    @model_validator(mode="after")
    def _counts(self) -> SearchRow:
        for who in ("agent", "packet"):
            n = getattr(self, who) * self.fights
            if abs(n - round(n)) > 1e-6:
                raise ValueError(f"{who} {getattr(self, who)} is not a whole number of "
                                 f"{self.fights} fights")
        if not round(self.agent * self.fights) <= self.decided <= self.fights:
            raise ValueError(f"decided {self.decided} must be from the agent's wins "
                             f"({round(self.agent * self.fights)}) to fights ({self.fights})")
        return self


class SearchRun(Strict):
    """benchmarks/search.py's --json file."""

    model_config = ConfigDict(extra="ignore", strict=True, allow_inf_nan=False)
    agent: Line
    rows: Annotated[list[SearchRow], Field(min_length=1)]


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out or "the file"


def _accepted(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    """The fields accepted where an unknown one was found."""
    current: type[BaseModel] = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        info = current.model_fields.get(str(part))
        ann = getattr(info, "annotation", None)
        nested = [a for a in (ann, *getattr(ann, "__args__", ()))
                  if isinstance(a, type) and issubclass(a, BaseModel)]
        if nested:
            current = nested[0]
    return ", ".join(f.alias or name for name, f in current.model_fields.items())


def check(model: type[BaseModel], data: Any, where: str) -> Any:
    """``data`` itself when ``model`` accepts it, else ResultsError in one line naming
    ``where``, the field and what is accepted."""
    try:
        model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(err["loc"])
        more = f" (and {len(e.errors()) - 1} more)" if len(e.errors()) > 1 else ""
        if err["type"] == "extra_forbidden":
            msg = f"unknown field; accepted here: {_accepted(model, loc)}"
        elif err["type"] == "missing":
            msg = "missing required field"
        else:
            msg = str(err["msg"]).removeprefix("Value error, ")
            if err["type"] not in ("value_error", "assertion_error"):
                msg += f", got {one_line(repr(err['input']))[:60]}"
        raise ResultsError(one_line(f"{where}: {_where(loc)}: {' '.join(msg.split())}{more}")
                           ) from None
    return data


def read_json(path: str | os.PathLike[str], error: Callable[[str], Exception] = ResultsError
              ) -> Any:
    """A results file's JSON, read under the shared caps."""
    return load_json(read_text(path, "results", error), str(path), error)


def read_results(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A results file, checked whole."""
    data: dict[str, Any] = check(Results, read_json(path), str(path))
    return data


def read_sweep(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The last JSON line of a policy_seats sweep (its table lines come before), checked."""
    text = read_text(path, "results", ResultsError)
    line = next((ln for ln in reversed(text.splitlines()) if ln.startswith("{")), None)
    if line is None:
        raise ResultsError(f"{path}: no JSON line; a sweep is benchmarks/policy_seats.py's "
                           f"output, whose last line is the JSON of its results")
    data: dict[str, Any] = check(Sweep, load_json(line, str(path), ResultsError), str(path))
    return data


def read_search_run(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A benchmarks/search.py --json file, checked."""
    text = read_text(path, "results", ResultsError)
    data: dict[str, Any] = check(SearchRun, load_json(text, str(path), ResultsError), str(path))
    return data
