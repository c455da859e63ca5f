"""docs/tasks.md, generated: every registered task (wasteland/envs/tasks.py) with the
baselines measured in its seat, taken from the results files docs/benchmark.md is written
from (docs/benchmark-runs/*.json, benchmarks/benchmark_table.py) and from the suite's own
record of the packet (wasteland/bestiary/seats/suite.yaml); "not measured" where there is no
row. Nothing is played to write it.

    .venv/bin/python benchmarks/task_table.py write --out docs/tasks.md
    # a row again: the agent in the task's seat on seeds 0..N-1, as the row was measured
    .venv/bin/python benchmarks/task_table.py measure Wasteland/RadscorpionDuel-pnp-v0 random -n 1000

tests/benchmarks/test_task_table.py checks that docs/tasks.md is what `write` makes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if str(Path(__file__).resolve().parent) not in sys.path:  # results_schema.py, beside it
    sys.path.append(str(Path(__file__).resolve().parent))

from results_schema import read_results  # noqa: E402

from wasteland.rules.errors import WastelandError  # noqa: E402
from wasteland.training.stats import wilson  # noqa: E402

RUNS = ROOT / "docs" / "benchmark-runs"
# the rows a task's table shows, in order: (results label, what the page calls it);
# "normal" is the packet, so it has no row of its own
AGENTS = (("random", "random"), ("packet", "packet"), ("easy", "easy (level)"),
          ("hard", "hard (level, search)"), ("deadly", "deadly (level, search)"))
# seats whose line-up was tuned again after their benchmark rows were measured (the
# first-aid rule, docs/seats.md, 2026-12-05): those rows are of the old line-up
RETUNED = {"radscorpions_storm_drain_simple": "2026-12-05",
           "super_mutants_overpass_simple": "2026-12-05"}
COMMAND = ".venv/bin/python benchmarks/task_table.py measure"


def results() -> dict[str, dict[str, Any]]:
    """Every results file's rows by seat id, then by label (checked as benchmark_table
    reads them)."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(RUNS.glob("*.json")):
        for row in read_results(path)["rows"]:
            out.setdefault(row["seat"], {})[row["agent"]] = row
    return out


def cell(wins: int, fights: int) -> str:
    """As docs/benchmark.md and docs/seats.md print a rate (the share times 100)."""
    lo, hi = wilson(wins, fights)
    return f"{wins / fights * 100:.1f} [{lo * 100:.1f}, {hi * 100:.1f}]"


def shipped(rows: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The shipped policy's row (its label ends in _shipped) and its agent spec."""
    for label, row in sorted(rows.items()):
        if label.endswith("_shipped"):
            return label, row
    return None


def task_section(task: Any, rows: dict[str, Any]) -> list[str]:
    from wasteland.cli.tasks import lineup_text
    from wasteland.cli.tasks import rows as task_rows

    s = task.seat
    info = next(r for r in task_rows(s.family, s.ruleset, s.kind) if r["id"] == task.id)
    learner = ("side 0 or 1, drawn at each reset" if s.side is None
               else f"side {s.side} ({info['lineup'][s.side]['name']})")
    held = ", a map no shipped policy trained on" if s.kind == "held-out" else ""
    out = [f"### `{task.id}`", "",
           f"Seat `{s.id}` ({s.kind}{held}), "
           f"map {s.map}, {s.ruleset}; the learner plays {', '.join(s.kinds)} on {learner}, "
           f"the packet the rest; at most {info['max_rounds']} rounds; definition hash "
           f"`{info['definition_hash']}`.", "",
           f"Line-up (* the learner's side): {lineup_text(info)}", ""]
    if s.id in RETUNED:
        out += [f"The rows from the results files were measured before this seat's line-up "
                f"was tuned again ({RETUNED[s.id]}): they are of the old line-up, not this "
                f"task's; the suite's packet record is this task's.", ""]
    out += ["| baseline | win % [95%] | fights | reproduce |", "|---|---|---:|---|",
            f"| packet, the suite's record | {cell(s.wins, s.fights)} | {s.fights:,} | "
            f"`{COMMAND} {task.id} packet -n {s.fights}` |"]
    for label, name in AGENTS:
        row = rows.get(label)
        if row is None:
            out.append(f"| {name} | not measured | - | `{COMMAND} {task.id} {label} -n 1000` |")
        else:
            out.append(f"| {name} | {cell(row['wins'], row['fights'])} | {row['fights']:,} | "
                       f"`{COMMAND} {task.id} {row['spec']} -n {row['fights']}` |")
    pol = shipped(rows)
    if pol is None:
        out.append("| shipped policy | not measured | - | - |")
    else:
        label, row = pol
        out.append(f"| shipped policy ({label}) | {cell(row['wins'], row['fights'])} | "
                   f"{row['fights']:,} | `{COMMAND} {task.id} {row['spec']} -n {row['fights']}` |")
    return out + [""]


def render() -> str:
    from wasteland.envs.tasks import tasks

    by_seat = results()
    every = tasks()
    out = ["# Registered tasks and their baselines", "",
           "Generated by `benchmarks/task_table.py write --out docs/tasks.md`; do not edit "
           "by hand (tests/benchmarks/test_task_table.py checks it is what the command "
           "writes).", "",
           "Every seat of the benchmark suite (docs/seats.md) is a Gymnasium task after "
           "`import wasteland.envs`, named `Wasteland/<Family><Map>-<ruleset>-v<version>`: "
           "the family's creature singular in CamelCase (Radscorpion, SuperMutant, Robot), "
           "the seat's map in CamelCase, the ruleset, the version. The learner plays the "
           "family's creatures in the seat, the packet everyone else; reward +1 win, -1 "
           "loss, 0 draw; own sight; the scenario's round limit. Each is the single-agent "
           "env (wasteland/envs/single_agent.py) made with the seat's scenario and sides; "
           "a mirror task seats the learner on side 0 or 1, drawn at each reset "
           "(`info['learner_side']`). `wasteland tasks` lists them. Held-out tasks are maps "
           "no shipped policy trained on: keep them for the unseen test.", "",
           "```python",
           "import gymnasium, wasteland.envs",
           'env = gymnasium.make("Wasteland/RadscorpionDuel-f2d20-v0")',
           "obs, info = env.reset(seed=0)  # info['action_mask']: the legal actions",
           "```", "",
           "## Versions", "",
           "Each task's definition (map, line-up, learner side and kinds, allies, opponents, "
           "reward, observation version and hash, sight, round limit) has a hash, and "
           "tests/envs/task_hashes.json holds the hash of every task id. A change to any of "
           "them fails tests/envs/test_tasks.py: give the task a new version (`VERSIONS` in "
           "wasteland/envs/tasks.py: `-v0` becomes `-v1`) and add the new id's hash to the "
           "table, keeping the old line; never change a recorded hash. Results of `-v0` "
           "stay results of `-v0`. A change to the observation (a new `obs vN`, "
           "docs/training.md) moves every task.", "",
           "## Baselines", "",
           "Win rates of the learner's side, in percent, with Wilson 95% intervals, on "
           "seeds 0..N-1: an agent in the task's seat, the packet everyone else. The "
           "packet's suite record is the 2,000 fights the seat was tuned and recorded on "
           "(wasteland/bestiary/seats/suite.yaml); the other rows come from the results files "
           "docs/benchmark.md is written from (" + ", ".join(
               f"`{p.relative_to(ROOT).as_posix()}`" for p in sorted(RUNS.glob("*.json")))
           + "), measured from 2026-12-02 to 2026-12-05 by `benchmarks/benchmark_table.py` "
           "and `benchmarks/policy_seats.py`; the PnP and Simple rows predate the first-aid "
           "rule of 2026-12-05 (docs/seats.md), but for the radscorpion_pnp policy's rows "
           "(retrained) and PnP's `deadly` rows, played after it. PnP's `deadly` weighs "
           "plans alone since 2026-12-05 (docs/search.md, \"deadly under PnP: plans alone\"): "
           "its rows before that are docs/benchmark.md's `deadly_plans2`, not listed here, "
           "and the rows listed were played with plans alone. 2d20's `deadly` cuts its "
           "continuations since 2026-12-06 (docs/search.md, \"2d20 deadly cut at two "
           "rounds\"), at four rounds since the next session (\"Four rounds against two\"): "
           "its rows played to the end are docs/benchmark.md's `deadly_full`, those cut at "
           "two rounds `deadly_h2`, neither listed here; the rows listed were played as the "
           "level is now (where at most four stand, every continuation is played to the end "
           "at either horizon, and the rows cut at two rounds stand). The 2d20 "
           "rows of the policies and of `deadly` predate the rule too, but for the super_mutant_f2d20 "
           "policy's rows (retrained), and `deadly` in the radscorpions' seats and in all "
           "the super mutants' seats, and the robots' mirror, depot, substation and diner. "
           "The rule took some of the shipped policies' lead: radscorpion_f2d20 won 68.5% "
           "of the duel's seeds 0..199 before it and 54.5% after "
           "(docs/training-runs/policy_seats_200_2026-12-05.txt gives each policy's seats "
           "at today's code; docs/training-notes.md, \"After the first-aid rule\", the "
           "1,000-fight sweeps). A mirror task's shipped-policy row counts "
           "every fight (docs/benchmark.md gives its share of decided ones). \"not "
           "measured\": no row exists; nothing is estimated. A row's command plays the "
           "agent in the task's seat on the same seeds (`arena.suite.measure`, as "
           "`benchmark_table.py run` did) and prints its record; a rule changed since a "
           "row was measured can move it (the first-aid rule moved the 2d20 seats' packet "
           "records by at most 0.7 points).", "",
           "| task | family | ruleset | kind | map | packet, suite record |",
           "|---|---|---|---|---|---|"]
    for t in every:
        s = t.seat
        out.append(f"| `{t.id}` | {s.family} | {s.ruleset} | {s.kind} | {s.map} | "
                   f"{cell(s.wins, s.fights)} of {s.fights:,} |")
    out.append("")
    for t in every:
        out += task_section(t, by_seat.get(t.seat.id, {}))
    return "\n".join(out).rstrip("\n") + "\n"


def measure(task_id: str, agent: str, fights: int) -> dict[str, Any]:
    from wasteland.envs.tasks import tasks
    from wasteland.limits import MAX_FIGHTS

    known = {t.id: t for t in tasks()}
    if task_id not in known:
        raise WastelandError(f"unknown task {task_id[:80]!r}; `wasteland tasks` lists them")
    if not 1 <= fights <= MAX_FIGHTS:
        raise WastelandError(f"-n must be 1 to {MAX_FIGHTS:,}")
    seat = known[task_id].seat
    from wasteland.agents.make import make_agent
    from wasteland.arena.suite import measure as in_seat

    make_agent(agent, 0, seat.ruleset)  # an unknown agent or a policy of another ruleset
    return in_seat(seat, agent, fights=fights).as_dict()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write the page (to stdout without --out)")
    w.add_argument("--out")
    m = sub.add_parser("measure", help="an agent in a task's seat on seeds 0..N-1")
    m.add_argument("task")
    m.add_argument("agent")
    m.add_argument("-n", "--fights", type=int, default=1000)
    args = ap.parse_args(argv)
    try:
        if args.cmd == "write":
            text = render()
            if args.out:
                Path(args.out).write_text(text)
                print(f"wrote {args.out}")
            else:
                sys.stdout.write(text)
        else:
            print(measure(args.task, args.agent, args.fights))
    except (WastelandError, OSError) as e:
        raise SystemExit(f"error: {e}") from None


if __name__ == "__main__":
    main()
