"""`wasteland simulate`: how deadly is this encounter? The same encounter fought many
times by agents on every side, answered with odds and a verdict (docs/simulate.md).

Only typer is imported here; the engine, rich and multiprocessing load when the command
runs, so `wasteland --help` stays fast.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from wasteland.rules.errors import WastelandError

if TYPE_CHECKING:
    from rich.console import Console

    from wasteland.sim.runner import Backend, FightFn
    from wasteland.sim.simulate import Simulation
    from wasteland.sim.spec import Encounter, SimSpec

DEFAULT_FIGHTS = 1000


def build_spec(ruleset: str, scenario: str, side: str, party: str | None,
               enemies: str | None, agents: str | None, seed: int) -> SimSpec:
    """The encounter as the options describe it, checked by building its first battle, so
    that anything wrong is one line before a single fight."""
    from wasteland.cli.encounter import encounter
    from wasteland.rules.protocol import get_ruleset
    from wasteland.sim.spec import SimSpec, side_agents

    rs = get_ruleset(ruleset)
    sc, me = encounter(scenario, side, party, enemies, options=("--party", "--enemies"))
    spec = SimSpec(ruleset, sc, side_agents(sc, agents.split(",") if agents else None), me)
    rs.new_battle(sc, seed, keep_log=False)
    return spec


def check_numbers(n: int, seed: int, jobs: int, until_precision: float | None) -> None:
    from wasteland.limits import MAX_FIGHTS, MAX_SEED
    from wasteland.sim.runner import check_jobs

    if not 1 <= n <= MAX_FIGHTS:
        raise WastelandError(f"-n must be 1 to {MAX_FIGHTS:,} fights, got {n}")
    check_jobs(jobs)
    if until_precision is not None and not 0 < until_precision < 1:
        raise WastelandError(f"--until-precision must be between 0 and 1 (the width of the win "
                             f"rate's interval, e.g. 0.02), got {until_precision:g}")
    if not -MAX_SEED <= seed <= MAX_SEED - (n - 1):
        raise WastelandError(f"--seed: the fights use seeds {seed} to {seed + n - 1}; seeds "
                             f"run from {-MAX_SEED} to {MAX_SEED}")


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(r: dict[str, Any]) -> str:
    lo, hi = r["ci"]
    return f"{pct(r['rate'])} [{100 * lo:.1f}-{100 * hi:.1f}]"


def spread(d: dict[str, Any]) -> str:
    """mean, median and the middle 80% of a distribution."""
    if not d.get("n"):
        return "-"
    return f"{d['mean']:.1f} (median {d['median']:g}, 10-90%: {d['p10']:g}-{d['p90']:g})"


def render(rep: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    sides = " vs ".join(f"{s} ({a})" for s, a in rep["agents"].items())
    lo, hi = rep["seeds"]
    console.print(f"{rep['scenario']} under {rep['ruleset']}: {sides}; {rep['fights']:,} "
                  f"fights, seeds {lo}-{hi}; the party is {rep['party_side']}")
    if rep.get("from"):
        at = rep["from"]
        console.print(f"from {at['save']}, round {at['round']}, {at['decides']} to decide: "
                      f"the rest of the fight, each with its own dice (seed + i); HP lost, "
                      f"rounds, going down and dying count from here")
    out = Table(title="Outcome", title_justify="left")
    for col in ("", "fights", "share [95% interval]"):
        out.add_column(col, justify="right" if col else "left")
    for k in ("win", "loss", "draw"):
        r = rep["outcome"][k]
        out.add_row(k, f"{r['count']:,}", ci(r))
    for k, label in (("anyone_down", "someone goes down"), ("anyone_dies", "someone dies"),
                     ("lethal", "lethal (dies or loses)")):
        r = rep[k]
        out.add_row(label, f"{r['count']:,}", ci(r))
    console.print(out)
    if "agent_faults" in rep:
        console.print("program agents' faults (each decision played by a fallback): "
                      + ", ".join(f"{k} {n}" for k, n in rep["agent_faults"].items()))
    party = Table(title="Party", title_justify="left")
    for col in ("member", "goes down", "dies", "HP lost: mean (median, 10-90%)", "ammo",
                "stimpaks"):
        party.add_column(col, justify="left" if col == "member" else "right")
    for m in rep["members"]:
        party.add_row(f"{m['id']} ({m['creature']})", ci(m["down"]), ci(m["dies"]),
                      spread(m["hp_lost"]), f"{m['ammo_used_mean']:.1f}",
                      f"{m['items_used_mean'].get('stimpak', 0.0):.2f}")
    console.print(party)
    items = ", ".join(f"{k} {v:.2f}" for k, v in rep["items_used_mean"].items()) or "none"
    console.print(f"rounds: {spread(rep['rounds'])}")
    console.print(f"party HP lost: {spread(rep['party_hp_lost'])}")
    console.print(f"per fight the party fires {rep['ammo_used_mean']:.1f} rounds and uses: "
                  f"{items}")
    if rep["interrupted"]:
        console.print(f"interrupted after {rep['fights']:,} of {rep['requested']:,} fights: the "
                      f"numbers are those of seeds {lo}-{hi}", style="yellow")
    elif rep["until_precision"] is not None:
        width = rep["win_interval_width"]
        if rep["precision_reached"]:
            console.print(f"stopped after {rep['fights']:,} fights: the win rate's interval is "
                          f"{width:.3f} wide (asked: {rep['until_precision']:g})")
        else:
            console.print(f"the cap of -n {rep['requested']:,} fights was hit: the win rate's "
                          f"interval is {width:.3f} wide, not yet {rep['until_precision']:g}",
                          style="yellow")
    console.print(rep["summary"], style="bold")


def fight_all(spec: Encounter, n: int, seed: int, jobs: int, until_precision: float | None,
              bar: bool, label: str = "fighting", fn: FightFn | None = None,
              backend: Backend | None = None) -> Simulation:
    """The simulation, with a progress bar on stderr when ``bar``."""
    from wasteland.sim.simulate import simulate

    if not bar:
        return simulate(spec, n, seed, jobs, until_precision, fn=fn, backend=backend)
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
        return simulate(spec, n, seed, jobs, until_precision, on_fight=tick, fn=fn,
                        backend=backend)


def run(ruleset: str, scenario: str, side: str, party: str | None, enemies: str | None,
        agents: str | None, n: int, seed: int, jobs: int | None,
        until_precision: float | None, as_json: bool, backend: Backend | None = None
        ) -> dict[str, Any]:
    from wasteland.sim.runner import default_jobs

    jobs = default_jobs() if jobs is None else jobs
    check_numbers(n, seed, jobs, until_precision)
    spec = build_spec(ruleset, scenario, side, party, enemies, agents, seed)
    start = time.perf_counter()
    sim = fight_all(spec, n, seed, jobs, until_precision, not as_json and sys.stderr.isatty(),
                    backend=backend)
    return report_of(sim, jobs, start)


def report_of(sim: Any, jobs: int, start: float) -> dict[str, Any]:
    """A finished run's report with its processes and wall time (every mode's). A Ctrl-C
    before any fight ended leaves nothing to show: it goes on as a KeyboardInterrupt."""
    if sim.interrupted and sim.tally.n == 0:
        raise KeyboardInterrupt
    rep: dict[str, Any] = sim.report()
    rep["jobs"] = jobs
    rep["seconds"] = time.perf_counter() - start
    return rep


def run_balance(ruleset: str, scenario: str, side: str, party: str | None,
                enemies: str | None, agents: str | None, n: int, seed: int, jobs: int | None,
                until_precision: float | None, as_json: bool, vary: str,
                target: str, backend: Backend | None = None) -> dict[str, Any]:
    """The enemy counts fought in turn until one is past ``target``, and the pick."""
    from wasteland.cli.encounter import creature_ids, encounter
    from wasteland.rules.actions import MAX_COMBATANTS
    from wasteland.sim.balance import enemies_text, enemy_lists, search
    from wasteland.sim.runner import default_jobs
    from wasteland.sim.verdict import VERDICTS

    jobs = default_jobs() if jobs is None else jobs
    check_numbers(n, seed, jobs, until_precision)
    if target not in VERDICTS:
        raise WastelandError(f"--target must be one of {', '.join(VERDICTS)}, got {target!r}")
    spec = build_spec(ruleset, scenario, side, party, enemies, agents, seed)
    sc, me = encounter(scenario, side, party, enemies, options=("--party", "--enemies"))
    foe = 1 if me == 0 else 0
    base = [p.creature for p in sc.sides[foe].combatants]
    if vary != "enemies" and vary not in base:
        raise WastelandError(f"--balance {vary!r}: not among the enemies ({', '.join(base)}); "
                             f"give 'enemies' or one of them")
    others = sum(len(s.combatants) for i, s in enumerate(sc.sides) if i != foe)
    lists = enemy_lists(base, None if vary == "enemies" else vary, MAX_COMBATANTS - others)
    bar = not as_json and sys.stderr.isatty()
    start = time.perf_counter()

    def fight(foes: list[str]) -> Simulation:
        text = enemies_text(foes)
        creature_ids(text, "--enemies")
        one = build_spec(ruleset, scenario, side, party, text, agents, seed)
        return fight_all(one, n, seed, jobs, until_precision, bar, text, backend=backend)

    cands, best, stopped = search(lists, fight, target)
    if cands[-1].sim.interrupted and cands[-1].sim.tally.n == 0:
        cands.pop()
        if not cands:
            raise KeyboardInterrupt
        best = min(best, len(cands) - 1)
    reports = []
    for c in cands:
        rep = c.sim.report()
        rep["enemies"] = enemies_text(c.enemies)
        reports.append(rep)
    return {"balance": {"target": target, "vary": vary, "agents": dict(zip(spec.side_names,
                                                                         spec.agents)),
                        "best": best, "enemies": reports[best]["enemies"],
                        "stopped": stopped, "interrupted": cands[-1].sim.interrupted,
                        "candidates": reports},
            "jobs": jobs, "seconds": time.perf_counter() - start}


def render_balance(out: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    bal = out["balance"]
    first = bal["candidates"][0]
    console.print(f"{first['scenario']} under {first['ruleset']}: balancing {bal['vary']} for "
                  f"'{bal['target']}', {first['requested']:,} fights a count, seeds from "
                  f"{first['seed']}")
    table = Table()
    for col in ("enemies", "verdict", "party wins", "goes down", "lethal", "rounds"):
        table.add_column(col, justify="left" if col in ("enemies", "verdict") else "right")
    for i, r in enumerate(bal["candidates"]):
        mark = " <" if i == bal["best"] else ""
        table.add_row(r["enemies"] + mark, r["verdict"], ci(r["outcome"]["win"]),
                      pct(r["anyone_down"]["rate"]), pct(r["lethal"]["rate"]),
                      f"{r['rounds'].get('median', 0):g}")
    console.print(table)
    if bal["interrupted"]:
        console.print("interrupted: the search stopped early", style="yellow")
    elif bal["stopped"]:
        console.print(f"no harder encounter fits: {bal['stopped']}", style="yellow")
    best = bal["candidates"][bal["best"]]
    console.print(f"closest to {bal['target']}: --enemies \"{bal['enemies']}\"", style="bold")
    console.print(best["summary"], style="bold")


def draw(path: str | None, rep: dict[str, Any], as_json: bool) -> None:
    """The PNG of ``rep`` at ``path``, said on stderr (stdout may be JSON)."""
    if path is None or not rep["fights"]:
        return
    from wasteland.sim.plot import plot

    plot(rep, path)
    if not as_json:
        typer.echo(f"plot: {path}", err=True)


def simulate(
    scenario: Annotated[str | None, typer.Option(
        help="Built-in scenario name, or a scenario file (a path: with / or .yaml). "
             "[default: vault_corridor]")] = None,
    ruleset: Annotated[str | None, typer.Option(help="Rules: pnp, f2d20. [default: pnp]")] = None,
    side: Annotated[str | None, typer.Option(
        help="The party's side, whose odds are counted (name or number). [default: 0]")] = None,
    party: Annotated[str | None, typer.Option(
        help="The party: creature ids, comma-separated, each with an optional count "
             "('brawler,2 vault_dweller'). [default: the map's]")] = None,
    enemies: Annotated[str | None, typer.Option(
        help="The enemies, as --party ('3 radscorpion, super_mutant'). [default: the map's]")
    ] = None,
    agents: Annotated[str | None, typer.Option(
        help="Agent per side, comma-separated: packet, scripted, random, policy:NAME. One "
             "name plays every side. [default: the scenario's, else packet]")] = None,
    fights: Annotated[int, typer.Option(
        "-n", "--fights", help=f"Fights (the cap with --until-precision). "
                               f"[default: {DEFAULT_FIGHTS}]")] = DEFAULT_FIGHTS,
    seed: Annotated[int, typer.Option(
        help="Fight i uses seed SEED + i, the fight `wasteland fight --seed` shows. "
             "[default: 0]")] = 0,
    jobs: Annotated[int | None, typer.Option(
        help="Processes of the local backend. [default: the number of cores]")] = None,
    backend: Annotated[str | None, typer.Option(
        help="Where the fights run: local (a pool of processes) or ray (Ray tasks, here or "
             "on a cluster; pip install 'wasteland[ray]'). Same numbers either way. "
             "[default: local]")] = None,
    address: Annotated[str | None, typer.Option(
        help="With --backend ray: the cluster's head, HOST:PORT (`ray start --head` says "
             "it), or auto. [default: a Ray instance on this machine's cores]")] = None,
    until_precision: Annotated[float | None, typer.Option(
        help="Stop once the party's win rate's 95% interval is at most this wide (0.02: "
             "two points); -n is then the cap.")] = None,
    balance: Annotated[str | None, typer.Option(
        help="Search the enemy count closest to --target: 'enemies' (the enemy list taken "
             "round and round, 1, 2, ... creatures) or one enemy creature id (its count). "
             "-n fights per count.")] = None,
    target: Annotated[str | None, typer.Option(
        help="The difficulty --balance aims for: trivial, easy, medium, hard, deadly. "
             "[default: medium]")] = None,
    chain: Annotated[str | None, typer.Option(
        help="Encounters in a row, comma-separated (built-in names or files): the party "
             "carries HP, ammunition, items and lasting injuries from one to the next; the "
             "dead stay out, the fallen come back at 1 HP. Says how far it gets.")] = None,
    from_save: Annotated[str | None, typer.Option(
        "--from", help="Simulate the rest of a saved fight (a save of play, gm or fight "
                       "--save): continuation i reseeds the dice from SEED + i; packets on "
                       "every side unless --agents.")] = None,
    plot: Annotated[str | None, typer.Option(
        help="Also draw the outcomes, rounds and each member's HP left as a PNG at this "
             "path (with --balance: the pick's).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """How deadly is this encounter? Fight it many times and read the odds and a verdict:
    trivial, easy, medium, hard or deadly; or find the enemy count for a verdict."""
    args = (ruleset or "pnp", scenario or "vault_corridor", side or "0", party, enemies,
            agents, fights, seed, jobs, until_precision, as_json)
    if target is not None and balance is None:
        raise WastelandError("--target needs --balance (enemies, or an enemy creature id)")
    if plot is not None:
        from wasteland.sim.plot import check_path

        check_path(plot)
    from wasteland.sim.runner import make_backend

    be = make_backend(backend or "local", address)
    if be is not None and jobs is not None:
        raise WastelandError("--jobs sizes the local pool; with --backend ray every CPU of "
                             "the cluster fights")
    where = {"backend": backend or "local", "address": address}
    try:
        if from_save is not None:
            from wasteland.cli.simulate_from import run_from

            given = [o for o, v in (("--scenario", scenario), ("--ruleset", ruleset),
                                    ("--party", party), ("--enemies", enemies),
                                    ("--balance", balance), ("--chain", chain))
                     if v is not None]
            rep = run_from(from_save, side, agents, fights, seed, jobs, until_precision,
                           as_json, given, be)
        elif chain is not None:
            from wasteland.cli.simulate_chain import run_chain, show

            clash = [o for o, v in (("--scenario", scenario), ("--enemies", enemies),
                                    ("--balance", balance), ("--plot", plot)) if v is not None]
            if clash:
                raise WastelandError(f"--chain names the encounters; it takes no {clash[0]}")
            rep = run_chain(ruleset or "pnp", chain, side or "0", party, agents, fights, seed,
                            jobs, until_precision, as_json, be)
            rep.update(on(where, rep))
            show(rep, as_json)
            if rep["interrupted"]:
                typer.echo(f"interrupted after {rep['fights']:,} runs", err=True)
                raise typer.Exit(130)
            return
        elif balance is not None:
            out = run_balance(*args, balance, target or "medium", backend=be)
            out.update(on(where, out))
            if as_json:
                typer.echo(json.dumps(out, indent=2))
            else:
                from rich.console import Console

                render_balance(out, Console(highlight=False,
                                            width=None if sys.stdout.isatty() else 120))
            draw(plot, out["balance"]["candidates"][out["balance"]["best"]], as_json)
            if out["balance"]["interrupted"]:
                typer.echo("interrupted", err=True)
                raise typer.Exit(130)
            return
        else:
            rep = run(*args, backend=be)
        rep.update(on(where, rep))
    except KeyboardInterrupt:  # before the first fight was tallied
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(rep, indent=2))
    else:
        from rich.console import Console

        # piped, rich would assume 80 columns and fold the party table
        render(rep, Console(highlight=False, width=None if sys.stdout.isatty() else 120))
    draw(plot, rep, as_json)
    if rep["interrupted"]:
        typer.echo(f"interrupted after {rep['fights']:,} fights", err=True)
        raise typer.Exit(130)


def on(where: dict[str, Any], rep: dict[str, Any]) -> dict[str, Any]:
    """Where the fights ran, for the report: the local pool's size means nothing on Ray."""
    return {**where, "jobs": rep["jobs"] if where["backend"] == "local" else None}


def register(app: typer.Typer) -> None:
    app.command()(simulate)
