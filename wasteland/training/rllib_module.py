"""RLlib's default PPO module with action masking: the networks see ``observations``,
the logits of actions outside ``action_mask`` drop to RLlib's FLOAT_MIN.

RLlib ships the same idea as an example (examples/rl_modules/classes/action_masking_rlm.py)
on a base class it has deprecated; this one rests on DefaultPPOTorchRLModule and does not
rewrite the batch in place, so a batch seen twice (values, then training) reads the same.
"""

from __future__ import annotations

from typing import Any

from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN


class MaskedPPOModule(DefaultPPOTorchRLModule):
    def __init__(self, *args: Any, observation_space: Any = None, **kwargs: Any) -> None:
        # the catalog builds the encoders for the observation alone, without the mask
        self._with_mask = observation_space
        inner = observation_space["observations"] if observation_space is not None else None
        super().__init__(*args, observation_space=inner, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self._with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            raise ValueError("MaskedPPOModule needs observations of the form "
                             "{'observations': ..., 'action_mask': ...}")
        inner = dict(batch)
        inner[Columns.OBS] = obs["observations"]
        return obs["action_mask"], inner

    @staticmethod
    def _mask(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        import torch

        out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(
            torch.log(mask), min=FLOAT_MIN)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None:
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)
