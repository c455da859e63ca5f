"""The single-agent env's options beyond who fights where (issue 43): one frozen value,
checked when made, so the env's constructor is (scenario, ruleset, learner, opponents,
**options) and the keywords ``gymnasium.make``, the registered tasks and ``make_vec``
pass reach it by name as before.

A keyword that is no option is refused in one line naming it and the accepted ones
(Python's own "unexpected keyword argument" would not say what is accepted); a bad value
in one line too, as before (combat_v0's checks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from .combat_v0 import RENDER_MODES, check_options, real_option
from .errors import EnvArgumentTypeError

if TYPE_CHECKING:
    from wasteland.agents.base import Agent
    from wasteland.bestiary.loader import Bestiary

# what the constructor takes by name besides the options (the accepted words of the error)
NAMED = ("scenario", "ruleset", "learner", "opponents")


@dataclass(frozen=True)
class EnvOptions:
    """How the single-agent env plays and pays (its module docstring says each): the
    round limit (None: the scenario's), the reward's shaping and draw, what an illegal
    action does, the render mode, the bestiary, the creature kinds the learner decides
    for and the agent of the rest of its side, and the learner's sight."""

    max_rounds: int | None = None
    reward_shaping: float = 0.0
    illegal_action: str = "end"
    render_mode: str | None = None
    bestiary: Bestiary | None = None
    learner_kinds: Sequence[str] | None = None
    allies: str | Agent = "packet"
    draw_reward: float = 0.0
    sight: str = "own"

    def __post_init__(self) -> None:
        check_options(RENDER_MODES, self.render_mode, self.illegal_action, self.sight)
        # frozen: the checked values, as floats, set past the frozen guard
        object.__setattr__(self, "reward_shaping",
                           real_option("reward_shaping", self.reward_shaping, 0.0, 100.0))
        object.__setattr__(self, "draw_reward",
                           real_option("draw_reward", self.draw_reward, -1.0, 1.0))

    @classmethod
    def given(cls, options: Mapping[str, Any], who: str = "SingleAgentEnv") -> EnvOptions:
        """The options given as keywords; one line for a keyword that is none of them."""
        names = [f.name for f in fields(cls)]
        unknown = [k for k in options if k not in names]
        if unknown:
            raise EnvArgumentTypeError(
                f"{who}: unknown argument{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(repr, unknown))}; accepted: {', '.join([*NAMED, *names])}")
        return cls(**options)
