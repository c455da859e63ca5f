"""Importing the package sets nothing global (issue 42, item 5): no environment variable,
no thread count, no warnings filter; the command line holds numpy's BLAS to one thread
itself, at its entry point, before numpy loads. Fresh interpreters, since what counts is
what the first import does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# the libraries wasteland.envs stands on are imported first, so what they set themselves
# (pettingzoo hides pygame's prompt through the environment) is not counted against us
PROBE = """
import json, os, sys, warnings
import numpy, gymnasium, pettingzoo
before = (dict(os.environ), [repr(f) for f in warnings.filters])
import wasteland, wasteland.envs
after = (dict(os.environ), [repr(f) for f in warnings.filters])
print(json.dumps({"env_added": sorted(set(after[0]) - set(before[0])),
                  "env_changed": sorted(k for k in before[0] if after[0].get(k) != before[0][k]),
                  "filters_same": before[1] == after[1],
                  "torch": "torch" in sys.modules}))
"""


def _run(code: str, env: dict[str, str]) -> str:
    env = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, timeout=120)
    return out.stdout.strip().splitlines()[-1]


def _bare_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}


def test_importing_wasteland_envs_sets_nothing_global():
    got = json.loads(_run(PROBE, _bare_env()))
    assert got == {"env_added": [], "env_changed": [], "filters_same": True,
                   "torch": False}, got
    # torch never loads, so its thread counts cannot have been set


def test_importing_wasteland_first_leaves_numpys_threads_alone():
    code = "import os, wasteland, wasteland.envs, numpy; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    assert _run(code, _bare_env()) == "None"


@pytest.mark.parametrize(("preset", "expected"), [(None, "1"), ("3", "3")])
def test_the_command_holds_blas_to_one_thread_unless_the_user_says(preset, expected):
    # OpenBLAS's idle threads spin; in simulate's pool they took CPU from the other
    # process's fights. The entry point sets it before numpy loads.
    env = _bare_env()
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    code = ("import os, sys\nsys.argv = ['wasteland', '--help']\n"
            "from wasteland.cli.main import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "import numpy\nprint(os.environ.get('OPENBLAS_NUM_THREADS'))")
    assert _run(code, env) == expected
