"""benchmarks/vec_alternated.py reads its env specs strictly: a mistyped one is a one-line
error naming what is accepted, not a traceback or a silently different env."""

from __future__ import annotations

import pytest

from .kit import bench_module


def test_specs_name_the_env_count_kind_and_processes() -> None:
    m = bench_module("vec_alternated")
    assert m.parse_spec("2:DummyVecEnv") == (2, "DummyVecEnv", 0)
    assert m.parse_spec("64:Batched/2") == (64, "Batched", 2)


@pytest.mark.parametrize("spec", ["64", "x:Batched", "64:Batchd", "0:Batched", "300:Batched",
                                  "64:Batched/9", "64:Batched/two"])
def test_a_bad_spec_is_one_line(spec: str) -> None:
    m = bench_module("vec_alternated")
    with pytest.raises(SystemExit) as e:
        m.parse_spec(spec)
    assert "bad spec" in str(e.value) and "\n" not in str(e.value)
