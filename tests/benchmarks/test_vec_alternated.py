"""benchmarks/vec_alternated.py reads its env specs strictly: a mistyped one is a one-line
error naming what is accepted, not a traceback or a silently different env."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("vec_alternated", BENCH / "vec_alternated.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_specs_name_the_env_count_kind_and_processes() -> None:
    m = _module()
    assert m.parse_spec("2:DummyVecEnv") == (2, "DummyVecEnv", 0)
    assert m.parse_spec("64:Batched/2") == (64, "Batched", 2)


@pytest.mark.parametrize("spec", ["64", "x:Batched", "64:Batchd", "0:Batched", "300:Batched",
                                  "64:Batched/9", "64:Batched/two"])
def test_a_bad_spec_is_one_line(spec: str) -> None:
    m = _module()
    with pytest.raises(SystemExit) as e:
        m.parse_spec(spec)
    assert "bad spec" in str(e.value) and "\n" not in str(e.value)
