"""How the envs refuse a call made wrongly: each a WastelandError (one line naming what is
wrong and what is accepted) and also the Python type a caller would catch for it, as
IllegalActionError is both a WastelandError and a ValueError."""

from __future__ import annotations

from wasteland.rules.errors import WastelandError


class ResetNeededError(WastelandError, RuntimeError):
    """A call that needs a battle (step, observe, order, action_text) made before reset(),
    or a step of a single-agent episode that has ended."""


class EnvArgumentTypeError(WastelandError, TypeError):
    """An argument of the wrong type: parallel step's actions not a dict by agent, an
    action id that is not an integer, a batch of actions that are not integers."""


class ActionIdError(WastelandError, IndexError, ValueError):
    """An action id outside the action table (0..N_ACTIONS - 1): an IndexError as an index
    off a list is, and a ValueError as an illegal action given to step is."""


class UnknownAgentError(WastelandError, KeyError):
    """An agent name the env does not have."""

    def __str__(self) -> str:  # KeyError's own would quote the message
        return str(self.args[0]) if self.args else ""
