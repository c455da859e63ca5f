"""`wasteland train`, `wasteland export` and `wasteland agents`: trained policies from a
config to a shipped file, and the list of every agent. Torch and stable-baselines3 are
imported only inside train and export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from wasteland.rules.errors import WastelandError

AGENT_HELP = {
    "random": "uniform among the legal actions",
    "scripted": "attack the closest enemy in range, approach otherwise, reload, stimpak when low",
    "packet": "Fallout 2 style AI packets per creature: aggression, distance, targets, chems, "
              "called shots, run away",
    "sloppy": "the packet, but a third of its choices random: enemies that make mistakes",
    "search": "the packet's choice checked against other plans by continuations of the fight "
              "(search@SECONDS, search:rollouts=N,candidates=N,horizon=ROUNDS,z=X,plans=0|1|2; "
              "docs/search.md)",
}


def train(
    config: Annotated[str, typer.Argument(help="A shipped config name (see `wasteland agents`) "
                                                "or a path to a config .yaml.")],
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="Override a config field: key=value (e.g. steps=200000, "
                      "ppo.learning_rate=1e-4); repeatable.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue the run in this folder from "
                                                     "its newest checkpoint.")] = None,
    out: Annotated[Path | None, typer.Option(help="The run folder. [default: runs/CONFIG_ID]")
                   ] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    backend: Annotated[str, typer.Option(
        help="sb3: MaskablePPO on this machine; rllib: RLlib's PPO, one module per creature "
             "kind, both sides learning in mirror arenas (needs the `ray` extra).")] = "sb3",
    address: Annotated[str | None, typer.Option(
        help="With --backend rllib: a Ray cluster's head, HOST:PORT, or auto.")] = None,
    env_runners: Annotated[int, typer.Option(
        help="With --backend rllib: RLlib env runners collecting fights (0: the driver "
             "collects).", min=0, max=1024)] = 0,
    allow_program: Annotated[list[str] | None, typer.Option(
        "--allow-program", help="A teacher that runs a program (cmd:COMMAND) which the "
                                "config or the run folder names, allowed to run: the same "
                                "text; repeatable. A file never starts a program by itself.")
                             ] = None,
) -> None:  # params: one per flag of `wasteland train` (typer reads them off the signature)
    """Train a policy from a config: MaskablePPO (the `train` extra) or RLlib (`ray`)."""
    from wasteland.training.run import prepare_run

    if backend not in ("sb3", "rllib"):
        raise WastelandError(f"--backend {backend!r}: accepted: sb3, rllib")
    if backend == "sb3" and (address or env_runners):
        raise WastelandError("--address and --env-runners belong to --backend rllib")
    if backend == "rllib":  # refused before a run folder is made
        _rllib("--backend rllib needs")
        if address not in (None, "auto"):
            from wasteland.sim.ray_backend import reachable

            reachable(address)
    cfg, run = prepare_run(config, set_ or [], out, resume, allow_program or [], typer.echo)
    if backend == "rllib":
        _train_rllib(config, cfg, run, address, env_runners, resume is not None)
        return
    try:
        from wasteland.training.run import train_run
    except ImportError as e:
        raise WastelandError(f"training needs the 'train' extra (torch, stable-baselines3, "
                             f"sb3-contrib): pip install -e '.[train]' ({e})") from None
    typer.echo(f"training {cfg.id} ({cfg.ruleset}, {', '.join(cfg.creatures)}) for "
               f"{cfg.steps:,} steps in {run}")
    try:
        s = train_run(cfg, run, resume=resume is not None, show=typer.echo, progress=progress)
    except KeyboardInterrupt:  # train_run saved a checkpoint before letting it through
        typer.echo(f"interrupted; a checkpoint is in {run / 'checkpoints'}; continue with: "
                   f"wasteland train {config} --resume {run}", err=True)
        raise typer.Exit(130) from None
    verdict = "beats" if s["beats_packet"] else "does not yet beat"
    typer.echo(f"done: {s['steps']:,} steps in {s['wall_s']:.0f} s; the policy {verdict} the "
               f"packet in its seat on every evaluation map")
    typer.echo(f"export it with: wasteland export {run} --name {cfg.id}")


def _rllib(why: str) -> Any:
    """wasteland.training.rllib_run, its env and RLlib importable, or one line saying which
    extras to install (``why`` begins it)."""
    try:
        import wasteland.training.rllib_env  # noqa: F401 - RLlib itself, imported at the top
        from wasteland.training import rllib_run
    except ImportError as e:
        raise WastelandError(f"{why} the 'ray' and 'train' extras: "
                             f"pip install -e '.[train,ray]' ({e})") from None
    return rllib_run


def _train_rllib(config: str, cfg: Any, run: Path, address: str | None, env_runners: int,
                 resume: bool) -> None:
    rllib_train = _rllib("--backend rllib needs").rllib_train
    typer.echo(f"training {cfg.id} ({cfg.ruleset}, {', '.join(cfg.creatures)}) with RLlib for "
               f"{cfg.steps:,} steps in {run}")
    try:
        s = rllib_train(cfg, run, address, env_runners, resume=resume, show=typer.echo)
    except KeyboardInterrupt:  # rllib_train saved its checkpoint on the way out
        typer.echo(f"interrupted; continue with: wasteland train {config} --backend rllib "
                   f"--resume {run}", err=True)
        raise typer.Exit(130) from None
    typer.echo(f"done: {s['steps']:,} steps in {s['wall_s']:.0f} s")
    for p in s["policies"]:
        typer.echo(f"wrote {p}; play it with --agents policy:{p}")


def export(
    run: Annotated[Path, typer.Argument(help="A run folder made by `wasteland train`.")],
    name: Annotated[str, typer.Option(help="The policy's name (NAME.npz, NAME.json).")],
    out: Annotated[Path, typer.Option(help="Where to write the two files.")] = Path("."),
    checkpoint: Annotated[str | None, typer.Option(
        help="Export a checkpoint instead of final.zip: step_N, step_N.zip or checkpoints/step_N.zip.")
    ] = None,
) -> None:
    """Export a trained run to NAME.npz (weights) and NAME.json (manifest)."""
    import re

    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise WastelandError(f"--name {name!r}: use lower-case letters, digits and _")
    if (run / "checkpoint" / "learner_group").is_dir():  # a `train --backend rllib` run
        for npz in _rllib(f"{run} is an RLlib run; exporting it needs").export_rllib_run(
                run, name, out):
            typer.echo(f"wrote {npz} and {npz.with_suffix('.json')}; play it with "
                       f"--agents policy:{npz}")
        return
    try:
        from wasteland.training.export import export_run
    except ImportError as e:
        raise WastelandError(f"export needs the 'train' extra: pip install -e '.[train]' ({e})"
                             ) from None
    npz, js = export_run(run, name, out, checkpoint)
    typer.echo(f"wrote {npz} and {js}; play it with --agents policy:{npz}")


def _listed(evaluation: Any) -> list[dict[str, Any]]:
    """A manifest's last evaluation rows that hold what the listing prints."""
    if not isinstance(evaluation, list):
        return []
    keys = ("scenario", "win_rate", "packet_win_rate")
    return [r for r in evaluation if isinstance(r, dict)
            and isinstance(r.get("scenario"), str)
            and all(isinstance(r.get(k), (int, float)) and not isinstance(r.get(k), bool)
                    for k in keys[1:])]


def agent_rows() -> list[dict[str, Any]]:
    from wasteland.agents.levels import LEVELS, measured
    from wasteland.agents.policy import load_policy, manifest_table, shipped_names

    rows: list[dict[str, Any]] = [{"agent": k, "kind": "scripted" if k != "random" else "random",
                                   "about": v} for k, v in AGENT_HELP.items()]
    for level, (agent, meaning) in LEVELS.items():
        rows.append({"agent": level, "kind": "level", "plays": agent,
                     "about": f"{meaning} ({agent}){measured(level)}"})
    for n in shipped_names():
        try:
            p = load_policy(n)
            m = p.manifest
            cfg = manifest_table(m, "config")
            tr = p.training()
            ev = [r for r in _listed(manifest_table(m, "training").get("evaluation"))
                  if r.get("opponents") == "packet"]
            rows.append({
                "agent": f"policy:{n}", "kind": "policy", "ruleset": m["ruleset"],
                "creatures": m.get("creatures", []), "algorithm": tr["algorithm"],
                "steps": tr["steps"], "labels": tr["labels"],
                "wall_s": tr["wall_s"], "config": cfg.get("id"),
                "evaluation": [{k: r[k] for k in ("scenario", "win_rate", "packet_win_rate")}
                               for r in ev],
                "about": str(cfg.get("description", "")),
            })
        except WastelandError as e:
            rows.append({"agent": f"policy:{n}", "kind": "policy", "error": str(e)})
    return rows


def agents(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List every agent and shipped policy, with each policy's training summary."""
    from wasteland.training.config import config_names

    rows = agent_rows()
    if as_json:
        typer.echo(json.dumps({"agents": rows, "configs": config_names()}, indent=2))
        return
    for r in rows:
        if r["kind"] != "policy":
            typer.echo(f"{r['agent']:<28} {r['about']}")
            continue
        if "error" in r:
            typer.echo(f"{r['agent']:<28} unusable: {r['error']}")
            continue
        ev = ", ".join(f"{e['scenario']} {e['win_rate']:.0%} (packet {e['packet_win_rate']:.0%})"
                       for e in r["evaluation"])
        typer.echo(f"{r['agent']:<28} {r['ruleset']}: {', '.join(r['creatures'])}; "
                   + (f"{r['labels']:,} teacher labels + " if r["labels"] else "")
                   + f"{r['steps']:,} steps" + (f" in {r['wall_s']:.0f} s" if r["wall_s"] else "")
                   + (f"; last training evaluation, win rate vs packet: {ev}" if ev else ""))
    typer.echo(f"{'cmd:COMMAND':<28} any program speaking the agent protocol "
               f"(docs/protocol.md); cmd@SECONDS:COMMAND sets its time per decision")
    typer.echo("training configs: " + ", ".join(config_names()))


def register(app: typer.Typer) -> None:
    app.command()(train)
    app.command()(export)
    app.command()(agents)
