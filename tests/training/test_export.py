"""Export equivalence (issue 10, item 3): the numpy forward pass of an exported policy is
the torch policy's action logits, and PolicyAgent's argmax among legal actions is
MaskablePPO's deterministic prediction (egocentric ids translated to the table) on real
decisions of the league env."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from wasteland.agents.base import View, intent_of  # noqa: E402
from wasteland.agents.policy import PolicyAgent, load_policy  # noqa: E402
from wasteland.observe.encoding import Encoder, to_table  # noqa: E402
from wasteland.rules.actions import ACTION_INDEX  # noqa: E402
from wasteland.training.config import load_config  # noqa: E402

TINY = ["network=[16, 16]", "ppo.n_steps=64", "ppo.batch_size=32", "ppo.n_epochs=2", "n_envs=1"]


@pytest.fixture(scope="module", params=[("radscorpion_pnp", "tanh"), ("robot_f2d20", "relu")],
                ids=["radscorpion_pnp-tanh", "robot_f2d20-relu"])
def trained(request, tmp_path_factory):
    """A MaskablePPO trained a few hundred steps on the league env of a config, and the
    decisions of a league env played by it: (observation, mask, view, block order)."""
    from wasteland.training.export import policy_of
    from wasteland.training.league_env import LeagueEnv
    from wasteland.training.run import _new_model, _seed_all, _vec_env

    name, activation = request.param
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("export"))
    try:
        cfg = load_config(name, [*TINY, f"activation={activation}", "steps=256"])
        _seed_all(cfg.seed)
        vec = _vec_env(cfg)
        model = _new_model(cfg, vec, None)
        model.learn(256)
        vec.close()
        env = LeagueEnv(cfg)
        pol = policy_of(model, "tiny", cfg)
        obs, _ = env.reset(seed=123)
        steps = []
        battle = None
        while len(steps) < 300:
            inner = env.env
            b, R = inner.battle, inner.ruleset
            if b is not battle:
                # what an agent computes from the battle itself, remembering what its
                # combatants saw at their decisions, one agent and encoder per battle
                battle, enc, agent = b, Encoder(b, R), PolicyAgent(pol)
            dec = R.decider(b)
            view = View(b, R, dec, R.legal_ids(b))
            order = inner.order()
            mask = env.action_masks()
            ego, _ = model.predict(obs, action_masks=mask, deterministic=True)
            steps.append({
                "obs": obs.copy(), "mask": mask, "order": order, "legal": list(view.legal_ids),
                "ego": int(ego), "agent": ACTION_INDEX[intent_of(agent, agent.act(view))],
                "agent_order": enc.order(dec.combatant),
                "agent_obs": enc.observe(dec.combatant, dec, enc.order(dec.combatant)),
            })
            obs, _, term, trunc, _ = env.step(int(ego))
            if term or trunc:
                obs, _ = env.reset()
    finally:
        os.chdir(here)
    return cfg, model, steps


def torch_logits(model, obs):
    import torch

    x = torch.as_tensor(np.asarray(obs, dtype=np.float32))
    p = model.policy
    return p.action_net(p.mlp_extractor.forward_actor(x)).detach().numpy().astype(np.float64)


def test_numpy_logits_equal_the_torch_policy(trained, tmp_path):
    from wasteland.training.export import policy_of, write_policy

    cfg, model, steps = trained
    pol = policy_of(model, "tiny", cfg)
    assert pol.activation == cfg.activation and len(pol.weights) == len(cfg.network) + 1
    obs = np.stack([st["obs"] for st in steps])
    ours, theirs = pol.logits(obs), torch_logits(model, obs)
    assert ours.shape == theirs.shape == (len(steps), model.action_space.n)
    assert np.abs(ours - theirs).max() < 1e-5
    assert np.abs(theirs).max() > 1e-3  # not trivially zero
    for o in obs[:20]:  # one observation at a time too
        assert np.abs(pol.logits(o) - torch_logits(model, o[None])[0]).max() < 1e-5
    # and after writing and loading the files
    npz, _ = write_policy(pol, tmp_path / "out")
    back = load_policy(npz)
    assert np.abs(back.logits(obs) - theirs).max() < 1e-5
    assert back.manifest["config_hash"] == cfg.hash()
    assert back.manifest["steps"] == model.num_timesteps


def test_the_env_observation_is_what_the_agent_sees(trained):
    _, _, steps = trained
    for st in steps:
        assert st["agent_order"] == st["order"]
        assert np.array_equal(st["agent_obs"], st["obs"])


def test_policy_agent_argmax_is_the_model_prediction(trained):
    from wasteland.training.export import policy_of

    cfg, model, steps = trained
    pol = policy_of(model, "tiny", cfg)
    agree = 0
    for st in steps:
        ego, order = st["ego"], st["order"]
        assert st["mask"][ego]
        table = to_table(ego, order)
        assert table is not None and table in st["legal"]
        if table == st["agent"]:
            agree += 1
            continue
        # a near tie between float32 torch and float64 numpy may break either way
        z = pol.logits(st["obs"])
        other = [e for e in np.flatnonzero(st["mask"]) if to_table(int(e), order) == st["agent"]]
        assert other and abs(z[ego] - z[other[0]]) < 1e-5, (ego, table, st["agent"])
    assert agree >= len(steps) - 2
    assert len({st["agent"] for st in steps}) > 1  # more than one kind of move was compared
    assert sum(len(st["legal"]) > 1 for st in steps) > len(steps) // 2  # real choices
