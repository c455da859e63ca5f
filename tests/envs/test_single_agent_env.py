"""The Gymnasium single-agent env: Gymnasium's checker, masks, opponents, rewards, and
sb3-contrib's MaskablePPO through DummyVecEnv and SubprocVecEnv."""

from __future__ import annotations

import functools

import gymnasium
import numpy as np
import pytest

from wasteland.agents import RandomAgent, ScriptedAgent
from wasteland.bestiary.models import Placement, Scenario, Side
from wasteland.envs import ENV_ID, SingleAgentEnv
from wasteland.observe.encoding import OBS_SIZE, ego_ids, to_table
from wasteland.rules.actions import ACTION_INDEX, N_ACTIONS, Action
from wasteland.rules.errors import IllegalActionError, WastelandError
from wasteland.rules.names import RULESETS

END = ACTION_INDEX[Action("end")]


def two_on_two() -> Scenario:
    return Scenario(
        id="two_on_two", name="Two on two", legend={".": "floor", "#": "wall"},
        map="\n".join(["############", "#..........#", "#..........#", "############"]),
        sides=[
            Side(name="Vault", combatants=[
                Placement(creature="vault_dweller", at=(1, 1), id="ted"),
                Placement(creature="vault_dweller", at=(1, 2), id="amy")]),
            Side(name="Radscorpions", combatants=[
                Placement(creature="radscorpion", at=(10, 1)),
                Placement(creature="radscorpion", at=(10, 2))]),
        ],
    )


def play(env: SingleAgentEnv, rng: np.random.Generator, check=None):
    obs, info = env.reset(seed=int(rng.integers(1000)))
    total = 0.0
    while True:
        if check is not None:
            check(env, obs, info)
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        total += reward
        if term or trunc:
            return total, term, trunc, info


# Gymnasium's and SB3's check_env at the defaults: tests/envs/test_standard_checks.py


@pytest.mark.parametrize("ruleset", RULESETS)
def test_spaces(ruleset: str) -> None:
    env = SingleAgentEnv(ruleset=ruleset)
    assert env.observation_space.shape == (OBS_SIZE,)
    assert env.observation_space.dtype == np.float32
    assert env.action_space.n == N_ACTIONS
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space


@pytest.mark.parametrize("ruleset", RULESETS)
def test_mask_is_the_learners_legal_ids(ruleset: str) -> None:
    env = SingleAgentEnv(scenario=two_on_two(), ruleset=ruleset, opponents="random")
    learners = {"ted", "amy"}
    seen = set()

    def check(e, obs, info) -> None:
        b = e.battle
        dec = e.ruleset.decider(b)
        assert b.ids[dec.combatant] == info["agent"] in learners
        seen.add(info["agent"])
        m = e.action_masks()
        assert m.dtype == np.bool_
        order = e.order()
        assert order[0] == dec.combatant and sorted(order) == list(range(len(b.combatants)))
        legal = e.ruleset.legal_ids(b)
        assert np.flatnonzero(m).tolist() == sorted(ego_ids(legal, order)) == sorted(e.legal_ids())
        assert sorted(to_table(i, order) for i in np.flatnonzero(m)) == sorted(legal)
        assert obs in e.observation_space

    rng = np.random.default_rng(0)
    for _ in range(3):
        play(env, rng, check)
    assert seen == learners  # one policy drives each learner combatant in turn


def test_illegal_action_raises_one_line() -> None:
    env = SingleAgentEnv(illegal_action="raise")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[-1])
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    assert "\n" not in str(err.value) and "legal: end" in str(err.value)
    with pytest.raises(IllegalActionError):
        env.step(N_ACTIONS + 5)


def test_illegal_action_end() -> None:
    env = SingleAgentEnv(illegal_action="end")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[-1])
    n = len(env.battle.history)
    *_, info = env.step(bad)
    assert info["illegal_action"] is True
    assert env.battle.history[n].endswith(": end")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_outcome_rewards_and_draws(ruleset: str) -> None:
    rng = np.random.default_rng(1)
    outcomes = set()
    for _ in range(6):
        env = SingleAgentEnv(ruleset=ruleset, opponents="scripted")
        total, term, trunc, info = play(env, rng)
        b = env.battle
        if b.winner is None:
            assert total == 0.0 and trunc and not term
        else:
            assert term and not trunc
            assert total == (1.0 if b.winner == env.learner else -1.0)
            assert info["winner"] == b.side_names[b.winner]
        outcomes.add(total)
    draw = SingleAgentEnv(ruleset=ruleset, max_rounds=1, opponents="random")
    draw.reset(seed=0)
    while True:  # end every turn (and take the cheapest choice in a 2d20 window)
        *_, reward, term, trunc, info = draw.step(int(np.flatnonzero(draw.action_masks())[0]))
        if term or trunc:
            break
    if draw.battle.winner is None:
        assert trunc and not term and reward == 0.0 and info["reason"] == "max_rounds"
    assert outcomes


def test_learner_by_side_name_and_opponent_specs() -> None:
    env = SingleAgentEnv(scenario=two_on_two(), learner="Radscorpions",
                         opponents={"ted": "random", "amy": ScriptedAgent()})
    assert env.learner == 1
    env2 = SingleAgentEnv(scenario=two_on_two(), learner=1,
                          opponents=[RandomAgent(3), "scripted"])
    env2.reset(seed=0)
    assert env2.battle.combatants[env2._decision.combatant].side == 1
    with pytest.raises(WastelandError):
        SingleAgentEnv(learner="Mutants")
    with pytest.raises(WastelandError):
        SingleAgentEnv(scenario=two_on_two(), opponents=["random"])
    with pytest.raises(WastelandError):
        SingleAgentEnv(opponents="genius")
    with pytest.raises(WastelandError):
        SingleAgentEnv(opponents={"nobody": "random"})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reset_seeds_battle_and_opponents(ruleset: str) -> None:
    def run(seed: int) -> list[str]:
        env = SingleAgentEnv(ruleset=ruleset, opponents="random")
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        for _ in range(30):
            *_, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if term or trunc:
                break
        return env.battle.history

    assert run(5) == run(5)
    assert run(5) != run(6)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reward_shaping(ruleset: str) -> None:
    env = SingleAgentEnv(scenario=two_on_two(), ruleset=ruleset, reward_shaping=0.5)
    total, *_ = play(env, np.random.default_rng(2))
    b = env.battle
    learners = [c for c in b.combatants if c.side == env.learner]
    shaped = sum(0.5 * (c.damage_dealt - c.damage_taken) / c.max_hp for c in learners)
    assert shaped
    outcome = 0.0 if b.winner is None else (1.0 if b.winner == env.learner else -1.0)
    assert total == pytest.approx(outcome + shaped)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_render(ruleset: str) -> None:
    env = SingleAgentEnv(ruleset=ruleset, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "HP" in text
    assert ("AP pools: " in text and "Zone cover: " in text) == (ruleset == "f2d20")


# --- sb3-contrib ---------------------------------------------------------------------
def test_maskable_ppo_predicts_only_legal_actions() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = DummyVecEnv([functools.partial(SingleAgentEnv, opponents="random")])
    venv.seed(0)
    assert is_masking_supported(venv)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, seed=0, device="cpu")
    obs = venv.reset()
    episodes = 0
    for _ in range(300):
        masks = get_action_masks(venv)
        assert masks.shape == (1, N_ACTIONS) and masks.dtype == np.bool_
        action, _ = model.predict(obs, action_masks=masks)
        assert masks[0, action[0]]
        obs, _, dones, _ = venv.step(action)  # the env raises on an illegal action
        episodes += int(dones[0])
    assert episodes >= 1
    model.learn(64)  # a couple of masked updates run


def test_subproc_vec_env_action_masks() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = SubprocVecEnv([functools.partial(SingleAgentEnv, opponents="scripted")] * 2)
    try:
        venv.seed(0)
        venv.reset()
        assert is_masking_supported(venv)
        for _ in range(20):
            masks = get_action_masks(venv)
            assert masks.shape == (2, N_ACTIONS) and masks.dtype == np.bool_
            assert masks[:, END].all()
            actions = np.array([np.flatnonzero(m)[-1] for m in masks])
            venv.step(actions)
    finally:
        venv.close()


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_masks_reach_the_caller_through_gymnasium_make(ruleset: str) -> None:
    """Issue 10: Gymnasium 1.x wrappers do not forward action_masks(); every info carries
    the mask, equal to the env's own, through reset, steps and the end of the battle."""
    env = gymnasium.make(ENV_ID, ruleset=ruleset, scenario="duel", opponents="scripted")
    obs, info = env.reset(seed=3)
    steps = 0
    done = False
    while not done:
        mask = info["action_mask"]
        assert mask.dtype == np.bool_ and mask.shape == (N_ACTIONS,)
        assert np.array_equal(mask, env.unwrapped.action_masks())
        action = int(np.flatnonzero(mask)[-1])
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    assert steps > 3 and np.array_equal(info["action_mask"], env.unwrapped.action_masks())
    env.close()
