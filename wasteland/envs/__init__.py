"""The PettingZoo AEC env (combat_v0), the Gymnasium single-agent env, and the encoding of
battles as observation vectors and action masks. Nothing else in Wasteland knows about
vectors.

Importing this package registers the Gymnasium id ``Wasteland/Combat-v0`` (the
single-agent env; ``gymnasium.make_vec`` on it returns the batched env).
"""

from . import combat_v0
from .single_agent import ENV_ID, SingleAgentEnv, register

register()

__all__ = ["ENV_ID", "SingleAgentEnv", "combat_v0", "register"]
