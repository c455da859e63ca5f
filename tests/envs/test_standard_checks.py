"""The standard checks at the envs' default arguments (issue 42), under every ruleset:
PettingZoo's seven tests on combat_v0, Gymnasium's and SB3's check_env on the single-agent
env. The default treats an action the mask forbids as `end`, so the tests that sample
without the mask (parallel_seed, max_cycles, state and both checkers) pass; each runs a
second time with actions sampled from the mask (tests/envs/masked_sampling.py), so the
same checks also cover real fights: moves, attacks, wounds."""

from __future__ import annotations

import types
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test
from pettingzoo.test.parallel_test import parallel_api_test
from pettingzoo.test.seed_test import parallel_seed_test
from pettingzoo.test.state_test import state_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from tests.envs.masked_sampling import MaskedAEC, MaskedGym, MaskedParallel
from wasteland.envs import ENV_ID, SingleAgentEnv, combat_v0
from wasteland.rules.names import RULESETS

CYCLES = 40  # per agent: enough for a few turns, and the whole file stays fast


class Made:
    """Env makers for one ruleset at the default arguments, optionally behind the masked
    sampling wrappers; every env made is kept, to count what was played afterwards. A
    fresh env is reset once with a fixed seed, so the tests that reset without one
    (max_cycles) still play the same fights every run."""

    def __init__(self, ruleset: str, masked: bool) -> None:
        self.ruleset = ruleset
        self.masked = masked
        self.made: list[Any] = []

    def _keep(self, e: Any, n: int) -> Any:
        e.reset(seed=n)
        for k, a in enumerate(e.possible_agents):
            e.action_space(a).seed(n + k)
        self.made.append(e)
        return e

    def env(self, **kw: Any) -> Any:
        e = combat_v0.env(ruleset=self.ruleset, **kw)
        return self._keep(MaskedAEC(e) if self.masked else e, len(self.made))

    def parallel_env(self, **kw: Any) -> Any:
        e = combat_v0.parallel_env(ruleset=self.ruleset, **kw)
        return self._keep(MaskedParallel(e) if self.masked else e, len(self.made))

    def check_played(self) -> None:
        """Behind the mask: real moves were played and none needed replacing."""
        if self.masked:
            assert sum(e.moves for e in self.made) > 0
            assert sum(e.illegal for e in self.made) == 0


def _api(m: Made) -> None:
    api_test(m.env(), num_cycles=CYCLES)


def _parallel_api(m: Made) -> None:
    parallel_api_test(m.parallel_env(), num_cycles=CYCLES)


def _seed(m: Made) -> None:
    seed_test(m.env, num_cycles=CYCLES)


def _parallel_seed(m: Made) -> None:
    parallel_seed_test(m.parallel_env, num_cycles=CYCLES)


def _max_cycles(m: Made) -> None:
    max_cycles_test(types.SimpleNamespace(env=m.env, parallel_env=m.parallel_env))


def _render(m: Made) -> None:
    def ansi_ok(text: object) -> bool:
        return isinstance(text, str) and "#" in text and "HP" in text and "ted" in text

    render_test(lambda render_mode=None: m.env(render_mode=render_mode),
                custom_tests={"ansi": ansi_ok})


def _state(m: Made) -> None:
    state_test(m.env(), m.parallel_env(), num_cycles=CYCLES)


PETTINGZOO: dict[str, Callable[[Made], None]] = {
    "api_test": _api, "parallel_api_test": _parallel_api, "seed_test": _seed,
    "parallel_seed_test": _parallel_seed, "max_cycles_test": _max_cycles,
    "render_test": _render, "state_test": _state}


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's advice on the spaces
@pytest.mark.parametrize("masked", [False, True], ids=["default", "masked"])
@pytest.mark.parametrize("check", list(PETTINGZOO))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo(ruleset: str, check: str, masked: bool,
                    capsys: pytest.CaptureFixture[str]) -> None:
    m = Made(ruleset, masked)
    PETTINGZOO[check](m)
    m.check_played()
    if check == "render_test":
        assert "Round" in capsys.readouterr().out  # "human" printed the picture


@pytest.mark.parametrize("masked", [False, True], ids=["default", "masked"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_gymnasium_check_env(ruleset: str, masked: bool) -> None:
    # made by gymnasium.make, so it has the spec the checker remakes it from for each
    # render mode; checked unwrapped, as the checker advises
    env = gymnasium.make(ENV_ID, ruleset=ruleset).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env reports problems as warnings
        if masked:
            wrapped = MaskedGym(env)
            # the checker's one advice about wrappers: this wrapper is the point here
            warnings.filterwarnings("ignore", message=".*different from the unwrapped")
            gymnasium_check_env(wrapped)
            assert wrapped.moves > 0 and wrapped.illegal == 0
        else:
            gymnasium_check_env(env)


@pytest.mark.parametrize("masked", [False, True], ids=["default", "masked"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_sb3_check_env(ruleset: str, masked: bool) -> None:
    env = SingleAgentEnv(ruleset=ruleset)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if masked:
            wrapped = MaskedGym(env)
            sb3_check_env(wrapped)
            assert wrapped.moves > 0 and wrapped.illegal == 0
        else:
            sb3_check_env(env)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_default_plays_end_for_an_illegal_action_and_says_so(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset)
    e.reset(seed=1)
    agent = e.agent_selection
    raw = e.unwrapped
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[-1])
    n = len(raw.battle.history)
    e.step(bad)
    assert raw.battle.history[n] == f"{agent}: end"
    assert e.infos[agent] == {"illegal_action": True}
    env = SingleAgentEnv(ruleset=ruleset)
    env.reset(seed=1)
    n = len(env.battle.history)
    *_, info = env.step(int(np.flatnonzero(~env.action_masks())[-1]))
    assert info["illegal_action"] is True
    assert env.battle.history[n].endswith(": end")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_masked_parallel_runs_are_the_same_for_the_same_seeds(ruleset: str) -> None:
    # PettingZoo's parallel_seed_test stops after one step (it tests any() of a dict's
    # keys), so this plays two whole fights side by side, sampled from the masks
    m = Made(ruleset, masked=True)
    runs = []
    for _ in range(2):
        e = m.parallel_env()
        out = [e.reset(seed=42)]
        for k, a in enumerate(e.possible_agents):
            e.action_space(a).seed(7 + k)
        while e.agents:
            out.append(e.step({a: e.action_space(a).sample() for a in e.agents}))
        runs.append((out, list(e.unwrapped.battle.history)))
    assert data_equivalence(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1] and len(runs[0][1]) > 20
    assert any(" attack" in h or " vats" in h for h in runs[0][1])  # a real fight
    m.check_played()
