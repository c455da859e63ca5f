"""Every name a benchmark script imports from wasteland exists: a module moved or a name
renamed in the package (issue 43 moved the encoder, the registry and the value's
features) must not leave a script in benchmarks/ that fails on its first line. Read from
the scripts' source; the modules are imported, the scripts are not run."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def wasteland_imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, name) for each `from wasteland... import name` and (module, None) for each
    `import wasteland...` anywhere in the script."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "wasteland":
            out.extend((node.module, a.name) for a in node.names)
        elif isinstance(node, ast.Import):
            out.extend((a.name, None) for a in node.names if a.name.split(".")[0] == "wasteland")
    return out


@pytest.mark.parametrize("script", sorted(BENCHMARKS.glob("*.py")), ids=lambda p: p.name)
def test_what_a_benchmark_imports_from_wasteland_exists(script: Path) -> None:
    missing = []
    for module, name in wasteland_imports(script):
        try:
            mod = importlib.import_module(module)
        except ImportError as e:
            missing.append(f"{module}: {e}")
            continue
        if name is not None and not hasattr(mod, name):
            try:  # `from package import submodule`
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                missing.append(f"{module}.{name}")
    assert not missing, f"{script.name} imports what wasteland no longer has: {missing}"


def test_the_reader_sees_a_missing_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from wasteland.agents.search import FEATURES\n")
    assert wasteland_imports(bad) == [("wasteland.agents.search", "FEATURES")]
    assert not hasattr(importlib.import_module("wasteland.agents.search"), "FEATURES")
