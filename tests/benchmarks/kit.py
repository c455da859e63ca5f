"""Loading a script of benchmarks/ (not a package) by its path, for its tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def bench_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # a process pool pickles its functions by module name
    spec.loader.exec_module(mod)
    return mod
