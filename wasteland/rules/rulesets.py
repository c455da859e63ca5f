"""The registry of rulesets: a name to its Ruleset. It imports the three rulesets, and
nothing in them imports it back: the engine's own modules ask a battle for the ruleset it
holds (``Battle.rules``), and only code that starts from a name (a save, a command, a
config) comes here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .errors import WastelandError
from .f2d20 import F2d20
from .names import RULESETS
from .pnp import PnP
from .protocol import Ruleset
from .simple import Simple

MAKERS: Final[dict[str, Callable[[], Ruleset]]] = {"pnp": PnP, "f2d20": F2d20, "simple": Simple}


def get_ruleset(name: str) -> Ruleset:
    """A new Ruleset object of the ruleset named ``name``."""
    make = MAKERS.get(name)
    if make is None:
        raise WastelandError(f"unknown ruleset {name!r}; available: {', '.join(RULESETS)}")
    return make()
