"""`simulate --chain a,b,c`: encounters in a row with what the party has left; how far it
gets (docs/simulate.md; what carries over: wasteland/sim/chain.py)."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

from wasteland.rules.errors import WastelandError

if TYPE_CHECKING:
    from rich.console import Console

    from wasteland.sim.chain import ChainSpec
    from wasteland.sim.runner import Backend

MAX_STAGES = 20


def build_chain(ruleset: str, chain: str, side: str, party: str | None, agents: str | None,
                seed: int) -> ChainSpec:
    """The chain the options describe, each stage checked by building its battle with the
    whole party, so that anything wrong is one line before the first fight."""
    from wasteland.bestiary.loader import load_scenario
    from wasteland.cli.encounter import encounter, resolve_side
    from wasteland.rules.protocol import get_ruleset
    from wasteland.sim.chain import ChainSpec, Stage
    from wasteland.sim.spec import SimSpec, side_agents

    names = [x.strip() for x in chain.split(",") if x.strip()]
    if not 1 <= len(names) <= MAX_STAGES:
        raise WastelandError(f"--chain: 1 to {MAX_STAGES} scenarios, comma-separated, got "
                             f"{len(names)}")
    rs = get_ruleset(ruleset)
    kinds = agents.split(",") if agents else None
    first, me = encounter(names[0], side, party, None, options=("--party", "--enemies"))
    stages = [Stage(first, me, side_agents(first, kinds))]
    for name in names[1:]:
        sc = load_scenario(name)
        stages.append(Stage(sc, resolve_side(sc, side), side_agents(sc, kinds)))
    head = SimSpec(ruleset, first, stages[0].agents, me)
    spec = ChainSpec(ruleset, tuple(stages), tuple(head.party_ids), tuple(head.party_creatures))
    for k in range(len(stages)):
        b = rs.new_battle(spec.scenario_for(k, spec.member_ids), seed, keep_log=False)
        if len(set(b.ids)) != len(b.ids):
            twice = next(i for i in b.ids if b.ids.count(i) > 1)
            raise WastelandError(f"--chain: in {stages[k].scenario.id} a party member and an "
                                 f"enemy are both called {twice!r}")
    return spec


def run_chain(ruleset: str, chain: str, side: str, party: str | None, agents: str | None,
              n: int, seed: int, jobs: int | None, until_precision: float | None,
              as_json: bool, backend: Backend | None = None) -> dict[str, Any]:
    from wasteland.cli.simulate import check_numbers, report_of
    from wasteland.sim.chain import ChainTally, fight_chain
    from wasteland.sim.runner import default_jobs
    from wasteland.sim.simulate import simulate

    jobs = default_jobs() if jobs is None else jobs
    check_numbers(n, seed, jobs, until_precision)
    spec = build_chain(ruleset, chain, side, party, agents, seed)
    start = time.perf_counter()
    sim = simulate(spec, n, seed, jobs, until_precision, fn=fight_chain,
                   tally=ChainTally(spec), backend=backend)
    return report_of(sim, jobs, start)


def render_chain(rep: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    from wasteland.cli.simulate import ci, pct, spread

    lo, hi = rep["seeds"]
    console.print(f"chain of {len(rep['chain'])} under {rep['ruleset']}: "
                  f"{' -> '.join(rep['chain'])}; {rep['fights']:,} runs, seeds {lo}-{hi}; "
                  f"the party: {', '.join(m['id'] for m in rep['stages'][0]['after']['members'])}")
    table = Table(title="How far the party gets", title_justify="left")
    for col in ("#", "encounter", "reached", "clears if reached", "cleared from the start",
                "party HP after", "ammo left", "stimpaks left", "dead so far"):
        table.add_column(col, justify="left" if col in ("#", "encounter") else "right")
    for k, st in enumerate(rep["stages"]):
        after = st["after"]
        ms = after["members"]
        table.add_row(str(k + 1), st["scenario"], f"{st['reached']:,}",
                      ci(st["cleared_if_reached"]), ci(st["cleared"]),
                      spread(after["party_hp"]),
                      f"{sum(m['rounds_held_mean'] for m in ms):.1f}",
                      f"{sum(m['items_mean'].get('stimpak', 0.0) for m in ms):.2f}",
                      f"{sum(m['dead']['rate'] for m in ms):.2f}")
    console.print(table)
    members = Table(title="HP left after each fight won (mean; dead count as 0)",
                    title_justify="left")
    members.add_column("member")
    for k, st in enumerate(rep["stages"]):
        members.add_column(f"{k + 1} {st['scenario']}", justify="right")
    for i, m in enumerate(rep["stages"][0]["after"]["members"]):
        cells = []
        for st in rep["stages"]:
            d = st["after"]["members"][i]
            cells.append(f"{d['hp']['mean']:.1f} (dead {pct(d['dead']['rate'])})"
                         if d["hp"].get("n") else "-")
        members.add_row(f"{m['id']} ({m['creature']})", *cells)
    console.print(members)
    if rep["interrupted"]:
        console.print(f"interrupted after {rep['fights']:,} of {rep['requested']:,} runs: the "
                      f"numbers are those of seeds {lo}-{hi}", style="yellow")
    console.print(rep["summary"], style="bold", soft_wrap=True)  # one line, for grep


def show(rep: dict[str, Any], as_json: bool) -> None:
    import json

    if as_json:
        print(json.dumps(rep, indent=2))
        return
    from rich.console import Console

    render_chain(rep, Console(highlight=False, width=None if sys.stdout.isatty() else 140))
