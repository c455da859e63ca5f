"""training/cut_value.py: the cut value's states are read where the search cuts (the
horizon's rounds after the candidate) and labelled by the same fork played on to the end."""

from __future__ import annotations

import numpy as np
import pytest

from wasteland.agents.base import view_of
from wasteland.agents.valuenet import N_FEATURES
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.rulesets import get_ruleset
from wasteland.training import cut_value


def _decision(ruleset: str, seed: int):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("ruined_street"), seed, keep_log=False)
    b.quiet = True
    return rs, b, view_of(rs, b)


@pytest.mark.parametrize("horizon", [1, 2])
def test_features_are_read_at_the_cut_and_the_label_is_the_same_forks_end(monkeypatch,
                                                                          horizon) -> None:
    rs, b, v = _decision("f2d20", 3)
    start = b.round
    seen: list[tuple[int, bool]] = []
    ends: list[object] = []
    real_features = cut_value.value_features
    real_play = cut_value.loop.play

    def features(f, side):
        seen.append((f.round, f.over))
        return real_features(f, side)

    def play(rs_, f, seats, **kw):
        got = real_play(rs_, f, seats, **kw)
        if kw.get("stop") is None:
            ends.append(f.winner)
        return got

    monkeypatch.setattr(cut_value, "value_features", features)
    monkeypatch.setattr(cut_value.loop, "play", play)
    first, plan = cut_value.arms(v, 11)[0]
    got = cut_value.cut_and_finish(rs, b, first, plan, v.me.slot, 11, horizon)
    assert got is not None
    xs, old, labels = got
    assert [r for r, _ in seen] == [start + horizon] * len(b.side_names)
    assert not any(over for _, over in seen)
    assert len(ends) == 1
    assert labels == [float(ends[0] == s) for s in range(len(b.side_names))]
    assert all(x.shape == (N_FEATURES,) for x in xs)
    assert all(0.0 <= o <= 1.0 for o in old)
    assert b.round == start and not b.over  # the fight itself is not touched


def test_the_packets_choice_leads_the_arms_and_the_rest_differ() -> None:
    _, _, v = _decision("f2d20", 5)
    options = cut_value.arms(v, 7)
    from wasteland.agents.packets import PacketAgent
    from wasteland.rules.actions import ACTION_INDEX

    assert options[0] == (ACTION_INDEX[PacketAgent(7).act(v)], None)
    assert len({a for a, _ in options}) == len(options) <= cut_value.ARMS
    assert set(a for a, _ in options) <= set(v.legal_ids)


def test_generation_is_a_function_of_its_seeds() -> None:
    sc = load_scenario("duel")
    one = cut_value.generate("f2d20", [sc], 2, 40, 2)
    two = cut_value.generate("f2d20", [sc], 2, 40, 2)
    assert one["X"].shape[1] == N_FEATURES and len(one["y"]) > 0
    assert np.array_equal(one["X"], two["X"]) and np.array_equal(one["y"], two["y"])
    # each cut state is read from both sides: at most one of the pair won
    pairs = one["y"].reshape(-1, 2)
    assert (pairs.sum(axis=1) <= 1).all()
    assert set(one["fight"].tolist()) <= {0, 1}


def test_bad_arguments_are_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        cut_value.main(["--rulesets", "chess", "--out", "x"])
    assert e.value.code == 2
    assert "--rulesets: pnp, f2d20, simple" in capsys.readouterr().err.strip().splitlines()[-1]
