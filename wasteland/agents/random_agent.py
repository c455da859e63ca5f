"""Uniformly random among the legal actions, from its own seeded RNG."""

from __future__ import annotations

import random

from wasteland.rules.actions import ACTION_TABLE, Action

from .base import View


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.last_reason = ""

    def act(self, view: View) -> Action:
        ids = view.legal_ids
        self.last_reason = f"random pick among {len(ids)} legal actions"
        return ACTION_TABLE[ids[int(self.rng.random() * len(ids))]]
