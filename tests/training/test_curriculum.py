"""The curriculum at a phase's start (wasteland/training/config.py ``TrainConfig.phase_at``,
used by the league env at ``num_timesteps / steps``): a phase starting at a fraction of the
run is in force from exactly that fraction on, so at its boundary step, and not one step
before."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wasteland.training.config import load_config

PHASES = ("opponents=[{start: 0, mix: {packet: 1}}, {start: 0.3, mix: {random: 1}}, "
          "{start: 0.6, mix: {packet: 1, random: 3}}]")


def cfg(*more: str):
    # one rollout of 100 x 1 steps fits in the 1,000
    return load_config("radscorpion_pnp", ["steps=1000", "ppo.n_steps=100", "n_envs=1", PHASES,
                                           *more])


@pytest.mark.parametrize("progress,mix", [
    (0.0, {"packet": 1}),
    (math.nextafter(0.3, 0.0), {"packet": 1}),   # just before the second phase
    (0.3, {"random": 1}),                        # exactly at its start
    (math.nextafter(0.3, 1.0), {"random": 1}),
    (math.nextafter(0.6, 0.0), {"random": 1}),
    (0.6, {"packet": 1, "random": 3}),
    (1.0, {"packet": 1, "random": 3}),
])
def test_a_phase_is_in_force_from_exactly_its_start(progress, mix):
    assert cfg().phase_at(progress).mix == mix


@pytest.mark.parametrize("step,mix", [(299, {"packet": 1}), (300, {"random": 1}),
                                      (301, {"random": 1}), (599, {"random": 1}),
                                      (600, {"packet": 1, "random": 3})])
def test_the_boundary_step_starts_the_phase(step, mix):
    """At 1000 steps a phase starting at 0.3 starts at step 300 (300 / 1000 == 0.3)."""
    c = cfg()
    assert c.phase_at(step / c.steps).mix == mix


def test_phases_sharing_a_start_the_later_listed_holds():
    c = load_config("radscorpion_pnp", [
        "opponents=[{start: 0, mix: {packet: 1}}, {start: 0.5, mix: {random: 1}}, "
        "{start: 0.5, mix: {league: 1}}]"])
    assert c.phase_at(0.5).mix == {"league": 1}
    assert c.phase_at(math.nextafter(0.5, 0.0)).mix == {"packet": 1}


@pytest.mark.parametrize("step,kind", [(299, "packet"), (300, "random")])
def test_the_league_env_draws_the_opponent_of_the_phase_at_its_boundary_step(step, kind):
    from wasteland.training.league_env import LeagueEnv

    c = cfg()
    env = LeagueEnv(c)
    env.set_progress(step / c.steps)  # as the trainer's callback sets it
    rng = np.random.default_rng(0)
    assert {env._opponent(rng)[0] for _ in range(20)} == {kind}
