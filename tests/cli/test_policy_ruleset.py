"""A policy named for a battle of a ruleset it was not trained for is a one-line error
where the battle's agents are made (issue 42, item 5), not the packet playing under the
policy's name: fight, simulate, play, gm, evaluate, a scenario side's ``agent`` and the
envs' opponents. ``policy:NAME`` for a family still picks the policy of the battle's
ruleset, and the packet still plays the kinds a policy was not trained for."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from tests.training.kit import cli, one_line_error, random_policy
from wasteland.agents.make import make_agent
from wasteland.envs.single_agent import SingleAgentEnv
from wasteland.rules.errors import WastelandError
from wasteland.training.export import write_policy

WRONG = ("policy:radscorpion_f2d20 was trained for f2d20, not pnp (the packet would play "
         "in its place); use it under f2d20, or policy:radscorpion_pnp, or "
         "policy:radscorpion (the shipped policy of each ruleset)")


@pytest.mark.parametrize("args", [
    ("fight", "--ruleset", "pnp", "--agents", "packet,policy:radscorpion_f2d20", "--seed", "1"),
    ("simulate", "--ruleset", "pnp", "--scenario", "vault_corridor", "--agents",
     "packet,policy:radscorpion_f2d20", "-n", "10"),
    ("play", "--plain", "--ruleset", "pnp", "--scenario", "duel", "--ai",
     "policy:radscorpion_f2d20", "--seed", "1"),
    ("gm", "--ruleset", "pnp", "--scenario", "duel", "--ai", "policy:radscorpion_f2d20",
     "--seed", "1"),
    ("evaluate", "--agents", "packet,policy:radscorpion_f2d20", "-n", "1", "--no-cache",
     "--scenarios", "duel"),
], ids=lambda a: a[0])
def test_a_policy_of_another_ruleset_is_one_line_and_nothing_starts(capsys, monkeypatch,
                                                                    tmp_path, args):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    r = cli(capsys, monkeypatch, *args)
    one_line_error(r, WRONG)
    assert r.out == ""
    assert list(tmp_path.iterdir()) == []  # no save begun


def test_the_family_name_and_the_right_ruleset_still_play(capsys, monkeypatch):
    for agents in ("packet,policy:radscorpion", "packet,policy:radscorpion_pnp"):
        r = cli(capsys, monkeypatch, "fight", "--ruleset", "pnp", "--agents", agents,
                "--seed", "1", "--json")
        assert r.code == 0, r.err
    r = cli(capsys, monkeypatch, "evaluate", "--agents", "packet,policy:radscorpion_f2d20",
            "-n", "1", "--no-cache", "--scenarios", "duel", "--rulesets", "f2d20", "--json")
    assert r.code == 0, r.err


def test_a_scenario_sides_agent_of_another_ruleset_is_refused(capsys, monkeypatch, tmp_path):
    src = Path(__file__).resolve().parents[2] / "wasteland" / "bestiary" / "scenarios"
    text = (src / "vault_corridor.yaml").read_text()
    assert "\n  - name: Radscorpions\n" in text
    sc = tmp_path / "sc.yaml"
    sc.write_text(text.replace("\n  - name: Radscorpions\n",
                               "\n  - name: Radscorpions\n    agent: policy:radscorpion_f2d20\n"))
    r = cli(capsys, monkeypatch, "fight", "--ruleset", "pnp", "--scenario", str(sc),
            "--seed", "1")
    one_line_error(r, WRONG)


def test_a_policy_of_ones_own_names_its_rulesets(tmp_path):
    npz, _ = write_policy(random_policy("mine", ruleset="simple"), tmp_path)
    with pytest.raises(WastelandError) as e:
        make_agent(f"policy:{npz}", 0, "f2d20")
    assert str(e.value) == (f"policy:{npz} was trained for simple, not f2d20 (the packet "
                            f"would play in its place); use it under simple")
    make_agent(f"policy:{npz}", 0, "simple")
    make_agent(f"policy:{npz}", 0)  # no battle named (a save resumed as it was): made


def test_the_envs_opponents_and_allies_are_checked():
    with pytest.raises(WastelandError, match="not pnp"):
        SingleAgentEnv("vault_corridor", "pnp", learner=0, opponents="policy:radscorpion_f2d20")
    with pytest.raises(WastelandError, match="not f2d20"):
        SingleAgentEnv("vault_corridor", "f2d20", learner=1, learner_kinds=["radscorpion"],
                       allies="policy:radscorpion_pnp")
    SingleAgentEnv("vault_corridor", "f2d20", learner=0, opponents="policy:radscorpion")
