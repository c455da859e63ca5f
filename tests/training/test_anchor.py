"""The anchor (wasteland/training/anchor.py; issue 25, item 3: PPO with a KL penalty toward
the teacher, annealed away): its weight falls linearly to 0, each optimizer step of PPO
gets the weighted gradient of the cross-entropy toward the packet's choices added, it
keeps PPO nearer the teacher than a plain warm start, and `wasteland train` runs it from
a config. Configs without it keep their hash (the shipped policies' manifests)."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from wasteland.training.anchor import Anchor  # noqa: E402
from wasteland.training.config import load_config  # noqa: E402
from wasteland.training.expert import label  # noqa: E402
from wasteland.training.imitation import masked_forward  # noqa: E402

from .kit import TINY_TRAIN, cli, tb_scalars  # noqa: E402

SMALL = ["n_envs=2", "vec_env=dummy", "network=[16,16]", "ppo.n_steps=64", "ppo.batch_size=32",
         "steps=128", "imitation.decisions=200"]


def _model(cfg):  # type: ignore[no-untyped-def]
    from wasteland.training.run import _new_model, _vec_env

    return _new_model(cfg, _vec_env(cfg), None)


def test_the_weight_falls_linearly_to_zero_at_anchor_until() -> None:
    cfg = load_config("super_mutant_f2d20", SMALL)
    data = label(cfg, None, 40, seed=1, beta=1.0, teacher="packet")
    a = Anchor(_model(cfg), data, weight=2.0, until=0.5)
    got = []
    for p in (0.0, 0.25, 0.5, 0.8):
        a.progress = p
        got.append(a.coefficient())
    a.close()
    assert got == [2.0, 1.0, 0.0, 0.0]


def test_each_step_adds_the_weighted_gradient_toward_the_teacher() -> None:
    cfg = load_config("super_mutant_f2d20", SMALL)
    data = label(cfg, None, 40, seed=1, beta=1.0, teacher="packet")
    model = _model(cfg)
    pol = model.policy
    a = Anchor(model, data, weight=0.5, until=1.0, batch=8, seed=3)
    # the minibatch the hook will draw, and the gradient it should add
    idx = torch.randint(40, (8,), generator=torch.Generator().manual_seed(3))
    pol.optimizer.zero_grad()
    logits, _ = masked_forward(pol, torch.as_tensor(data["obs"])[idx],
                               torch.as_tensor(data["mask"])[idx])
    (0.5 * torch.nn.functional.cross_entropy(logits, torch.as_tensor(data["action"])[idx])
     ).backward()
    want = [p.grad.clone() if p.grad is not None else None for p in pol.parameters()]
    before = [p.detach().clone() for p in pol.parameters()]
    pol.optimizer.zero_grad()
    seen: list[list[torch.Tensor | None]] = []
    pol.optimizer.register_step_pre_hook(  # runs after the anchor's: the summed gradient
        lambda opt, args, kw: seen.append([None if p.grad is None else p.grad.clone()
                                           for p in pol.parameters()]))
    pol.optimizer.step()
    for w, g in zip(want, seen[0]):
        if w is None:
            assert g is None or not g.any()
        else:
            assert g is not None and torch.allclose(w, g, atol=1e-7)
    assert any(not torch.equal(b, p) for b, p in zip(before, pol.parameters()))
    # weight 0 (annealed away): the step adds nothing
    a.progress = 1.0
    pol.optimizer.zero_grad()
    seen.clear()
    pol.optimizer.step()
    assert all(g is None or not g.any() for g in seen[0])
    a.close()


def _agreement(model, data) -> float:  # type: ignore[no-untyped-def]
    with torch.no_grad():
        logits, _ = masked_forward(model.policy, torch.as_tensor(data["obs"]),
                                   torch.as_tensor(data["mask"]))
    return float((logits.argmax(-1).numpy() == data["action"]).mean())


def test_the_anchor_keeps_ppo_nearer_the_packet_than_a_plain_warm_start() -> None:
    """The same warm start, then the same PPO updates (same seeds) with and without the
    anchor: with it, the policy agrees with the packet more on states it was not fitted to
    (fixed seeds: an exact check)."""
    from wasteland.training.imitation import warm_start

    cfg = load_config("super_mutant_f2d20", [*SMALL, "ppo.learning_rate=3e-3", "steps=1024"])
    teach = label(cfg, None, 300, seed=1, beta=1.0, teacher="packet")
    held = label(cfg, None, 200, seed=2, beta=1.0, teacher="packet")
    got = {}
    for weight in (0.0, 1.0):
        torch.manual_seed(0)
        model = _model(cfg)
        warm_start(model, teach, epochs=10, seed=0)
        a = Anchor(model, teach, weight=weight, until=1.0) if weight else None
        model.set_random_seed(0)
        model.learn(total_timesteps=1024)
        got[weight] = _agreement(model, held)
        if a is not None:
            a.close()
        model.get_env().close()
    assert got[1.0] > got[0.0] + 0.03, got


def test_train_runs_with_the_anchor_and_logs_its_weight(capsys, monkeypatch, tmp_path) -> None:
    run = tmp_path / "run"
    r = cli(capsys, monkeypatch, "train", "super_mutant_f2d20", "--out", str(run),
            "--set", "imitation.anchor=0.5", "--set", "imitation.anchor_until=0.75",
            *TINY_TRAIN)
    assert r.code == 0, r.err
    text = (run / "config.yaml").read_text()
    assert "anchor: 0.5" in text and "anchor_until: 0.75" in text
    weights = tb_scalars(run, "train/anchor_weight")
    assert weights[0] == pytest.approx(0.5 * (1 - 256 / 1024 / 0.75), rel=1e-5)
    assert weights == sorted(weights, reverse=True)


def test_configs_without_the_anchor_keep_their_hash_and_a_set_one_changes_it() -> None:
    plain = load_config("super_mutant_f2d20")
    assert "anchor" not in plain.dump()["imitation"]
    assert load_config("super_mutant_f2d20", ["imitation.anchor=0"]).hash() == plain.hash()
    assert load_config("super_mutant_f2d20", ["imitation.anchor=0.5"]).hash() != plain.hash()


def test_an_anchor_without_a_warm_start_is_refused() -> None:
    from wasteland.rules.errors import WastelandError

    with pytest.raises((WastelandError, ValueError), match="anchor needs a warm start"):
        load_config("super_mutant_f2d20", ["imitation.anchor=0.5", "imitation.decisions=0"])
