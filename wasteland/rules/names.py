"""The rulesets' names, written once: the bestiary checks data against them, the registry
(rules/rulesets.py) maps them to the rulesets, the commands and configs accept them."""

from __future__ import annotations

from typing import Final, Literal, get_args

RulesetName = Literal["pnp", "f2d20", "simple"]
RULESETS: Final[tuple[str, ...]] = get_args(RulesetName)
