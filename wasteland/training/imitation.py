"""A warm start by imitation: the packet plays the learner's seat in the league env for a
number of decisions, and the fresh network learns to choose what the packet chose (masked
cross-entropy) and to predict the discounted return from there (the value head), before
PPO starts. PPO then starts from a policy as good as the packet, with a value function
that already knows what a position is worth, instead of from random play.

Measured on radscorpion_pnp: PPO from scratch was still at or below the packet in its
seat after 200,000 steps (duel 20% vs 20%, vault_corridor 0% vs 13%); see
docs/training.md for what the warm start changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wasteland.agents.base import View, intent_of
from wasteland.agents.packets import PacketAgent
from wasteland.rules.actions import N_ACTIONS

from .config import TrainConfig


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """The discounted return from each step of an episode's rewards."""
    g = 0.0
    out = []
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]


def collect(cfg: TrainConfig, decisions: int, seed: int) -> dict[str, np.ndarray]:
    """``decisions`` of the packet in the learner's seat: observations, masks, the packet's
    egocentric action ids and the discounted returns that followed."""
    from .league_env import LeagueEnv

    env = LeagueEnv(cfg)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    obs_l: list[np.ndarray] = []
    mask_l: list[np.ndarray] = []
    act_l: list[int] = []
    ret_l: list[float] = []
    episode_rewards: list[float] = []
    packet = PacketAgent(int(rng.integers(2**31 - 1)))
    obs, _ = env.reset(seed=int(rng.integers(2**31 - 1)))
    gamma = cfg.ppo.gamma
    while len(act_l) < decisions:
        inner = env.env
        assert inner is not None and inner.battle is not None and inner._decision is not None
        # the packet chooses among the learner's own legal actions (its mask: the board as
        # it knows it, observe/fog.py), so every label is one the network may play
        view = View(inner.battle, inner.ruleset, inner._decision, list(inner._legal))
        a = inner.env_action(intent_of(packet, packet.act(view)))
        obs_l.append(obs)
        mask_l.append(env.action_masks())
        act_l.append(a)
        obs, reward, term, trunc, _ = env.step(a)
        episode_rewards.append(float(reward))
        if term or trunc:
            ret_l.extend(discounted(episode_rewards, gamma))
            episode_rewards = []
            packet = PacketAgent(int(rng.integers(2**31 - 1)))
            obs, _ = env.reset()
    ret_l.extend(discounted(episode_rewards, gamma))  # the unfinished episode: partial returns
    n = len(act_l)
    return {"obs": np.asarray(obs_l, dtype=np.float32), "mask": np.asarray(mask_l, dtype=bool),
            "action": np.asarray(act_l, dtype=np.int64), "ret": np.asarray(ret_l[:n], dtype=np.float32)}


def masked_forward(pol: Any, obs: Any, mask: Any) -> tuple[Any, Any]:
    """A MaskablePPO policy's logits (illegal actions at the float minimum) and values for
    a batch of observations."""
    import torch

    feats = pol.extract_features(obs)
    if isinstance(feats, tuple):
        feats = feats[0]
    latent_pi, latent_vf = pol.mlp_extractor(feats)
    logits = pol.action_net(latent_pi)
    neg = torch.finfo(logits.dtype).min
    logits = torch.where(mask, logits, torch.full_like(logits, neg))
    return logits, pol.value_net(latent_vf).squeeze(-1)


def warm_start(model: Any, data: dict[str, np.ndarray], epochs: int, batch: int = 512,
               lr: float = 1e-3, seed: int = 0) -> dict[str, float]:
    """Fit ``model.policy`` (a MaskablePPO policy) to the packet's choices and returns.
    Returns the final agreement with the packet (argmax among legal actions) and the
    value loss."""
    import torch

    pol = model.policy
    opt = torch.optim.Adam(pol.parameters(), lr=lr)
    obs = torch.as_tensor(data["obs"])
    mask = torch.as_tensor(data["mask"])
    act = torch.as_tensor(data["action"])
    ret = torch.as_tensor(data["ret"])
    n = len(act)
    g = torch.Generator().manual_seed(seed)

    def forward(idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return masked_forward(pol, obs[idx], mask[idx])

    vloss = 0.0
    for _ in range(epochs):
        perm = torch.randperm(n, generator=g)
        for k in range(0, n, batch):
            idx = perm[k:k + batch]
            logits, value = forward(idx)
            ce = torch.nn.functional.cross_entropy(logits, act[idx])
            vl = torch.nn.functional.mse_loss(value, ret[idx])
            loss = ce + 0.5 * vl
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(pol.parameters(), 1.0)
            opt.step()
            vloss = float(vl.detach())
    with torch.no_grad():
        agree = 0
        for k in range(0, n, 4096):
            idx = torch.arange(k, min(n, k + 4096))
            logits, _ = forward(idx)
            agree += int((logits.argmax(-1) == act[idx]).sum())
    assert N_ACTIONS == data["mask"].shape[1]
    return {"agreement": agree / max(1, n), "value_loss": vloss, "decisions": float(n)}
