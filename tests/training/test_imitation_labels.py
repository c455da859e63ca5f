"""The warm start's labels (training/imitation.py collect): the packet in the learner's seat
chooses among the learner's own legal actions, the board as it knows it (observe/fog.py),
so every label is one the masked network may play, and an enemy out of sight is not
chased on its true square (issue 42: the mask holds no hidden information)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from wasteland.training.config import load_config  # noqa: E402
from wasteland.training.imitation import collect  # noqa: E402


def test_every_packet_label_is_inside_the_learners_mask() -> None:
    cfg = load_config("super_mutant_f2d20", ["n_envs=2", "vec_env=dummy"])
    data = collect(cfg, 400, seed=0)
    n = len(data["action"])
    assert n == 400
    assert data["mask"][np.arange(n), data["action"]].all()
    assert len(set(data["action"].tolist())) > 3  # real play, not one action over and over
