"""The PettingZoo AEC env (combat_v0), the Gymnasium single-agent env and the batched one.
The observation they hand out is encoded by wasteland/observe, below them and the agents.

Importing this package registers the Gymnasium id ``Wasteland/Combat-v0`` (the
single-agent env; ``gymnasium.make_vec`` on it returns the batched env) and the benchmark
tasks, one a seat of the suite (``Wasteland/RadscorpionDuel-f2d20-v0``, ...; tasks.py,
docs/tasks.md).
"""

from . import combat_v0
from .single_agent import ENV_ID, SingleAgentEnv, register
from .tasks import register_tasks

register()
register_tasks()

__all__ = ["ENV_ID", "SingleAgentEnv", "combat_v0", "register", "register_tasks"]
