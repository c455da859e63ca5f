"""From a trained MaskablePPO model to a shipped policy: the policy head's arrays in
NAME.npz and the manifest in NAME.json (see wasteland/agents/policy.py, which runs it)."""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from wasteland.agents.policy import (
    FORMAT,
    OBSERVATION_VERSION,
    Policy,
    action_hash,
    load_policy,
    observation_hash,
)
from wasteland.rules.errors import WastelandError
from wasteland.rules.savefile import write_atomic

from .config import TrainConfig


def policy_of(model: Any, name: str, cfg: TrainConfig, extra: dict[str, Any] | None = None
              ) -> Policy:
    """The policy head of a MaskablePPO MlpPolicy (hidden layers, then the action logits)
    as numpy arrays; the value head is not needed to play."""
    import torch.nn as nn

    pol = model.policy
    linears = [m for m in pol.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    linears.append(pol.action_net)
    return policy_from_linears(linears, name, cfg, cfg.creatures,
                               {"steps": int(model.num_timesteps), **(extra or {})})


def policy_from_linears(linears: list[Any], name: str, cfg: TrainConfig,
                        creatures: list[str], extra: dict[str, Any] | None = None) -> Policy:
    """A policy from an actor's torch Linear layers in order (hidden layers, then the
    logits), trained by ``cfg``, for ``creatures``; its manifest with ``extra`` added."""
    weights = [m.weight.detach().cpu().numpy().astype(np.float32).T.copy() for m in linears]
    biases = [m.bias.detach().cpu().numpy().astype(np.float32).copy() for m in linears]
    manifest: dict[str, Any] = {
        "format": FORMAT, "name": name, "ruleset": cfg.ruleset, "creatures": list(creatures),
        "observation_version": OBSERVATION_VERSION, "sight": cfg.sight,
        "observation_hash": observation_hash(cfg.sight), "action_hash": action_hash(),
        "layers": len(linears), "activation": cfg.activation, "network": list(cfg.network),
        "config": cfg.dump(), "config_hash": cfg.hash(),
    }
    manifest.update(extra or {})
    return Policy(name, manifest, [w.astype(np.float64) for w in weights],
                  [b.astype(np.float64) for b in biases], cfg.activation, frozenset(creatures))


def write_policy(policy: Policy, out_dir: Path) -> tuple[Path, Path]:
    """NAME.npz and NAME.json in ``out_dir``, each written atomically."""
    import io

    if out_dir.exists() and not out_dir.is_dir():
        raise WastelandError(f"--out {out_dir}: a file, not a folder; give the folder the "
                             f"policy's NAME.npz and NAME.json go in")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a file where a parent folder should be, no permission
        raise WastelandError(f"--out {out_dir}: cannot make the folder ({e.strerror})") from None
    buf = io.BytesIO()
    arrays = {f"w{i}": w.astype(np.float32) for i, w in enumerate(policy.weights)}
    arrays.update({f"b{i}": b.astype(np.float32) for i, b in enumerate(policy.biases)})
    np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
    npz, js = out_dir / f"{policy.name}.npz", out_dir / f"{policy.name}.json"
    write_atomic(npz, buf.getvalue())
    write_atomic(js, (json.dumps(policy.manifest, indent=1, sort_keys=True) + "\n").encode())
    return npz, js


def resume_model(model: Any, path: Path) -> Any:
    """``model`` (made from the run's config) given the parameters, optimizer state and
    step count of the checkpoint at ``path``, read without unpickling (checkpoint.py)."""
    from .checkpoint import read_checkpoint

    ckpt = read_checkpoint(path)
    try:
        model.set_parameters(ckpt.params, exact_match=True, device="cpu")
    except (RuntimeError, ValueError, KeyError, AttributeError) as e:
        why = " ".join(str(e).split())[:200] or type(e).__name__
        raise WastelandError(f"{path}: its parameters do not fit the run's config ({why})"
                             ) from None
    model.num_timesteps = ckpt.counters["num_timesteps"]
    model._n_updates = ckpt.counters["_n_updates"]
    model._episode_num = ckpt.counters["_episode_num"]
    return model


class Layer(NamedTuple):
    """A linear layer's tensors, as policy_from_linears reads them off a torch Linear."""

    weight: Any
    bias: Any


def read_summary(run_dir: Path) -> dict[str, Any]:
    """The run's summary.json (empty if it has none); one line if it is not a regular file
    within the manifest cap (limits.read_text) or not a JSON object within the JSON caps."""
    from wasteland.limits import load_json, read_text

    path = run_dir / "summary.json"
    if not os.path.lexists(path):
        return {}
    text = read_text(path, "manifest", WastelandError)

    def unreadable(why: str) -> WastelandError:
        return WastelandError(f"{path}: not readable JSON ({why}); fix or delete it to "
                              f"export without a training summary")

    summary = load_json(text, "", unreadable)
    if not isinstance(summary, dict):
        raise WastelandError(f"{path}: a {type(summary).__name__}, not a JSON object")
    return summary


MAX_WALL_S = 10 * 365 * 86400.0  # a run's wall time read back from its eval.csv


def read_eval(run_dir: Path) -> str | None:
    """The text of the run's eval.csv, None if it has none; one line if it is not a
    regular file within the results cap (a named pipe, a device, a folder)."""
    from wasteland.limits import read_text

    path = run_dir / "eval.csv"
    if not os.path.lexists(path):
        return None
    return read_text(path, "results", WastelandError)


def _wall_at(run_dir: Path, steps: int) -> float | None:
    """The run's wall time when it reached ``steps``, from its eval.csv (written with each
    checkpoint), or None when no row has that step or the time is not a number of seconds
    from 0 to MAX_WALL_S (a damaged row is no error: the time is only left out)."""
    import csv
    import io
    import math

    text = read_eval(run_dir)
    if text is None:
        return None
    try:
        for row in csv.DictReader(io.StringIO(text, newline="")):
            if row.get("step") == str(steps):
                wall = float(row.get("wall_s") or "nan")
                return wall if math.isfinite(wall) and 0 <= wall <= MAX_WALL_S else None
    except (ValueError, csv.Error):
        return None
    return None


def checkpoint_path(run_dir: Path, checkpoint: str | None) -> Path:
    """The file ``--checkpoint`` names: ``checkpoints/step_N.zip``, ``step_N.zip`` or
    ``step_N`` in the run, or a path to one; without it, the run's ``final.zip``."""
    have = sorted((p.name for p in (run_dir / "checkpoints").glob("*.zip")),
                  key=lambda n: (len(n), n))
    if checkpoint is None:
        path = run_dir / "final.zip"
        if not path.is_file():
            raise WastelandError(f"{run_dir}: no final.zip (the run has not finished); export "
                                 f"one of its checkpoints with --checkpoint: "
                                 f"{', '.join(have) or 'none yet'}")
        return path
    name = checkpoint if checkpoint.endswith(".zip") else checkpoint + ".zip"
    for path in (run_dir / name, run_dir / "checkpoints" / name, Path(name)):
        if path.is_file():
            return path
    raise WastelandError(f"{run_dir}: no checkpoint {checkpoint!r}; its checkpoints: "
                         f"{', '.join(have) or 'none yet'}")


def export_run(run_dir: Path, name: str, out_dir: Path, checkpoint: str | None = None
               ) -> tuple[Path, Path]:
    """Export a ``wasteland train`` run: its final model (or ``checkpoint``), its config
    and its last evaluation."""
    from .checkpoint import policy_layers, read_checkpoint
    from .config import load_config

    if not (run_dir / "config.yaml").is_file():
        raise WastelandError(f"{run_dir}: not a training run (no config.yaml in it)")
    cfg = load_config(str(run_dir / "config.yaml"), programs=None)  # read, not trained
    path = checkpoint_path(run_dir, checkpoint)
    ckpt = read_checkpoint(path)
    summary = read_summary(run_dir)
    steps = ckpt.counters["num_timesteps"]
    extra = {"exported": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
             "training": summary, "source": str(path.name), "steps": steps}
    if checkpoint is not None and (wall := _wall_at(run_dir, steps)) is not None:
        extra["checkpoint_wall_s"] = wall  # the summary's wall time is the whole run's
    layers = [Layer(w, b) for w, b in policy_layers(ckpt)]
    if len(layers) != len(cfg.network) + 1:
        raise WastelandError(f"{path}: its policy has {len(layers) - 1} hidden layers, the run's "
                             f"config {len(cfg.network)} ({list(cfg.network)})")
    npz, js = write_policy(policy_from_linears(layers, name, cfg, cfg.creatures, extra), out_dir)
    load_policy(npz)  # what was written loads and matches the running code
    return npz, js
