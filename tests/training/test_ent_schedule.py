"""ppo.ent_coef_final: the entropy bonus moves linearly from ppo.ent_coef to it over the
run, set before each PPO update and logged; configs without it keep their hash (the
shipped policies' manifests)."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

from wasteland.training.config import PPO, load_config  # noqa: E402

from .kit import TINY_TRAIN, cli, tb_scalars  # noqa: E402


def test_the_bonus_moves_linearly_and_stops_at_the_ends() -> None:
    p = PPO(ent_coef=0.05, ent_coef_final=0.01)
    assert p.ent_coef_at(0.0) == pytest.approx(0.05)
    assert p.ent_coef_at(0.25) == pytest.approx(0.04)
    assert p.ent_coef_at(1.0) == pytest.approx(0.01)
    assert p.ent_coef_at(1.5) == pytest.approx(0.01)
    assert p.ent_coef_at(-1.0) == pytest.approx(0.05)
    assert PPO(ent_coef=0.03).ent_coef_at(0.7) == pytest.approx(0.03)


def test_configs_without_it_keep_their_hash_and_a_set_one_changes_it() -> None:
    plain = load_config("radscorpion_f2d20")
    assert "ent_coef_final" not in plain.dump()["ppo"]
    assert load_config("radscorpion_f2d20", ["ppo.ent_coef_final=0.01"]).hash() != plain.hash()


@pytest.mark.parametrize("value", ["2", "-0.1", "true"])
def test_a_value_out_of_range_is_refused(value: str) -> None:
    from wasteland.rules.errors import WastelandError

    with pytest.raises((WastelandError, ValueError), match="ent_coef_final"):
        load_config("radscorpion_f2d20", [f"ppo.ent_coef_final={value}"])


def test_train_sets_the_bonus_before_each_update(capsys, monkeypatch, tmp_path) -> None:
    run = tmp_path / "run"
    r = cli(capsys, monkeypatch, "train", "super_mutant_f2d20", "--out", str(run),
            "--set", "ppo.ent_coef=0.05", "--set", "ppo.ent_coef_final=0.01", *TINY_TRAIN)
    assert r.code == 0, r.err
    assert "ent_coef_final: 0.01" in (run / "config.yaml").read_text()
    got = tb_scalars(run, "train/ent_coef")
    # rollouts of 2 x 128 steps: the first update follows step 256 of 1,024
    assert got[0] == pytest.approx(0.05 - 0.04 * 256 / 1024, rel=1e-5)
    assert got[-1] == pytest.approx(0.01, rel=1e-5)
    assert got == sorted(got, reverse=True)
