"""The teacher's share of the moves in each round of expert iteration (issue 39, item 8:
"the teacher share halved one round early" survived every test when planted). The
rounds are run with the labelling and the fit replaced by recorders, so the schedule that
expert_iteration really passes on is pinned round by round, whichever line computes it."""

from __future__ import annotations

import numpy as np
import pytest

from wasteland.training import expert, imitation
from wasteland.training.config import load_config


def _rounds(monkeypatch: pytest.MonkeyPatch, beta: float, iterations: int
            ) -> list[tuple[object, float]]:
    cfg = load_config("radscorpion_pnp", ["algorithm=expert_iteration", "expert.teacher=packet",
                                          f"expert.beta={beta}",
                                          f"expert.iterations={iterations}"])
    seen: list[tuple[object, float]] = []

    def label_parallel(cfg, policy, decisions, seed, share):  # type: ignore[no-untyped-def]
        seen.append((policy, share))
        return {"obs": np.zeros((1, 2), np.float32), "mask": np.ones((1, 2), bool),
                "action": np.zeros(1, np.int64), "ret": np.zeros(1, np.float32)}

    monkeypatch.setattr(expert, "label_parallel", label_parallel)
    monkeypatch.setattr(imitation, "warm_start", lambda *a, **k: {"agreement": 1.0})
    stats = expert.expert_iteration(cfg, "model", lambda m: f"network of {m}")
    assert stats["labelled"] == iterations  # each round added its label to the earlier ones
    return seen


@pytest.mark.parametrize("beta, shares", [
    (0.5, [1.0, 0.5, 0.25, 0.125, 0.0625]),
    (0.8, [1.0, 0.8, 0.4, 0.2, 0.1]),
    (1.0, [1.0, 1.0, 0.5, 0.25, 0.125]),
    (0.0, [1.0, 0.0, 0.0, 0.0, 0.0]),
])
def test_the_teacher_plays_round_one_then_beta_halved_each_round_after(monkeypatch, beta,
                                                                        shares):
    seen = _rounds(monkeypatch, beta, len(shares))
    assert [s for _, s in seen] == pytest.approx(shares, rel=1e-12, abs=0)
    # round one has no network: the teacher alone; every later round plays the network
    assert [p for p, _ in seen] == [None] + ["network of model"] * (len(shares) - 1)
    assert [expert.teacher_share(beta, i) for i in range(len(shares))] == pytest.approx(
        shares, rel=1e-12, abs=0)


def test_one_round_is_the_teacher_s_own_play(monkeypatch):
    assert _rounds(monkeypatch, 0.5, 1) == [(None, 1.0)]
