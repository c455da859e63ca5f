"""The env's global state for centralized critics (issue 25: `parallel_env().state()`
raised NotImplementedError): PettingZoo's own state test, what the state holds, and a
one-line error before reset."""

from __future__ import annotations

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.observe.encoding import OBS_SIZE
from wasteland.rules.errors import WastelandError

# PettingZoo's state_test at the defaults: tests/envs/test_standard_checks.py


def test_state_is_every_agents_full_view_in_slot_order() -> None:
    env = combat_v0.parallel_env(ruleset="pnp", scenario="ruined_street")
    env.reset(seed=3)
    aec = env.unwrapped
    deciding = aec.agent_selection
    state = env.state()
    n = len(env.possible_agents)
    assert state.shape == env.state_space.shape == (n * OBS_SIZE,)
    assert env.state_space.contains(state)
    hidden = 0
    for i, agent in enumerate(env.possible_agents):
        block = state[i * OBS_SIZE:(i + 1) * OBS_SIZE]
        assert np.array_equal(block, aec._enc.observe(i, None, full=True))
        if agent != deciding:
            # the full view: what the agent sees, and the enemies it has not seen as well
            seen = aec.observe(agent)["observation"]
            hidden += not np.array_equal(block, seen)
    assert hidden > 0
    # blocks differ from one another: each is its own combatant's point of view
    assert not np.array_equal(state[:OBS_SIZE], state[OBS_SIZE:2 * OBS_SIZE])


def test_state_follows_the_fight() -> None:
    env = combat_v0.parallel_env(ruleset="f2d20", scenario="duel")
    obs, _ = env.reset(seed=5)
    before = env.state()
    for _ in range(12):
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) if o["action_mask"].any() else 0
                   for a, o in obs.items()}
        obs, *_ = env.step(actions)
        if not env.agents:
            break
    assert not np.array_equal(before, env.state())


def test_state_before_reset_is_one_line() -> None:
    env = combat_v0.parallel_env(scenario="duel")
    with pytest.raises(WastelandError, match="before reset"):
        env.state()
