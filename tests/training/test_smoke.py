"""MaskablePPO trained briefly beats the random agent (issue 2, item 9).

200 evaluation fights with fixed seeds; the trained policy must win with a Wilson 95%
lower bound above one half AND above the upper bound of a random policy playing the
same side against the same opponents, so a fluke cannot pass.
"""

from __future__ import annotations

import pytest

from wasteland.training.stats import wilson

pytest.importorskip("sb3_contrib")


def test_wilson_interval_known_values():
    lo, hi = wilson(184, 200)
    assert lo == pytest.approx(0.8740, abs=1e-4) and hi == pytest.approx(0.9502, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.slow
def test_maskable_ppo_beats_random_on_duel():
    from wasteland.training.train import evaluate, train

    model = train("duel", timesteps=20_000, seed=0, opponents="random")
    trained = evaluate(model, "duel", fights=200, first_seed=10_000, opponents="random")
    baseline = evaluate("random", "duel", fights=200, first_seed=10_000, opponents="random")
    lo, _ = trained.interval
    _, base_hi = baseline.interval
    assert lo > 0.5, trained.as_dict()
    assert lo > base_hi, (trained.as_dict(), baseline.as_dict())


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_evaluate_puts_any_agent_in_either_seat(ruleset):
    """Issue 10: the packet (or any agent) can be evaluated in the learner's seat, on either
    side, on the same seeds as a policy would be."""
    from wasteland.training.train import evaluate

    packet = evaluate("packet", "vault_corridor", ruleset, fights=30, learner=1,
                      opponents="random")
    rand = evaluate("random", "vault_corridor", ruleset, fights=30, learner=1,
                    opponents="random")
    assert packet.fights == rand.fights == 30
    assert packet.wins > rand.wins + 5  # the packet plays the radscorpions' seat better
    vault = evaluate("packet", "vault_corridor", ruleset, fights=30, learner=0,
                     opponents="packet")
    assert vault.wins + vault.losses + vault.draws == 30 and vault.wins > 0
