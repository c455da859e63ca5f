"""A run folder someone sends you cannot run code (issue 23, item 1): `wasteland export` and
`train --resume` read an SB3 zip's tensors with torch's weights_only loader and its data as
JSON, never unpickling the cloudpickled values SB3 keeps there. Each crafted checkpoint
holds a pickle that would write a file; the file is never written, and a checkpoint that
holds more than weights is refused in one line."""

from __future__ import annotations

import base64
import io
import json
import pickle
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from wasteland.agents.policy import load_policy  # noqa: E402
from wasteland.training.config import load_config  # noqa: E402

from .kit import cli, one_line_error  # noqa: E402

SMALL = ["network=[16,16]", "n_envs=1", "ppo.n_steps=64", "ppo.batch_size=32"]


class WritesAFile:
    """Unpickled, it writes ``path``: what a crafted checkpoint would do."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (exec, (f"open({self.path!r}, 'w').write('pwned')",))


def real_run(tmp_path):
    """A run folder as `wasteland train` leaves it: config.yaml and an untrained final.zip."""
    from wasteland.training.run import _new_model, _vec_env

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    cfg = load_config("radscorpion_pnp", SMALL)
    (run / "config.yaml").write_text(json.dumps(cfg.model_dump(mode="json")))
    vec = _vec_env(cfg)
    model = _new_model(cfg, vec, None)
    vec.close()
    model.num_timesteps = 1234
    model.save(run / "final")
    return run, cfg, model


def rewrite(zip_path, name, data: bytes) -> None:
    """``zip_path`` with its entry ``name`` replaced by ``data``."""
    with zipfile.ZipFile(zip_path) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    entries[name] = data
    with zipfile.ZipFile(zip_path, "w") as z:
        for n, b in entries.items():
            z.writestr(n, b)


def crafted_data(zip_path, marker) -> None:
    """Every pickled value of ``data`` (the spaces, the schedules, the policy class)
    replaced by a pickle that writes ``marker``."""
    with zipfile.ZipFile(zip_path) as z:
        data = json.loads(z.read("data"))
    evil = base64.b64encode(pickle.dumps(WritesAFile(str(marker)))).decode()
    for key, value in data.items():
        if isinstance(value, dict) and ":serialized:" in value:
            data[key] = {":type:": "x", ":serialized:": evil}
    assert sum(":serialized:" in v for v in data.values() if isinstance(v, dict)) >= 3
    rewrite(zip_path, "data", json.dumps(data).encode())


def crafted_weights(zip_path, marker) -> None:
    """policy.pth as a torch archive whose pickle writes ``marker``."""
    import torch

    buf = io.BytesIO()
    torch.save({"mlp_extractor.policy_net.0.weight": WritesAFile(str(marker))}, buf)
    rewrite(zip_path, "policy.pth", buf.getvalue())


def test_the_crafted_pickles_would_run_if_unpickled(tmp_path):
    """The guard is real: SB3's own loader runs the crafted data's pickle."""
    from sb3_contrib import MaskablePPO

    run, _, _ = real_run(tmp_path)
    marker = tmp_path / "pwned"
    crafted_data(run / "final.zip", marker)
    with pytest.raises(Exception):  # noqa: B017 - whatever SB3 makes of a non-space
        MaskablePPO.load(run / "final.zip", device="cpu")
    assert marker.read_text() == "pwned"


def test_export_reads_the_weights_and_never_the_pickles(capsys, monkeypatch, tmp_path):
    from wasteland.training.export import policy_of

    run, cfg, model = real_run(tmp_path)
    marker = tmp_path / "pwned"
    crafted_data(run / "final.zip", marker)
    r = cli(capsys, monkeypatch, "export", str(run), "--name", "t", "--out", str(tmp_path / "x"))
    assert r.code == 0, r.err
    assert not marker.exists()
    got = load_policy(tmp_path / "x" / "t.npz")
    want = policy_of(model, "t", cfg)
    assert len(got.weights) == len(want.weights) == 3
    for a, b in zip(got.weights + got.biases, want.weights + want.biases):
        assert np.array_equal(a, b.astype(np.float32).astype(np.float64))
    assert got.manifest["steps"] == 1234


def test_export_and_resume_refuse_weights_that_hold_code(capsys, monkeypatch, tmp_path):
    run, _, _ = real_run(tmp_path)
    marker = tmp_path / "pwned"
    crafted_weights(run / "final.zip", marker)
    r = cli(capsys, monkeypatch, "export", str(run), "--name", "t", "--out", str(tmp_path / "x"))
    one_line_error(r, "final.zip", "policy.pth holds more than weights")
    (run / "final.zip").rename(run / "checkpoints" / "step_64.zip")
    r = cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--resume", str(run), "--no-progress")
    one_line_error(r, "step_64.zip", "policy.pth holds more than weights")
    assert not marker.exists()
    assert not (tmp_path / "x").exists()


def test_resume_takes_the_parameters_and_the_step_count_not_the_pickles(tmp_path):
    import torch

    from wasteland.training.export import resume_model
    from wasteland.training.run import _new_model, _vec_env

    run, cfg, model = real_run(tmp_path)
    marker = tmp_path / "pwned"
    crafted_data(run / "final.zip", marker)
    other = load_config("radscorpion_pnp", [*SMALL, "seed=99"])
    vec = _vec_env(other)
    fresh = _new_model(other, vec, None)
    vec.close()
    before = fresh.policy.state_dict()
    assert not all(torch.equal(before[k], v) for k, v in model.policy.state_dict().items())
    resumed = resume_model(fresh, run / "final.zip")
    assert not marker.exists()
    assert resumed.num_timesteps == 1234
    for k, v in model.policy.state_dict().items():
        assert torch.equal(resumed.policy.state_dict()[k], v), k


@pytest.mark.parametrize("case, fragment", [
    ("extra_entry", "unexpected entries evil.pkl"),
    ("no_policy", "lacks policy.pth"),
    ("data_not_json", "data entry is not JSON"),
    ("steps_not_a_count", "num_timesteps is '1e9', not a count"),
    ("wrong_network", "1 hidden layers, the run's config 2"),
    ("inf_weights", "holds inf or NaN"),
])
def test_a_damaged_checkpoint_is_one_line(capsys, monkeypatch, tmp_path, case, fragment):
    import torch

    run, _, model = real_run(tmp_path)
    zp = run / "final.zip"
    if case == "extra_entry":
        with zipfile.ZipFile(zp, "a") as z:
            z.writestr("evil.pkl", b"x")
    elif case == "no_policy":
        with zipfile.ZipFile(zp) as z:
            keep = {n: z.read(n) for n in z.namelist() if n != "policy.pth"}
        with zipfile.ZipFile(zp, "w") as z:
            for n, b in keep.items():
                z.writestr(n, b)
    elif case == "data_not_json":
        rewrite(zp, "data", b"{not json")
    elif case == "steps_not_a_count":
        with zipfile.ZipFile(zp) as z:
            data = json.loads(z.read("data"))
        data["num_timesteps"] = "1e9"
        rewrite(zp, "data", json.dumps(data).encode())
    else:
        state = model.policy.state_dict()
        if case == "wrong_network":
            state = {k: v for k, v in state.items() if ".policy_net.2." not in k}
        else:
            state["action_net.bias"][0] = float("inf")
        buf = io.BytesIO()
        torch.save(state, buf)
        rewrite(zp, "policy.pth", buf.getvalue())
    r = cli(capsys, monkeypatch, "export", str(run), "--name", "t", "--out", str(tmp_path / "x"))
    one_line_error(r, "final.zip", fragment)


def test_export_refuses_an_out_that_is_a_file_and_a_corrupt_summary(capsys, monkeypatch, tmp_path):
    """Issue 23: FileExistsError and JSONDecodeError tracebacks; nothing is overwritten."""
    run, _, _ = real_run(tmp_path)
    taken = tmp_path / "taken"
    taken.write_text("mine")
    for out, fragment in ((taken, "a file, not a folder"),
                          (taken / "sub", "cannot make the folder")):
        r = cli(capsys, monkeypatch, "export", str(run), "--name", "t", "--out", str(out))
        one_line_error(r, f"--out {out}", fragment)
    assert taken.read_text() == "mine"
    (run / "summary.json").write_text('{"steps": 12')
    r = cli(capsys, monkeypatch, "export", str(run), "--name", "t", "--out", str(tmp_path / "x"))
    one_line_error(r, "summary.json: not readable JSON", "fix or delete it")
    (run / "summary.json").write_text("[1, 2]")
    r = cli(capsys, monkeypatch, "export", str(run), "--name", "t", "--out", str(tmp_path / "x"))
    one_line_error(r, "summary.json: a list, not a JSON object")
    assert not (tmp_path / "x").exists()
