"""What a game's result depends on, as short hashes: the agents' code or weights, the
scenario, and the engine. A cached result is reused only when all of them are unchanged,
so editing the packet re-fights the packet's games and nothing else."""

from __future__ import annotations

import hashlib
import shlex
from functools import cache
from pathlib import Path

from wasteland import __version__
from wasteland.bestiary.models import Scenario
from wasteland.limits import file_digest, read_file

ROOT = Path(__file__).resolve().parents[1]  # the wasteland package

# the sources each built-in agent's choices come from, besides the engine
AGENT_SOURCES: dict[str, tuple[str, ...]] = {
    "random": ("agents/random_agent.py",),
    "scripted": ("agents/scripted.py",),
    "packet": ("agents/packets",),
}
# a policy plays its own creatures with its weights, the rest with the packet
POLICY_SOURCES = ("agents/policy.py", "observe/encoding.py", "agents/packets")
# what every fight runs on: the rules, the bestiary's creatures and gear, the fast path
ENGINE_SOURCES = ("rules", "bestiary", "agents/base.py", "agents/loop.py", "sim/fight.py",
                  "limits.py")
SUFFIXES = (".py", ".yaml", ".json")


def _files(rel: str) -> list[Path]:
    p = ROOT / rel
    if p.is_dir():
        return sorted(f for f in p.rglob("*") if f.is_file() and f.suffix in SUFFIXES)
    return [p] if p.is_file() else []


def _digest(parts: list[bytes]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:16]


def _sources(rels: tuple[str, ...]) -> list[bytes]:
    out: list[bytes] = []
    for rel in rels:
        for f in _files(rel):
            out += [f.relative_to(ROOT).as_posix().encode(), f.read_bytes()]
    return out


@cache
def engine_hash() -> str:
    """The package's version and the sources every fight runs on."""
    return _digest([__version__.encode(), *_sources(ENGINE_SOURCES)])


def policy_files(name: str) -> list[Path]:
    """The .npz and .json files ``policy:NAME`` loads (every ruleset's for a family)."""
    from wasteland.agents.policy import _paths, family, shipped_names

    names = [name] if name in shipped_names() or "/" in name or name.endswith((".npz", ".json")) \
        else family(name) or [name]
    out: list[Path] = []
    for n in names:
        npz, js, _ = _paths(n)
        out += [npz, js]
    return out


def agent_hash(kind: str) -> str:
    """The hash of what decides ``kind``'s moves (``kind`` as agent_kind gives it):
    a built-in's source files, a policy's weights and manifest with the code that reads
    them, or for any other kind (a program: cmd:...) its text and the files it names."""
    if kind in AGENT_SOURCES:
        return _digest([kind.encode(), *_sources(AGENT_SOURCES[kind])])
    if kind.startswith("policy:"):
        files = policy_files(kind[len("policy:"):])
        return _digest([b"policy", *[read_file(f, "policy" if f.suffix == ".npz" else "manifest")
                                     for f in files], *_sources(POLICY_SOURCES)])
    try:
        words = shlex.split(kind.partition(":")[2])
    except ValueError:
        words = []
    named = [Path(w) for w in words]
    # a program (an interpreter, a model file) may be large: hashed a chunk at a time
    return _digest([kind.encode(), *[file_digest(p).encode() for p in named if p.is_file()]])


def scenario_hash(scenario: Scenario) -> str:
    """The scenario as loaded (map, sides, limits): a file edited under the same name is
    another scenario."""
    dump = scenario.model_dump_json()
    return _digest([dump.encode()])


def game_key(engine: str, agents: tuple[str, str], scenario: str, ruleset: str, seed: int) -> str:
    """The cache key of one game: agent hashes in side order, scenario hash, ruleset, seed."""
    return _digest([engine.encode(), agents[0].encode(), agents[1].encode(), scenario.encode(),
                    ruleset.encode(), str(seed).encode()])
