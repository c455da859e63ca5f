"""PPO held near its teacher while it learns: a cross-entropy toward the packet's choices
on the warm-start states is added to the gradient of every PPO minibatch, with a weight
annealed linearly to 0 (``imitation.anchor``, ``imitation.anchor_until``). For a
deterministic teacher this is the KL penalty toward it (issue 25, item 3), in place of a
warm start that PPO is free to forget: without it, a policy that learns to win the arenas
could drift from the packet's play where the packet was right (robot_f2d20 left its
cover in the tram platform seat, training-notes.md).

The term rides on the policy optimizer's step (a pre-step hook), so it shares Adam's
moments and learning rate with PPO's own loss, as one summed loss would; it is added after
PPO has clipped its gradient norm."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


class Anchor:
    """The anchor on ``model``'s policy optimizer for ``data`` (the warm start's obs, mask,
    action arrays); ``progress`` (0..1 of the training steps) sets its weight."""

    def __init__(self, model: Any, data: dict[str, np.ndarray], weight: float, until: float,
                 batch: int = 256, seed: int = 0) -> None:
        import torch

        self.pol = model.policy
        self.obs = torch.as_tensor(data["obs"])
        self.mask = torch.as_tensor(data["mask"])
        self.act = torch.as_tensor(data["action"])
        self.weight, self.until, self.batch = float(weight), float(until), batch
        self.progress = 0.0
        self.last_ce = math.nan
        self.generator = torch.Generator().manual_seed(seed)
        self.handle = self.pol.optimizer.register_step_pre_hook(self._before_step)

    def coefficient(self) -> float:
        return self.weight * max(0.0, 1.0 - self.progress / self.until)

    def _before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        c = self.coefficient()
        if c <= 0 or not len(self.act):
            return
        import torch

        from .imitation import masked_forward

        idx = torch.randint(len(self.act), (self.batch,), generator=self.generator)
        with torch.enable_grad():
            logits, _ = masked_forward(self.pol, self.obs[idx], self.mask[idx])
            ce = torch.nn.functional.cross_entropy(logits, self.act[idx])
            (c * ce).backward()
        self.last_ce = float(ce.detach())

    def close(self) -> None:
        self.handle.remove()
