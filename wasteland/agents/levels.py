"""Difficulty levels a GM picks (``--ai hard``): names for agents from a sloppy packet
through the packet to search budgets. ``wasteland agents`` lists each with its measured
strength and time a decision (docs/search.md has the table and how it was measured)."""

from __future__ import annotations

import random
from typing import Final

from wasteland.rules.actions import ACTION_TABLE, Action

from .base import LEVEL_AGENTS, View
from .search import parse_budget

# what a GM can expect of each level; the agent each stands for is base.LEVEL_AGENTS
# said from the budget itself, so that the words follow a change of the level
_DEADLY_2D20: Final = parse_budget("search:level=deadly").under("f2d20")
MEANING: Final[dict[str, str]] = {
    "easy": "the packet's tactics, but a third of its choices are random",
    "normal": "the scripted AI packets (Fallout 2's AI.TXT fields)",
    "hard": "the packet's choice checked against up to 5 other plans by 48 continuations "
            "(2d20: 20 played to the end, whole turns, the shipped policies guiding)",
    "deadly": ("up to 9 other plans (Simple and 2d20: then single actions), 128 "
               f"continuations (2d20: bought by work, {_DEADLY_2D20.rollouts} or more on a "
               f"4v4 map, cut at {_DEADLY_2D20.horizon} rounds and judged by the learned "
               f"value while more than {_DEADLY_2D20.full} stand)"),
}
LEVELS: Final[dict[str, tuple[str, str]]] = {k: (LEVEL_AGENTS[k], MEANING[k]) for k in LEVEL_AGENTS}
SLOPPY_SHARE = 1 / 3


class SloppyAgent:
    """The packet, except that a third of its decisions (its own coin) are a random legal
    action: enemies that make mistakes. ``rng`` is its only random state."""

    name = kind = "sloppy"

    def __init__(self, seed: int = 0) -> None:
        from .packets import PacketAgent

        self.rng = random.Random(seed)
        self.last_reason = ""
        self._packet = PacketAgent

    def act(self, view: View) -> Action:
        ids = view.legal_ids
        seed = self.rng.getrandbits(62)
        if len(ids) > 1 and self.rng.random() < SLOPPY_SHARE:
            self.last_reason = f"sloppy: a random pick among {len(ids)} legal actions"
            return ACTION_TABLE[ids[int(self.rng.random() * len(ids))]]
        packet = self._packet(seed)
        action = packet.act(view)
        self.last_reason = packet.last_reason
        return action


# measured by benchmarks/levels.py (docs/search.md) on 2026-12-02: per level, its openskill
# mu in `evaluate`'s round robin of the four on the seat suite's PnP maps (180 games), and
# the mean seconds of a decision on ruined_street states under PnP
MEASURED: Final[dict[str, tuple[float, float]]] = {
    "easy": (11.0, 0.0),  # under 1 ms: the benchmark printed 0.000 s
    "normal": (27.3, 0.0),
    "hard": (29.9, 0.034),
    # its rating from 160 continuations; its time at today's 128 (benchmarks/search.py
    # --seats ruined_street:pnp:1 --agent deadly, 2026-12-05: 0.059 s; at 160 it was 0.150)
    "deadly": (33.6, 0.059),
}


def measured(level: str) -> str:
    """The level's measured strength and time a decision, as `wasteland agents` says it."""
    if level not in MEASURED:
        return ""
    rating, seconds = MEASURED[level]
    took = "under 1 ms" if seconds < 0.0005 else f"{seconds * 1000:.0f} ms"
    return f"; rating {rating:.1f}, {took} a decision"
