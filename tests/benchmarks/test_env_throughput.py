"""benchmarks/env_throughput.py's diagnostic without the observation: the env plays as it
does (the same masks, the same turns), only the observation is a constant."""

from __future__ import annotations

import numpy as np

from wasteland.envs import combat_v0

from .kit import bench_module


def test_without_encoding_the_masks_and_the_play_are_the_envs_own() -> None:
    mod = bench_module("env_throughput")
    plain = combat_v0.raw_env(ruleset="pnp", scenario="ruined_street")
    stripped = combat_v0.raw_env(ruleset="pnp", scenario="ruined_street")
    plain.reset(seed=4)
    stripped.reset(seed=4)
    mod.strip_encoding(stripped)
    mod.strip_encoding(stripped)  # once: not wrapped twice
    assert isinstance(stripped._enc._enc, type(plain._enc))
    rng = np.random.default_rng(0)
    turns = 0
    for agent in plain.agent_iter(5_000):
        assert stripped.agent_selection == agent
        obs, _, term, trunc, _ = plain.last()
        got, _, term2, trunc2, _ = stripped.last()
        assert (term, trunc) == (term2, trunc2)
        assert np.array_equal(obs["action_mask"], got["action_mask"])
        assert not got["observation"].any() and obs["observation"].any()
        legal = np.flatnonzero(obs["action_mask"])
        action = None if term or trunc else int(rng.choice(legal))
        plain.step(action)
        stripped.step(action)
        turns += 1
    assert turns > 100 and plain.battle.over and stripped.battle.over
    assert plain.battle.winner == stripped.battle.winner
    assert plain.terminations == stripped.terminations


def test_the_run_says_it_measured_without_the_observation(capsys) -> None:
    mod = bench_module("env_throughput")
    assert mod.main(["--seconds", "0.05", "--ruleset", "pnp", "--without-observation"]) == 0
    out = capsys.readouterr().out
    assert "(a) WITHOUT the observation" in out.splitlines()[0]


def test_a_turn_cap_plays_that_many_turns_and_none_for_zero() -> None:
    """env_counts.py subtracts a warm run from a longer one: each must play exactly the
    turns asked, across episodes (the duel ends within a few dozen), and a cap of 0 none."""
    mod = bench_module("env_throughput")
    envs = [combat_v0.raw_env(ruleset="pnp", scenario="duel")]
    for cap in (0, 1, 37, 400):
        _, turns, episodes = mod.aec_turns(envs, float("inf"), turns_cap=cap)
        assert turns == cap
    assert episodes >= 1  # 400 turns crossed an episode's end
