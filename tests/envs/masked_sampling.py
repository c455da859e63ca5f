"""Wrappers whose action spaces sample from the current action mask when asked for a
plain ``sample()``: PettingZoo's parallel_seed, max_cycles and state tests and the
Gymnasium and SB3 checkers sample without a mask, so through these they play real fights
instead of a run of illegal actions turned into ``end``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseParallelWrapper, BaseWrapper

from wasteland.rules.actions import N_ACTIONS


class MaskedDiscrete(spaces.Discrete):
    """The action table's Discrete space; ``sample()`` with no mask draws from
    ``mask_of()`` (all zeros - nobody's turn - gives 0, as Discrete does)."""

    def __init__(self, mask_of: Callable[[], np.ndarray]) -> None:
        super().__init__(N_ACTIONS)
        self._mask_of = mask_of

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            mask = np.asarray(self._mask_of(), dtype=np.int8)
        return super().sample(mask, probability)


def _aec_mask(raw: Any, agent: str) -> Callable[[], np.ndarray]:
    return lambda: raw.observe(agent)["action_mask"]


class _MaskedSpaces:
    """Each agent's action space a MaskedDiscrete of its own mask, and the counts of the
    actions played (``moves``) and of those the env had to replace (``illegal``), so a
    test can tell real play from a run of fallbacks (the AEC and the parallel wrappers)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)  # the PettingZoo wrapper that follows this in the bases
        raw = env.unwrapped
        self._spaces = {a: MaskedDiscrete(_aec_mask(raw, a)) for a in env.possible_agents}
        self.moves = self.illegal = 0

    def action_space(self, agent: str) -> spaces.Space:
        return self._spaces[agent]


class MaskedAEC(_MaskedSpaces, BaseWrapper):
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        super().step(action)
        if action is not None:
            self.moves += 1
            self.illegal += bool(self.env.unwrapped.infos.get(agent, {}).get("illegal_action"))


class MaskedParallel(_MaskedSpaces, BaseParallelWrapper):
    def step(self, actions: dict[str, Any]) -> Any:
        out = super().step(actions)
        self.moves += bool(out[0])
        self.illegal += sum(bool(i.get("illegal_action")) for i in out[4].values())
        return out


class MaskedGym(gymnasium.Wrapper, gymnasium.utils.RecordConstructorArgs):
    """The single-agent env with ``action_space.sample()`` inside ``action_masks()``
    (recorded in the spec, so Gymnasium's checker can remake it per render mode)."""

    def __init__(self, env: gymnasium.Env) -> None:
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        super().__init__(env)
        self.action_space = MaskedDiscrete(env.unwrapped.action_masks)  # type: ignore[attr-defined]
        self.moves = self.illegal = 0

    def step(self, action: Any) -> Any:
        out = super().step(action)
        self.moves += 1
        self.illegal += bool(out[4].get("illegal_action"))
        return out
