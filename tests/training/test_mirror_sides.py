"""training/seats.py ``mirror``: the seat agent's side follows the seed, so a run cut into
blocks (benchmark_table's resumable blocks, policy_seats' workers) plays every fight as one
run of all the seeds does."""

from __future__ import annotations

from wasteland.bestiary.loader import load_scenario
from wasteland.training import seats


def test_the_mirror_side_is_the_seeds_parity_whatever_the_first_seed(monkeypatch) -> None:
    played: list[tuple[int, int]] = []

    def fake_fight(scenario, ruleset, seed, side, kinds, me, opp, **kw):
        played.append((seed, side))
        return side  # the seat side wins

    monkeypatch.setattr(seats, "fight", fake_fight)
    sc = load_scenario("duel")
    r = seats.mirror("packet", sc, "pnp", ["raider"], fights=3, first_seed=3)
    assert played == [(3, 1), (4, 0), (5, 1)]
    assert (r.wins, r.losses, r.draws) == (3, 0, 0)
    # two blocks add up to one run of the same seeds
    played.clear()
    seats.mirror("packet", sc, "pnp", ["raider"], fights=2, first_seed=0)
    seats.mirror("packet", sc, "pnp", ["raider"], fights=3, first_seed=2)
    one = list(played)
    played.clear()
    seats.mirror("packet", sc, "pnp", ["raider"], fights=5, first_seed=0)
    assert one == played
