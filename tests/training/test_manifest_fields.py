"""A policy's manifest says which observation it reads in words a person can read
("obs v1", next to the hash) and always what its combatants see (``sight``, "own" too);
the exporter writes both, the loader still reads manifests written before they existed,
and every shipped manifest (policies, teachers, learned values) carries them (issue 42,
item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from wasteland.agents.policy import (
    OBSERVATION_VERSION,
    OBSERVATION_VERSION_HASH,
    load_policy,
    observation_hash,
)
from wasteland.agents.valuenet import load_value
from wasteland.rules.errors import WastelandError
from wasteland.training.config import load_config
from wasteland.training.export import policy_from_linears, write_policy

from .kit import random_policy

ROOT = Path(__file__).resolve().parents[2] / "wasteland"
POLICIES = sorted((ROOT / "policies").glob("*.json"))
TEACHERS = sorted((ROOT / "training" / "configs" / "teachers").glob("*.json"))
VALUES = sorted((ROOT / "values").glob("*.json"))


def test_the_version_names_the_observation_of_this_code():
    assert observation_hash("own") == OBSERVATION_VERSION_HASH, (
        "the observation changed: name a new version in wasteland/agents/policy.py "
        "(OBSERVATION_VERSION and its hash) and add a line to docs/training.md's "
        "'Observation versions'")
    doc = (ROOT.parent / "docs" / "training.md").read_text()
    assert f"**{OBSERVATION_VERSION}**" in doc, "docs/training.md has no changelog line for it"


@pytest.mark.parametrize("path", POLICIES + TEACHERS, ids=lambda p: p.stem)
def test_shipped_policy_manifests_carry_version_and_sight(path: Path):
    m = json.loads(path.read_text())
    assert m["observation_version"] == OBSERVATION_VERSION
    assert m["sight"] in ("own", "side")
    assert m["observation_hash"] == observation_hash(m["sight"])


@pytest.mark.parametrize("path", VALUES, ids=lambda p: p.stem)
def test_shipped_value_manifests_carry_version_and_sight(path: Path):
    m = json.loads(path.read_text())
    assert (m["observation_version"], m["sight"]) == (OBSERVATION_VERSION, "full")
    load_value(path.stem)


class _Tensor:
    """What policy_from_linears reads off a torch tensor, without torch."""

    def __init__(self, a: np.ndarray) -> None:
        self.a = a

    def detach(self) -> _Tensor:
        return self

    def cpu(self) -> _Tensor:
        return self

    def numpy(self) -> np.ndarray:
        return self.a


class _Linear:
    def __init__(self, w: np.ndarray, b: np.ndarray) -> None:
        self.weight, self.bias = _Tensor(w.T.copy()), _Tensor(b)


@pytest.mark.parametrize("sight", ["own", "side"])
def test_the_exporter_writes_version_and_sight(tmp_path: Path, sight: str):
    cfg = load_config("radscorpion_pnp", [f"sight={sight}"])
    pol = random_policy()
    linears = [_Linear(w, b) for w, b in zip(pol.weights, pol.biases)]
    out = policy_from_linears(linears, "mine", cfg, cfg.creatures)
    _, js = write_policy(out, tmp_path)
    m = json.loads(js.read_text())
    assert m["observation_version"] == OBSERVATION_VERSION
    assert m["sight"] == sight  # written for own sight too
    assert load_policy(js).sight == sight


def test_old_manifests_without_them_still_load_and_bad_ones_are_one_line(tmp_path: Path):
    _, js = write_policy(random_policy("old"), tmp_path)
    m = json.loads(js.read_text())
    assert "observation_version" not in m and "sight" not in m  # as before issue 42
    assert load_policy(js).sight == "own"
    for bad in ("v1", 1, "obs v1; rm", "obs v" + "9" * 50):
        js.write_text(json.dumps({**m, "observation_version": bad}))
        with pytest.raises(WastelandError, match=r"^policy old: old.json: observation_version "
                                                 r".*; a version reads like 'obs v1'$"):
            load_policy(js)


def test_a_policy_of_another_observation_names_both_versions(tmp_path: Path):
    _, js = write_policy(random_policy("old"), tmp_path)
    m = json.loads(js.read_text())
    js.write_text(json.dumps({**m, "observation_version": "obs v0",
                              "observation_hash": "0123456789abcdef"}))
    with pytest.raises(WastelandError) as e:
        load_policy(js)
    msg = str(e.value)
    assert "\n" not in msg
    assert f"obs v0, observation_hash 0123456789abcdef in old.json; {OBSERVATION_VERSION}, " \
           f"{OBSERVATION_VERSION_HASH} in this version" in msg


def test_a_value_of_another_sight_is_refused_in_one_line(tmp_path: Path):
    import shutil

    for ext in ("json", "npz"):
        shutil.copy(ROOT / "values" / f"pnp.{ext}", tmp_path / f"pnp.{ext}")
    js = tmp_path / "pnp.json"
    m = json.loads(js.read_text())
    del m["observation_version"], m["sight"]  # a value file from before issue 42
    js.write_text(json.dumps(m))
    load_value("pnp", tmp_path)
    js.write_text(json.dumps({**m, "sight": "own"}))
    with pytest.raises(WastelandError, match=r"^learned value pnp: pnp.json: sight 'own'; "
                                             r"a value reads the true state, sight 'full'$"):
        load_value("pnp", tmp_path)
