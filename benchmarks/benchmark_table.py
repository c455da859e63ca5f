"""docs/benchmark.md, generated: every agent in the benchmark seats of a family and ruleset,
with intervals (issue 25, item 6), in the spirit of RL Baselines3 Zoo's benchmark table.

Two steps, so that slow agents can be run apart and the page written from what is kept:

    # play: each agent in each seat of the family's suite (built-in and held-out maps,
    # wasteland/arena/seats/), the packet in the same seats on the same seeds; results are
    # merged into the JSON file seat by seat, as each is played (an agent run again in a
    # seat replaces that row; --seats a,b plays only those seats), and saved every 50
    # fights: the same command run again after a stop resumes the seat where it was
    .venv/bin/python benchmarks/benchmark_table.py run super_mutants f2d20 \\
        --agents random,scripted,packet,easy,policy:/tmp/pol/x.json=ppo_warm_s0 -n 1000 \\
        --results docs/benchmark-runs/super_mutants_f2d20.json
    # or take a policy's rows from its acceptance sweep (benchmarks/policy_seats.py's
    # output, the same seats and seeds 0..N-1), with the packet's rows of that sweep
    .venv/bin/python benchmarks/benchmark_table.py import \\
        docs/training-runs/sweeps/robot_pnp_v1.txt --policy wasteland/policies/robot_pnp.json \\
        --label ppo_warm_seats_shipped --results docs/benchmark-runs/robots_pnp.json
    # write the page from every results file
    .venv/bin/python benchmarks/benchmark_table.py write docs/benchmark-runs/*.json \\
        --out docs/benchmark.md

An agent is any name `wasteland fight --agents` takes (random, scripted, packet, easy,
normal, hard, deadly, search:..., policy:PATH); ``AGENT=LABEL`` names its row. A learned
policy's row shows the training steps and wall time its manifest records.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.training.seats import Record, difference_interval, seat  # noqa: E402
from wasteland.training.stats import wilson  # noqa: E402

MAX_FIGHTS = 100_000
# fights per block: a seat's fights are played and saved in blocks, so that a run of hours
# stopped midway (a session ends) resumes from its last block
BLOCK = 50
# the agents every seat should have a row for (the learned ones vary by family); a section
# lists the seats where one of these has none yet
STANDARD_AGENTS = ("random", "scripted", "packet", "easy", "hard", "deadly")


def seats_of(family: str, ruleset: str) -> list[tuple[str, Any, int | None, list[str]]]:
    """(test, scenario, side, kinds) of each seat with a bar for the family and ruleset."""
    from wasteland.arena.suite import FAMILIES, load_suite, select

    if family not in FAMILIES:
        raise SystemExit(f"unknown family {family!r}; families: {', '.join(sorted(FAMILIES))}")
    test = {"built-in": "seat", "held-out": "unseen", "mirror": "mirror"}
    return [(test[s.kind], s.load(), s.side, list(FAMILIES[family]))
            for s in select(load_suite(), family, ruleset, bar_only=True) if s.kind != "mirror"]


def _chunk(args: tuple[str, Any, str, list[str], int | None, int, int]) -> dict[str, int]:
    agent, scenario, ruleset, kinds, side, first, n = args
    maker: Any = agent
    if agent.startswith("policy:"):
        from wasteland.agents.policy import PolicyAgent, load_policy

        pol = load_policy(Path(agent[len("policy:"):]))

        def maker(s: int) -> Any:
            return PolicyAgent(pol, s)
    r = seat(maker, scenario, ruleset, kinds, seat_side=side, fights=n, first_seed=first)
    return {"fights": r.fights, "wins": r.wins, "losses": r.losses, "draws": r.draws}


def play(pool: ProcessPoolExecutor, agent: str, sc: Any, ruleset: str, kinds: list[str],
         side: int | None, n: int, done: dict[int, dict[str, int]],
         saved: Any = None) -> Record:
    """The seat's record over seeds 0..n-1, played in blocks of BLOCK fights; ``done``
    holds the blocks already played (by first seed), and ``saved(done)`` is called after
    each new one, so that a run stopped midway resumes where it was (each fight is seeded
    by its index, so the blocks add up to the same record as one run)."""
    todo = {pool.submit(_chunk, (agent, sc, ruleset, kinds, side, i, min(BLOCK, n - i))): i
            for i in range(0, n, BLOCK) if i not in done}
    for fut in as_completed(todo):
        done[todo[fut]] = fut.result()
        if saved is not None:
            saved(done)
    r = Record()
    for d in done.values():
        for f in ("fights", "wins", "losses", "draws"):
            setattr(r, f, getattr(r, f) + d[f])
    return r


def _save(path: Path, data: dict[str, Any]) -> None:
    """Written whole or not at all: a run stopped while saving keeps the file it had."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)


def _blocks(data: dict[str, Any], key: str, spec: Any, n: int) -> tuple[dict[int, Any], float]:
    """The blocks a stopped run of the same agent, seat and number of fights left in the
    results file, and the seconds it had spent; nothing for any other run."""
    p = (data.get("partial") or {}).get(key)
    if not isinstance(p, dict) or p.get("spec") != spec or p.get("fights") != n:
        return {}, 0.0
    keys = ("fights", "wins", "losses", "draws")
    blocks = p.get("blocks")
    if not isinstance(blocks, dict):
        return {}, 0.0
    done = {int(i): {k: int(b[k]) for k in keys} for i, b in blocks.items()
            if str(i).isdigit() and int(i) % BLOCK == 0 and int(i) < n and isinstance(b, dict)
            and all(type(b.get(k)) is int and b[k] >= 0 for k in keys)
            and b["fights"] == min(BLOCK, n - int(i)) == b["wins"] + b["losses"] + b["draws"]}
    seconds = p.get("seconds")
    ok = isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 0 <= seconds < 1e9
    return done, float(seconds) if ok else 0.0


def training_of(agent: str) -> dict[str, Any] | None:
    """The training summary of a ``policy:`` agent's manifest (None for other agents)."""
    if not agent.startswith("policy:"):
        return None
    from wasteland.agents.policy import load_policy

    return load_policy(Path(agent[len("policy:"):])).training()


def trained_text(tr: dict[str, Any] | None) -> str:
    """The row's training cell: algorithm, seed, labels (expert iteration), PPO steps, wall."""
    if not tr:
        return "-"
    labels = f"{tr['labels']:,} labels + " if tr.get("labels") else ""
    return (f"{tr['algorithm']} seed {tr['seed']}: {labels}{tr['steps'] or 0:,} steps, "
            f"{(tr['wall_s'] or 0) / 60:.0f} min")


def run(args: argparse.Namespace) -> None:
    if not 1 <= args.fights <= MAX_FIGHTS:
        raise SystemExit(f"--fights must be 1 to {MAX_FIGHTS:,}")
    if not 1 <= args.jobs <= 64:
        raise SystemExit("--jobs must be 1 to 64")
    from wasteland.agents.base import make_agent
    from wasteland.rules.errors import WastelandError

    for a in args.agents.split(","):
        name = a.partition("=")[0]
        try:  # fails here, in one line, not in a worker
            if name.startswith("policy:"):
                from wasteland.agents.policy import load_policy

                load_policy(Path(name[len("policy:"):]))
            else:
                make_agent(name)
        except WastelandError as e:
            raise SystemExit(f"--agents {name}: {e}") from None
    path = Path(args.results)
    data: dict[str, Any] = (json.loads(path.read_text()) if path.is_file() else
                            {"family": args.family, "ruleset": args.ruleset, "rows": []})
    if (data["family"], data["ruleset"]) != (args.family, args.ruleset):
        raise SystemExit(f"{path} holds {data['family']} {data['ruleset']}, not "
                         f"{args.family} {args.ruleset}")
    seats = pick_seats(seats_of(args.family, args.ruleset), args.seats)
    specs = [a.partition("=") for a in args.agents.split(",") if a]
    with ProcessPoolExecutor(args.jobs) as pool:
        for agent, _, label in specs:
            name = label or agent
            for test, sc, side, kinds in seats:
                t = time.time()
                key = f"{name}|{sc.id}"
                done, before = _blocks(data, key, agent, args.fights)
                if done:
                    print(f"{name:<24} {sc.id}: resuming, {sum(d['fights'] for d in done.values())}"
                          f" of {args.fights} fights played before", flush=True)

                def saved(done: dict[int, Any], key: str = key, t: float = t, spec: str = agent,
                          before: float = before) -> None:
                    data.setdefault("partial", {})[key] = {
                        "spec": spec, "fights": args.fights,
                        "seconds": round(before + time.time() - t, 1),
                        "blocks": {str(i): d for i, d in sorted(done.items())}}
                    _save(path, data)

                r = play(pool, agent, sc, args.ruleset, kinds, side, args.fights, done, saved)
                seconds = before + time.time() - t
                row = {"agent": name, "spec": agent, "test": test, "seat": sc.id,
                       "first_seed": 0, **r.as_dict(), "seconds": round(seconds, 1),
                       "training": training_of(agent)}
                print(f"{name:<24} {test:<7} {sc.id:<22} {r.win_rate:6.1%} "
                      f"(W{r.wins}/L{r.losses}/D{r.draws}) {seconds:6.0f} s", flush=True)
                # saved seat by seat: a run of hours stopped midway keeps the seats it played
                data["rows"] = [x for x in data["rows"]
                                if (x["agent"], x["seat"]) != (name, sc.id)] + [row]
                (data.get("partial") or {}).pop(key, None)
                if not data.get("partial"):
                    data.pop("partial", None)
                _save(path, data)


def pick_seats(seats: list[Any], names: str | None) -> list[Any]:
    """The seats named in ``--seats`` (comma-separated ids), in the family's order; all of
    them when none are named. An unknown id exits naming the family's seats."""
    if not names:
        return seats
    known = [s[1].id for s in seats]
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in known]
    if unknown or not wanted:
        raise SystemExit(f"--seats: unknown seat {', '.join(unknown) or repr(names)}; this "
                         f"family and ruleset has {', '.join(known)}")
    return [s for s in seats if s[1].id in wanted]


def import_sweep(args: argparse.Namespace) -> None:
    """Rows of a policy and of the packet from a policy_seats sweep: its last JSON line."""
    from wasteland.agents.policy import load_policy
    from wasteland.arena.suite import FAMILIES
    from wasteland.rules.errors import WastelandError

    try:
        lines = Path(args.sweep).read_text().splitlines()
        sweep = json.loads(next(ln for ln in reversed(lines) if ln.startswith("{")))
        pol = load_policy(Path(args.policy))
    except (OSError, StopIteration, json.JSONDecodeError, WastelandError) as e:
        raise SystemExit(f"cannot import {args.sweep}: {e or 'no JSON line'}") from None
    ruleset = pol.ruleset
    family = next((f for f, kinds in FAMILIES.items() if pol.kinds <= set(kinds)), None)
    if family is None or sweep.get("ruleset") != ruleset:
        raise SystemExit(f"{args.sweep}: not a sweep of {args.policy}'s creatures and ruleset")
    if sweep.get("first_seed", 0) != 0:
        raise SystemExit(f"{args.sweep}: played from seed {sweep['first_seed']}; the table's "
                         "rows are seeds 0..N-1, the packet's on the same seeds")
    spec = f"policy:{args.policy}"
    path = Path(args.results)
    data: dict[str, Any] = (json.loads(path.read_text()) if path.is_file() else
                            {"family": family, "ruleset": ruleset, "rows": []})
    have = {(r["agent"], r["test"], r["seat"]) for r in data["rows"]}
    rows = []
    for test in ("seat", "unseen"):
        for s in sweep.get(test, []):
            for who, name in (("policy", args.label), ("packet", "packet")):
                if who == "packet" and ("packet", test, s["scenario"]) in have:
                    continue
                r = s[who]
                rows.append({"agent": name, "spec": spec if who == "policy" else "packet",
                             "test": test, "seat": s["scenario"], "first_seed": 0,
                             **{k: r[k] for k in ("fights", "wins", "losses", "draws",
                                                  "win_rate", "wilson95")},
                             "seconds": s.get("seconds"),
                             "training": training_of(spec) if who == "policy" else None})
    for m in sweep.get("mirror", []):
        rows.append({"agent": args.label, "spec": spec, "test": "mirror",
                     "seat": f"{family}_mirror_{ruleset}", "first_seed": 0,
                     **{k: m[k] for k in ("fights", "wins", "losses", "draws", "win_rate",
                                          "wilson95")},
                     "seconds": None, "training": training_of(spec)})
    data["rows"] = [x for x in data["rows"] if x["agent"] != args.label] + rows
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{path}: {len(rows)} rows from {args.sweep}")


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def not_played(family: str, ruleset: str, rows: list[dict[str, Any]]) -> str:
    """One line naming, per standard agent, the seats of the family's suite it has no row
    in ("" when none is missing)."""
    from wasteland.arena.suite import FAMILIES

    if family not in FAMILIES:  # a results file of a family the suite no longer has
        return ""
    have = {(r["agent"], r["seat"]) for r in rows}
    seats = [sc.id for _, sc, _, _ in seats_of(family, ruleset)]
    parts = []
    for agent in STANDARD_AGENTS:
        missing = [s for s in seats if (agent, s) not in have]
        if missing:
            parts.append(f"{agent} in {', '.join(missing)}")
    return ("Not played yet: " + "; ".join(parts) + ".") if parts else ""


def in_progress(data: dict[str, Any]) -> str:
    """One line naming the seats a stopped run left partly played ("" when none), with
    how far each got: `run` with the same agent, seat and -n resumes them."""
    parts = []
    partial = data.get("partial")
    for key, p in sorted(partial.items() if isinstance(partial, dict) else []):
        n = p.get("fights") if isinstance(p, dict) else None
        if type(n) is not int or not 1 <= n <= MAX_FIGHTS:
            continue
        done, _ = _blocks(data, key, p.get("spec"), n)
        name, _, seat_id = str(key).partition("|")
        played = sum(d["fights"] for d in done.values())
        parts.append(f"{name} in {seat_id} ({played:,} of {n:,} fights)")
    return ("Partly played (the same `run` command resumes them): " + "; ".join(parts) + "."
            ) if parts else ""


def write(args: argparse.Namespace) -> None:
    out = ["# Benchmark: agents in the benchmark seats", "",
           "Generated by `benchmarks/benchmark_table.py write` from "
           + ", ".join(f"`{Path(p).as_posix()}`" for p in args.results)
           + "; do not edit by hand. Each row: one agent in the seat of its family (the rest "
           "of its side and the other side are packets), on seeds 0..N-1; the packet row is the "
           "same seat on the same seeds. Win rate with its Wilson 95% interval; the difference "
           "to the packet with its 95% interval (Newcombe). `seat`: a built-in map; `unseen`: "
           "a held-out map no policy trained on. Learned agents: training steps and wall "
           "time on this machine's 2 cores. `mirror`: the agent's creatures against the same "
           "creatures played by the packet, sides swapped every other fight; its share of "
           "decided fights with its Wilson interval (the bar: above 50%).", ""]
    for p in args.results:
        data = json.loads(Path(p).read_text())
        rows = data["rows"]
        packet = {(r["test"], r["seat"]): r for r in rows if r["agent"] == "packet"}
        out += [f"## {data['family']} under {data['ruleset']}", "",
                "| agent | test | seat | fights | win % [95%] | vs packet, points [95%] | "
                "trained: steps, wall |",
                "|---|---|---|---:|---|---|---|"]
        order = {"seat": 0, "unseen": 1, "mirror": 2}
        for r in sorted(rows, key=lambda r: (order.get(r["test"], 3), r["seat"], r["agent"])):
            lo, hi = wilson(r["wins"], r["fights"])
            base = packet.get((r["test"], r["seat"]))
            if r["test"] == "mirror":  # against the packet itself: its share of decided fights
                won = r["wins"] + r["losses"]
                mlo, mhi = wilson(r["wins"], won) if won else (0.0, 1.0)
                diff = (f"mirror: {_pct(r['wins'] / won if won else 0)} [{_pct(mlo)}, "
                        f"{_pct(mhi)}] of {won:,} decided")
            elif base is None or r["agent"] == "packet" or base["fights"] != r["fights"]:
                diff = "-" if r["agent"] == "packet" else "no packet row on the same seeds"
            else:
                a, b = Record(**{k: r[k] for k in ("fights", "wins", "losses", "draws")}), \
                    Record(**{k: base[k] for k in ("fights", "wins", "losses", "draws")})
                dlo, dhi = difference_interval(a, b)
                diff = f"{(a.win_rate - b.win_rate) * 100:+.1f} [{dlo * 100:+.1f}, {dhi * 100:+.1f}]"
            trained = trained_text(r.get("training"))
            out.append(f"| {r['agent']} | {r['test']} | {r['seat']} | {r['fights']:,} | "
                       f"{_pct(r['wins'] / r['fights'])} [{_pct(lo)}, {_pct(hi)}] | {diff} | "
                       f"{trained} |")
        out.append("")
        missing = not_played(data["family"], data["ruleset"], rows)
        if missing:
            out += [missing, ""]
        going = in_progress(data)
        if going:
            out += [going, ""]
    Path(args.out).write_text("\n".join(out))
    print(f"wrote {args.out}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play agents in the seats, merge into a results file")
    r.add_argument("family")
    r.add_argument("ruleset")
    r.add_argument("--agents", required=True, help="comma-separated AGENT or AGENT=LABEL")
    r.add_argument("-n", "--fights", type=int, default=1000)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--results", required=True)
    r.add_argument("--seats", help="comma-separated seat ids (default: every seat of the "
                                   "family and ruleset)")
    i = sub.add_parser("import", help="a policy's rows from its policy_seats sweep")
    i.add_argument("sweep")
    i.add_argument("--policy", required=True, help="the policy's .json manifest")
    i.add_argument("--label", default="ppo_warm_seats_shipped")
    i.add_argument("--results", required=True)
    w = sub.add_parser("write", help="write the page from results files")
    w.add_argument("results", nargs="+")
    w.add_argument("--out", default="docs/benchmark.md")
    args = ap.parse_args(argv)
    {"run": run, "import": import_sweep, "write": write}[args.cmd](args)


if __name__ == "__main__":
    main()
