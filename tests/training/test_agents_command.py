"""`wasteland agents` (issue 10, item 4): every agent, every shipped policy with its
training summary, and the shipped training configs; --json too."""

from __future__ import annotations

import json

import pytest

from wasteland.agents.policy import load_policy, shipped_names
from wasteland.training.config import config_names

from .kit import cli

AGENTS = ("random", "scripted", "packet")


def test_agents_lists_every_agent_policy_and_config(capsys, monkeypatch):
    r = cli(capsys, monkeypatch, "agents")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    for a in AGENTS:
        assert any(ln.split()[0] == a for ln in lines if ln.strip()), a
    for n in shipped_names():
        assert any(ln.startswith(f"policy:{n} ") for ln in lines), n
        assert not any("unusable" in ln for ln in lines if ln.startswith(f"policy:{n} "))
    assert lines[-2].startswith("cmd:COMMAND ") and "docs/protocol.md" in lines[-2]
    assert lines[-1] == "training configs: " + ", ".join(config_names())
    assert "Traceback" not in r.out + r.err


def test_agents_json(capsys, monkeypatch):
    r = cli(capsys, monkeypatch, "agents", "--json")
    assert r.code == 0, r.err
    d = json.loads(r.out)
    assert d["configs"] == config_names() and len(d["configs"]) >= 6
    names = [a["agent"] for a in d["agents"]]
    assert names[:3] == list(AGENTS)
    assert all(a["about"] for a in d["agents"][:3])
    policies = {a["agent"]: a for a in d["agents"] if a["kind"] == "policy"}
    assert set(policies) == {f"policy:{n}" for n in shipped_names()}
    for n in shipped_names():
        row = policies[f"policy:{n}"]
        assert "error" not in row, row
        m = load_policy(n).manifest
        assert row["ruleset"] == m["ruleset"] and row["creatures"] == m["creatures"]
        assert row["steps"] == m["steps"]


def _ship_only(pol, monkeypatch, tmp_path) -> None:
    """Make ``pol`` (written to tmp_path) the one shipped policy for this test."""
    import wasteland.agents.policy as policy_mod
    from wasteland.training.export import write_policy

    write_policy(pol, tmp_path)
    monkeypatch.setattr(policy_mod, "shipped_names", lambda: [pol.name])
    real = policy_mod.load_policy
    monkeypatch.setattr(policy_mod, "load_policy",
                        lambda n, check=True: real(tmp_path / f"{n}.npz", check))


def test_a_broken_shipped_policy_is_listed_as_unusable(capsys, monkeypatch, tmp_path):
    """A shipped file that does not match the code shows as unusable, in one line, and the
    rest of the list still prints."""
    from .kit import random_policy

    pol = random_policy("stale")
    pol.manifest["action_hash"] = "0" * 16
    _ship_only(pol, monkeypatch, tmp_path)
    r = cli(capsys, monkeypatch, "agents")
    assert r.code == 0, r.err
    line = [ln for ln in r.out.splitlines() if ln.startswith("policy:stale")]
    assert len(line) == 1 and "unusable" in line[0] and "action_hash" in line[0]
    d = json.loads(cli(capsys, monkeypatch, "agents", "--json").out)
    assert [a.get("error", "") for a in d["agents"] if a["agent"] == "policy:stale"][0]


@pytest.mark.parametrize("name", shipped_names() or ["(none shipped yet)"])
def test_shipped_policies_load_and_match_the_code(name):
    if name not in shipped_names():
        pytest.skip("no policy ships yet")
    pol = load_policy(name)  # refuses a stale observation or action hash
    assert pol.ruleset in ("pnp", "f2d20", "simple") and name.endswith("_" + pol.ruleset)


def test_an_expert_iteration_policy_is_listed_with_its_teacher_labels(capsys, monkeypatch,
                                                                      tmp_path):
    """A policy distilled from a teacher and exported before any PPO step was trained on
    rounds x states labels: the listing says so instead of "0 steps"."""
    from .kit import random_policy

    pol = random_policy("distilled")
    pol.manifest.update(steps=0, checkpoint_wall_s=375.0,
                        config={"algorithm": "expert_iteration", "seed": 2,
                                "expert": {"iterations": 6, "decisions": 60000}})
    _ship_only(pol, monkeypatch, tmp_path)
    r = cli(capsys, monkeypatch, "agents")
    line = [ln for ln in r.out.splitlines() if ln.startswith("policy:distilled")]
    assert len(line) == 1 and "360,000 teacher labels + 0 steps in 375 s" in line[0], line
    row = [a for a in json.loads(cli(capsys, monkeypatch, "agents", "--json").out)["agents"]
           if a["agent"] == "policy:distilled"][0]
    assert (row["algorithm"], row["labels"], row["steps"]) == ("expert_iteration", 360000, 0)


@pytest.mark.parametrize("edit", [
    {"config": "x"}, {"training": [1]}, {"training": {"evaluation": "x"}},
    {"training": {"evaluation": [{"scenario": "duel"}, 3, {"scenario": "duel", "win_rate": "1",
                                                          "packet_win_rate": 0.5}]}},
    {"config": {"algorithm": "expert_iteration", "expert": "y", "seed": "z"}},
])
def test_a_hand_edited_manifest_table_is_listed_without_a_traceback(edit, capsys, monkeypatch,
                                                                     tmp_path):
    """The listing reads a manifest's training summary and config as they are; a sub-table
    of the wrong type counts as empty, and an evaluation row it cannot print is left out."""
    from .kit import random_policy

    pol = random_policy("edited")
    pol.manifest.update(edit)
    _ship_only(pol, monkeypatch, tmp_path)
    r = cli(capsys, monkeypatch, "agents")
    assert r.code == 0 and "Traceback" not in r.out + r.err, r.err
    line = [ln for ln in r.out.splitlines() if ln.startswith("policy:edited")]
    assert len(line) == 1 and "unusable" not in line[0] and "evaluation" not in line[0], line
    row = [a for a in json.loads(cli(capsys, monkeypatch, "agents", "--json").out)["agents"]
           if a["agent"] == "policy:edited"][0]
    assert row["evaluation"] == [] and row["labels"] == 0
