"""stable-baselines3's VecEnv over a BattleBatch (wasteland/envs/batched.py): N battles in
one process or spread over worker processes, stepped into shared arrays, with
``action_masks()`` so sb3-contrib's MaskablePPO collects rollouts from it as is.

Unlike DummyVecEnv it does not deep-copy every env's info dict on every step (only the
battles that ended send one), and unlike SubprocVecEnv it sends one message per worker,
not one per env, and the observations and masks never go through a pipe."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

from wasteland.envs.batched import BattleBatch, EnvFn


class BatchedVecEnv(VecEnv):
    def __init__(self, env_fns: Sequence[EnvFn], workers: int = 0) -> None:
        self.batch = BattleBatch(env_fns, workers)
        super().__init__(self.batch.n, self.batch.observation_space, self.batch.action_space)

    def reset(self) -> np.ndarray:
        b = self.batch
        b._seeds = [None if s is None else int(s) for s in self._seeds]
        opts = [o for o in self._options if o]
        self.reset_infos = b.reset(opts[0] if opts else None)
        self._reset_seeds()
        self._reset_options()
        return b.a.obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        b = self.batch
        ended = b.step(self._actions)
        a = b.a
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, info in ended:
            self.reset_infos[i] = info.pop("reset_info", {})
            infos[i] = info
        return a.obs.copy(), a.rewards.copy(), a.terminated | a.truncated, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env's current decision (MaskablePPO's hook)."""
        return self.batch.a.masks.copy()

    def close(self) -> None:
        self.batch.close()

    def has_attr(self, attr_name: str) -> bool:
        # asked in the workers: a bound method (SB3's default check fetches it) would
        # drag its whole env through the pipe
        return self.batch.has_attr(attr_name)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self.batch.get_attr(attr_name, self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self.batch.set_attr(attr_name, value, self._indices(indices))

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks":  # the arrays already hold them
            return list(self.action_masks()[self._indices(indices)])
        return self.batch.call(method_name, *method_args, indices=self._indices(indices),
                               **method_kwargs)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        # asked where the envs live: evaluate_policy reads a Monitor's episodes when there is one
        return self.batch.is_wrapped(wrapper_class, self._indices(indices))

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return [int(i) for i in indices]


def update_threads(cores: int) -> Any:
    """An SB3 callback for training on the batched env: torch gets one thread while the
    workers collect a rollout (they need the cores) and ``cores`` threads for the updates
    in between (the workers wait then)."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    class UpdateThreads(BaseCallback):
        def _on_rollout_start(self) -> None:
            torch.set_num_threads(1)

        def _on_rollout_end(self) -> None:
            torch.set_num_threads(max(1, cores))

        def _on_step(self) -> bool:
            return True

        def _on_training_end(self) -> None:
            torch.set_num_threads(1)

    return UpdateThreads()
