"""Typed errors of the engine; each message is one line a user can act on."""


class WastelandError(Exception):
    """Base of every error Wasteland reports to a user as one line."""


class NotationError(WastelandError, ValueError):
    """A dice or action notation that does not parse."""


class IllegalActionError(WastelandError, ValueError):
    """An action that the ruleset does not allow in the current state."""


class SaveError(WastelandError, ValueError):
    """A saved battle that cannot be loaded."""
