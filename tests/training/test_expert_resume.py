"""A long expert-iteration run stopped between rounds keeps the rounds it finished (issue
40, item 6: a round labelled by the deadly search costs an hour of a core): each round
leaves its labels, the network after it and its statistics in the run folder's expert/,
and `wasteland train --resume` labels only the rounds that are left. What it reads back
is checked, and nothing in it is unpickled."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import wasteland.training.expert as expert  # noqa: E402
from wasteland.rules.errors import WastelandError  # noqa: E402

from .kit import cli  # noqa: E402

DECISIONS = 40
SETS = ["--set", "algorithm=expert_iteration", "--set", "expert.teacher=packet",
        "--set", "expert.iterations=3", "--set", f"expert.decisions={DECISIONS}",
        "--set", "expert.workers=1", "--set", "steps=512", "--set", "ppo.n_steps=256",
        "--set", "n_envs=2", "--set", "vec_env=dummy", "--set", "ppo.batch_size=64",
        "--set", "network=[16,16]", "--set", "evaluation.every=100000",
        "--set", "evaluation.fights=2"]


def _stopping_at(monkeypatch, stop: int) -> list[int]:
    """Label as usual, but stop the run (a one-line error) at labelling call ``stop``."""
    calls: list[int] = []
    real = expert.label_parallel

    def counted(cfg, policy, decisions, seed, beta):  # type: ignore[no-untyped-def]
        calls.append(seed)
        if len(calls) == stop:
            raise WastelandError("stopped for the test")
        return real(cfg, policy, decisions, seed, beta)

    monkeypatch.setattr(expert, "label_parallel", counted)
    return calls


def _stopped_after_two(capsys, monkeypatch, tmp_path: Path) -> tuple[Path, list[int]]:
    run = tmp_path / "run"
    calls = _stopping_at(monkeypatch, 3)
    r = cli(capsys, monkeypatch, "train", "super_mutant_f2d20", "--out", str(run), *SETS,
            "--no-progress")
    assert r.code != 0 and "stopped for the test" in r.err
    return run, list(calls)


def test_a_resumed_run_labels_only_the_rounds_left(capsys, monkeypatch, tmp_path) -> None:
    run, first = _stopped_after_two(capsys, monkeypatch, tmp_path)
    assert len(first) == 3
    assert expert.rounds_done(run / "expert", 3) == 2
    kept, stats = expert.load_round(run / "expert", 2, DECISIONS)
    assert len(kept["action"]) == DECISIONS and stats["labelled"] == 2 * DECISIONS
    calls = _stopping_at(monkeypatch, 0)
    r = cli(capsys, monkeypatch, "train", "super_mutant_f2d20", "--resume", str(run), "--no-progress")
    assert r.code == 0, r.err
    assert "rounds 1-2 of 3 read" in r.out
    # the third round only, with the same seed as it would have had, on all three rounds' data
    assert calls == [first[2]]
    assert "expert iteration 3/3: 120 labelled states" in r.out
    assert (run / "final.zip").is_file()


def test_the_network_after_the_last_round_is_the_one_resumed(capsys, monkeypatch,
                                                            tmp_path) -> None:
    """The round's network, not a fresh one, labels the next round: the policy handed to
    the third round's labelling has the second round's weights."""
    from wasteland.training.checkpoint import read_checkpoint

    run, _ = _stopped_after_two(capsys, monkeypatch, tmp_path)
    want = read_checkpoint(run / "expert" / "round_2.zip").params["policy"]
    seen: list[float] = []
    real = expert.label_parallel

    def spy(cfg, policy, decisions, seed, beta):  # type: ignore[no-untyped-def]
        seen.append(float(np.abs(policy.weights[0]).sum()))
        return real(cfg, policy, decisions, seed, beta)

    monkeypatch.setattr(expert, "label_parallel", spy)
    r = cli(capsys, monkeypatch, "train", "super_mutant_f2d20", "--resume", str(run), "--no-progress")
    assert r.code == 0, r.err
    first = next(v for k, v in want.items() if k.endswith("policy_net.0.weight"))
    assert len(seen) == 1 and seen[0] == pytest.approx(float(first.abs().sum()), rel=1e-5)


@pytest.mark.parametrize("damage, fragment", [
    (lambda f: f.write(b"not a zip"), "round_1.npz"),
    (lambda f: np.savez(f, obs=np.zeros((2, 3), np.float32)), "arrays obs"),
])
def test_a_broken_round_file_is_one_line(capsys, monkeypatch, tmp_path, damage,
                                         fragment: str) -> None:
    run, _ = _stopped_after_two(capsys, monkeypatch, tmp_path)
    target = run / "expert" / "round_1.npz"
    with open(target, "wb") as f:
        damage(f)
    _stopping_at(monkeypatch, 0)
    r = cli(capsys, monkeypatch, "train", "super_mutant_f2d20", "--resume", str(run), "--no-progress")
    assert r.code != 0 and fragment in r.err and "delete" in r.err
    assert "Traceback" not in r.err and len(r.err.strip().splitlines()) == 1


def test_round_files_are_read_within_their_caps(capsys, monkeypatch, tmp_path) -> None:
    """More labels than the run's `expert.decisions` are refused before they are inflated;
    statistics nested past the JSON depth cap, or a named pipe in a file's place, are one
    line (nothing blocks)."""
    import os

    from wasteland.observe.encoding import N_ACTIONS, OBS_SIZE

    run, _ = _stopped_after_two(capsys, monkeypatch, tmp_path)
    store = run / "expert"
    n = DECISIONS + 50
    mask = np.ones((n, N_ACTIONS), bool)
    np.savez(store / "round_1.npz", obs=np.zeros((n, OBS_SIZE), np.float32), mask=mask,
             action=np.zeros(n, np.int64), ret=np.zeros(n, np.float32))
    with pytest.raises(WastelandError, match=f"more than {DECISIONS} labels take"):
        expert.load_round(store, 1, DECISIONS)
    with open(store / "round_1.npz", "r+b") as f:  # sparse: nothing is written
        f.truncate(1 << 40)
    with pytest.raises(WastelandError, match=f"bytes, more than {DECISIONS} labels take"):
        expert.load_round(store, 1, DECISIONS)
    (store / "round_2.json").write_text("[" * 100_000)
    with pytest.raises(WastelandError, match="nested more than") as e:
        expert.load_round(store, 2, DECISIONS)
    assert "\n" not in str(e.value)
    (store / "round_2.json").unlink()
    os.mkfifo(store / "round_2.json")
    with pytest.raises(WastelandError, match="named pipe"):
        expert.load_round(store, 2, DECISIONS)
