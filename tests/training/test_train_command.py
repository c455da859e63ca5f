"""`wasteland train` end to end (issue 10, item 1): a short run makes its folder (config,
eval.csv with a row per evaluation, scenario and opponent, checkpoints, league snapshots,
final model, summary); `wasteland export` writes files that load; a second run into the
same folder is refused; --resume continues from the newest checkpoint; and the same
config and seed train the same policy."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from wasteland.agents.policy import load_policy  # noqa: E402
from wasteland.training.config import load_config  # noqa: E402
from wasteland.training.run import CSV_FIELDS  # noqa: E402

from .kit import cli, one_line_error, policy_arrays  # noqa: E402

SHORT = ["--set", "steps=2048", "--set", "evaluation.every=1024", "--set", "evaluation.fights=4",
         "--set", "league.snapshot_every=1024", "--set", "ppo.n_steps=256",
         "--set", "ppo.batch_size=64", "--set", "network=[16,16]",
         "--set", "imitation.decisions=300", "--set", "imitation.epochs=2",
         # the shipped config trains 32 batched battles on the seats' line-ups: two plain
         # envs and two maps keep this run small
         "--set", "n_envs=2", "--set", "vec_env=dummy",
         "--set", "evaluation.scenarios=[duel, vault_corridor]", "--no-progress"]
SCENARIOS = ["duel", "vault_corridor"]


def rows_of(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        assert tuple(reader.fieldnames or ()) == CSV_FIELDS
        return list(reader)


def test_train_export_refuse_and_resume(capsys, monkeypatch, tmp_path):
    run = tmp_path / "run"
    r = cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--out", str(run), *SHORT)
    assert r.code == 0, r.err
    assert "training radscorpion_pnp" in r.out and "step 1,024:" in r.out
    assert f"wasteland export {run} --name radscorpion_pnp" in r.out

    # the run folder
    cfg = load_config(str(run / "config.yaml"))
    assert cfg.steps == 2048 and cfg.network == [16, 16] and cfg.ppo.n_steps == 256
    rows = rows_of(run / "eval.csv")
    want = {(step, sc, opp) for step in ("1024", "2048") for sc in SCENARIOS
            for opp in ("packet", "random")}
    assert {(r["step"], r["scenario"], r["opponents"]) for r in rows} == want
    assert len(rows) == len(want)
    for row in rows:
        n = int(row["fights"])
        assert n == (4 if row["opponents"] == "packet" else 1)
        assert int(row["wins"]) + int(row["losses"]) + int(row["draws"]) == n
        assert 0 <= float(row["wilson_lo"]) <= float(row["win_rate"]) <= float(row["wilson_hi"]) <= 1
        assert float(row["diff_lo"]) <= float(row["diff_hi"])
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["step_1024.zip",
                                                                       "step_2048.zip"]
    assert {p.name for p in (run / "league").glob("*.npz")} == {"step_1024.npz", "step_2048.npz"}
    assert load_policy(run / "league" / "step_2048.npz").manifest["steps"] == 2048
    assert (run / "final.zip").is_file()
    summary = json.loads((run / "summary.json").read_text())
    assert summary["steps"] == 2048 and summary["config"] == "radscorpion_pnp"
    assert summary["config_hash"] == cfg.hash()
    assert len(summary["evaluation"]) == 2 * len(SCENARIOS)
    assert isinstance(summary["beats_packet"], bool)

    # export
    r = cli(capsys, monkeypatch, "export", str(run), "--name", "t", "--out", str(tmp_path / "exp"))
    assert r.code == 0, r.err
    assert "checkpoint_wall_s" not in json.loads((tmp_path / "exp" / "t.json").read_text())
    pol = load_policy(tmp_path / "exp" / "t.npz")
    assert pol.name == "t" and pol.ruleset == "pnp" and pol.kinds == set(cfg.creatures)
    m = json.loads((tmp_path / "exp" / "t.json").read_text())
    assert m["steps"] == 2048 and m["config"]["id"] == "radscorpion_pnp"
    assert m["training"]["steps"] == 2048 and m["config_hash"] == cfg.hash()
    assert [a.shape for a in pol.weights][:2] == [(pol.weights[0].shape[0], 16), (16, 16)]
    # a checkpoint instead of final.zip, named as the run lists it, by its stem, or by path
    for given in ("checkpoints/step_1024.zip", "step_1024", str(run / "checkpoints" / "step_1024.zip")):
        r = cli(capsys, monkeypatch, "export", str(run), "--name", "c", "--checkpoint", given,
                "--out", str(tmp_path / "ck"))
        assert r.code == 0, (given, r.err)
        m = json.loads((tmp_path / "ck" / "c.json").read_text())
        assert m["steps"] == 1024 and m["source"] == "step_1024.zip", given
        # the wall time when that checkpoint was written, not the whole run's
        assert m["checkpoint_wall_s"] == float(next(r["wall_s"] for r in rows
                                                    if r["step"] == "1024")), given
        assert m["checkpoint_wall_s"] <= m["training"]["wall_s"]
    one_line_error(cli(capsys, monkeypatch, "export", str(run), "--name", "c", "--checkpoint",
                       "step_999", "--out", str(tmp_path / "ck")),
                   "no checkpoint 'step_999'", "step_1024.zip, step_2048.zip")
    one_line_error(cli(capsys, monkeypatch, "export", str(run), "--name", "Bad Name"),
                   "--name 'Bad Name'")
    one_line_error(cli(capsys, monkeypatch, "export", str(tmp_path / "exp"), "--name", "t"),
                   "not a training run")

    # a second run into the same folder is refused, and changes nothing
    before = sorted(str(p) for p in run.rglob("*"))
    r = cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--out", str(run), *SHORT)
    one_line_error(r, f"{run} already holds a run", "--resume")
    assert sorted(str(p) for p in run.rglob("*")) == before

    # resume: from the newest checkpoint to 4096 steps, the earlier rows kept
    r = cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--resume", str(run),
            "--set", "steps=4096", "--no-progress")
    assert r.code == 0, r.err
    assert "from step_2048.zip" in r.out
    summary = json.loads((run / "summary.json").read_text())
    assert summary["steps"] >= 4096
    after = rows_of(run / "eval.csv")
    assert after[:len(rows)] == rows
    assert {int(r["step"]) for r in after[len(rows):]} >= {3072, 4096}
    assert (run / "checkpoints" / "step_4096.zip").is_file()
    assert load_config(str(run / "config.yaml")).steps == 2048  # the run's file is unchanged


def test_the_same_config_and_seed_train_the_same_policy(capsys, monkeypatch, tmp_path):
    quick = ["--set", "steps=512", "--set", "evaluation.fights=1", "--set", "ppo.n_steps=256",
             "--set", "n_envs=2", "--set", "vec_env=dummy",
             "--set", "ppo.batch_size=64", "--set", "network=[16,16]",
             "--set", "evaluation.scenarios=[duel]", "--set", "imitation.decisions=300",
             "--set", "imitation.epochs=2", "--no-progress"]
    arrays = []
    for k in ("a", "b", "c"):
        seed = ["--set", "seed=1"] if k == "c" else []
        r = cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--out", str(tmp_path / k),
                *quick, *seed)
        assert r.code == 0, r.err
        r = cli(capsys, monkeypatch, "export", str(tmp_path / k), "--name", "p",
                "--out", str(tmp_path / k / "x"))
        assert r.code == 0, r.err
        arrays.append(policy_arrays(tmp_path / k / "x" / "p.npz"))
    a, b, c = arrays
    assert sorted(a) == sorted(b)
    assert all(np.array_equal(a[n], b[n]) for n in a)
    assert not all(np.array_equal(a[n], c[n]) for n in a)  # another seed, another policy
    assert rows_of(tmp_path / "a" / "eval.csv")[0]["wins"] is not None


def test_a_broken_checkpoint_is_one_line_in_export_and_resume(capsys, monkeypatch, tmp_path):
    """A truncated or foreign .zip where a MaskablePPO checkpoint should be."""
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    cfg = load_config("radscorpion_f2d20")
    (run / "config.yaml").write_text(json.dumps(cfg.model_dump(mode="json")))
    (run / "final.zip").write_bytes(b"PK\x03\x04 not a zip")
    one_line_error(cli(capsys, monkeypatch, "export", str(run), "--name", "t",
                       "--out", str(tmp_path / "out")),
                   "final.zip", "not a readable MaskablePPO checkpoint")
    (run / "final.zip").unlink()
    (run / "checkpoints" / "step_7.zip").write_bytes(b"")
    one_line_error(cli(capsys, monkeypatch, "export", str(run), "--name", "t",
                       "--out", str(tmp_path / "out")),
                   "no final.zip (the run has not finished)", "--checkpoint: step_7.zip")
    (run / "checkpoints" / "step_7.zip").unlink()
    (run / "checkpoints" / "step_5.zip").write_bytes(b"")
    r = cli(capsys, monkeypatch, "train", "radscorpion_f2d20", "--resume", str(run),
            "--no-progress")
    one_line_error(r, "step_5.zip", "not a readable MaskablePPO checkpoint")


@pytest.mark.parametrize("row", ["0,nan", "0,1e300", "0,-3", "0", "0,soon"])
def test_a_damaged_eval_csv_leaves_the_checkpoint_wall_time_out(row, tmp_path):
    """The wall time read back from eval.csv is a number of seconds within bounds, or it is
    left out of the manifest (never an error, never a crafted value)."""
    from wasteland.training.export import _wall_at

    (tmp_path / "eval.csv").write_text("step,wall_s\n" + row + "\n")
    assert _wall_at(tmp_path, 0) is None
    (tmp_path / "eval.csv").write_text("step,wall_s\n0,375.5\n")
    assert _wall_at(tmp_path, 0) == 375.5 and _wall_at(tmp_path, 1) is None
