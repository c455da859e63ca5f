"""Training configs: YAML files validated like the bestiary (one-line errors naming the
file, the field and what is accepted). One config per shipped policy lives in
wasteland/training/configs/; ``wasteland train NAME`` finds it there, or takes a path.

``--set key=value`` overrides a field before validation, e.g. ``--set steps=200000`` or
``--set ppo.learning_rate=1e-4``; the value is read as YAML (numbers, lists, ...), under
the caps of a YAML file (wasteland/limits.py).

A teacher that runs a program (``cmd:...``) is taken only from the command line: a config
file or run folder someone sends you never starts a program (``load_config``'s
``programs``).
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt, model_validator

from wasteland.bestiary.loader import BestiaryError, looks_like_path, parse_entry, read_yaml
from wasteland.bestiary.models import Scenario
from wasteland.limits import MAX_DEPTH, LimitError, check_yaml
from wasteland.rules.errors import WastelandError, clip
from wasteland.rules.names import RulesetName

CONFIGS = Path(__file__).parent / "configs"
OPPONENTS = ("packet", "random", "league")


def _not_a_bool(v: Any) -> Any:
    if isinstance(v, bool):
        raise ValueError(f"{v} is a boolean, not a number")
    return v


# a real number: YAML reads 3e-4 (no dot) as a string, which pydantic turns into the
# number; a boolean is refused
Real = Annotated[float, BeforeValidator(_not_a_bool)]


class Strict(BaseModel):
    # a boolean is not a number (steps: true trained as 1) nor a float a count (2.0)
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class PPO(Strict):
    """MaskablePPO's hyperparameters (sb3-contrib names)."""

    n_steps: StrictInt = Field(1024, ge=16, le=65536)
    batch_size: StrictInt = Field(256, ge=8, le=65536)
    n_epochs: StrictInt = Field(5, ge=1, le=50)
    learning_rate: Real = Field(3e-4, gt=0, le=1)
    gamma: Real = Field(0.99, gt=0, le=1)
    gae_lambda: Real = Field(0.95, ge=0, le=1)
    clip_range: Real = Field(0.2, gt=0, le=1)
    ent_coef: Real = Field(0.01, ge=0, le=1)
    ent_coef_final: Real | None = Field(None, ge=0, le=1, description=(
        "the entropy bonus at the end of the run: it falls (or rises) linearly from "
        "`ent_coef` over the steps, set before each update. None: `ent_coef` throughout"))
    vf_coef: Real = Field(0.5, ge=0, le=10)
    max_grad_norm: Real = Field(0.5, gt=0, le=100)

    def ent_coef_at(self, progress: float) -> float:
        """The entropy bonus for the update at ``progress`` (0 to 1) of the run."""
        if self.ent_coef_final is None:
            return float(self.ent_coef)
        p = min(1.0, max(0.0, progress))
        return float(self.ent_coef + (self.ent_coef_final - self.ent_coef) * p)


class Reward(Strict):
    draw: Real = Field(-0.5, ge=-1, le=1, description="a draw at the round limit")
    shaping: Real = Field(0.1, ge=0, le=10,
                           description="x (damage to enemies - damage taken) / max HP")


class Phase(Strict):
    """From this fraction of the run on, each episode's opponents are drawn from ``mix``
    (weights, normalized)."""

    start: Real = Field(0.0, ge=0, le=1)
    mix: dict[Literal["packet", "random", "league"], Annotated[Real, Field(ge=0, le=1000)]]

    @model_validator(mode="after")
    def _weights(self) -> Phase:
        if not self.mix or any(w < 0 for w in self.mix.values()) or sum(self.mix.values()) <= 0:
            raise ValueError("mix needs positive weights for some of: " + ", ".join(OPPONENTS))
        return self


class Arenas(Strict):
    """Procedurally generated arenas: a share of the episodes, against which foes."""

    share: Real = Field(0.5, ge=0, le=1)
    foes: list[str] = Field(default_factory=lambda: ["vault_dweller", "wastelander", "brawler",
                                                     "raider"])
    mirror: Real = Field(0.2, ge=0, le=1, description="share of arenas against its own kinds")
    creature_count: tuple[StrictInt, StrictInt] = (1, 3)
    foe_count: tuple[StrictInt, StrictInt] = (1, 3)


class Imitation(Strict):
    """A warm start: the network first learns the packet's choices in its seat."""

    decisions: StrictInt = Field(0, ge=0, le=10_000_000, description="0: no warm start")
    epochs: StrictInt = Field(10, ge=1, le=200)
    learning_rate: Real = Field(1e-3, gt=0, le=1)
    anchor: Real = Field(0.0, ge=0, le=10, description=(
        "weight of a cross-entropy toward the packet's choices on the warm-start states, "
        "added to every PPO update (a KL penalty toward the deterministic teacher); "
        "annealed linearly to 0 at `anchor_until` of the steps. 0: a plain warm start"))
    anchor_until: Real = Field(0.5, gt=0, le=1, description=(
        "share of the training steps after which the anchor's weight is 0"))


# fields added after policies shipped: left out of the config's dump (and so of its hash and
# of a manifest) while at their defaults, so that the shipped policies' configs keep theirs
LATER_DEFAULTS: dict[tuple[str, str], Any] = {("", "sight"): "own",
                                              ("imitation", "anchor"): 0.0,
                                              ("imitation", "anchor_until"): 0.5,
                                              ("ppo", "ent_coef_final"): None,
                                              ("expert", "teachers"): {},
                                              ("expert", "last_seen"): False}


class Expert(Strict):
    """``algorithm: expert_iteration``: rounds of DAgger with a search teacher before PPO
    (wasteland/training/expert.py)."""

    teacher: str = Field("search", description="the agent that labels the states (its name)")
    teachers: dict[str, str] = Field(default_factory=dict, max_length=64, description=(
        "per map: an entry of the config's `scenarios` -> the agent that labels the states "
        "of its episodes (arenas and maps not named here use `teacher`); distils "
        "specialists, each trained in its own seat, into one network"))
    last_seen: StrictBool = Field(False, description=(
        "a teacher that is not a policy (the packet, the search) decides with each enemy "
        "out of the decider's sight where the decider last saw it, as the observation "
        "shows it (training/belief.py), so that its labels rest on what the network can "
        "know; false: on every enemy's true square"))
    iterations: StrictInt = Field(3, ge=1, le=100)
    decisions: StrictInt = Field(3000, ge=10, le=10_000_000,
                                 description="states labelled by the teacher per iteration")
    beta: Real = Field(0.5, ge=0, le=1, description=(
        "share of the first iteration's moves the teacher plays (the network plays the "
        "rest); halved each iteration"))
    epochs: StrictInt = Field(10, ge=1, le=200)
    learning_rate: Real = Field(1e-3, gt=0, le=1)
    workers: StrictInt = Field(2, ge=1, le=64, description="processes that label in parallel")


class League(Strict):
    snapshot_every: StrictInt = Field(100_000, ge=1000, le=1_000_000_000)
    keep: StrictInt = Field(5, ge=1, le=50)


class Evaluation(Strict):
    every: StrictInt = Field(50_000, ge=1000, le=1_000_000_000)
    fights: StrictInt = Field(100, ge=1, le=100_000)
    scenarios: list[str] = Field(default_factory=list,
                                 description="default: the config's scenarios")
    first_seed: StrictInt = Field(1_000_000, ge=0, le=2**62)


class TrainConfig(Strict):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str = ""
    ruleset: RulesetName
    creatures: list[str] = Field(min_length=1, description="the creature kinds it plays")
    scenarios: list[str] = Field(default_factory=list,
                                 description="built-in scenarios or paths mixed with arenas")
    arenas: Arenas = Field(default_factory=Arenas)
    opponents: list[Phase] = Field(default_factory=lambda: [Phase(mix={"packet": 1.0})])
    allies: Literal["packet", "scripted", "random"] = "packet"
    sight: Literal["own", "side"] = Field(
        "own", description="what the learner's combatants know of enemies out of their sight: "
        "own, what each has seen; side, what any of its side sees or has seen "
        "(observe/encoding.py, SIGHTS)")
    network: list[StrictInt] = Field(default_factory=lambda: [128, 128],
                                             min_length=1, max_length=4)
    activation: Literal["tanh", "relu"] = "tanh"
    ppo: PPO = Field(default_factory=PPO)
    reward: Reward = Field(default_factory=Reward)
    league: League = Field(default_factory=League)
    imitation: Imitation = Field(default_factory=Imitation)
    algorithm: Literal["ppo", "expert_iteration"] = Field(
        "ppo", description="expert_iteration: `expert` rounds first, then PPO for `steps`")
    expert: Expert = Field(default_factory=Expert)
    evaluation: Evaluation = Field(default_factory=Evaluation)
    steps: StrictInt = Field(500_000, ge=1, le=1_000_000_000)
    n_envs: StrictInt = Field(2, ge=1, le=256)
    subproc: StrictBool = False
    vec_env: Literal["dummy", "subproc", "batched"] = Field(
        "dummy", description="how the n_envs battles are stepped: DummyVecEnv, "
        "SubprocVecEnv (also `subproc: true`), or the batched env (wasteland/envs/batched.py)")
    workers: StrictInt = Field(2, ge=0, le=64,
                               description="batched: processes that step the battles in parallel, "
                               "this one included (0 or 1: this one alone)")
    seed: StrictInt = Field(0, ge=0, le=2**31 - 1)

    @model_validator(mode="after")
    def _check(self) -> TrainConfig:
        if not self.scenarios and self.arenas.share < 1:
            raise ValueError("no scenarios: list some, or set arenas.share to 1")
        if any(not 1 <= n <= 1024 for n in self.network):
            raise ValueError("network: layer widths are 1 to 1024")
        rollout = self.ppo.n_steps * self.n_envs
        if self.steps < rollout:  # PPO trains whole rollouts: it would train `rollout` steps
            raise ValueError(f"steps {self.steps:,} is less than one rollout (ppo.n_steps "
                             f"{self.ppo.n_steps} x n_envs {self.n_envs} = {rollout:,}); ask "
                             f"for at least {rollout:,} or lower ppo.n_steps")
        if self.imitation.anchor and not (self.imitation.decisions
                                          and self.algorithm == "ppo"):
            raise ValueError("imitation.anchor needs a warm start: imitation.decisions above 0 "
                             "and algorithm ppo")
        starts = [p.start for p in self.opponents]
        if not starts or starts[0] != 0 or starts != sorted(starts):
            raise ValueError("opponents: phases start at 0 and in order of start")
        return self

    def dump(self) -> dict[str, Any]:
        """The config as JSON data, as run folders and manifests hold it (fields added since
        the first policies shipped are left out while at their defaults)."""
        data = self.model_dump(mode="json")
        for (block, key), default in LATER_DEFAULTS.items():
            where = data[block] if block else data  # "": a top-level field
            if where.get(key) == default:
                del where[key]
        return data

    def hash(self) -> str:
        text = json.dumps(self.dump(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def phase_at(self, progress: float) -> Phase:
        current = self.opponents[0]
        for p in self.opponents:
            if p.start <= progress:
                current = p
        return current


def config_names() -> list[str]:
    return sorted(p.stem for p in CONFIGS.glob("*.yaml"))


def config_path(name: str) -> Path:
    if looks_like_path(name):
        return Path(name)
    if name not in config_names():
        raise WastelandError(f"unknown training config {name!r}; shipped configs: "
                             f"{', '.join(config_names())} (or give a path to a .yaml file)")
    return CONFIGS / f"{name}.yaml"


def _set(data: dict[str, Any], assignment: str, where: str) -> None:
    key, eq, raw = assignment.partition("=")
    if not eq or not key.strip():
        raise WastelandError(f"--set {clip(assignment, 80)!r}: expected key=value, e.g. "
                             f"steps=200000 or ppo.learning_rate=1e-4")
    parts = key.strip().split(".")
    # a config nests a few levels; a key of thousands built dicts that nothing could
    # validate or print without recursing that deep
    if len(parts) > MAX_DEPTH:
        raise LimitError(f"--set {clip(key, 80)}: a key of {len(parts):,} parts; at most "
                         f"{MAX_DEPTH} are accepted")
    try:
        check_yaml(raw, f"--set {clip(key, 80)}", LimitError)  # depth and values, first
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError:
        value = raw
    node = data
    for part in parts[:-1]:
        nxt = node.setdefault(part, {})
        if not isinstance(nxt, dict):
            raise WastelandError(f"--set {clip(key, 80)}: {clip(part, 80)} in {where} is not "
                                 f"a section")
        node = nxt
    node[parts[-1]] = value


def load_config(name_or_path: str | Path, overrides: list[str] | None = None,
                programs: Collection[str] | None = ()) -> TrainConfig:
    """A config by shipped name or path, with ``key=value`` overrides applied.

    ``programs``: the program agents (``cmd:...``) named on the command line
    (``--allow-program``). A teacher that runs a program must be one of them or be given
    by an override (``--set expert.teacher=cmd:...``): a config file or a run folder
    never starts a program by itself. None: the config is only read, never trained (no
    teacher of it runs), so no teacher is refused."""
    path = config_path(str(name_or_path))
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise BestiaryError(f"{path}: expected a mapping of fields for a training config")
    for o in overrides or []:
        _set(data, o, str(path))
    cfg = parse_entry(TrainConfig, data, path, "training config")
    if programs is not None:
        _check_programs(cfg, path, set(programs) | _teachers_set(overrides or []))
    _check_names(cfg, path)
    return cfg


def teachers_of(cfg: TrainConfig) -> list[tuple[str, str]]:
    """Each teacher of the config as (field, agent name)."""
    return [("expert.teacher", cfg.expert.teacher)] + [
        (f"expert.teachers[{k!r}]", v) for k, v in cfg.expert.teachers.items()]


def _teachers_set(overrides: list[str]) -> set[str]:
    """The teachers the overrides themselves name (the command line's, not a file's)."""
    given: dict[str, Any] = {}
    for o in overrides:
        _set(given, o, "the command line")
    expert = given.get("expert")
    if not isinstance(expert, dict):
        return set()
    named = {expert["teacher"]} if isinstance(expert.get("teacher"), str) else set()
    per_map = expert.get("teachers")
    if isinstance(per_map, dict):
        named |= {v for v in per_map.values() if isinstance(v, str)}
    return named


def _check_programs(cfg: TrainConfig, path: Path, named: set[str]) -> None:
    """As a save's (agents/external.py, check_saved_programs): a program a file names runs
    only when the command line names it too."""
    from wasteland.agents.external import unnamed_programs

    for field, name in teachers_of(cfg):
        for spec in unnamed_programs([name], named):
            raise BestiaryError(
                f"{path}: training config {cfg.id!r}: {field} is the program {clip(spec)!r}, "
                f"and a config or run folder never starts a program by itself (one someone "
                f"sends you could name any command); to run it, train with --allow-program "
                f"{clip(shlex.quote(spec))}")


SEATS = Path(__file__).resolve().parent.parent / "bestiary" / "seats"


def training_scenario(name: str) -> Scenario:
    """A config's scenario: a built-in name, a path, or ``seat:NAME``, a seat of the
    benchmark suite (wasteland/bestiary/seats/NAME.yaml: a built-in map with the line-up
    tuned so that the packet wins about half its fights there)."""
    from wasteland.bestiary.loader import load_scenario

    if name.startswith("seat:"):
        seat = name[len("seat:"):]
        path = SEATS / f"{seat}.yaml"
        if not re.fullmatch(r"[a-z0-9_]+", seat) or not path.is_file():
            have = sorted(p.stem for p in SEATS.glob("*.yaml"))
            raise BestiaryError(f"unknown seat {seat!r}; seats: {', '.join(have)}")
        return load_scenario(path)
    return load_scenario(name)


def teacher_agent(name: str) -> str:
    """The agent name an ``expert`` teacher makes: a relative ``policy:`` path is looked up
    from the working folder, then from the shipped configs' folder, where a shipped config
    keeps the teachers it distils (``configs/teachers/``), so it trains from anywhere."""
    rest = name[len("policy:"):] if name.startswith("policy:") else None
    if rest is None or not ("/" in rest or rest.endswith((".npz", ".json"))):
        return name
    here = Path(rest)
    if here.is_absolute() or here.is_file() or not (CONFIGS / here).is_file():
        return name
    return f"policy:{CONFIGS / here}"


def _check_names(cfg: TrainConfig, path: Path) -> None:
    """Creature ids and scenarios that exist, so a typo fails before training starts."""
    from wasteland.bestiary.loader import default_bestiary

    known = default_bestiary().creatures
    for field, ids in (("creatures", cfg.creatures), ("arenas.foes", cfg.arenas.foes)):
        for c in ids:
            if c not in known:
                raise BestiaryError(f"{path}: training config {cfg.id!r}: {field}: unknown "
                                    f"creature {c!r}; known: {', '.join(sorted(known))}")
    from wasteland.agents.make import make_agent

    # the teachers are made in the labelling workers: a typo fails here, in one line
    for field, name in teachers_of(cfg):
        try:
            make_agent(teacher_agent(name))
        except WastelandError as e:
            raise BestiaryError(f"{path}: training config {cfg.id!r}: {field}: {e}") from None
    for k in cfg.expert.teachers:
        if k not in cfg.scenarios:
            raise BestiaryError(f"{path}: training config {cfg.id!r}: expert.teachers: "
                                f"{k!r} is not one of the config's scenarios; scenarios: "
                                f"{', '.join(cfg.scenarios) or '(none)'}")
    for field, s in ([("scenarios", s) for s in cfg.scenarios]
                     + [("evaluation.scenarios", s) for s in cfg.evaluation.scenarios]):
        try:
            sc = training_scenario(s)
        except WastelandError as e:
            raise BestiaryError(f"{path}: training config {cfg.id!r}: {field}: {e}") from None
        if not any(p.creature in cfg.creatures for side in sc.sides for p in side.combatants):
            raise BestiaryError(f"{path}: training config {cfg.id!r}: scenario {s!r} has none "
                                f"of its creatures ({', '.join(cfg.creatures)})")
