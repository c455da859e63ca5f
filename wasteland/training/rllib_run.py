"""``wasteland train CONFIG --backend rllib``: the same training config, trained by RLlib's
PPO on the multi-agent env of rllib_env.py (one module per creature kind, action masking
by rllib_module.py), on this machine or a Ray cluster (``--address``), and exported
to the same .npz policy format MaskablePPO runs export to (agents/policy.py), so the
result plays through ``policy:``.

The run folder holds config.yaml, progress.csv (one row an iteration: steps, per-side
returns, win rates), checkpoint/ (RLlib's, to resume) and, at the end, one policy per
creature kind under policies/.
"""

from __future__ import annotations

import csv
import datetime
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from wasteland.agents.policy import Policy, load_policy
from wasteland.rules.errors import WastelandError

from .config import TrainConfig
from .export import policy_from_linears, write_policy
from .signature import sign, verify

PROGRESS_FIELDS = ["iteration", "steps", "episodes", "wall_s", "return_side_0", "return_side_1",
                   "win", "draw", "self_play", "illegal"]


def side_returns_callback() -> type:
    """RLlib's episode return adds every agent's: zero-sum sides cancel to 0. This reports
    each side's mean return per seat, how often the learners beat the env's own agents
    (episodes where one side learns), and the share of self-play episodes."""
    from ray.rllib.callbacks.callbacks import RLlibCallback

    from .rllib_env import side_of_seat

    class SideReturns(RLlibCallback):
        def on_episode_end(self, *, episode: Any, metrics_logger: Any = None,
                           **kwargs: Any) -> None:
            if metrics_logger is None:
                return
            per_side: dict[int, list[float]] = {}
            winner, illegal = None, 0
            for aid, sa in episode.agent_episodes.items():
                per_side.setdefault(side_of_seat(aid), []).append(float(sa.get_return()))
                info = sa.get_infos(-1) if len(sa) else {}
                if isinstance(info, dict) and "winner" in info:
                    winner, illegal = int(info["winner"]), int(info.get("illegal", 0))
            log = metrics_logger.log_value
            for s, returns in per_side.items():
                log(f"return_side_{s}", float(np.mean(returns)), reduce="mean", window=100)
            if len(per_side) == 1:  # against the env's agents: did the learners win
                log("win", float(winner in per_side), reduce="mean", window=100)
            log("self_play", float(len(per_side) > 1), reduce="mean", window=100)
            log("draw", float(winner == -1), reduce="mean", window=100)
            log("illegal", float(illegal), reduce="sum")

    return SideReturns


def algo_config(cfg: TrainConfig, env_runners: int = 0) -> Any:
    """RLlib's PPOConfig for a training config: its hyperparameters under RLlib's names."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .rllib_env import RLlibCombat, module_of
    from .rllib_module import MaskedPPOModule

    p = cfg.ppo
    model = {"fcnet_hiddens": list(cfg.network), "fcnet_activation": cfg.activation,
             "head_fcnet_hiddens": [], "vf_share_layers": False}
    modules = {k: RLModuleSpec(module_class=MaskedPPOModule, model_config=model)
               for k in cfg.creatures}
    return (
        PPOConfig()
        .environment(RLlibCombat, env_config={"config": cfg.model_dump(mode="json")})
        .framework("torch")
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=1,
                     num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .multi_agent(policies=set(cfg.creatures), policy_mapping_fn=module_of)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .training(lr=p.learning_rate, gamma=p.gamma, lambda_=p.gae_lambda,
                  clip_param=p.clip_range, entropy_coeff=p.ent_coef, vf_loss_coeff=p.vf_coef,
                  grad_clip=p.max_grad_norm, grad_clip_by="global_norm",
                  train_batch_size_per_learner=p.n_steps * cfg.n_envs,
                  minibatch_size=p.batch_size, num_epochs=p.n_epochs)
        .callbacks(side_returns_callback())
        .debugging(seed=cfg.seed, log_level="ERROR")
    )


def module_policy(module: Any, name: str, kind: str, cfg: TrainConfig,
                  extra: dict[str, Any] | None = None) -> Policy:
    """The actor of an RLlib PPO module (its encoder's hidden layers, then the pi head) as
    the numpy arrays of a shipped policy; the critic is not needed to play."""
    import torch.nn as nn

    linears = [m for m in module.encoder.actor_encoder.modules() if isinstance(m, nn.Linear)]
    linears += [m for m in module.pi.modules() if isinstance(m, nn.Linear)]
    if len(linears) != len(cfg.network) + 1:
        raise WastelandError(f"module {kind!r}: expected {len(cfg.network)} hidden layers and "
                             f"a head, found {len(linears)} linear layers")
    return policy_from_linears(linears, name, cfg, [kind], {"trainer": "rllib", **(extra or {})})


def policy_name(cfg: TrainConfig, kind: str) -> str:
    """One kind: the config's id; several: the id and the kind."""
    return cfg.id if len(cfg.creatures) == 1 else f"{cfg.id}_{kind}"


def _row(it: int, res: dict[str, Any], wall: float) -> dict[str, Any]:
    er = res.get("env_runners", {})

    def num(key: str) -> Any:
        v = er.get(key)
        return "" if v is None else round(float(v), 4)

    return {"iteration": it, "steps": int(er.get("num_env_steps_sampled_lifetime", 0)),
            "episodes": int(er.get("num_episodes_lifetime", 0)), "wall_s": round(wall, 1),
            "return_side_0": num("return_side_0"), "return_side_1": num("return_side_1"),
            "win": num("win"), "draw": num("draw"), "self_play": num("self_play"),
            "illegal": int(er.get("illegal", 0) or 0)}


def _shown(v: Any) -> str:
    return "-" if v == "" else f"{v:.2f}"


def _set_progress(runner: Any, progress: float) -> None:
    env: Any = getattr(runner, "env", None)
    env = getattr(env, "unwrapped", env)
    if hasattr(env, "set_progress"):
        env.set_progress(progress)


def rllib_train(cfg: TrainConfig, run: Path, address: str | None = None,
                env_runners: int = 0, resume: bool = False,
                show: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Train to ``cfg.steps`` environment steps, then export a policy per creature kind."""
    from wasteland.sim.ray_backend import connect

    say = show or (lambda s: None)
    t0 = time.time()
    ckpt = (run / "checkpoint").resolve()
    if resume and ckpt.is_dir():
        verify(ckpt)  # before RLlib or Ray touch anything
    connect(address)  # one line for an address nothing answers on
    # RLlib's INFO and WARNING lines (the API stack it defaults to) would land between
    # the iteration lines; its errors still show
    logging.getLogger("ray.rllib").setLevel(logging.ERROR)
    algo = algo_config(cfg, env_runners).build_algo()
    if resume and ckpt.is_dir():
        _read_checkpoint(lambda p: algo.restore_from_path(str(p)), ckpt)
        say(f"resuming {run} from its checkpoint")
    csv_path = run / "progress.csv"
    if not csv_path.exists():
        with open(csv_path, "w", newline="") as f:
            csv.DictWriter(f, PROGRESS_FIELDS).writeheader()
    steps, it, row = 0, 0, {}
    try:
        while steps < cfg.steps:
            res = algo.train()
            it += 1
            row = _row(it, res, time.time() - t0)
            steps = row["steps"]
            with open(csv_path, "a", newline="") as f:
                csv.DictWriter(f, PROGRESS_FIELDS).writerow(row)
            say(f"iteration {it}: {steps:,} steps; mean return per seat: side 0 "
                f"{_shown(row['return_side_0'])}, side 1 {_shown(row['return_side_1'])}; "
                f"learners win {_shown(row['win'])} against the env's agents; self-play "
                f"{_shown(row['self_play'])} of episodes")
            progress = min(1.0, steps / cfg.steps)
            algo.env_runner_group.foreach_env_runner(
                lambda r, p=progress: _set_progress(r, p))
    finally:
        algo.save_to_path(str(ckpt))
        sign(ckpt)
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    out, written = run / "policies", []
    for kind in cfg.creatures:
        name = policy_name(cfg, kind)
        pol = module_policy(algo.get_module(kind), name, kind, cfg,
                            {"exported": stamp, "steps": steps, "training": row})
        npz, _ = write_policy(pol, out)
        load_policy(npz)  # what was written loads and matches the running code
        written.append(str(npz))
    algo.stop()
    summary = {"steps": steps, "iterations": it, "wall_s": round(time.time() - t0, 1),
               "policies": written, "last": row}
    (run / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def _read_checkpoint(read: Callable[[Path], Any], path: Path) -> Any:
    """``read(path)``; a truncated or foreign checkpoint is one line, not RLlib's traceback."""
    try:
        return read(path)
    except Exception as e:  # noqa: BLE001 - pickle, pyarrow and RLlib errors alike
        why = " ".join(str(e).split()) or type(e).__name__
        raise WastelandError(f"{path}: not a readable RLlib checkpoint ({why[:200]})") from None


def export_rllib_run(run: Path, name: str, out_dir: Path) -> list[Path]:
    """`wasteland export` of an RLlib run folder: a policy per creature kind from its
    checkpoint (``name`` for a one-kind config, else ``name_KIND``)."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from .config import load_config

    cfg = load_config(str(run / "config.yaml"), programs=None)  # read, not trained
    verify((run / "checkpoint").resolve())
    modules = (run / "checkpoint" / "learner_group" / "learner" / "rl_module").resolve()
    written = []
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    for kind in cfg.creatures:
        if not (modules / kind).is_dir():
            raise WastelandError(f"{run}: its RLlib checkpoint has no module {kind!r}")
        module = _read_checkpoint(RLModule.from_checkpoint, modules / kind)
        each = name if len(cfg.creatures) == 1 else f"{name}_{kind}"
        npz, _ = write_policy(module_policy(module, each, kind, cfg, {
            "exported": stamp, "source": "checkpoint"}), out_dir)
        load_policy(npz)
        written.append(npz)
    return written
