"""``wasteland train CONFIG``: MaskablePPO on the league env, from a config, to a run folder.

Reads top to bottom: seed everything, make the vector env, make (or load) the model,
learn with callbacks that move the curriculum, freeze league snapshots, evaluate and
checkpoint every ``evaluation.every`` steps, then save the final model and a summary.

A run folder holds:
    config.yaml      the config as run (with --set applied): what export and resume read
    eval.csv         one row per evaluation, scenario and opponent, Wilson 95% intervals,
                     next to the packet's record in the same seat on the same seeds
    checkpoints/     step_N.zip every evaluation (resume starts from the newest)
    league/          step_N.npz/.json frozen snapshots the league plays
    expert/          round_N.npz/.zip/.json: each expert-iteration round's labels, the
                     network after it and its statistics (a resume labels only the rest)
    tb/              TensorBoard logs (``tensorboard --logdir RUN/tb``)
    final.zip, summary.json
Heavy imports (torch, stable-baselines3) happen only in here.
"""

from __future__ import annotations

import csv
import json
import math
import os
import random
import time
from collections.abc import Callable, Collection
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from wasteland.bestiary.loader import looks_like_path
from wasteland.rules.errors import WastelandError, clip

from .config import TrainConfig, load_config, training_scenario
from .seats import Record, difference_interval, seat, side_of

CSV_FIELDS = ("step", "wall_s", "scenario", "opponents", "fights", "wins", "losses", "draws",
              "win_rate", "wilson_lo", "wilson_hi", "packet_win_rate", "diff_lo", "diff_hi")


def eval_scenarios(cfg: TrainConfig) -> list[str]:
    return cfg.evaluation.scenarios or cfg.scenarios


class Evaluator:
    """The policy in its creatures' seat on the evaluation scenarios against the packet
    and against random, on fixed seeds; the packet's record in the seat is computed once."""

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg
        e = cfg.evaluation
        self.scenarios = [training_scenario(s) for s in eval_scenarios(cfg)]
        self.baseline: dict[tuple[str, str], Record] = {}
        for sc in self.scenarios:
            for opp in ("packet", "random"):
                self.baseline[(sc.id, opp)] = seat("packet", sc, cfg.ruleset, cfg.creatures,
                                                   opponents=opp, fights=self.fights(opp),
                                                   first_seed=e.first_seed)

    def fights(self, opponents: str) -> int:
        n = self.cfg.evaluation.fights
        return n if opponents == "packet" else max(1, n // 4)

    def __call__(self, policy: Any) -> list[dict[str, Any]]:
        from wasteland.agents.policy import PolicyAgent

        cfg = self.cfg
        rows = []
        for sc in self.scenarios:
            for opp in ("packet", "random"):
                r = seat(lambda s: PolicyAgent(policy, s), sc, cfg.ruleset, cfg.creatures,
                         opponents=opp, fights=self.fights(opp),
                         first_seed=cfg.evaluation.first_seed)
                base = self.baseline[(sc.id, opp)]
                lo, hi = r.interval
                dlo, dhi = difference_interval(r, base)
                rows.append({"scenario": sc.id, "opponents": opp, "fights": r.fights,
                             "wins": r.wins, "losses": r.losses, "draws": r.draws,
                             "win_rate": round(r.win_rate, 4), "wilson_lo": round(lo, 4),
                             "wilson_hi": round(hi, 4),
                             "packet_win_rate": round(base.win_rate, 4),
                             "diff_lo": round(dlo, 4), "diff_hi": round(dhi, 4)})
        return rows


def beats_packet(rows: list[dict[str, Any]]) -> bool:
    """Every scenario against the packet: at least 5 points above the packet in the seat."""
    vs = [r for r in rows if r["opponents"] == "packet"]
    return bool(vs) and all(r["win_rate"] >= r["packet_win_rate"] + 0.05 for r in vs)


def _seed_all(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)  # small MLPs: threads cost more than they give


def _vec_env(cfg: TrainConfig) -> Any:
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from .league_env import LeagueEnv

    if cfg.vec_env == "batched":
        from stable_baselines3.common.vec_env import VecMonitor

        from .batched import BatchedVecEnv

        vec = BatchedVecEnv([partial(LeagueEnv, cfg) for _ in range(cfg.n_envs)], cfg.workers)
        vec.seed(cfg.seed)
        return VecMonitor(vec)
    subproc = cfg.subproc or cfg.vec_env == "subproc"
    return make_vec_env(LeagueEnv, n_envs=cfg.n_envs, seed=cfg.seed,
                        env_kwargs={"cfg": cfg},
                        vec_env_cls=SubprocVecEnv if subproc else DummyVecEnv)


def _new_model(cfg: TrainConfig, vec: Any, tb: str | None) -> Any:
    import torch
    from sb3_contrib import MaskablePPO

    act = torch.nn.Tanh if cfg.activation == "tanh" else torch.nn.ReLU
    p = cfg.ppo
    return MaskablePPO(
        "MlpPolicy", vec, seed=cfg.seed, verbose=0, device="cpu", tensorboard_log=tb,
        n_steps=p.n_steps, batch_size=p.batch_size, n_epochs=p.n_epochs,
        learning_rate=p.learning_rate, gamma=p.gamma, gae_lambda=p.gae_lambda,
        clip_range=p.clip_range, ent_coef=p.ent_coef, vf_coef=p.vf_coef,
        max_grad_norm=p.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": list(cfg.network), "vf": list(cfg.network)},
                       "activation_fn": act})


def _tensorboard(run: Path) -> str | None:
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        return None
    return str(run / "tb")


def prepare_run(config: str, overrides: list[str], out: Path | None, resume: Path | None,
                programs: Collection[str] = (), say: Callable[[str], None] | None = None
                ) -> tuple[TrainConfig, Path]:
    """The config and the run folder; one-line refusals before anything heavy happens.
    ``programs``: the program agents the command line allows (``--allow-program``), which
    the config's teachers may be. A resumed run is trained from its own config.yaml,
    checked as a fresh config is; ``say`` is told which config that is."""
    if resume is not None:
        cfg_path = check_run_folder(resume)
        cfg = load_config(str(cfg_path), overrides, programs)
        note = f"resuming {resume} with its own config, {cfg_path} ({cfg.id})"
        if not _names_config(config, cfg, cfg_path):
            note += f"; the config argument {clip(config, 80)!r} is ignored"
        if out is not None and out != resume:
            note += f"; --out {clip(str(out), 80)} is ignored"
        if say is not None:
            say(note)
        return cfg, resume
    cfg = load_config(config, overrides, programs)
    flag = "--out " if out is not None else ""
    run = out if out is not None else Path("runs") / cfg.id
    try:
        if run.exists() and not run.is_dir():
            raise WastelandError(f"{flag}{run}: a file, not a folder; give the folder the run "
                                 f"goes in")
        if run.exists() and any(run.iterdir()):
            raise WastelandError(f"{run} already holds a run; continue it with --resume {run}, "
                                 f"or choose another folder with --out")
        run.mkdir(parents=True, exist_ok=True)
        (run / "config.yaml").write_text(yaml.safe_dump(cfg.dump(), sort_keys=False))
    except OSError as e:  # a file where a parent folder should be, no permission, disk full
        raise WastelandError(f"{flag}{run}: cannot make the run folder "
                             f"({e.strerror or type(e).__name__})") from None
    return cfg, run


# what `wasteland train` writes in a run folder; a resume writes there again
RUN_FILES = ("config.yaml", "eval.csv", "summary.json", "final.zip")
RUN_FOLDERS = ("checkpoints", "league", "tb", "expert")


def check_run_folder(run: Path) -> Path:
    """The config.yaml of run folder ``run``, after one-line refusals of what a resume
    could not use or should not trust: not a folder, no config, a symbolic link among the
    files it writes (a run folder someone sends you could point one at any file of yours,
    which training would then overwrite), a file where a folder belongs, an eval.csv or
    summary.json that is not a regular file within its cap or not readable."""
    from .export import read_eval, read_summary

    where = f"--resume {run}"
    if not run.is_dir():
        what = "no such folder" if not os.path.lexists(run) else "not a folder"
        raise WastelandError(f"{where}: not a training run ({what}); give the run folder "
                             f"`wasteland train` made")
    if not os.path.lexists(run / "config.yaml"):
        raise WastelandError(f"{where}: not a training run (no config.yaml)")
    try:
        inside = [run / n for n in RUN_FILES + RUN_FOLDERS]
        for d in RUN_FOLDERS:
            if (run / d).is_symlink() or not (run / d).exists():
                continue
            if not (run / d).is_dir():
                raise WastelandError(f"{where}: {d} is a file; in a run folder it is a folder")
            inside += list((run / d).iterdir())
        for p in inside:
            if p.is_symlink():
                raise WastelandError(f"{where}: {p.relative_to(run)} is a symbolic link; a run "
                                     f"folder holds its own files (training would write "
                                     f"through a link to another file)")
    except OSError as e:
        raise WastelandError(f"{where}: cannot read the folder ({e.strerror})") from None
    read_eval(run)
    read_summary(run)
    return run / "config.yaml"


def _names_config(config: str, cfg: TrainConfig, cfg_path: Path) -> bool:
    """Whether the config argument names the run's own config: its id (a shipped name),
    or the run's config.yaml itself."""
    if config == cfg.id:
        return True
    try:
        return looks_like_path(config) and Path(config).resolve() == cfg_path.resolve()
    except OSError:
        return False


def latest_checkpoint(run: Path) -> Path | None:
    found = sorted((run / "checkpoints").glob("step_*.zip"),
                   key=lambda p: int(p.stem.split("_")[1]))
    return found[-1] if found else None


def train_run(cfg: TrainConfig, run: Path, resume: bool = False,
              show: Callable[[str], None] | None = None, progress: bool = True) -> dict[str, Any]:
    """Train to ``cfg.steps`` in ``run`` (continuing its newest checkpoint if ``resume``)."""
    from stable_baselines3.common.callbacks import BaseCallback

    from .export import policy_of, read_summary, resume_model, write_policy

    say = show or (lambda s: None)
    t0 = time.time()  # the wall time counts everything: warm start, evaluations, saving
    _seed_all(cfg.seed)
    vec = _vec_env(cfg)
    tb = _tensorboard(run)
    start_step = 0
    if resume and (ckpt := latest_checkpoint(run)) is not None:
        model = resume_model(_new_model(cfg, vec, tb), ckpt)
        start_step = model.num_timesteps
        say(f"resuming {run} from {ckpt.name} ({start_step:,} steps)")
    else:
        model = _new_model(cfg, vec, tb)
    warm: dict[str, float] = {}
    data: dict[str, Any] | None = None
    if not start_step and cfg.imitation.decisions and cfg.algorithm == "ppo":
        from .imitation import collect, warm_start

        t = time.time()
        data = collect(cfg, cfg.imitation.decisions, cfg.seed)
        warm = warm_start(model, data, cfg.imitation.epochs, lr=cfg.imitation.learning_rate,
                          seed=cfg.seed)
        warm["seconds"] = round(time.time() - t, 1)
        say(f"warm start: {int(warm['decisions']):,} packet decisions, agreement "
            f"{warm['agreement']:.1%}, {warm['seconds']:.0f} s")
    anchor = None
    if cfg.imitation.anchor and start_step < cfg.imitation.anchor_until * cfg.steps:
        from .anchor import Anchor

        if data is None:  # resumed: the same warm-start states again (the same seed)
            from .imitation import collect

            data = collect(cfg, cfg.imitation.decisions, cfg.seed)
        anchor = Anchor(model, data, cfg.imitation.anchor, cfg.imitation.anchor_until,
                        seed=cfg.seed)
        anchor.progress = start_step / cfg.steps
    evaluator = Evaluator(cfg)
    (run / "checkpoints").mkdir(exist_ok=True)
    (run / "league").mkdir(exist_ok=True)
    csv_path = run / "eval.csv"
    if not csv_path.exists():
        with open(csv_path, "w", newline="") as f:
            csv.DictWriter(f, CSV_FIELDS).writeheader()
    prior = read_summary(run).get("wall_s", 0.0)
    if type(prior) not in (int, float) or not 0 <= prior < 1e9:
        raise WastelandError(f"{run / 'summary.json'}: wall_s {str(prior)[:40]!r} is not a "
                             f"number of seconds")
    state: dict[str, Any] = {"last_eval": "", "first_beat": None, "rows": []}

    def evaluate_now(step: int) -> None:
        pol = policy_of(model, f"{cfg.id}_step_{step}", cfg)
        rows = evaluator(pol)
        wall = round(prior + time.time() - t0, 1)
        with open(csv_path, "a", newline="") as f:
            w = csv.DictWriter(f, CSV_FIELDS)
            for r in rows:
                w.writerow({"step": step, "wall_s": wall, **r})
        vs = [r for r in rows if r["opponents"] == "packet"]
        if getattr(model, "_logger", None) is not None:  # no logger before PPO starts
            for r in rows:
                model.logger.record(f"eval/{r['scenario']}_{r['opponents']}", r["win_rate"])
        state["rows"] = rows
        state["last_eval"] = " ".join(f"{r['scenario']} {r['win_rate']:.0%}"
                                      f"(pkt {r['packet_win_rate']:.0%})" for r in vs)
        if beats_packet(rows) and state["first_beat"] is None:
            state["first_beat"] = {"step": step, "wall_s": wall}
        model.save(run / "checkpoints" / f"step_{step}")
        say(f"step {step:,}: {state['last_eval']}")

    if not start_step and cfg.algorithm == "expert_iteration":
        from .expert import expert_iteration, rounds_done

        if resume and (k := rounds_done(run / "expert", cfg.expert.iterations)):
            say(f"expert iteration: rounds 1-{k} of {cfg.expert.iterations} read from "
                f"{run / 'expert'}, not labelled again")
        writer = None
        if tb is not None:
            from torch.utils.tensorboard import SummaryWriter

            writer = SummaryWriter(str(Path(tb) / "expert"))

        def after_round(i: int, st: dict[str, float]) -> None:
            if writer is not None:
                for k in ("agreement", "value_loss", "labelled", "seconds"):
                    writer.add_scalar(f"expert/{k}", st[k], i)
                writer.flush()
            say(f"expert iteration {i}/{cfg.expert.iterations}: {int(st['labelled']):,} "
                f"labelled states, agreement with the teacher {st['agreement']:.1%}, "
                f"{st['seconds']:.0f} s")

        warm = expert_iteration(cfg, model, lambda m: policy_of(m, cfg.id, cfg), after_round,
                                store=run / "expert", resume=resume_model if resume else None)
        if writer is not None:
            writer.close()
        evaluate_now(0)

    def snapshot(step: int) -> None:
        pol = policy_of(model, f"step_{step}", cfg)
        write_policy(pol, run / "league")
        paths = sorted((run / "league").glob("step_*.npz"), key=lambda p: int(p.stem.split("_")[1]))
        keep = [str(p) for p in paths[-cfg.league.keep:]]
        vec.env_method("set_league", keep)

    class Hooks(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.bar: Any = None
            self.task: Any = None
            self.next_eval = (start_step // cfg.evaluation.every + 1) * cfg.evaluation.every
            self.next_snap = (start_step // cfg.league.snapshot_every + 1) * cfg.league.snapshot_every

        def _on_training_start(self) -> None:
            existing = sorted((run / "league").glob("step_*.npz"))
            if existing:
                vec.env_method("set_league", [str(p) for p in existing[-cfg.league.keep:]])
            vec.env_method("set_progress", self.num_timesteps / cfg.steps)
            self._set_ent_coef()
            if progress:
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    Progress,
                    TextColumn,
                    TimeElapsedColumn,
                )

                self.bar = Progress(TextColumn(f"[bold]{cfg.id}"), BarColumn(), MofNCompleteColumn(),
                                    TextColumn("{task.fields[rate]} steps/s"), TimeElapsedColumn(),
                                    TextColumn("{task.fields[eval]}"))
                self.bar.start()
                self.task = self.bar.add_task("train", total=cfg.steps, completed=self.num_timesteps,
                                              rate="-", eval="")
            self.t = time.time()
            self.n0 = self.num_timesteps

        def _set_ent_coef(self) -> float:
            model: Any = self.model  # MaskablePPO; BaseAlgorithm does not declare ent_coef
            model.ent_coef = cfg.ppo.ent_coef_at(self.num_timesteps / cfg.steps)
            return float(model.ent_coef)

        def _on_rollout_end(self) -> None:
            vec.env_method("set_progress", self.num_timesteps / cfg.steps)
            if cfg.ppo.ent_coef_final is not None:  # the bonus for the update that follows
                self.logger.record("train/ent_coef", self._set_ent_coef())
            if anchor is not None:  # the weight for the update that follows this rollout
                anchor.progress = self.num_timesteps / cfg.steps
                self.logger.record("train/anchor_weight", anchor.coefficient())
                if not math.isnan(anchor.last_ce):  # an update has run
                    self.logger.record("train/anchor_cross_entropy", anchor.last_ce)

        def _on_step(self) -> bool:
            n = self.num_timesteps
            if n >= self.next_snap:
                snapshot(n)
                self.next_snap += cfg.league.snapshot_every
            if n >= self.next_eval:
                evaluate_now(n)
                self.next_eval += cfg.evaluation.every
            if self.bar is not None and n % 256 < cfg.n_envs:
                rate = (n - self.n0) / max(1e-9, time.time() - self.t)
                self.bar.update(self.task, completed=n, rate=f"{rate:,.0f}",
                                eval=state["last_eval"])
            return True

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.update(self.task, completed=self.num_timesteps)
                self.bar.stop()

    hooks: Any = Hooks()
    if cfg.vec_env == "batched" and cfg.workers:
        from .batched import update_threads

        hooks = [hooks, update_threads(cfg.workers)]
    remaining = max(0, cfg.steps - start_step)
    try:
        model.learn(total_timesteps=remaining, callback=hooks, reset_num_timesteps=not resume,
                    tb_log_name="ppo")
    except KeyboardInterrupt:
        model.save(run / "checkpoints" / f"step_{model.num_timesteps}")
        vec.close()
        raise
    finally:
        if anchor is not None:
            anchor.close()
    wall = round(prior + time.time() - t0, 1)
    if not state["rows"] or int(model.num_timesteps) % cfg.evaluation.every:
        evaluate_now(int(model.num_timesteps))
    model.save(run / "final")
    vec.close()
    summary = {"config": cfg.id, "config_hash": cfg.hash(), "steps": int(model.num_timesteps),
               "wall_s": wall, "first_beat_packet": state["first_beat"],
               "evaluation": state["rows"], "beats_packet": beats_packet(state["rows"]),
               "warm_start": warm}
    (run / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def seat_side(cfg: TrainConfig, scenario: str) -> int:
    return side_of(training_scenario(scenario), cfg.creatures)
