"""`wasteland simulate`: how deadly is this encounter? The same encounter fought many
times by agents on every side, answered with odds and a verdict (docs/simulate.md).

The options are parsed into one SimRequest (wasteland/sim/request.py), which
wasteland/sim/modes.py answers; this module draws the answer (simulate_tables.py), the
progress bar and the plot. Only typer is imported here; the engine, rich and
multiprocessing load when the command runs, so `wasteland --help` stays fast.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from wasteland.cli.flags import command, given
from wasteland.cli.options import AGENT_NAMES, lowered
from wasteland.rules.names import RULESETS
from wasteland.sim.request import DEFAULT_FIGHTS, SimRequest


@contextmanager
def progress_bar(label: str, n: int) -> Iterator[Callable[[int], None]]:
    """A bar on stderr, moved by the function yielded (the fights done so far)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    # no refresh thread: the pool forks its workers after the bar is up, and a fork while
    # another thread holds a lock can leave the child stuck on it
    progress = Progress(label, BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), console=Console(stderr=True),
                        auto_refresh=False, transient=True)
    shown = [0.0]

    def tick(done: int) -> None:
        progress.update(task, completed=done)
        now = time.monotonic()
        if now - shown[0] > 0.1 or done == n:
            shown[0] = now
            progress.refresh()

    with progress:
        task = progress.add_task(label, total=n)
        yield tick


def draw(path: str | None, rep: dict[str, Any], as_json: bool) -> None:
    """The PNG of ``rep`` at ``path``, said on stderr (stdout may be JSON)."""
    if path is None or not rep["fights"]:
        return
    from wasteland.sim.plot import plot

    plot(rep, path)
    if not as_json:
        typer.echo(f"plot: {path}", err=True)


def console(width: int) -> Any:
    from rich.console import Console

    # piped, rich would assume 80 columns and fold the tables
    return Console(highlight=False, width=None if sys.stdout.isatty() else width)


@dataclass(frozen=True)
class SimulateOptions:
    """`wasteland simulate`'s flags as typed (cli/flags.py), before SimRequest reads them."""

    scenario: Annotated[str | None, typer.Option(
        help="Built-in scenario name, or a scenario file (a path: with / or .yaml). "
             "[default: vault_corridor]")] = None
    ruleset: Annotated[str | None, typer.Option(
        callback=lowered, help=f"Rules: {', '.join(RULESETS)}. [default: pnp]")] = None
    side: Annotated[str | None, typer.Option(
        help="The party's side, whose odds are counted (name or number). [default: 0]")] = None
    party: Annotated[str | None, typer.Option(
        help="The party: creature ids, comma-separated, each with an optional count "
             "('brawler,2 vault_dweller'). [default: the map's]")] = None
    enemies: Annotated[str | None, typer.Option(
        help="The enemies, as --party ('3 radscorpion, super_mutant'). [default: the map's]")
    ] = None
    agents: Annotated[str | None, typer.Option(
        help=f"Agent per side, comma-separated: {AGENT_NAMES}. One name plays every side. "
             f"[default: the scenario's, else packet]")] = None
    fights: Annotated[int, typer.Option(
        "-n", "--fights", help=f"Fights (the cap with --until-precision). "
                               f"[default: {DEFAULT_FIGHTS}]")] = DEFAULT_FIGHTS
    seed: Annotated[int, typer.Option(
        help="Fight i uses seed SEED + i, the fight `wasteland fight --seed` shows. "
             "[default: 0]")] = 0
    jobs: Annotated[int | None, typer.Option(
        help="Processes of the local backend. [default: the number of cores]")] = None
    backend: Annotated[str | None, typer.Option(
        help="Where the fights run: local (a pool of processes) or ray (Ray tasks, here or "
             "on a cluster; pip install 'wasteland[ray]'). Same numbers either way. "
             "[default: local]")] = None
    address: Annotated[str | None, typer.Option(
        help="With --backend ray: the cluster's head, HOST:PORT (`ray start --head` says "
             "it), or auto. [default: a Ray instance on this machine's cores]")] = None
    until_precision: Annotated[float | None, typer.Option(
        help="Stop once the party's win rate's 95% interval is at most this wide (0.02: "
             "two points); -n is then the cap.")] = None
    balance: Annotated[str | None, typer.Option(
        help="Search the enemy count closest to --target: 'enemies' (the enemy list taken "
             "round and round, 1, 2, ... creatures) or one enemy creature id (its count). "
             "-n fights per count.")] = None
    target: Annotated[str | None, typer.Option(
        help="The difficulty --balance aims for: trivial, easy, medium, hard, deadly. "
             "[default: medium]")] = None
    chain: Annotated[str | None, typer.Option(
        help="Encounters in a row, comma-separated (built-in names or files): the party "
             "carries HP, ammunition, items and lasting injuries from one to the next; the "
             "dead stay out, the fallen come back at 1 HP. Says how far it gets.")] = None
    from_save: Annotated[str | None, typer.Option(
        "--from", help="Simulate the rest of a saved fight (a save of play, gm or fight "
                       "--save): continuation i reseeds the dice from SEED + i; packets on "
                       "every side unless --agents.")] = None
    plot: Annotated[str | None, typer.Option(
        help="Also draw the outcomes, rounds and each member's HP left as a picture at "
             "this path, ending in .png, .svg or .pdf (with --balance: the pick's).")] = None
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False


def simulate(o: SimulateOptions) -> None:
    """How deadly is this encounter? Fight it many times and read the odds and a verdict:
    trivial, easy, medium, hard or deadly; or find the enemy count for a verdict."""
    from wasteland.sim.modes import answer

    flags = {"--scenario": "scenario", "--ruleset": "ruleset", "--side": "side",
             "--party": "party", "--enemies": "enemies", "--agents": "agents",
             "--jobs": "jobs", "--backend": "backend", "--address": "address",
             "--until-precision": "until_precision", "--balance": "balance",
             "--target": "target", "--chain": "chain", "--from": "from_save", "--plot": "plot"}
    req = SimRequest(scenario=o.scenario or "vault_corridor", ruleset=o.ruleset or "pnp",
                     side=o.side, party=o.party, enemies=o.enemies, agents=o.agents,
                     fights=o.fights, seed=o.seed, jobs=o.jobs, backend=o.backend or "local",
                     address=o.address, until_precision=o.until_precision,
                     balance=o.balance, target=o.target or "medium", chain=o.chain,
                     from_save=o.from_save, plot=o.plot, given=given(o, flags))
    as_json, plot = o.as_json, o.plot
    bar = progress_bar if not as_json and sys.stderr.isatty() else None
    try:
        rep = answer(req, bar)
    except KeyboardInterrupt:  # before the first fight was tallied
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(rep, indent=2))
    if req.mode == "chain":
        if not as_json:
            from .simulate_tables import render_chain

            render_chain(rep, console(140))
        if rep["interrupted"]:
            typer.echo(f"interrupted after {rep['fights']:,} runs", err=True)
            raise typer.Exit(130)
    elif req.mode == "balance":
        if not as_json:
            from .simulate_tables import render_balance

            render_balance(rep, console(120))
        draw(plot, rep["balance"]["candidates"][rep["balance"]["best"]], as_json)
        if rep["balance"]["interrupted"]:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130)
    else:
        if not as_json:
            from .simulate_tables import render

            render(rep, console(120))
        draw(plot, rep, as_json)
        if rep["interrupted"]:
            typer.echo(f"interrupted after {rep['fights']:,} fights", err=True)
            raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command()(command(SimulateOptions, simulate))
