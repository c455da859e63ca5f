"""Which modules are compiled with mypyc, and the guard that keeps a stale or unwanted
compiled module from loading.

The hot path of a fight (the engine's maps, dice and rules; the packet agent) is compiled
with mypyc when a C compiler is present at install time (setup.py). Each compiled module is
a .so file next to its .py source and would load in its place. This module decides, once,
at ``import wasteland``:

- WASTELAND_PURE=1 in the environment: the sources run, never the compiled modules (how
  the tests check that both give the same fights);
- compiled modules whose sources changed since they were built (a developer edited a
  rule, a git pull): the sources run, with a one-line warning on stderr, since a stale
  module would play the old rules. The build records a hash of every source it compiled.

Either way a finder placed first on ``sys.meta_path`` loads these modules from source.
No stdlib module but those below is imported: this runs before anything else.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent
MANIFEST = ROOT / "_compiled.json"

# paths relative to the package; modules named wasteland.<path with dots>
MODULES = (
    "rules/grid.py", "rules/dice.py", "rules/facts.py", "rules/zones.py", "rules/battle.py",
    "rules/actions.py", "rules/decision.py", "rules/tactics.py", "rules/goto.py",
    "rules/pnp/book.py", "rules/f2d20/book.py", "rules/simple/book.py",
    "rules/pnp/combat.py", "rules/pnp/movement.py", "rules/pnp/odds.py",
    "rules/pnp/ruleset.py", "rules/pnp/stats.py", "rules/pnp/tactics.py",
    "rules/f2d20/aid.py", "rules/f2d20/attack.py", "rules/f2d20/damage.py",
    "rules/f2d20/dice.py", "rules/f2d20/movement.py", "rules/f2d20/odds.py",
    "rules/f2d20/reach.py", "rules/f2d20/ruleset.py", "rules/f2d20/skills.py",
    "rules/f2d20/stats.py", "rules/f2d20/tactics.py",
    "rules/hexes.py", "rules/simple/attack.py", "rules/simple/movement.py",
    "rules/simple/odds.py", "rules/simple/ruleset.py", "rules/simple/skills.py",
    "rules/simple/stats.py", "rules/simple/tactics.py",
    "observe/features.py", "observe/encoding.py", "observe/fog.py", "observe/memory.py",
    "agents/base.py", "agents/loop.py", "agents/packets/traits.py",
    "agents/packets/agent.py", "agents/packets/aid.py", "agents/packets/attack.py",
    "agents/packets/movement.py", "agents/packets/odds.py", "agents/packets/packet.py",
    "agents/packets/phases.py", "agents/packets/spare.py", "agents/packets/weapons.py",
    "agents/packets/windows.py",
)


# the shared library every compiled module loads (setup.py's mypyc group); an editable
# install maps it by this name only when it was built at install time
GROUP = "wasteland_engine"
LIBRARY = GROUP + "__mypyc"

# C sources built beside them (setup.py), hashed with them: a changed one makes the build
# stale, and the Python code that would call it keeps to its plain-Python twin
C_SOURCES = ("observe/_buffers.c",)


def module_name(path: str) -> str:
    return "wasteland." + path[: -len(".py")].replace("/", ".")


def source_hashes(root: Path = ROOT) -> dict[str, str]:
    return {p: hashlib.sha256((root / p).read_bytes()).hexdigest()
            for p in (*MODULES, *C_SOURCES)}


def _built(root: Path = ROOT) -> bool:
    """Whether any compiled module lies next to its source."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return any((root / p).with_suffix(s).exists() for p in MODULES for s in suffixes)


class _SourceFinder:
    """Finds the compiled modules' sources, so that the .so beside them never loads
    (``extra``: modules an older build compiled that the list no longer names)."""

    def __init__(self, extra: list[str] | None = None) -> None:
        self.names = frozenset(module_name(p) for p in (*MODULES, *(extra or [])))

    def find_spec(self, name: str, path: Any = None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name not in self.names:
            return None
        src = ROOT / (name[len("wasteland."):].replace(".", "/") + ".py")
        return importlib.util.spec_from_file_location(name, src)


def _recorded(root: Path = ROOT) -> dict[str, str] | None:
    """The hash of each source the last build compiled; None without a readable record."""
    try:
        built = json.loads((root / MANIFEST.name).read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return built if isinstance(built, dict) else None


def record_build(root: Path, hashes: dict[str, str] | None) -> None:
    """After a build: the hashes of the sources it compiled, or, when it compiled nothing
    (mypyc failed, or WASTELAND_PURE), no record at all, so that the modules an older
    build left beside their sources count as stale and never load as if current."""
    path = root / MANIFEST.name
    if hashes is None:
        path.unlink(missing_ok=True)
        return
    path.write_text(json.dumps({"sources": hashes}, indent=1) + "\n")


def stale(root: Path = ROOT) -> list[str]:
    """The compiled modules whose sources differ from what was compiled (all of them when
    the build left no record), and those it compiled that are no longer to be."""
    built = _recorded(root)
    if built is None:
        return [*MODULES, *C_SOURCES]
    now = source_hashes(root)
    return ([p for p in now if built.get(p) != now[p]]
            + [p for p in built if p not in now])


def guard() -> str:
    """Keep stale or unwanted compiled modules from loading; returns what runs:
    "compiled", "pure" (nothing compiled here, or WASTELAND_PURE) or "stale"."""
    if not _built():
        return "pure"
    if os.environ.get("WASTELAND_PURE"):
        dropped = [p for p in (_recorded() or {}) if p not in MODULES and p.endswith(".py")]
        sys.meta_path.insert(0, _SourceFinder(dropped))
        return "pure"
    old = stale()
    if old:
        sys.meta_path.insert(0, _SourceFinder([p for p in old if p not in MODULES
                                               and p.endswith(".py")]))
        sys.stderr.write(f"wasteland: the compiled engine is older than {len(old)} of its "
                         f"sources (wasteland/{old[0]}...); running them as plain Python, "
                         f"slower, until `make compile`\n")
        return "stale"
    if importlib.util.find_spec(LIBRARY) is None:
        # built in place after an install that compiled nothing: the modules are current
        # but could not load their library from another folder; reinstalling maps it
        sys.meta_path.insert(0, _SourceFinder())
        sys.stderr.write(f"wasteland: the compiled engine's library ({LIBRARY}) is not "
                         f"importable; running the sources as plain Python, slower, until "
                         f"the package is installed again (rm .venv/.installed; make compile)\n")
        return "stale"
    return "compiled"
