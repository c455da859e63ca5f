"""Train a MaskablePPO policy for one side of a scenario, and evaluate it.

Reads top to bottom: make the envs, train, evaluate against fixed seeds. Everything is
seeded, so the same arguments give the same policy on the same machine.

    python -m wasteland.training.train --scenario duel --timesteps 30000 --out duel.zip
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np

from .seats import Record

# the record of an evaluation: wins, losses and draws with their Wilson interval
Evaluation = Record


def make_env(scenario: str, ruleset: str = "pnp", learner: int | str = 0,
             opponents: str = "random", max_rounds: int | None = None,
             reward_shaping: float = 0.0) -> Any:
    from wasteland.envs.single_agent import SingleAgentEnv

    # MaskablePPO acts inside the mask: an illegal action is a bug to hear about
    return SingleAgentEnv(scenario=scenario, ruleset=ruleset, learner=learner,
                          opponents=opponents, max_rounds=max_rounds,
                          reward_shaping=reward_shaping, illegal_action="raise")


def train(scenario: str = "duel", ruleset: str = "pnp", timesteps: int = 20_000,
          seed: int = 0, learner: int | str = 0, opponents: str = "random",
          n_envs: int = 1, reward_shaping: float = 0.1, subproc: bool = False,
          verbose: int = 0) -> Any:
    # params: the baseline trainer's knobs, one per keyword, as scripts call it
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)  # small MLPs: threads cost more than they give
    vec = make_vec_env(
        make_env, n_envs=n_envs, seed=seed,
        env_kwargs={"scenario": scenario, "ruleset": ruleset, "learner": learner,
                    "opponents": opponents, "reward_shaping": reward_shaping},
        vec_env_cls=SubprocVecEnv if subproc else DummyVecEnv,
    )
    model = MaskablePPO("MlpPolicy", vec, seed=seed, verbose=verbose, n_steps=512,
                        batch_size=128, n_epochs=5, learning_rate=3e-4, gamma=0.99,
                        ent_coef=0.01, device="cpu")
    model.learn(total_timesteps=timesteps)
    vec.close()
    return model


def evaluate(policy: Any, scenario: str = "duel", ruleset: str = "pnp", fights: int = 200,
             first_seed: int = 10_000, learner: int | str = 0,
             opponents: str = "random") -> Evaluation:
    """Play ``fights`` battles with seeds first_seed.. with ``policy`` in the learner's
    seat (side ``learner``) against ``opponents``. ``policy`` is a MaskablePPO model
    (deterministic actions), an agent name ("random": uniform among legal actions,
    "packet", "scripted") or any Agent, so a baseline can sit in the same seat."""
    from wasteland.agents.base import intent_of, view_of
    from wasteland.agents.make import make_agent

    env = make_env(scenario, ruleset, learner, opponents)
    rng = np.random.default_rng(first_seed)
    agent = (make_agent(policy, first_seed) if isinstance(policy, str) and policy != "random"
             else policy if hasattr(policy, "act") else None)
    wins = losses = draws = 0
    for i in range(fights):
        obs, _ = env.reset(seed=first_seed + i)
        done = False
        while not done:
            mask = env.action_masks()
            if agent is not None:
                raw = env.unwrapped
                action = raw.env_action(intent_of(agent, agent.act(view_of(raw.ruleset,
                                                                           raw.battle))))
            elif policy == "random":
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                act, _ = policy.predict(obs, action_masks=mask, deterministic=True)
                action = int(act)
            obs, _, term, trunc, _ = env.step(action)
            done = term or trunc
        b = env.unwrapped.battle
        if b.winner is None:
            draws += 1
        elif b.winner == env.unwrapped.learner:
            wins += 1
        else:
            losses += 1
    env.close()
    return Evaluation(fights, wins, losses, draws)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="duel")
    p.add_argument("--ruleset", default="pnp")
    p.add_argument("--timesteps", type=int, default=30_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--learner", default="0")
    p.add_argument("--opponents", default="random")
    p.add_argument("--n-envs", type=int, default=1)
    p.add_argument("--eval-fights", type=int, default=200)
    p.add_argument("--out", default=None, help="save the model (.zip)")
    a = p.parse_args(argv)
    learner: int | str = int(a.learner) if a.learner.isdigit() else a.learner
    model = train(a.scenario, a.ruleset, a.timesteps, a.seed, learner, a.opponents, a.n_envs,
                  verbose=1)
    if a.out:
        model.save(a.out)
    trained = evaluate(model, a.scenario, a.ruleset, a.eval_fights, learner=learner,
                       opponents=a.opponents)
    baseline = evaluate("random", a.scenario, a.ruleset, a.eval_fights, learner=learner,
                        opponents=a.opponents)
    print(f"trained: {trained.as_dict()}")
    print(f"random : {baseline.as_dict()}")


if __name__ == "__main__":
    main()
