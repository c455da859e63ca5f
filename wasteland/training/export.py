"""From a trained MaskablePPO model to a shipped policy: the policy head's arrays in
NAME.npz and the manifest in NAME.json (see wasteland/agents/policy.py, which runs it)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import numpy as np

from wasteland.agents.policy import FORMAT, Policy, action_hash, load_policy, observation_hash
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
        "observation_hash": observation_hash(), "action_hash": action_hash(),
        "layers": len(linears), "activation": cfg.activation, "network": list(cfg.network),
        "config": cfg.model_dump(mode="json"), "config_hash": cfg.hash(),
    }
    manifest.update(extra or {})
    return Policy(name, manifest, [w.astype(np.float64) for w in weights],
                  [b.astype(np.float64) for b in biases], cfg.activation, frozenset(creatures))


def write_policy(policy: Policy, out_dir: Path) -> tuple[Path, Path]:
    """NAME.npz and NAME.json in ``out_dir``, each written atomically."""
    import io

    out_dir.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    arrays = {f"w{i}": w.astype(np.float32) for i, w in enumerate(policy.weights)}
    arrays.update({f"b{i}": b.astype(np.float32) for i, b in enumerate(policy.biases)})
    np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
    npz, js = out_dir / f"{policy.name}.npz", out_dir / f"{policy.name}.json"
    write_atomic(npz, buf.getvalue())
    write_atomic(js, (json.dumps(policy.manifest, indent=1, sort_keys=True) + "\n").encode())
    return npz, js


def load_model(path: Path, **kwargs: Any) -> Any:
    """A MaskablePPO checkpoint; a truncated or foreign file is one line, not a traceback."""
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(path, device="cpu", **kwargs)
    except Exception as e:  # noqa: BLE001 - zip, pickle and torch errors alike
        why = " ".join(str(e).split()) or type(e).__name__
        raise WastelandError(f"{path}: not a readable MaskablePPO checkpoint ({why[:200]})"
                             ) from None


def export_run(run_dir: Path, name: str, out_dir: Path, checkpoint: str | None = None
               ) -> tuple[Path, Path]:
    """Export a ``wasteland train`` run: its final model (or ``checkpoint``), its config
    and its last evaluation."""
    from .config import load_config

    if not (run_dir / "config.yaml").is_file():
        raise WastelandError(f"{run_dir}: not a training run (no config.yaml in it)")
    cfg = load_config(str(run_dir / "config.yaml"))
    path = run_dir / (checkpoint or "final.zip")
    if not path.is_file():
        have = sorted(p.name for p in (run_dir / "checkpoints").glob("*.zip"))
        raise WastelandError(f"{run_dir}: no {path.name} (the run has not finished); "
                             f"checkpoints: {', '.join(have) or 'none'}")
    model = load_model(path)
    summary: dict[str, Any] = {}
    if (run_dir / "summary.json").is_file():
        summary = json.loads((run_dir / "summary.json").read_text())
    extra = {"exported": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
             "training": summary, "source": str(path.name)}
    npz, js = write_policy(policy_of(model, name, cfg, extra), out_dir)
    load_policy(npz)  # what was written loads and matches the running code
    return npz, js
