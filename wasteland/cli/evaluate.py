"""`wasteland evaluate`: which agent is better, by how much and how sure: a round robin
over scenarios and rulesets with win rates, intervals and ratings (docs/arena.md).

Only typer is imported here; the engine, openskill, rich and matplotlib load when the
command runs.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from wasteland.cli.flags import command
from wasteland.cli.options import lowered
from wasteland.rules.errors import WastelandError

if TYPE_CHECKING:
    from rich.console import Console

DEFAULT_GAMES = 10


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(r: dict[str, Any]) -> str:
    lo, hi = r["ci"]
    return f"{pct(r['rate'])} [{100 * lo:.0f}-{100 * hi:.0f}]"


def render(rep: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    lo, hi = rep["seeds"]
    scenarios = len(rep["scenarios"])
    where = f" {rep['cache']}" if rep.get("cache") else ""
    console.print(f"{len(rep['agents'])} agents, {scenarios} scenario{'s' * (scenarios > 1)} "
                  f"({', '.join(rep['scenarios'])}) under {', '.join(rep['rulesets'])}; "
                  f"{rep['n']} games per pairing and side order, seeds {lo}-{hi}: "
                  f"{rep['games']:,} games, {rep['fought']:,} fought now, "
                  f"{rep['cached']:,} from the cache{where}")
    anchor = rep["anchor"]
    title = (f"Ratings (openskill; {anchor['agent']} anchored at {anchor['mu']:g})" if anchor
             else "Ratings (openskill, unanchored: no packet in the field)")
    table = Table(title=title, title_justify="left")
    for col in ("#", "agent", "rating", "sigma", "95% interval", "games", "win", "draw", "loss"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    overall = {o["agent"]: o for o in rep["overall"]}
    for r in rep["ratings"]:
        o = overall[r["agent"]]
        table.add_row(f"{r['rank']}{'=' if r['tied'] else ''}", r["agent"], f"{r['mu']:.1f}",
                      f"{r['sigma']:.1f}",
                      f"{r['ci'][0]:.1f} to {r['ci'][1]:.1f}", f"{o['games']:,}",
                      ci(o["win"]), ci(o["draw"]), ci(o["loss"]))
    console.print(table)
    pairs = Table(title="Head to head (first agent's results, 95% intervals)", title_justify="left")
    for col in ("agent", "opponent", "games", "win", "draw", "loss"):
        pairs.add_column(col, justify="left" if col in ("agent", "opponent") else "right")
    for p in rep["pairs"]:
        pairs.add_row(p["agent"], p["opponent"], f"{p['games']:,}", ci(p["win"]), ci(p["draw"]),
                      ci(p["loss"]))
    console.print(pairs)
    by = Table(title="Win rate against the field, per scenario and ruleset", title_justify="left")
    by.add_column("scenario")
    by.add_column("ruleset")
    for a in rep["agents"]:
        by.add_column(a, justify="right")
    for sc, per_r in rep["by_scenario"].items():
        for r, rows in per_r.items():
            by.add_row(sc, r, *[pct(x["win"]["rate"]) for x in rows])
    console.print(by)
    if rep["interrupted"]:
        console.print(f"interrupted: the numbers are those of the {rep['games']:,} games "
                      f"played (cached: a rerun fights only the rest)", style="yellow")


def run(o: EvaluateOptions, bar: bool) -> dict[str, Any]:
    from wasteland.arena.cache import ResultCache, default_path
    from wasteland.arena.field import make_field
    from wasteland.arena.report import report
    from wasteland.arena.tournament import play
    from wasteland.sim.runner import default_jobs, make_backend

    jobs, backend, address, cache = o.jobs, o.backend, o.address, o.cache
    be = make_backend(backend or "local", address)
    if be is not None and jobs is not None:
        raise WastelandError("--jobs sizes the local pool; with --backend ray every CPU of "
                             "the cluster fights")
    if o.no_cache and cache is not None:
        raise WastelandError("--no-cache and --cache FILE say opposite things; give one")
    procs = default_jobs() if jobs is None else jobs
    field = make_field(o.agents, o.scenarios, o.rulesets, o.games, o.seed, procs, o.suite)
    path = None if o.no_cache else (cache or default_path())
    store = ResultCache(path, make_folder=cache is None)
    start = time.perf_counter()
    try:
        if bar:
            t = _with_bar(field, store, procs, be)
        else:
            t = play(field, store, procs, be)
    finally:
        store.close()
    if t.interrupted and not t.games:
        raise KeyboardInterrupt
    rep = report(t)
    rep.update({"backend": backend or "local", "address": address,
                "jobs": procs if be is None else None,
                "cache": None if path is None else str(path),
                "seconds": time.perf_counter() - start})
    return rep


def _with_bar(field: Any, store: Any, jobs: int, be: Any) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from wasteland.arena.tournament import play

    # no refresh thread: the pool forks after the bar is up (see cli/simulate.py)
    progress = Progress("fighting", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(stderr=True), auto_refresh=False, transient=True)
    shown = [0.0]
    with progress:
        task = progress.add_task("fighting", total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)
            now = time.monotonic()
            if now - shown[0] > 0.1 or done == total:
                shown[0] = now
                progress.refresh()

        return play(field, store, jobs, be, on_game=tick)


@dataclass(frozen=True)
class EvaluateOptions:
    """`wasteland evaluate`'s flags as typed (cli/flags.py)."""

    agents: Annotated[str | None, typer.Option(
        help="Two or more agents, comma-separated: random, scripted, packet, policy:NAME (a "
             "shipped policy, or policy:path/to/NAME.npz).")] = None
    scenarios: Annotated[str | None, typer.Option(
        help="Two-sided scenarios, comma-separated: built-in names or files. "
             "[default: every built-in scenario]")] = None
    rulesets: Annotated[str | None, typer.Option(
        callback=lowered,
        help="Rulesets, comma-separated: pnp, f2d20, simple. [default: all]")] = None
    suite: Annotated[str | None, typer.Option(
        help="Fight on the seat suite's scenarios instead (docs/seats.md): all, or a family "
             "(radscorpions, super_mutants, robots); each under the ruleset it was tuned "
             "for, those with a bar, filtered by --rulesets.")] = None
    games: Annotated[int, typer.Option(
        "-n", "--games", help="Games per pairing, side order, scenario and ruleset.")
    ] = DEFAULT_GAMES
    seed: Annotated[int, typer.Option(
        help="Game i of every pairing uses seed SEED + i.")] = 0
    jobs: Annotated[int | None, typer.Option(
        help="Processes of the local backend. [default: the number of cores]")] = None
    backend: Annotated[str | None, typer.Option(
        help="Where the games run: local (a pool of processes) or ray (Ray tasks, here or "
             "on a cluster). Same numbers either way. [default: local]")] = None
    address: Annotated[str | None, typer.Option(
        help="With --backend ray: the cluster's head, HOST:PORT, or auto.")] = None
    cache: Annotated[Path | None, typer.Option(
        help="The results cache, an SQLite file: games already in it are not fought again. "
             "[default: wasteland/arena.sqlite in the user's cache folder]")] = None
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Fight every game; read and keep no cache.")] = False
    plot: Annotated[Path | None, typer.Option(
        help="Also draw the results as PNGs in this folder (made if missing): "
             "win_matrix.png, ratings.png, by_scenario.png.")] = None
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False


def evaluate(o: EvaluateOptions) -> None:
    """Which agent is better? A round robin: every pair of agents, both side orders, on
    every scenario and ruleset, the same seeds; win/draw/loss with 95% intervals and
    openskill ratings (the packet anchored at 25)."""
    plot, as_json = o.plot, o.as_json
    if plot is not None:
        from wasteland.arena.plot import check_folder

        check_folder(plot)
    try:
        rep = run(o, not as_json and sys.stderr.isatty())
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(rep, indent=2))
    else:
        from rich.console import Console

        render(rep, Console(highlight=False, width=None if sys.stdout.isatty() else 120))
    if plot is not None:
        from wasteland.arena.plot import plot_all

        for p in plot_all(rep, plot):
            if not as_json:
                typer.echo(f"plot: {p}", err=True)
    if rep["interrupted"]:
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command()(command(EvaluateOptions, evaluate))
