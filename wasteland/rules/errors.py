"""Typed errors of the engine; each message is one line a user can act on."""

import difflib
from collections.abc import Iterable


class WastelandError(Exception):
    """Base of every error Wasteland reports to a user as one line."""


class NotationError(WastelandError, ValueError):
    """A dice or action notation that does not parse."""


class IllegalActionError(WastelandError, ValueError):
    """An action that the ruleset does not allow in the current state."""


class BattleOverError(WastelandError, ValueError):
    """A question only a battle in progress can answer (whose decision it is), asked of
    one that is over."""


def battle_over(winner: int | None, side_names: list[str]) -> BattleOverError:
    """The error a finished battle answers "whose decision is it?" with."""
    result = "a draw" if winner is None else f"{side_names[winner]} won"
    return BattleOverError(f"the battle is over ({result}); nobody decides")


class SaveError(WastelandError, ValueError):
    """A saved battle that cannot be loaded."""


def one_line(text: str) -> str:
    """A message that quotes a file's own text stays one line whatever the text holds."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


ECHO_MAX = 120


def clip(text: str, limit: int = ECHO_MAX) -> str:
    """``text`` as one line of at most about ``limit`` characters, for echoing what a user
    typed: a pasted megabyte is named by its length, not printed back whole."""
    text = one_line(text.strip())
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'super_mutant'?)`` for a name close to a known one (a typo, a
    missing underscore), else ''; to follow the unknown name in a message."""
    close = difflib.get_close_matches(name.lower(), list(known), n=2, cutoff=0.8)
    if not close:
        return ""
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)"
