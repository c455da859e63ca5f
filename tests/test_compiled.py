"""The compiled engine (mypyc, setup.py) and the plain-Python one play the same fights.

`make test` compiles the hot path when it can; the suite then runs the compiled modules.
These tests run the recorded fights on the plain-Python path too (WASTELAND_PURE=1, in a
subprocess), check that a build that exists is the one that loads, and that a source
changed since the build is noticed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import wasteland
from wasteland import _compiled

ROOT = Path(__file__).resolve().parents[1]

REPLAY = """
import json, sys
sys.path.insert(0, {tests!r})
import wasteland
import wasteland.rules.grid, wasteland.rules.f2d20.ruleset, wasteland.agents.packets.agent
mods = [wasteland.rules.grid, wasteland.rules.f2d20.ruleset, wasteland.agents.packets.agent]
assert wasteland.ENGINE == "pure", wasteland.ENGINE
assert all(m.__file__.endswith(".py") for m in mods), [m.__file__ for m in mods]
from rules.test_recorded_fights import RECORD, cases, fight_digest, key
want = json.loads(RECORD.read_text())
bad = [key(c) for c in cases() if fight_digest(*c) != want[key(c)]]
print(json.dumps(bad))
"""


def test_the_plain_python_path_plays_the_recorded_fights(tmp_path: Path) -> None:
    env = {**os.environ, "WASTELAND_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", REPLAY.format(tests=str(ROOT / "tests"))],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


OBSERVATIONS = """
import hashlib, random, sys
import numpy as np
import wasteland
from wasteland.bestiary.loader import scenario_names
from wasteland.envs import combat_v0
from wasteland.observe import buffers
h = hashlib.sha256()
for rs in ("pnp", "f2d20", "simple"):
    for s in scenario_names():
        env = combat_v0.raw_env(ruleset=rs, scenario=s)
        env.reset(seed=3)
        rng = random.Random(5)
        for agent in env.agent_iter(150):
            obs, r, term, trunc, info = env.last()
            h.update(obs["action_mask"].tobytes())
            for a in env.agents:  # every agent's view, the deciding one's and the others'
                h.update(env.observe(a)["observation"].tobytes())
            mask = obs["action_mask"]
            env.step(None if term or trunc else rng.choice(np.flatnonzero(mask).tolist()))
print(wasteland.ENGINE, buffers.NATIVE, h.hexdigest())
"""


def test_the_compiled_encoder_and_buffers_give_the_plain_observations(tmp_path: Path) -> None:
    """The observation encoder is compiled and its buffers filled in C; the same random
    play gives the same observation and mask bytes, for every agent, on both paths."""
    if wasteland.ENGINE != "compiled":
        pytest.skip("the engine runs as plain Python here: nothing to compare")
    runs = {}
    for pure in (False, True):
        env = {k: v for k, v in os.environ.items() if k != "WASTELAND_PURE"}
        if pure:
            env["WASTELAND_PURE"] = "1"
        out = subprocess.run([sys.executable, "-c", OBSERVATIONS], capture_output=True,
                             text=True, env=env, cwd=tmp_path, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        runs[pure] = out.stdout.split()
    assert runs[False][:2] == ["compiled", "True"] and runs[True][:2] == ["pure", "False"]
    assert runs[False][2] == runs[True][2]


def test_a_build_that_matches_its_sources_is_what_runs() -> None:
    if wasteland.ENGINE == "pure" and not os.environ.get("WASTELAND_PURE"):
        pytest.skip("no compiled build here (no C compiler at install, or WASTELAND_PURE)")
    if wasteland.ENGINE == "stale":
        pytest.skip("the compiled build is older than its sources: `make compile`")
    if wasteland.ENGINE == "compiled":
        import wasteland.rules.battle as battle
        import wasteland.rules.pnp.ruleset as pnp

        assert not battle.__file__.endswith(".py") and not pnp.__file__.endswith(".py")
        assert _compiled.stale() == []


def test_a_changed_source_makes_the_build_stale(tmp_path: Path) -> None:
    every = [*_compiled.MODULES, *_compiled.C_SOURCES]
    for p in every:
        (tmp_path / p).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / p).write_text(f"# {p}\n")
    assert _compiled.stale(tmp_path) == every  # no record of a build
    record = {"sources": _compiled.source_hashes(tmp_path)}
    (tmp_path / "_compiled.json").write_text(json.dumps(record))
    assert _compiled.stale(tmp_path) == []
    changed = _compiled.MODULES[3]
    (tmp_path / changed).write_text("# edited\n")
    assert _compiled.stale(tmp_path) == [changed]
    # a module an older build compiled that the list no longer names is stale too: its
    # .so would otherwise load in place of its source
    record["sources"]["rules/gone.py"] = "0" * 64
    (tmp_path / "_compiled.json").write_text(json.dumps(record))
    assert _compiled.stale(tmp_path) == [changed, "rules/gone.py"]
    # the hand-written C is hashed too: a changed one is stale like a changed module
    c_source = _compiled.C_SOURCES[0]
    (tmp_path / c_source).write_text("/* edited */\n")
    assert _compiled.stale(tmp_path) == [changed, c_source, "rules/gone.py"]


def test_every_compiled_module_exists_and_is_named_for_its_path() -> None:
    pkg = ROOT / "wasteland"
    for p in (*_compiled.MODULES, *_compiled.C_SOURCES):
        assert (pkg / p).is_file(), p
    assert _compiled.module_name("rules/pnp/ruleset.py") == "wasteland.rules.pnp.ruleset"


def test_a_build_that_compiled_nothing_leaves_no_record(tmp_path: Path) -> None:
    """A build that compiled nothing (mypyc stopped on a type error, or WASTELAND_PURE)
    must not record the current sources as built: the modules an older build left beside
    them would then load as current. Without a record every one of them is stale."""
    every = [*_compiled.MODULES, *_compiled.C_SOURCES]
    for p in every:
        (tmp_path / p).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / p).write_text(f"# {p}\n")
    _compiled.record_build(tmp_path, _compiled.source_hashes(tmp_path))
    assert _compiled.stale(tmp_path) == []
    _compiled.record_build(tmp_path, None)
    assert not (tmp_path / "_compiled.json").exists()
    assert _compiled.stale(tmp_path) == every
    _compiled.record_build(tmp_path, None)  # nothing to remove: still fine
    assert _compiled.stale(tmp_path) == every


def test_a_build_whose_library_cannot_load_runs_the_sources(tmp_path: Path) -> None:
    """Modules compiled in place after an install that compiled nothing are current, but
    their shared library is not mapped: the sources run, with a one-line warning, instead
    of an import error from every folder but the checkout."""
    if wasteland.ENGINE != "compiled":
        pytest.skip("no current compiled build here")
    code = ("import importlib.util as u\n"
            "real = u.find_spec\n"
            f"u.find_spec = lambda n, *a: None if n == {_compiled.LIBRARY!r} else real(n, *a)\n"
            "import wasteland, wasteland.rules.battle as b\n"
            "print(wasteland.ENGINE, b.__file__.endswith('.py'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["stale", "True"]
    assert out.stderr.count("\n") == 1 and "not importable" in out.stderr
