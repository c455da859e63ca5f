"""The envs pickle and deep-copy mid-episode (vector envs and Ray need it) and the copy
plays on exactly like the original; only integers are actions, so a float or a string is
never taken for action 0."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.envs.single_agent import SingleAgentEnv
from wasteland.observe.encoding import END_ID
from wasteland.rules.actions import N_ACTIONS
from wasteland.rules.errors import IllegalActionError

RULESETS = ("pnp", "f2d20")
COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    "deepcopy": copy.deepcopy,
}
NOT_ACTIONS = [np.float32(0), np.float64(0), 0.0, "0", True, False, None, np.array([0.5]),
               np.array([0, 1]), np.bool_(False), b"\x00"]


def _aec_run(e: Any, steps: int, seed: int) -> list[tuple]:
    """Random masked play for ``steps`` steps: what every step showed."""
    rng = np.random.default_rng(seed)
    out = []
    for agent in e.agent_iter(steps):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            out.append((agent, reward, term, trunc))
            e.step(None)
            continue
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                    reward, dict(info)))
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_aec_env_copy_continues_identically(ruleset: str, how: str) -> None:
    e = combat_v0.env(ruleset=ruleset, scenario="ruined_street")
    e.reset(seed=5)
    _aec_run(e, 15, seed=1)  # mid-fight, with geometry already cached
    twin = COPIES[how](e)
    assert _aec_run(twin, 300, seed=2) == _aec_run(e, 300, seed=2)


@pytest.mark.parametrize("how", COPIES)
def test_parallel_env_copy_continues_identically(how: str) -> None:
    def run(p: Any) -> list[tuple]:
        rng = np.random.default_rng(3)
        out = []
        obs = {a: p.aec_env.observe(a) for a in p.agents}
        for _ in range(200):
            if not p.agents:
                break
            acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                    if o["action_mask"].any() else END_ID for a, o in obs.items()}
            obs, rew, term, trunc, _ = p.step(acts)
            out.append(({a: o["observation"].tobytes() for a, o in obs.items()}, rew, term,
                        trunc))
        return out

    p = combat_v0.parallel_env(scenario="vault_corridor")
    p.reset(seed=4)
    twin = COPIES[how](p)
    assert run(twin) == run(p)


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_gymnasium_env_copy_continues_identically(ruleset: str, how: str) -> None:
    def run(env: SingleAgentEnv) -> list[tuple]:
        rng = np.random.default_rng(6)
        out = []
        for _ in range(200):
            mask = env.action_masks()
            obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            info = {k: (v.tobytes() if isinstance(v, np.ndarray) else v) for k, v in info.items()}
            out.append((obs.tobytes(), mask.tobytes(), reward, term, trunc, info))
            if term or trunc:
                break
        return out

    env = SingleAgentEnv(ruleset=ruleset, scenario="night_field")
    env.reset(seed=8)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    twin = COPIES[how](env)
    assert run(twin) == run(env)


def _legal_zero_env() -> Any:
    """A PnP AEC env whose decider may take action 0, so 'taken for 0' would show."""
    for seed in range(50):
        e = combat_v0.env(scenario="duel")
        e.reset(seed=seed)
        if e.observe(e.agent_selection)["action_mask"][0]:
            return e
    pytest.skip("no seed where action 0 is legal")


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=repr)
def test_aec_env_refuses_a_non_integer_in_one_line(bad: Any) -> None:
    e = _legal_zero_env()
    with pytest.raises(IllegalActionError) as err:
        e.step(bad)
    msg = str(err.value)
    assert "\n" not in msg and "not an action" in msg and type(bad).__name__ in msg
    e.step(0)  # unharmed, and 0 itself is fine


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=repr)
def test_fallback_does_not_take_a_non_integer_for_an_action(bad: Any) -> None:
    # "end" stands in for an action the mask forbids, not for something that is no action
    e = combat_v0.env(scenario="duel", illegal_action="end")
    e.reset(seed=0)
    raw = e.unwrapped
    n = len(raw.battle.history)
    with pytest.raises(IllegalActionError, match="not an action"):
        e.step(bad)
    assert len(raw.battle.history) == n


@pytest.mark.parametrize("good", [np.int64, np.int32, np.uint8, int,
                                  lambda i: np.array(i), lambda i: np.array([i])],
                         ids=["int64", "int32", "uint8", "int", "0-d array", "1-element array"])
def test_integers_of_every_kind_are_actions(good: Callable[[int], Any]) -> None:
    envs = [combat_v0.env(scenario="duel") for _ in range(2)]
    for e in envs:
        e.reset(seed=0)
    i = envs[0].unwrapped.legal_ids()[-1]
    envs[0].step(i)
    envs[1].step(good(i))
    assert envs[1].unwrapped.battle.history == envs[0].unwrapped.battle.history


def test_out_of_table_integers_name_the_table() -> None:
    e = combat_v0.env(scenario="duel")
    e.reset(seed=0)
    for bad in (-1, N_ACTIONS, np.int64(10**12)):
        with pytest.raises(IllegalActionError, match=r"not an index of the action table"):
            e.step(bad)


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=repr)
def test_gymnasium_env_refuses_a_non_integer(bad: Any) -> None:
    env = SingleAgentEnv(scenario="duel")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    assert "\n" not in str(err.value) and "not an action" in str(err.value)
    raising = SingleAgentEnv(scenario="duel", illegal_action="raise")
    raising.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not an action"):
        raising.step(bad)
